// A GGUF with random weights, for measuring an engine without downloading a model: the shapes
// of a named architecture (or of a given GGUF's header), the tokenizer of a vocabulary file.
// Its outputs are meaningless; its speeds are real for its shapes.
//
// It can never emit a token that is not complete UTF-8 on its own, nor a special token: every
// embedding row carries a constant 1.0 in dimension 0, which survives the random layers as the
// largest part of the residual (so after the final RMS norm it is ~sqrt(hidden) and positive),
// and output.weight holds -8 in dimension 0 for those tokens and 0 for the others, putting them
// ~100 logits below every other token. llama-server aborts a completion whose text ends inside
// a character (reference/llamacpp.md), which random byte-level tokens otherwise do often.
import { f32, GGML_TYPES, str, u32, ValueType, type GgufHeader, type GgufValue, type TensorInfo } from './format.js';
import { vocabSafety } from './vocab.js';

export const RANDOM_NOTE = 'random weights: outputs are meaningless, speeds are real';
export const RANDOM_DESCRIPTION =
  'Written by `servelab random-gguf`: random weights, so its outputs are meaningless and its speeds are real for its shapes. ' +
  'Special tokens and tokens that are not complete UTF-8 on their own are never sampled.';

const F32 = GGML_TYPES.F32![0];
const F16 = GGML_TYPES.F16![0];
const SUPPRESS = -8;

export interface ArchShape {
  arch: 'qwen3' | 'llama';
  hidden: number;
  layers: number;
  heads?: number;
  kvHeads?: number;
  ffn?: number;
  context?: number;
}

/** Metadata and tensors of a named architecture (keys: gguf-py constants.py Keys.LLM/Attention/Rope). */
export function archLayout(s: ArchShape, vocabSize: number): { metadata: Map<string, GgufValue>; tensors: TensorInfo[] } {
  const headDim = 64;
  if (s.hidden % headDim) throw new Error(`hidden size ${s.hidden} is not a multiple of the head size ${headDim}`);
  const heads = s.heads ?? s.hidden / headDim;
  // Half as many KV heads as query heads where that divides evenly; an odd head count keeps one
  // KV head per query head, since a group must be a whole number of heads.
  const kvHeads = s.kvHeads ?? (heads % 2 ? heads : heads / 2);
  if (!Number.isInteger(heads) || !Number.isInteger(kvHeads) || heads < 1 || kvHeads < 1 || heads % kvHeads)
    throw new Error(`${heads} attention heads cannot be grouped over ${kvHeads} KV heads: the KV heads must divide the heads`);
  const ffn = s.ffn ?? s.hidden * 3;
  const a = s.arch;
  const metadata = new Map<string, GgufValue>([
    ['general.architecture', str(a)],
    [`${a}.context_length`, u32(s.context ?? 32768)],
    [`${a}.embedding_length`, u32(s.hidden)],
    [`${a}.block_count`, u32(s.layers)],
    [`${a}.feed_forward_length`, u32(ffn)],
    [`${a}.attention.head_count`, u32(heads)],
    [`${a}.attention.head_count_kv`, u32(kvHeads)],
    [`${a}.attention.key_length`, u32(headDim)],
    [`${a}.attention.value_length`, u32(headDim)],
    [`${a}.rope.dimension_count`, u32(headDim)],
    [`${a}.rope.freq_base`, f32(1_000_000)],
    [`${a}.attention.layer_norm_rms_epsilon`, f32(1e-6)],
  ]);
  const m = (name: string, ...dims: number[]): TensorInfo => ({ name, dims, type: dims.length === 1 ? F32 : F16 });
  const tensors = [m('token_embd.weight', s.hidden, vocabSize), m('output_norm.weight', s.hidden), m('output.weight', s.hidden, vocabSize)];
  for (let i = 0; i < s.layers; i++) {
    const b = `blk.${i}.`;
    tensors.push(m(`${b}attn_norm.weight`, s.hidden), m(`${b}attn_q.weight`, s.hidden, heads * headDim));
    tensors.push(m(`${b}attn_k.weight`, s.hidden, kvHeads * headDim), m(`${b}attn_v.weight`, s.hidden, kvHeads * headDim));
    tensors.push(m(`${b}attn_output.weight`, heads * headDim, s.hidden));
    if (a === 'qwen3') tensors.push(m(`${b}attn_q_norm.weight`, headDim), m(`${b}attn_k_norm.weight`, headDim));
    tensors.push(m(`${b}ffn_norm.weight`, s.hidden), m(`${b}ffn_gate.weight`, s.hidden, ffn));
    tensors.push(m(`${b}ffn_up.weight`, s.hidden, ffn), m(`${b}ffn_down.weight`, ffn, s.hidden));
  }
  return { metadata, tensors };
}

