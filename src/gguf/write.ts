// Write a GGUF v3 file: header (metadata, tensor infos), then each tensor's bytes, each padded
// to the alignment, as gguf-py's GGUFWriter does (write_kv_data_to_file, write_ti_data_to_file,
// write_tensors_to_file). Tensor data is asked for one tensor at a time, so a large file never
// sits in memory whole.
//
//   writeGguf(file, { metadata, tensors, alignment? }, dataOf(tensor) -> Buffer) -> bytes written
import fs from 'node:fs';
import {
  alignUp,
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  SCALAR_SIZE,
  tensorBytes,
  ValueType,
  type GgufValue,
  type TensorInfo,
} from './format.js';
import { ggufProblems } from './check.js';

/** Growable little-endian byte sink for the header. */
class Sink {
  private chunks: Buffer[] = [];
  length = 0;
  push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  u64(v: number | bigint): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  string(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  scalar(type: number, v: number | bigint | boolean | string): void {
    const size = SCALAR_SIZE[type];
    if (size === undefined) throw new Error(`GGUF: cannot write value type ${type} as a scalar`);
    const b = Buffer.alloc(size);
    const n = typeof v === 'boolean' ? Number(v) : v;
    switch (type) {
      case ValueType.UINT8:
        b.writeUInt8(Number(n));
        break;
      case ValueType.INT8:
        b.writeInt8(Number(n));
        break;
      case ValueType.UINT16:
        b.writeUInt16LE(Number(n));
        break;
      case ValueType.INT16:
        b.writeInt16LE(Number(n));
        break;
      case ValueType.UINT32:
        b.writeUInt32LE(Number(n));
        break;
      case ValueType.INT32:
        b.writeInt32LE(Number(n));
        break;
      case ValueType.FLOAT32:
        b.writeFloatLE(Number(n));
        break;
      case ValueType.BOOL:
        b.writeUInt8(Number(n) ? 1 : 0);
        break;
      case ValueType.UINT64:
        b.writeBigUInt64LE(BigInt(n));
        break;
      case ValueType.INT64:
        b.writeBigInt64LE(BigInt(n));
        break;
      default:
        b.writeDoubleLE(Number(n));
    }
    this.push(b);
  }
  value(v: GgufValue): void {
    this.u32(v.type);
    if (v.type === ValueType.STRING) return this.string(v.value);
    if (v.type === ValueType.ARRAY) {
      this.u32(v.elemType);
      this.u64(v.value.length);
      for (const x of v.value) {
        if (v.elemType === ValueType.STRING) this.string(String(x));
        else this.scalar(v.elemType, x);
      }
      return;
    }
    this.scalar(v.type, v.value);
  }
  pad(align: number): void {
    const n = alignUp(this.length, align) - this.length;
    if (n) this.push(Buffer.alloc(n));
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export interface GgufContent {
  metadata: Map<string, GgufValue>;
  tensors: TensorInfo[];
  alignment?: number;
}

/** Writes nothing when the header disagrees with itself or its tensors (check.ts): it throws, naming each disagreement. */
export function writeGguf(file: string, content: GgufContent, dataOf: (t: TensorInfo) => Buffer): number {
  const problems = ggufProblems(content.metadata, content.tensors);
  if (problems.length) throw new Error(`GGUF: the header and tensors disagree, nothing written: ${problems.slice(0, 3).join('; ')}`);
  const align = content.alignment ?? GGUF_DEFAULT_ALIGNMENT;
  const meta = new Map(content.metadata);
  if (align !== GGUF_DEFAULT_ALIGNMENT) meta.set('general.alignment', { type: ValueType.UINT32, value: align });
  const h = new Sink();
  h.push(Buffer.from(GGUF_MAGIC, 'latin1'));
  h.u32(GGUF_VERSION);
  h.u64(content.tensors.length);
  h.u64(meta.size);
  for (const [k, v] of meta) {
    h.string(k);
    h.value(v);
  }
  let offset = 0;
  for (const t of content.tensors) {
    h.string(t.name);
    h.u32(t.dims.length);
    for (const d of t.dims) h.u64(d);
    h.u32(t.type);
    h.u64(offset);
    offset += alignUp(tensorBytes(t), align);
  }
  h.pad(align);
  const fd = fs.openSync(file, 'w');
  try {
    let written = fs.writeSync(fd, h.bytes());
    for (const t of content.tensors) {
      const data = dataOf(t);
      if (data.length !== tensorBytes(t)) throw new Error(`GGUF: ${t.name} has ${data.length} bytes, its shape needs ${tensorBytes(t)}`);
      written += fs.writeSync(fd, data);
      const pad = alignUp(data.length, align) - data.length;
      if (pad) written += fs.writeSync(fd, Buffer.alloc(pad));
    }
    return written;
  } finally {
    fs.closeSync(fd);
  }
}
