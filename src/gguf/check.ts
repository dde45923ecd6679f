// Does a GGUF's header agree with its tensors? Checked before a file is written, so servelab never
// writes a model llama-server refuses at load. Two kinds of check:
// - every integer-typed value is an integer in its type's range (a u32 of 2.5 would be written as
//   2 and silently disagree with tensors sized for 2.5 heads);
// - for the architectures servelab writes itself (llama, qwen3), each layer's attention and FFN
//   matrices have the shapes llama.cpp derives from the header. Captured from llama-server 80fb11a
//   on a file whose header said 2 KV heads while its K matrix held 160 columns (2.5 heads of 64):
//   "check_tensor_dims: tensor 'blk.0.attn_k.weight' has wrong shape; expected 320, 128, got 320,
//   160" (src/engines/data/corpus.json, llamacpp-wrong-tensor-shape). Other architectures lay
//   their tensors out in ways of their own (fused QKV, MLA, per-layer head counts), so only the
//   value ranges are checked for them.
import { plain, ValueType, type GgufValue, type TensorInfo } from './format.js';

const INT_RANGE: Readonly<Partial<Record<number, readonly [number, number]>>> = {
  [ValueType.UINT8]: [0, 0xff],
  [ValueType.INT8]: [-0x80, 0x7f],
  [ValueType.UINT16]: [0, 0xffff],
  [ValueType.INT16]: [-0x8000, 0x7fff],
  [ValueType.UINT32]: [0, 0xffffffff],
  [ValueType.INT32]: [-0x80000000, 0x7fffffff],
};

const LAYOUT_ARCHS = new Set(['llama', 'qwen3']);

function intProblem(key: string, type: number, v: unknown): string | undefined {
  const range = INT_RANGE[type];
  if (!range || typeof v !== 'number') return undefined;
  if (!Number.isInteger(v) || v < range[0] || v > range[1]) return `${key} = ${v} is not an integer of its type`;
  return undefined;
}

function valueProblems(metadata: ReadonlyMap<string, GgufValue>): string[] {
  const out: string[] = [];
  for (const [k, v] of metadata) {
    if (v.type === ValueType.ARRAY) {
      const bad = v.value.find((x) => intProblem(k, v.elemType, x));
      if (bad !== undefined) out.push(intProblem(`${k}[]`, v.elemType, bad)!);
    } else {
      const p = intProblem(k, v.type, v.value);
      if (p) out.push(p);
    }
  }
  return out;
}

/** A scalar integer of the header, or undefined when absent or not one number. */
function num(metadata: ReadonlyMap<string, GgufValue>, key: string): number | undefined {
  const v = plain(metadata.get(key));
  return typeof v === 'number' ? v : undefined;
}

function layoutProblems(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly TensorInfo[]): string[] {
  const arch = plain(metadata.get('general.architecture'));
  if (typeof arch !== 'string' || !LAYOUT_ARCHS.has(arch)) return [];
  const embd = num(metadata, `${arch}.embedding_length`);
  const heads = num(metadata, `${arch}.attention.head_count`);
  const kvHeads = num(metadata, `${arch}.attention.head_count_kv`) ?? heads;
  const ffn = num(metadata, `${arch}.feed_forward_length`);
  const blocks = num(metadata, `${arch}.block_count`);
  if (embd === undefined || heads === undefined || kvHeads === undefined) return [];
  const out: string[] = [];
  if (!kvHeads || heads % kvHeads) out.push(`${heads} attention heads do not divide into ${kvHeads} KV heads`);
  const k = num(metadata, `${arch}.attention.key_length`) ?? embd / heads;
  const v = num(metadata, `${arch}.attention.value_length`) ?? embd / heads;
  const want: Record<string, readonly number[]> = {
    'attn_q.weight': [embd, heads * k],
    'attn_k.weight': [embd, kvHeads * k],
    'attn_v.weight': [embd, kvHeads * v],
    'attn_output.weight': [heads * v, embd],
    'attn_q_norm.weight': [k],
    'attn_k_norm.weight': [k],
    ...(ffn !== undefined ? { 'ffn_gate.weight': [embd, ffn], 'ffn_up.weight': [embd, ffn], 'ffn_down.weight': [ffn, embd] } : {}),
  };
  for (const t of tensors) {
    const m = /^blk\.(\d+)\.(.+)$/.exec(t.name);
    if (!m) continue;
    if (blocks !== undefined && Number(m[1]) >= blocks) out.push(`${t.name} lies past the header's ${blocks} blocks`);
    const w = want[m[2]!];
    if (w && (w.length !== t.dims.length || w.some((d, i) => d !== t.dims[i])))
      out.push(`${t.name} is ${t.dims.join('x')}, the header makes it ${w.join('x')}`);
  }
  return out;
}

/** What in a GGUF's header disagrees with its values' types or its tensors; empty when nothing does. */
export function ggufProblems(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly TensorInfo[]): string[] {
  return [...valueProblems(metadata), ...layoutProblems(metadata, tensors)];
}
