// How each engine behaves where the performance model and the simulator must tell engines apart:
// facts read from the engines' source (cited where each is used), as data keyed by engine, so the
// model and the simulator ask what an engine does instead of which engine it is. Lives in model
// (floor 1) because model and sim read it and cannot import the adapters (src/engines, floor 3).
import type { EngineName } from '../core/variant.js';

export interface EngineBehaviour {
  /** What DP-attention does: none (vLLM has none), per DP rank, or spanning the TP group (TRT-LLM). */
  dpAttention: 'none' | 'dp-ranks' | 'tp-group';
  /** A dp knob adds replicas (TRT-LLM has no data-parallel flag). */
  dpAddsReplicas: boolean;
  /** How the KV pool is sized: after a profiled peak, as a static fraction, or as a fraction of what is free. */
  kvAccounting: 'profiled-peak' | 'static-fraction' | 'free-fraction';
  /** The server holds its whole memory budget from the start (SGLang's static pool). */
  holdsBudget: boolean;
  /** --performance-mode throughput scales the defaulted batch limits by this. */
  throughputModeScale: number;
  /** Refuses to start when one DP group's KV pool is below max-model-len (others cap or shrink). */
  refusesShortKv: boolean;
  /** Says it shrank max_seq_len to the pool when it does (TRT-LLM). */
  saysMaxSeqLenAdjusted: boolean;
  /** Refuses a --max-model-len beyond the model's positions before it binds. */
  refusesLongMaxModelLen: boolean;
  /** Freed KV blocks keep their prefix-cache hashes on preemption (vLLM v1). */
  keepsPreemptedBlocks: boolean;
  /** Batch limits are per attention-DP rank under DP-attention (TRT-LLM). */
  limitsPerAttentionRank: boolean;
  /** Which MoE kernels pick the tile M. */
  moeTiles: 'cutlass' | 'triton-default' | 'triton-tuned';
  /** Why FP8 weights cannot run on a GPU without native FP8, when the engine refuses them. */
  noFp8Weights?: (gpu: { name: string; computeCapability?: number }) => string;
  /** The prefix cache is on when no flag says otherwise (its knob rows cite each engine's default). */
  prefixCacheByDefault: boolean;
  /** Attention backends under which the engine reuses no KV blocks whatever its cache flag says. */
  noPrefixCacheBackends: readonly string[];
}

const BASE: EngineBehaviour = {
  dpAttention: 'dp-ranks',
  dpAddsReplicas: true,
  kvAccounting: 'free-fraction',
  holdsBudget: false,
  throughputModeScale: 1,
  refusesShortKv: false,
  saysMaxSeqLenAdjusted: false,
  refusesLongMaxModelLen: false,
  keepsPreemptedBlocks: false,
  limitsPerAttentionRank: false,
  moeTiles: 'triton-tuned',
  // vLLM V1 prefix caching, SGLang's radix cache, TensorRT-LLM's block reuse and llama.cpp's prompt
  // cache are all on by default (the prefixCaching rows of src/engines/*/knobs.ts).
  prefixCacheByDefault: true,
  noPrefixCacheBackends: [],
};

export const ENGINE_BEHAVIOUR: Readonly<Record<EngineName, EngineBehaviour>> = {
  vllm: {
    ...BASE,
    dpAttention: 'none',
    kvAccounting: 'profiled-peak',
    throughputModeScale: 2,
    refusesShortKv: true,
    refusesLongMaxModelLen: true,
    keepsPreemptedBlocks: true,
  },
  sglang: {
    ...BASE,
    kvAccounting: 'static-fraction',
    holdsBudget: true,
    moeTiles: 'triton-default',
    noFp8Weights: (gpu) =>
      `SGLang's FP8 kernels need compute capability >= 8.9; ${gpu.name} is ${gpu.computeCapability?.toFixed(1) ?? 'not a CUDA GPU'}`,
  },
  trtllm: {
    ...BASE,
    dpAttention: 'tp-group',
    dpAddsReplicas: false,
    saysMaxSeqLenAdjusted: true,
    limitsPerAttentionRank: true,
    moeTiles: 'cutlass',
    // Engine audit 4 (G5): TensorRT-LLM 1.2.1's start log says cache_reuse=False under attn_backend FLASHINFER.
    noPrefixCacheBackends: ['flashinfer'],
    noFp8Weights: (gpu) =>
      `TensorRT-LLM has no FP8 weights on compute capability ${gpu.computeCapability?.toFixed(1) ?? '(none)'} (${gpu.name})`,
  },
  llamacpp: BASE,
};
