// The unit of work: an engine plus engine-neutral knobs. Adapters (src/engines) translate a
// variant into each engine's own flags; the simulator (src/sim) reads the same knobs.
import { envKnobParts } from './env-knob.js';

/** The GPU serving engines, which servelab's performance model (src/model) and simulator describe. */
export const GPU_ENGINES = ['vllm', 'sglang', 'trtllm'] as const;
export type GpuEngineName = (typeof GPU_ENGINES)[number];
/** Every engine servelab launches: the GPU engines and llama.cpp's llama-server (CPU or GPU). */
export const ENGINES = [...GPU_ENGINES, 'llamacpp'] as const;
export type EngineName = (typeof ENGINES)[number];

/** Each engine's name as users read it: one owner for every view, message and export. */
export const ENGINE_LABEL: Readonly<Record<EngineName, string>> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  trtllm: 'TensorRT-LLM',
  llamacpp: 'llama.cpp',
};

export function isGpuEngine(e: EngineName): e is GpuEngineName {
  return (GPU_ENGINES as readonly string[]).includes(e);
}

export function isEngineName(e: string): e is EngineName {
  return (ENGINES as readonly string[]).includes(e);
}

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
  // --- llama.cpp (llama-server) knobs; engines that have no such setting never get them ---
  /** Total KV context of all slots together (llama.cpp -c); per slot it is ctxSize / slots unless unified. */
  ctxSize?: number;
  /** One KV buffer shared by all slots (true) or one per slot (false); absent = engine default. */
  kvUnified?: boolean;
  /** Context limit of each slot in a unified KV pool (llama.cpp --kv-unified-per-slot). */
  ctxPerSlot?: number;
  /** Physical batch size (llama.cpp -ub); maxBatchedTokens is the logical one (-b). */
  ubatch?: number;
  /** Flash attention: 'on' | 'off' | 'auto'. */
  flashAttn?: string;
  /** V-cache dtype when it differs from kvCacheDtype (which then names the K cache only). */
  vCacheDtype?: string;
  /** CPU threads for generation, and for batch/prompt processing. */
  threads?: number;
  threadsBatch?: number;
  /** false = continuous batching off; absent = engine default (on). */
  contBatching?: boolean;
  /** Minimum chunk reused from the prompt cache by KV shifting (0 = off). */
  cacheReuse?: number;
  /** Prompt-cache size in MiB (-1 no limit, 0 off). */
  cacheRamMiB?: number;
  /** Layers offloaded to the GPU: a number, 'auto' or 'all'. */
  gpuLayers?: string;
  /** Let the engine fit unset arguments to device memory (true) or not (false). */
  fit?: boolean;
  /** Multi-GPU split mode: none | layer | row | tensor. */
  splitMode?: string;
  /** Proportions of the model per GPU, e.g. '3,1'. */
  tensorSplit?: string;
  /** CPU weight repacking of quantized tensors (false = off); absent = engine default (on). */
  repack?: boolean;
  /** Extra argv appended verbatim (user-supplied). */
  extraArgs?: string[];
  // --- prefix cache (the cache stage); absent = each engine's default ---
  /** Prefix caching: vLLM's prefix caching, SGLang's radix cache, TensorRT-LLM's KV block reuse, llama.cpp's prompt cache. */
  prefixCaching?: boolean;
  /** GiB of host memory as a second tier of the prefix cache (vLLM KV offloading, SGLang's hierarchical cache). */
  kvOffloadGiB?: number;
  /** Order in which waiting requests are admitted: 'lpm' (longest prefix match first) or 'fcfs' (SGLang). */
  schedulePolicy?: string;
  /** llama.cpp: how much of a request's prompt must match a slot's to reuse that slot (0 = any idle slot). */
  slotPromptSimilarity?: number;
  // --- the engine's environment ---
  /**
   * Environment variables the server starts with (ROCm switches such as VLLM_ROCM_USE_AITER, or a
   * user's own): a variant may differ from another by these alone. Every command, profile, replay
   * and export carries them (src/core/env-knob.ts says them).
   */
  env?: Record<string, string>;
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
  parts.push(...llamaKnobParts(k));
  if (k.performanceMode) parts.push(`perf=${k.performanceMode}`);
  parts.push(...cacheKnobParts(k));
  if (k.extraArgs?.length) parts.push(k.extraArgs.join(' '));
  parts.push(...envKnobParts(k.env));
  return parts.join(' ') || 'defaults';
}

/** llama.cpp's knobs in describeKnobs' words (no GPU engine variant has them, so their text is unchanged). */
function llamaKnobParts(k: Knobs): string[] {
  const p: string[] = [];
  if (k.ctxSize !== undefined) p.push(`ctx=${k.ctxSize}`);
  if (k.kvUnified !== undefined) p.push(k.kvUnified ? 'kv-unified' : 'kv-split');
  if (k.ctxPerSlot !== undefined) p.push(`slot-ctx=${k.ctxPerSlot}`);
  if (k.ubatch !== undefined) p.push(`ub=${k.ubatch}`);
  if (k.flashAttn !== undefined) p.push(`fa=${k.flashAttn}`);
  if (k.vCacheDtype !== undefined) p.push(`v=${k.vCacheDtype}`);
  if (k.threads !== undefined) p.push(`t=${k.threads}`);
  if (k.threadsBatch !== undefined) p.push(`tb=${k.threadsBatch}`);
  if (k.contBatching === false) p.push('no-cont-batching');
  if (k.cacheReuse !== undefined) p.push(`cache-reuse=${k.cacheReuse}`);
  if (k.cacheRamMiB !== undefined) p.push(`cache-ram=${k.cacheRamMiB}`);
  if (k.gpuLayers !== undefined) p.push(`ngl=${k.gpuLayers}`);
  if (k.fit !== undefined) p.push(k.fit ? 'fit' : 'no-fit');
  if (k.repack !== undefined) p.push(k.repack ? 'repack' : 'no-repack');
  if (k.splitMode !== undefined) p.push(`split=${k.splitMode}`);
  if (k.tensorSplit !== undefined) p.push(`ts=${k.tensorSplit}`);
  if (k.speculative?.draftTokens !== undefined && k.speculative.method === 'draft') p.push(`draft-n=${k.speculative.draftTokens}`);
  return p;
}

/** The cache stage's knobs in describeKnobs' words (absent on every variant that does not set them). */
function cacheKnobParts(k: Knobs): string[] {
  const p: string[] = [];
  if (k.prefixCaching !== undefined) p.push(k.prefixCaching ? 'prefix-cache' : 'no-prefix-cache');
  if (k.kvOffloadGiB !== undefined) p.push(`kv-offload=${k.kvOffloadGiB}GiB`);
  if (k.schedulePolicy !== undefined) p.push(`sched=${k.schedulePolicy}`);
  if (k.slotPromptSimilarity !== undefined) p.push(`sps=${k.slotPromptSimilarity}`);
  return p;
}
