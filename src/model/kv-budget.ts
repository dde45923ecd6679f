// How much memory each engine gives its KV cache, the way the engine itself computes it at start.
// - vLLM (read at the v0.11.0 tag, commit b8b302cde; model-lab/DIAGNOSIS.md section 7 quotes it):
//   v1/worker/gpu_worker.py determine_available_memory: requested = total x
//   --gpu-memory-utilization, minus the weights, the torch peak of the profile run and the
//   non-torch increase (cuBLAS/NCCL workspaces). The profile run (v1/worker/gpu_model_runner.py
//   profile_run) is one forward pass of max_num_batched_tokens tokens, then, on the last PP rank,
//   _dummy_sampler_run on min(max_num_seqs, max_num_batched_tokens) rows of full-vocabulary logits
//   with temperature 0.5, top_p 0.9 and top_k vocab-1, in one call (no chunking). With 1024
//   default sequences on H100 the sampler, not the forward pass, sets the peak; how big it is
//   depends on which top-k/top-p kernel the release uses (vllmSamplerBytesPerLogit). CUDA graphs
//   are captured after the KV cache is allocated and are not subtracted.
// - SGLang (model_runner.py profile_max_num_token): rest = free memory after loading the weights -
//   total x (1 - --mem-fraction-static). The free memory is what CUDA reports, so the process's
//   CUDA context (CUDA_CONTEXT_BYTES) comes out of the KV pool too.
// - TRT-LLM: kv_cache_free_gpu_memory_fraction of the memory left after weights and activations.
import type { EngineName } from '../core/variant.js';
import { ENGINE_BEHAVIOUR } from './engine-behaviour.js';
import { engineMemBytes } from './gpus.js';
import type { GpuSpec } from './gpu-spec.js';
import type { ModelInfo } from './models.js';
import { HARDWARE } from './efficiency.js';
import { compareVersions, TARGET_VERSIONS } from './versions.js';

const GiB = 1024 ** 3;

/**
 * Bytes of the sampler's profile peak per logit (rows x vocabulary) on PyTorch's top-k/top-p path
 * (topk_topp_sampler.py apply_top_k_top_p: the fp32 upcast, a full sort's values and int64
 * indices with its workspace, the masks, the top-p softmax and the scatter back). Measured, not
 * fitted: vLLM start-up logs on one H100 with 1024 sequences report a "peak activation" of 5.56 GiB
 * for Qwen3-0.6B (vocabulary 151,936), 4.76 GiB for Llama-3.1-8B (128,256), 7.38 GiB for
 * gpt-oss-20b (201,088) and 5.64 GiB for Qwen3-32B: 38.4-38.9 bytes per logit whatever the model
 * size (github.com/llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md, added
 * in commit 0282dcf6 of 2026-01-27, run with the image `vllm/vllm-openai:latest` of that week:
 * vLLM 0.13 or 0.14, after vllm#26859 turned FlashInfer's sampler off by default).
 */
export const VLLM_SORT_SAMPLER_BYTES_PER_LOGIT = 38.5;

/**
 * The same peak on FlashInfer's top-k/top-p path, counted from the source, not measured: the
 * model's bf16 logits (2 B) stay alive in _dummy_sampler_run, Sampler.forward upcasts them to fp32
 * (4 B), flashinfer.sampling.top_k_top_p_sampling_from_logits (v0.3.1, filter_apply_order
 * "top_k_first") allocates top_k_mask_logits' output (4 B) and its softmax (4 B), and
 * top_p_sampling_from_probs samples in place: 14 B per logit, no sort.
 */
export const VLLM_FLASHINFER_SAMPLER_BYTES_PER_LOGIT = 14;

/**
 * The first release whose sampler does not use FlashInfer by default: vllm#26859 ("Disable
 * FlashInfer sampler by default", opened 2025-10-15; not in the v0.11.0 tag of 2025-10-10, whose
 * topk_topp_sampler.py still enables it; vllm#29415 of 2025-11-25 says it is "disabled by default").
 */
export const VLLM_SORT_SAMPLER_FROM = '0.11.1';

