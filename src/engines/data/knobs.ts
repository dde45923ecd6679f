// The neutral knobs themselves: their value type, sim-serve's flag for each, and what they mean.
// The profile schema (src/profiles/schema/profile.ts) and sim-serve's parser (src/cli/sim-serve-args.ts) are built
// from this list; each engine's spelling is in its own table (vllm/knobs.ts, ...). A new knob is
// one row here plus one row per engine that can express it.
import type { KnobName } from '../../core/variant.js';

export type KnobType = 'int' | 'float' | 'string' | 'bool-on' | 'bool-off' | 'bool-switch';

export interface NeutralKnob {
  knob: Exclude<KnobName, 'speculative' | 'extraArgs' | 'env'>;
  type: KnobType;
  /**
   * sim-serve's flag. bool-on: the flag sets true; bool-off: the flag sets false (cudaGraph);
   * bool-switch: `--x` sets true and `--no-x` sets false (torchCompile: vLLM's candidate is "off").
   */
  simFlag: string;
  /** Lower bound where one applies (ints: >= 1). */
  min?: number;
  /** Upper bound (memFraction <= 1). */
  max?: number;
  meaning: string;
}

export const NEUTRAL_KNOBS: readonly NeutralKnob[] = [
  { knob: 'quantization', type: 'string', simFlag: '--quantization', meaning: 'online quantization method, e.g. fp8' },
  { knob: 'kvCacheDtype', type: 'string', simFlag: '--kv-cache-dtype', meaning: 'KV-cache dtype: auto | fp8 | fp8_e4m3 | fp8_e5m2 | bf16' },
  { knob: 'tp', type: 'int', simFlag: '--tp', min: 1, meaning: 'tensor-parallel size' },
  { knob: 'pp', type: 'int', simFlag: '--pp', min: 1, meaning: 'pipeline-parallel size' },
  { knob: 'dp', type: 'int', simFlag: '--dp', min: 1, meaning: 'data-parallel size (replicas, or attention-DP ranks)' },
  { knob: 'ep', type: 'int', simFlag: '--ep', min: 1, meaning: 'expert-parallel size (MoE)' },
  { knob: 'dpAttention', type: 'bool-on', simFlag: '--dp-attention', meaning: 'data-parallel attention inside the TP group' },
  { knob: 'maxBatchedTokens', type: 'int', simFlag: '--max-batched-tokens', min: 1, meaning: 'token budget per scheduler step' },
  { knob: 'maxRunningSeqs', type: 'int', simFlag: '--max-running-seqs', min: 1, meaning: 'maximum concurrent sequences' },
  { knob: 'memFraction', type: 'float', simFlag: '--mem-fraction', max: 1, meaning: 'GPU memory fraction (each engine its own meaning)' },
  {
    knob: 'attentionBackend',
    type: 'string',
    simFlag: '--attention-backend',
    meaning: 'neutral attention backend name: fa2 | fa3 | fa4 | flashinfer | triton | flex | trtllm ...',
  },
  {
    knob: 'torchCompile',
    type: 'bool-switch',
    simFlag: '--torch-compile',
    meaning: 'torch.compile on (true) or off (false); absent = engine default',
  },
  { knob: 'cudaGraph', type: 'bool-off', simFlag: '--no-cuda-graph', meaning: 'false = CUDA graphs off (eager); absent = engine default' },
  { knob: 'maxModelLen', type: 'int', simFlag: '--max-model-len', min: 1, meaning: 'context length' },
  {
    knob: 'performanceMode',
    type: 'string',
    simFlag: '--performance-mode',
    meaning: 'vLLM >= 0.17 runtime posture: balanced (default) | interactivity | throughput',
  },
  { knob: 'ctxSize', type: 'int', simFlag: '--ctx-size', min: 1, meaning: 'llama.cpp: KV context of all slots together (-c)' },
  {
    knob: 'kvUnified',
    type: 'bool-switch',
    simFlag: '--kv-unified',
    meaning: 'llama.cpp: one KV buffer for all slots (true) or one per slot (false)',
  },
  {
    knob: 'ctxPerSlot',
    type: 'int',
    simFlag: '--ctx-per-slot',
    min: 1,
    meaning: 'llama.cpp: context limit of each slot in a unified KV pool',
  },
  {
    knob: 'ubatch',
    type: 'int',
    simFlag: '--ubatch',
    min: 1,
    meaning: 'llama.cpp: physical batch size (-ub); maxBatchedTokens is the logical one (-b)',
  },
  { knob: 'flashAttn', type: 'string', simFlag: '--flash-attn', meaning: 'llama.cpp: flash attention on | off | auto' },
  {
    knob: 'vCacheDtype',
    type: 'string',
    simFlag: '--v-cache-dtype',
    meaning: 'llama.cpp: V-cache dtype when it differs from the K cache (kvCacheDtype)',
  },
  { knob: 'threads', type: 'int', simFlag: '--threads', min: 1, meaning: 'llama.cpp: CPU threads for generation' },
  {
    knob: 'threadsBatch',
    type: 'int',
    simFlag: '--threads-batch',
    min: 1,
    meaning: 'llama.cpp: CPU threads for batch and prompt processing',
  },
  { knob: 'contBatching', type: 'bool-switch', simFlag: '--cont-batching', meaning: 'llama.cpp: continuous batching (false = off)' },
  {
    knob: 'cacheReuse',
    type: 'int',
    simFlag: '--cache-reuse',
    min: 0,
    meaning: 'llama.cpp: minimum chunk reused from the prompt cache by KV shifting',
  },
  {
    knob: 'cacheRamMiB',
    type: 'int',
    simFlag: '--cache-ram',
    min: -1,
    meaning: 'llama.cpp: prompt-cache size in MiB (-1 no limit, 0 off)',
  },
  { knob: 'gpuLayers', type: 'string', simFlag: '--gpu-layers', meaning: 'llama.cpp: layers offloaded to the GPU (a number, auto or all)' },
  { knob: 'fit', type: 'bool-switch', simFlag: '--fit', meaning: 'llama.cpp: fit unset arguments to device memory' },
  { knob: 'splitMode', type: 'string', simFlag: '--split-mode', meaning: 'llama.cpp: multi-GPU split mode none | layer | row | tensor' },
  {
    knob: 'repack',
    type: 'bool-switch',
    simFlag: '--repack',
    meaning: 'llama.cpp: CPU weight repacking of quantized tensors (false = off)',
  },
  { knob: 'tensorSplit', type: 'string', simFlag: '--tensor-split', meaning: 'llama.cpp: proportions of the model per GPU, e.g. 3,1' },
  {
    knob: 'prefixCaching',
    type: 'bool-switch',
    simFlag: '--prefix-caching',
    meaning:
      "prefix caching on (true) or off (false): vLLM's prefix caching, SGLang's radix cache, TensorRT-LLM's block reuse, llama.cpp's prompt cache",
  },
  {
    knob: 'kvOffloadGiB',
    type: 'float',
    simFlag: '--kv-offload-gib',
    min: 0,
    meaning: "GiB of host memory as a second tier of the prefix cache (vLLM KV offloading, SGLang's hierarchical cache)",
  },
  { knob: 'schedulePolicy', type: 'string', simFlag: '--schedule-policy', meaning: 'admission order of waiting requests: lpm | fcfs' },
  {
    knob: 'slotPromptSimilarity',
    type: 'float',
    simFlag: '--slot-prompt-similarity',
    min: 0,
    meaning: "llama.cpp: share of a slot's prompt a request must match to reuse that slot (0 = any idle slot)",
  },
];

/** Speculative sub-knobs: sim-serve flag for each field of SpeculativeKnob. */
export const SPECULATIVE_FIELDS = [
  { field: 'method', type: 'string', simFlag: '--speculative' },
  { field: 'numSteps', type: 'int', simFlag: '--speculative-steps' },
  { field: 'topk', type: 'int', simFlag: '--speculative-topk' },
  { field: 'draftTokens', type: 'int', simFlag: '--speculative-draft-tokens' },
  { field: 'draftModel', type: 'string', simFlag: '--speculative-draft-model' },
] as const;

export const SPECULATIVE_METHODS = ['eagle', 'eagle3', 'mtp', 'ngram', 'draft'] as const;