/**
 * The tensors of another GGUF, kept by name and shape: F32 stays F32, every other type (BF16,
 * quantized) becomes F16, so the random values are valid whatever the source's type. An
 * output.weight is added when the source ties it to the embedding.
 */
export function likeLayout(h: GgufHeader): { metadata: Map<string, GgufValue>; tensors: TensorInfo[] } {
  const tensors: TensorInfo[] = h.tensors.map((t) => ({ name: t.name, dims: [...t.dims], type: t.type === F32 ? F32 : F16 }));
  const embd = tensors.find((t) => t.name === 'token_embd.weight');
  if (!embd) throw new Error('the GGUF has no token_embd.weight; random-gguf needs one to keep its outputs complete UTF-8');
  if (!tensors.some((t) => t.name === 'output.weight'))
    tensors.splice(tensors.indexOf(embd) + 1, 0, { name: 'output.weight', dims: [...embd.dims], type: F16 });
  const metadata = new Map(
    [...h.metadata].filter(([k]) => !k.startsWith('tokenizer.') && k !== 'general.alignment' && !k.startsWith('split.')),
  );
  metadata.set('general.file_type', u32(1)); // MOSTLY_F16 (llama.h llama_ftype)
  return { metadata, tensors };
}

/** Name and description in the file itself, so a served copy says what it is. */
export function labelRandom(metadata: Map<string, GgufValue>, source: string): void {
  metadata.set('general.name', str(`servelab random weights (${source}): outputs meaningless, speeds real`));
  metadata.set('general.description', str(RANDOM_DESCRIPTION));
  metadata.set('servelab.random_weights', { type: ValueType.BOOL, value: true });
}

/** xorshift32 normal(0, std) samples, fast enough for tens of millions of weights. */
export class Normal {
  private s: number;
  private spare: number | undefined;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  private u(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return (this.s + 1) / 4294967297;
  }
  next(): number {
    if (this.spare !== undefined) {
      const v = this.spare;
      this.spare = undefined;
      return v;
    }
    const r = Math.sqrt(-2 * Math.log(this.u()));
    const t = 2 * Math.PI * this.u();
    this.spare = r * Math.sin(t);
    return r * Math.cos(t);
  }
}

const f32View = new Float32Array(1);
const u32View = new Uint32Array(f32View.buffer);

/** float -> IEEE half (round to nearest, no NaN handling needed for these magnitudes). */
export function toHalf(v: number): number {
  f32View[0] = v;
  const x = u32View[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  const mant = x & 0x7fffff;
  if (exp <= 0) return exp < -10 ? sign : sign | ((mant | 0x800000) >>> (14 - exp));
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | ((mant + 0x1000) >>> 13);
}

/** The bytes of one tensor: norms are ones, other 1-D tensors zeros, matrices normal(0, 0.02). */
export function tensorData(t: TensorInfo, rng: Normal, safe: boolean[]): Buffer {
  const cols = t.dims[0]!;
  const n = t.dims.reduce((a, b) => a * b, 1);
  if (t.type === F32) {
    const a = new Float32Array(n);
    if (t.dims.length === 1 && /norm/.test(t.name)) a.fill(1);
    else if (t.dims.length > 1) for (let i = 0; i < n; i++) a[i] = rng.next() * 0.02;
    return Buffer.from(a.buffer);
  }
  const h = new Uint16Array(n);
  for (let i = 0; i < n; i++) h[i] = toHalf(rng.next() * 0.02);
  if (t.name === 'token_embd.weight') for (let r = 0; r * cols < n; r++) h[r * cols] = toHalf(1);
  if (t.name === 'output.weight') for (let r = 0; r * cols < n; r++) h[r * cols] = toHalf(safe[r] ? 0 : SUPPRESS);
  return Buffer.from(h.buffer);
}

/** Safe-token mask of the vocabulary, checked against the model's vocabulary size. */
export function safeTokens(vocab: GgufHeader, vocabSize: number): { safe: boolean[]; count: number } {
  const v = vocabSafety(vocab);
  if (v.size !== vocabSize) throw new Error(`the vocabulary has ${v.size} tokens, the model's embedding ${vocabSize}`);
  const count = v.safe.filter(Boolean).length;
  if (!count) throw new Error('the vocabulary has no token that is complete UTF-8 on its own');
  return { safe: v.safe, count };
}
