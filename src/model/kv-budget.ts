// How much memory each engine gives its KV cache, the way the engine itself computes it at start.
// - vLLM 0.11 (v1/worker/gpu_worker.py determine_available_memory): requested = total x
//   --gpu-memory-utilization, minus the weights, the torch peak of the profile run and the
//   non-torch increase (cuBLAS/NCCL workspaces). The profile run (v1/worker/gpu_model_runner.py
//   profile_run) is one forward pass of max_num_batched_tokens tokens followed by the sampler on
//   min(max_num_seqs, max_num_batched_tokens) rows of full-vocabulary logits with top-p and top-k
//   set (_dummy_sampler_run; the sampler joined the profile in vllm#13594), so with 1024 default
//   sequences on H100 the sampler, not the forward pass, sets the peak. CUDA graphs are captured
//   after the KV cache is allocated and are not subtracted.
// - SGLang (model_runner.py profile_max_num_token): rest = free memory after loading the weights -
//   total x (1 - --mem-fraction-static). The free memory is what CUDA reports, so the process's
//   CUDA context (CUDA_CONTEXT_BYTES) comes out of the KV pool too.
// - TRT-LLM: kv_cache_free_gpu_memory_fraction of the memory left after weights and activations.
import type { EngineName } from '../core/variant.js';
import { engineMemBytes, type GpuSpec } from './gpus.js';
import type { ModelInfo } from './models.js';
import { HARDWARE } from './efficiency.js';

const GiB = 1024 ** 3;

/**
 * Bytes of the sampler's profile peak per logit (rows x vocabulary): the fp32 upcast, sort values
 * and int64 indices, the top-k/top-p masks and the scatter back. Measured, not fitted: vLLM's
 * start-up logs on H100 with 1024 sequences report a "peak activation" of 5.56 GiB for Qwen3-0.6B
 * (vocabulary 151,936), 4.76 GiB for Llama-3.1-8B (128,256), 7.38 GiB for gpt-oss-20b (201,088)
 * and 5.64 GiB for Qwen3-32B: 38.4-38.9 bytes per logit in every case, whatever the model size
 * (github.com/llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md).
 */
export const VLLM_SAMPLER_BYTES_PER_LOGIT = 38.5;

/**
 * Memory a serving process holds before loading anything (CUDA context, cuBLAS handles): vLLM
 * logs "Free memory on device (78.57/79.18 GiB) on startup" on an idle H100 (llm-d source above).
 */
export const CUDA_CONTEXT_BYTES = (79.18 - 78.57) * GiB;

/** vLLM's non-torch increase during profiling: 0.13-0.14 GiB on one GPU, 0.55 GiB with TP 2 (NCCL), same source. */
export function vllmNonTorchBytes(gpusPerReplica: number): number {
  return gpusPerReplica > 1 ? 0.55 * GiB : 0.14 * GiB;
}

/** Forward activation peak of one max-size batch: a handful of hidden-size buffers per token in flight (rule of thumb). */
export function forwardActivationBytes(m: ModelInfo, tokens: number, tp: number): number {
  return tokens * (m.hiddenSize * 2 * 12 + (m.vocabSize / tp) * 4 * 0.05);
}

/** vLLM's torch peak during the profile run: the larger of the forward pass and the sampler. */
export function vllmProfilePeakBytes(m: ModelInfo, maxBatchedTokens: number, maxRunningSeqs: number, tp: number): number {
  const samplerRows = Math.min(maxRunningSeqs, maxBatchedTokens);
  return Math.max(forwardActivationBytes(m, maxBatchedTokens, tp), samplerRows * m.vocabSize * VLLM_SAMPLER_BYTES_PER_LOGIT);
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
}

export function kvBudget(i: BudgetInput): KvBudget {
  const mem = engineMemBytes(i.gpu);
  if (i.engine === 'vllm') {
    const reserved = vllmProfilePeakBytes(i.model, i.maxBatchedTokens, i.maxRunningSeqs, i.tp) + vllmNonTorchBytes(i.tp * i.pp);
    const budget = mem * i.memFraction - reserved;
    return { kvBytes: budget - i.weightsPerGpu, budget, reserved };
  }
  if (i.engine === 'sglang') {
    const budget = mem * i.memFraction - CUDA_CONTEXT_BYTES;
    return { kvBytes: budget - i.weightsPerGpu, budget, reserved: mem - budget };
  }
  const reserved = forwardActivationBytes(i.model, i.maxBatchedTokens, i.tp) + HARDWARE.runtimeReserveBytes;
  const budget = mem - reserved;
  return { kvBytes: (budget - i.weightsPerGpu) * i.memFraction, budget, reserved };
}