/**
 * vLLM 0.11.0 (v1/sample/ops/topk_topp_sampler.py at b8b302cde) uses FlashInfer's sampler when
 * `import flashinfer.sampling` works, FlashInfer is >= 0.2.3 and VLLM_USE_FLASHINFER_SAMPLER is
 * not set to 0 ("In V1, None means True"); its Docker image (docker/Dockerfile, vllm-base stage)
 * and GPUStack's v0.11.0 runner (gpustack/runner pack/cuda/Dockerfile@9063cc7) both install
 * FlashInfer 0.3.1. A plain `pip install vllm==0.11.0` has no FlashInfer (requirements/cuda.txt;
 * it is the `flashinfer` extra in setup.py) and takes the sort path: the model follows the images.
 * From VLLM_SORT_SAMPLER_FROM on the sort path is the default. Releases before 0.11.0 were not
 * read and are modelled as 0.11.0 (versions.ts: an unknown version is the target release).
 */
export function vllmSamplerBytesPerLogit(version?: string): number {
  return compareVersions(version ?? TARGET_VERSIONS.vllm, VLLM_SORT_SAMPLER_FROM) < 0
    ? VLLM_FLASHINFER_SAMPLER_BYTES_PER_LOGIT
    : VLLM_SORT_SAMPLER_BYTES_PER_LOGIT;
}

/**
 * Memory a serving process holds before loading anything (CUDA context, cuBLAS handles): vLLM
 * logs "Free memory on device (78.57/79.18 GiB) on startup" on an idle H100 (llm-d source above).
 */
export const CUDA_CONTEXT_BYTES = (79.18 - 78.57) * GiB;

/**
 * vLLM's non-torch increase during profiling: 0.13-0.14 GiB on one GPU, 0.55 GiB with TP 2 (NCCL),
 * same logs (a 0.13/0.14 image; v0.11.0 measures it the same way: from the snapshot taken after
 * NCCL init in init_device to the end of the profile run).
 */
export function vllmNonTorchBytes(gpusPerReplica: number): number {
  return gpusPerReplica > 1 ? 0.55 * GiB : 0.14 * GiB;
}

/** Forward activation peak of one max-size batch: a handful of hidden-size buffers per token in flight (rule of thumb). */
export function forwardActivationBytes(m: ModelInfo, tokens: number, tp: number): number {
  return tokens * (m.hiddenSize * 2 * 12 + (m.vocabSize / tp) * 4 * 0.05);
}

/**
 * vLLM's torch peak during the profile run: the larger of the forward pass and the sampler. Every
 * TP rank samples the all-gathered full-vocabulary logits (Platform.use_all_gather under V1), so
 * the sampler term is not divided by TP.
 */
export function vllmProfilePeakBytes(m: ModelInfo, maxBatchedTokens: number, maxRunningSeqs: number, tp: number, version?: string): number {
  const samplerRows = Math.min(maxRunningSeqs, maxBatchedTokens);
  return Math.max(forwardActivationBytes(m, maxBatchedTokens, tp), samplerRows * m.vocabSize * vllmSamplerBytesPerLogit(version));
}

export interface KvBudget {
  /** Bytes per GPU the KV cache gets (may be <= 0: nothing left). */
  kvBytes: number;
  /** Bytes per GPU that weights and KV must share (what the weights are checked against). */
  budget: number;
  /** Bytes per GPU of activations and runtime the engine sets aside outside the KV cache. */
  reserved: number;
}

export interface BudgetInput {
  engine: EngineName;
  gpu: GpuSpec;
  model: ModelInfo;
  weightsPerGpu: number;
  memFraction: number;
  maxBatchedTokens: number;
  maxRunningSeqs: number;
  tp: number;
  pp: number;
  /** The engine release (undefined: the target release, versions.ts TARGET_VERSIONS). */
  engineVersion?: string;
}

export function kvBudget(i: BudgetInput): KvBudget {
  const mem = engineMemBytes(i.gpu);
  const accounting = ENGINE_BEHAVIOUR[i.engine].kvAccounting;
  if (accounting === 'profiled-peak') {
    const reserved =
      vllmProfilePeakBytes(i.model, i.maxBatchedTokens, i.maxRunningSeqs, i.tp, i.engineVersion) + vllmNonTorchBytes(i.tp * i.pp);
    const budget = mem * i.memFraction - reserved;
    return { kvBytes: budget - i.weightsPerGpu, budget, reserved };
  }
  if (accounting === 'static-fraction') {
    const budget = mem * i.memFraction - CUDA_CONTEXT_BYTES;
    return { kvBytes: budget - i.weightsPerGpu, budget, reserved: mem - budget };
  }
  const reserved = forwardActivationBytes(i.model, i.maxBatchedTokens, i.tp) + HARDWARE.runtimeReserveBytes;
  const budget = mem - reserved;
  return { kvBytes: (budget - i.weightsPerGpu) * i.memFraction, budget, reserved };
}
