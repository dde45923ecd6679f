// The max_batch_size / max_num_tokens that `trtllm-bench throughput` (PyTorch backend) picks when
// the command names neither, as TensorRT-LLM's perf-overview runs do. It does NOT use
// trtllm-serve's defaults (8192 tokens / 2048 requests): it sizes both from the dataset's average
// ISL/OSL and the GPU memory, then, with chunked prefill off, raises max_num_tokens to fit the
// longest prompt plus a full batch of decodes. Sources (NVIDIA/TensorRT-LLM, stored copies read):
//   tensorrt_llm/bench/build/tuning.py@04cba882 calc_engine_setting + finetune_setting (below, 1:1)
//   tensorrt_llm/bench/build/build.py@000a01de get_benchmark_engine_settings (FP8/NVFP4/no-quant:
//     the heuristic; other quant algos: BuildConfig defaults)
//   tensorrt_llm/bench/benchmark/utils/general.py@0171265e get_settings: "If chunked prefill is
//     disabled, we need to ensure that the max_num_tokens is at least the max_isl":
//     max_num_tokens = max(max_num_tokens, dataset_metadata.max_isl + max_batch_size)
//   tensorrt_llm/bench/benchmark/throughput.py@000a01de: --kv_cache_free_gpu_mem_fraction default
//     .90 (also the heuristic's fraction), --enable_chunked_context default False,
//     --scheduler_policy default guaranteed_no_evict.
// Under enable_attention_dp both limits apply per rank (each attention-DP rank schedules its own
// requests); the heuristic itself only sees tp and pp.
import { BUILTIN_CONFIGS, FP8_CHECKPOINTS } from '../model-configs.js';
import { getModel } from '../models.js';
import { paramCounts } from '../param-counts.js';
import type { GpuSpec } from '../gpu-spec.js';

const GiB = 1024 ** 3;

export interface TrtllmBenchInput {
  /** HF id of the checkpoint; a '-FP8' suffix resolves to the built-in base config. */
  model: string;
  gpu: GpuSpec;
  tp: number;
  pp?: number;
  /** Dataset average (= max for the perf-overview's stdev-0 datasets) input and output lengths. */
  isl: number;
  osl: number;
  /** BYTES_PER_ELEM of the checkpoint's quant_algo: FP8 / FP8_BLOCK_SCALES 1, no quant 2. */
  weightBytesPerElem: number;
  /** BYTES_PER_ELEM of the KV cache quant algo: FP8 1, else 2. */
  kvBytesPerElem: number;
  /** --kv_cache_free_gpu_mem_fraction (throughput.py default .90). */
  kvCacheFreeGpuMemFraction?: number;
  /** enable_chunked_prefill in the extra_llm_api_options YAML (none of the perf-overview YAMLs sets it). */
  enableChunkedPrefill?: boolean;
}

export interface TrtllmBenchSettings {
  maxBatchSize: number;
  maxNumTokens: number;
  /** tuning.py's kv_cache_max_requests estimate (before fine-tuning). */
  kvCacheMaxRequests: number;
}

/** tuning.py finetune_setting (optimistic tuning on: every model here is not a Mamba hybrid). */
export function finetuneSetting(
  kvCacheMaxRequests: number,
  inputLen: number,
  outputLen: number,
  ppSize: number,
): { maxBatchSize: number; maxNumTokens: number } {
  // Cap total batch size to avoid decoder buffer size becoming too large.
  const rawBs = Math.min(kvCacheMaxRequests, 4096) / ppSize;
  // Cap num tokens to avoid TRT activation buffer becoming too large.
  const rawToken = Math.min(rawBs * (1 + inputLen / outputLen), 32768);
  let maxBatchSize: number;
  if (rawBs < 256) maxBatchSize = Math.max(64, 32 * Math.ceil(rawBs / 32));
  else if (rawBs < 1024) maxBatchSize = 128 * Math.ceil(rawBs / 128);
  else maxBatchSize = 256 * Math.ceil(rawBs / 256);
  let maxNumTokens: number;
  if (rawToken < 4096) maxNumTokens = Math.max(2048, 256 * Math.ceil(rawToken / 256));
  else if (rawToken < 8192) maxNumTokens = 512 * Math.ceil(rawToken / 512);
  else maxNumTokens = 1024 * Math.ceil(rawToken / 1024);
  return { maxBatchSize, maxNumTokens };
}

