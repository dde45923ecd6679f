// The unit of work: an engine plus engine-neutral knobs. Adapters (src/engines) translate a
// variant into each engine's own flags; the simulator (src/sim) reads the same knobs.

export const ENGINES = ['vllm', 'sglang', 'trtllm'] as const;
export type EngineName = (typeof ENGINES)[number];

export interface SpeculativeKnob {
  /** eagle | eagle3 | mtp | ngram | draft */
  method: 'eagle' | 'eagle3' | 'mtp' | 'ngram' | 'draft';
  numSteps?: number;
  topk?: number;
  draftTokens?: number;
  draftModel?: string;
}

export interface Knobs {
  /** Online quantization method (e.g. 'fp8'). A pre-quantized checkpoint is named by `model`. */
  quantization?: string;
  /** KV-cache dtype: 'auto' | 'fp8' | 'fp8_e4m3' | 'fp8_e5m2' | 'bf16'. */
  kvCacheDtype?: string;
  tp?: number;
  pp?: number;
  dp?: number;
  /** Expert-parallel size (MoE only). vLLM can only say "on" (EP = TP x DP). */
  ep?: number;
  dpAttention?: boolean;
  maxBatchedTokens?: number;
  maxRunningSeqs?: number;
  /** Fraction of GPU memory for weights + KV (each engine's own meaning, see docs/engines.md). */
  memFraction?: number;
  /** Engine-neutral backend name: fa3 | flashinfer | triton | flash_attn | flex | trtllm ... */
  attentionBackend?: string;
  torchCompile?: boolean;
  /** false = CUDA graphs off (eager). undefined = engine default. */
  cudaGraph?: boolean;
  speculative?: SpeculativeKnob;
  maxModelLen?: number;
  /**
   * vLLM >= 0.17 `--performance-mode`: balanced (the engine default) | interactivity | throughput.
   * Absent = the engine default.
   */
  performanceMode?: string;
  /** Extra argv appended verbatim (user-supplied). */
  extraArgs?: string[];
}

export type KnobName = keyof Knobs;

export interface Variant {
  /** Stable id, unique in a plan (used by the journal to resume). */
  id: string;
  engine: EngineName;
  /** The checkpoint served: HF id or local path (e.g. Qwen/Qwen3-14B-FP8). */
  model: string;
  knobs: Knobs;
  /** Short human label, e.g. "sglang fp8-ckpt fa3". */
  label?: string;
  /**
   * The engine release the command is spelled for (detected on the host; see
   * src/engines/data/versions.ts). Absent: the oldest release servelab has a table for.
   */
  engineVersion?: string;
}

/** A short description of what a variant changes, for tables. */
export function describeKnobs(k: Knobs): string {
  const parts: string[] = [];
  if (k.quantization) parts.push(`quant=${k.quantization}`);
  if (k.kvCacheDtype && k.kvCacheDtype !== 'auto') parts.push(`kv=${k.kvCacheDtype}`);
  if (k.tp && k.tp > 1) parts.push(`tp${k.tp}`);
  if (k.pp && k.pp > 1) parts.push(`pp${k.pp}`);
  if (k.dp && k.dp > 1) parts.push(`dp${k.dp}`);
  if (k.ep && k.ep > 1) parts.push(`ep${k.ep}`);
  if (k.dpAttention) parts.push('dp-attn');
  if (k.maxBatchedTokens) parts.push(`mbt=${k.maxBatchedTokens}`);
  if (k.maxRunningSeqs) parts.push(`seqs=${k.maxRunningSeqs}`);
  if (k.memFraction) parts.push(`mem=${k.memFraction}`);
  if (k.attentionBackend) parts.push(`attn=${k.attentionBackend}`);
  if (k.torchCompile) parts.push('compile');
  if (k.cudaGraph === false) parts.push('eager');
  if (k.speculative) parts.push(`spec=${k.speculative.method}`);
  if (k.maxModelLen) parts.push(`len=${k.maxModelLen}`);
  if (k.performanceMode) parts.push(`perf=${k.performanceMode}`);
  if (k.extraArgs?.length) parts.push(k.extraArgs.join(' '));
  return parts.join(' ') || 'defaults';
}
