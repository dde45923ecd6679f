// Read a GGUF file's header (metadata and tensor list) without its tensor data, so a multi-GB
// model's shapes and vocabulary can be taken in a fraction of a second. Format: format.ts.
//
//   readGgufHeader(file) -> GgufHeader   throws UserError for a file that is not GGUF v2/v3
import fs from 'node:fs';
import { UserError } from '../core/errors.js';
import {
  alignUp,
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  SCALAR_SIZE,
  ValueType,
  type GgufHeader,
  type GgufValue,
  type TensorInfo,
  type ValueTypeId,
} from './format.js';

class NeedMore extends Error {}

/** A little-endian cursor over a prefix of the file; running past it asks for a longer prefix. */
class Cursor {
  pos = 0;
  constructor(
    private readonly buf: Buffer,
    private readonly complete: boolean,
    private readonly file: string,
  ) {}
  private need(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.complete) throw new UserError(`${this.file}: not a GGUF file (the header runs past the end of the file)`);
    throw new NeedMore();
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new UserError(`${this.file}: not a GGUF file (a length of ${v} bytes)`);
    return Number(v);
  }
  string(): string {
    const n = this.u64();
    this.need(n);
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  scalar(type: number): number | bigint | boolean {
    const size = SCALAR_SIZE[type];
    if (size === undefined) throw new UserError(`${this.file}: not a GGUF file (unknown value type ${type})`);
    this.need(size);
    const b = this.buf;
    const p = this.pos;
    this.pos += size;
    switch (type) {
      case ValueType.UINT8:
        return b.readUInt8(p);
      case ValueType.INT8:
        return b.readInt8(p);
      case ValueType.UINT16:
        return b.readUInt16LE(p);
      case ValueType.INT16:
        return b.readInt16LE(p);
      case ValueType.UINT32:
        return b.readUInt32LE(p);
      case ValueType.INT32:
        return b.readInt32LE(p);
      case ValueType.FLOAT32:
        return b.readFloatLE(p);
      case ValueType.BOOL:
        return b.readUInt8(p) !== 0;
      case ValueType.UINT64:
        return b.readBigUInt64LE(p);
      case ValueType.INT64:
        return b.readBigInt64LE(p);
      default:
        return b.readDoubleLE(p);
    }
  }
  value(type: number): GgufValue {
    if (type === ValueType.STRING) return { type, value: this.string() };
    if (type === ValueType.ARRAY) {
      const elemType = this.u32() as ValueTypeId;
      const n = this.u64();
      const value: (number | bigint | boolean | string)[] = new Array(n);
      for (let i = 0; i < n; i++) value[i] = elemType === ValueType.STRING ? this.string() : this.scalar(elemType);
      return { type, elemType, value };
    }
    return { type: type as Exclude<ValueTypeId, 8 | 9>, value: this.scalar(type) };
  }
}

function parse(c: Cursor, file: string): GgufHeader {
  c.pos = 0;
  const magic = String.fromCharCode(...[0, 1, 2, 3].map(() => c.scalar(ValueType.UINT8) as number));
  if (magic !== GGUF_MAGIC) throw new UserError(`${file}: not a GGUF file (it starts with ${JSON.stringify(magic)}, not "GGUF")`);
  const version = c.u32();
  if (version !== 2 && version !== 3) throw new UserError(`${file}: GGUF version ${version} is not supported (2 or 3)`);
  const nTensors = c.u64();
  const nKv = c.u64();
  const metadata = new Map<string, GgufValue>();
  for (let i = 0; i < nKv; i++) {
    const key = c.string();
    metadata.set(key, c.value(c.u32()));
  }
  const tensors: TensorInfo[] = [];
  for (let i = 0; i < nTensors; i++) {
    const name = c.string();
    const nDims = c.u32();
    const dims = Array.from({ length: nDims }, () => c.u64());
    const type = c.u32();
    tensors.push({ name, dims, type, offset: c.u64() });
  }
  const a = metadata.get('general.alignment');
  const alignment = a && typeof a.value === 'number' ? a.value : GGUF_DEFAULT_ALIGNMENT;
  return { version, metadata, tensors, alignment, dataOffset: alignUp(c.pos, alignment) };
}

export function readGgufHeader(file: string): GgufHeader {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw new UserError(`${file}: cannot open (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const size = fs.fstatSync(fd).size;
    for (let want = 4 << 20; ; want *= 2) {
      const n = Math.min(want, size);
      const buf = Buffer.alloc(n);
      fs.readSync(fd, buf, 0, n, 0);
      try {
        return parse(new Cursor(buf, n === size, file), file);
      } catch (e) {
        if (!(e instanceof NeedMore)) throw e;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