/** The HF config.json fields trtllm-bench's ModelConfig reads (bench/build/dataclasses.py). */
function hfFields(model: string): { layers: number; kvHeads: number; headSize: number } {
  const ckpt = Object.entries(FP8_CHECKPOINTS).find(([k]) => k.toLowerCase() === model.toLowerCase());
  const base = (ckpt ? ckpt[1].base : model.replace(/[-_]FP8$/i, '')).toLowerCase();
  const key = Object.keys(BUILTIN_CONFIGS).find((k) => k.toLowerCase() === base);
  const j = key ? (BUILTIN_CONFIGS[key] as Record<string, number | undefined>) : undefined;
  if (!j) throw new Error(`trtllm-bench settings: no built-in config for ${model}`);
  const heads = j.num_attention_heads!;
  // ModelConfig.set_values_if_none: num_key_value_heads defaults to the attention heads and
  // head_size (aliases head_size/head_dim/attention_head_dim) to hidden_size // heads. DeepSeek's
  // MLA config has neither head_dim nor MLA-aware fields here: 128 KV heads of 7168/128 = 56.
  return {
    layers: j.num_hidden_layers!,
    kvHeads: j.num_key_value_heads ?? heads,
    headSize: j.head_dim ?? Math.floor(j.hidden_size! / heads),
  };
}

/**
 * param_count: trtllm-bench sums the checkpoint's safetensors element counts. Here: the model's
 * own count from config.json (models.ts paramCounts) plus the MTP layers the checkpoint ships
 * (each counted as one more layer of the average size); FP8 scale tensors are left out (<0.1%).
 */
function paramCount(model: string): number {
  const m = getModel(model);
  if (!m) throw new Error(`trtllm-bench settings: unknown model ${model}`);
  const p = paramCounts(m);
  return p.total + (m.mtpLayers * (p.total - p.embedding)) / m.numLayers;
}

/** calc_engine_setting, then get_settings' chunked-prefill-off floor. */
export function trtllmBenchSettings(i: TrtllmBenchInput): TrtllmBenchSettings {
  const pp = i.pp ?? 1;
  const fraction = i.kvCacheFreeGpuMemFraction ?? 0.9;
  const f = hfFields(i.model);
  // Each GPU in the TP group holds at least one KV head.
  const bytePerToken = (2 * f.layers * Math.max(i.tp, f.kvHeads) * f.headSize * i.kvBytesPerElem) / GiB;
  const nGpus = i.tp * pp;
  const engineSize = (paramCount(i.model) * i.weightBytesPerElem) / GiB;
  // get_device_memory: NVML memory.total of GPU 0, GiB (gpus.ts memMiB is that figure).
  const totalGpuMemory = (i.gpu.memMiB / 1024) * nGpus;
  const cacheMemory = (totalGpuMemory - engineSize) * fraction;
  const kvCacheMaxRequests = cacheMemory / (bytePerToken * (i.isl + i.osl));
  if (kvCacheMaxRequests < 1) throw new Error(`trtllm-bench settings: ${i.model} on ${nGpus} x ${i.gpu.name} leaves no KV cache`);
  const tuned = finetuneSetting(kvCacheMaxRequests, i.isl, i.osl, pp);
  const maxNumTokens = i.enableChunkedPrefill ? tuned.maxNumTokens : Math.max(tuned.maxNumTokens, i.isl + tuned.maxBatchSize);
  return { maxBatchSize: tuned.maxBatchSize, maxNumTokens, kvCacheMaxRequests };
}
