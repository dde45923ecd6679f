// The tie-break: among candidates the measurements cannot tell apart (the tied set, noise.ts), the
// one chosen is the one a declared order of properties prefers, and no measurement moves any of
// them, so a noisy host cannot flip the choice. The order (docs/auto.md, "Ties"):
//   1. fewer resources: GPUs, then CPU threads, then server slots (running sequences), then memory
//      reserved (GPU memory fraction, KV context);
//   2. fewer changes from the engine's defaults (knobs set);
//   3. higher numeric precision (weights, then KV cache);
//   4. the plan's order (the one listed first).
// A property decides only where every remaining candidate states it (an unset knob is the
// engine's own default, which servelab does not compare with a number).
import type { Knobs, Variant } from '../../core/variant.js';
import { gpusHeld } from '../../model/layout.js';

interface TieProperty {
  /** Lower wins; undefined: not stated. */
  value: (v: Variant) => number | undefined;
  /** The why's words for the one it keeps: "holds the fewest slots". */
  words: string;
}

const CHANGEABLE: readonly (keyof Knobs)[] = [
  'quantization',
  'kvCacheDtype',
  'tp',
  'pp',
  'dp',
  'ep',
  'dpAttention',
  'maxBatchedTokens',
  'maxRunningSeqs',
  'memFraction',
  'attentionBackend',
  'torchCompile',
  'cudaGraph',
  'speculative',
  'maxModelLen',
  'performanceMode',
  'ctxSize',
  'kvUnified',
  'ctxPerSlot',
  'ubatch',
  'flashAttn',
  'vCacheDtype',
  'threads',
  'threadsBatch',
  'contBatching',
  'cacheReuse',
  'cacheRamMiB',
  'gpuLayers',
  'fit',
  'splitMode',
  'tensorSplit',
  'repack',
];

/** Knobs a variant sets (an unset knob keeps the engine's default). */
export function changesFromDefaults(v: Variant): number {
  const k = v.knobs;
  return CHANGEABLE.filter((n) => k[n] !== undefined && k[n] !== 'auto').length + (k.extraArgs?.length ? 1 : 0);
}

/** Bits of a numeric format named in a quantization, dtype or checkpoint name; undefined when it names none. */
function bitsOf(name: string | undefined): number | undefined {
  if (!name) return undefined;
  const n = name.toLowerCase();
  if (/(^|[^a-z])(f32|fp32|float32)/.test(n)) return 32;
  if (/(^|[^a-z])(bf16|f16|fp16|float16|bfloat16)/.test(n)) return 16;
  if (/fp8|int8|w8a8|e4m3|e5m2|q8/.test(n)) return 8;
  const q = /(^|[^a-z])i?q(\d)/.exec(n);
  if (q) return Number(q[2]);
  if (/awq|gptq|int4|w4a16|nvfp4|mxfp4|fp4/.test(n)) return 4;
  return undefined;
}

/** Higher precision as a number where lower wins: weights' bits first, then the KV cache's. */
function precisionRank(v: Variant): number {
  const w = bitsOf(v.knobs.quantization) ?? bitsOf(v.model) ?? 16;
  const kv = bitsOf(v.knobs.kvCacheDtype) ?? 16;
  return -(w * 100 + kv);
}

const ORDER: readonly TieProperty[] = [
  { value: (v) => gpusHeld(v.engine, v.knobs), words: 'uses the fewest GPUs' },
  { value: (v) => v.knobs.threads, words: 'uses the fewest threads' },
  { value: (v) => v.knobs.maxRunningSeqs, words: 'holds the fewest slots' },
  { value: (v) => v.knobs.memFraction, words: 'reserves the least GPU memory' },
  { value: (v) => v.knobs.ctxSize, words: 'reserves the smallest KV context' },
  { value: changesFromDefaults, words: 'changes the fewest defaults' },
  { value: precisionRank, words: 'keeps the highest precision' },
];

export interface TieChoice<T> {
  winner: T;
  /** The property that chose it: "holds the fewest slots" (or "is listed first in the plan"). */
  property: string;
}

/**
 * The declared order over a tied set (in the plan's order: the first listed wins the last rule).
 * Returns the one kept and the property that set it apart from the last of the others.
 */
export function breakTieByOrder<T>(tied: readonly T[], variantOf: (t: T) => Variant): TieChoice<T> {
  if (tied.length === 0) throw new Error('breakTieByOrder: empty tied set');
  let left = [...tied];
  let property = 'is listed first in the plan';
  for (const p of ORDER) {
    if (left.length < 2) break;
    const values = left.map((t) => p.value(variantOf(t)));
    if (values.some((x) => x === undefined)) continue;
    const min = Math.min(...(values as number[]));
    const kept = left.filter((_, i) => values[i] === min);
    if (kept.length < left.length) {
      left = kept;
      property = p.words;
    }
  }
  // Still more than one: the plan's order decides.
  return { winner: left[0]!, property: left.length > 1 ? 'is listed first in the plan' : property };
}
