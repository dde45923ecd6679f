// The one table of per-engine and per-backend efficiency parameters used by the estimate.
// Every value says where it comes from: an engine default read from the engine's source (vLLM v0.11.0
// vllm/engine/arg_utils.py _set_default_args; SGLang 0.5.x python/sglang/srt/server_args.py;
// TensorRT-LLM 1.x tensorrt_llm/commands/serve.py and builder.py BuildConfig), a
// datasheet-style rule of thumb, or "Fit: <what it was fitted on>". All fits were made on the
// training set of model-lab/training.ts and live in fitted.ts (with the date and script that
// fitted them); the held-out rows of src/model/data/published.ts are checked, never fitted. The
// GEMM efficiency is per architecture through the GPU's measured matmul ceiling (gpus.ts
// matmulEff) times a serving fraction fitted per architecture (fitted.ts).
import { UserError } from '../core/errors.js';
import { isGpuEngine, type EngineName, type GpuEngineName } from '../core/variant.js';
import type { GpuSpec } from './gpu-spec.js';
import { FITTED } from './fitted.js';
import { sglangChunkedPrefillSize, vllmServeDefaults } from './serve-defaults.js';
import { type MemFractionContext, sglangCudaGraphMaxBs, sglangMemFractionStatic } from './sglang-mem.js';

const GiB = 1024 ** 3;

/** How an engine builds each step's batch. */
export type SchedulePolicy =
  /** vLLM v1: running requests first (decodes and unfinished prefill chunks), then new ones, one mixed batch. */
  | 'mixed'
  /** SGLang: a prefill batch whenever new requests can be admitted, otherwise a decode batch (no mixing by default). */
  | 'prefill-first'
  /** TRT-LLM GUARANTEED_NO_EVICT: admit only when the whole request (prompt + max tokens) fits; whole prompts, mixed with decodes. */
  | 'no-evict';

export interface EngineEfficiency {
  policy: SchedulePolicy;
  /** Routed-expert grouped GEMMs relative to the dense GEMM efficiency (fitted.ts archEfficiency), on the tile-padded FLOPs of moe-tiles.ts (on Ampere vLLM/SGLang use fitted.ts moeEffAmpere). Fit. */
  moeEff: number;
  /** Fixed host overhead per step (scheduling, sampling, detokenize), seconds. Fit. */
  stepOverheadS: number;
  /** Host overhead per scheduled sequence per step, seconds (input prep, output processing). Fit. */
  perSeqOverheadS: number;
  /** Per-layer launch overhead per step with CUDA graphs, seconds (graph replay is not free). */
  perLayerOverheadS: number;
  /** Extra per-layer overhead of an MoE layer (routing, topk, permute), seconds. Fit (fitted.ts moeLayerOverheadS). */
  moeLayerOverheadS: number;
  /** Extra per-layer cost without CUDA graphs (eager kernel launches, ~10 kernels x ~5us). */
  eagerLayerOverheadS: number;
  /** Extra per-MoE-layer cost without CUDA graphs (routing, top-k, permute, grouped GEMM, unpermute: ~30 launches). */
  eagerMoeLayerOverheadS: number;
  /** The engine overlaps host scheduling with the GPU step (SGLang, TRT-LLM by default; vLLM 0.11 only with --async-scheduling). */
  overlap: boolean;
  /** Speculative decoding bookkeeping per step (draft/verify tree, KV fix-up), seconds. Fit. */
  specStepOverheadS: number;
  /** Multiplier on step time with torch.compile on. Compiled graphs cover only small batches (SGLang torch-compile-max-bs 32). */
  torchCompileLargeBatch: number;
  torchCompileSmallBatch: number;
  /** Batch size up to which torch.compile graphs apply (SGLang --torch-compile-max-bs default 32). */
  torchCompileMaxBs: number;
  /** Default attention backend for a GPU (vLLM v0.11.0 vllm/platforms/cuda.py get_attn_backend_cls; SGLang server_args.py). */
  defaultBackend: (gpu: GpuSpec, mla: boolean) => string;
  /** Default max batched tokens (the engine source files named at the top of this file). */
  defaultMaxBatchedTokens: (gpu: GpuSpec) => number;
  /** Default cap on running sequences (the engine source files named at the top of this file). */
  defaultMaxRunningSeqs: (gpu: GpuSpec, speculative: boolean) => number;
  /** Default memory fraction in the engine's own meaning (the engine source files named at the top of this file). */
  defaultMemFraction: (gpu: GpuSpec, ctx: MemFractionContext) => number;
  /** Largest decode batch captured as a CUDA graph; larger batches run eager. */
  cudaGraphMaxBs: (gpu: GpuSpec, tp: number) => number;
  /**
   * The API server's serial work per request before the engine sees it (request parsing, chat
   * template, tokenization, hand-off), seconds, plus frontEndPerPromptTokenS per prompt token.
   * Requests sent together reach the engine together, once all of them are preprocessed
   * (src/sim/scheduler/front-end.ts).
   */
  frontEndPerRequestS: number;
  /** Tokenization per prompt token on the serial front-end path, seconds. */
  frontEndPerPromptTokenS: number;
}

/**
 * Values shared by the three engines (they run the same kinds of kernels); each engine entry
 * overrides what differs. "Fit (fitted.ts)" values come from model-lab/fit.ts on the training set;
 * "hand-set on C" values were set by hand against study C's low-concurrency TPOT (a training
 * point) before model-lab/fit.ts existed and are not refitted by it.
 */
const COMMON = {
  // The dense GEMM and weight-streaming efficiencies are per GPU architecture (fitted.ts archEfficiency).
  // Fit (fitted.ts): routed-expert grouped GEMMs (fused MoE) relative to the dense GEMM efficiency,
  // charged on the FLOPs padded to the kernel's M tile (moe-tiles.ts). Hopper MoE data: study C
  // (H200) only; Ampere has its own factor (fitted.ts moeEffAmpere, study B).
  moeEff: FITTED.moeEff,
  // Fit (fitted.ts): scheduling, sampling and detokenising one step on the host.
  stepOverheadS: FITTED.stepOverheadS,
  // Fit (fitted.ts): input preparation and output processing per sequence per step (vLLM exposes
  // this host work; overlap engines hide it behind the GPU step).
  perSeqOverheadS: FITTED.perSeqOverheadS,
  // CUDA-graph replay still launches per layer. Hand-set on C's low-concurrency TPOT.
  perLayerOverheadS: 20e-6,
  // Fit (fitted.ts): routing, top-k and token permutation per MoE layer (studies B and C).
  moeLayerOverheadS: FITTED.moeLayerOverheadS,
  // Eager mode: ~10 kernels x ~6 us launch per layer.
  eagerLayerOverheadS: 60e-6,
  // Eager MoE layer: ~30 launches (routing, top-k, permute, grouped GEMM, unpermute) x ~5 us.
  eagerMoeLayerOverheadS: 150e-6,
  // Draft-tree bookkeeping and KV fix-up per speculative step (rule of thumb: a few ms).
  specStepOverheadS: 2e-3,
  // Engines that compile by default (vLLM) or not at all gain nothing from the knob.
  torchCompileLargeBatch: 1.0,
  torchCompileSmallBatch: 1.0,
  torchCompileMaxBs: 512,
  // No training row shows a per-request front-end cost for SGLang or TRT-LLM (SGLang's random
  // 128/4 row is within 1% without one), so none is modelled for them.
  frontEndPerRequestS: 0,
  // Tokenization runs on one thread per request: "a DGX H100's CPU can do only about 1k tokens/ms"
  // (vllm#19012, simon-mo; the same Rust HF tokenizers serve all three engines' front-ends).
  frontEndPerPromptTokenS: 1e-6,
};

export const ENGINE_EFFICIENCY: Record<GpuEngineName, EngineEfficiency> = {
  vllm: {
    ...COMMON,
    policy: 'mixed',
    // vLLM 0.11 runs the scheduler between steps (async scheduling is opt-in, vllm#19970), so nothing is hidden.
    overlap: false,
    // vLLM 0.11's OpenAI server preprocesses each request on one thread (serving_engine.py
    // `ThreadPoolExecutor(max_workers=1)`, vllm#25301; sequential per-request tokenization,
    // vllm#19012), in one process (--api-server-count 1, vllm#17546). Fit (fitted.ts): its size,
    // on the training set (the Qwen3-14B pages and the studies). The published runs put it at
    // 5-17 ms per request depending on the page (host CPU or chat template: the pages do not say
    // which; model-lab/DIAGNOSIS.md section 6): one value cannot fit them all.
    frontEndPerRequestS: FITTED.vllmFrontEndPerRequestS,
    // vLLM 0.11 (platforms/cuda.py get_attn_backend_cls, 0.11.x stored copy): MLA on SM100 takes
    // CUTLASS_MLA first (`is_device_capability(100) and block_size % 128 == 0`), FlashMLA on
    // Hopper, Triton elsewhere (SM 12.x included); FlashInfer is the non-MLA default only on
    // SM100, SM 12.x stays on FlashAttention.
    // On ROCm (AMD parts, no compute capability) with AITER off, vLLM's default is its Triton
    // unified attention (ROCm docs, vLLM inference optimization: "vLLM Triton Unified Attention
    // (default when AITER is off)"; platforms/rocm.py "Using Triton Attention backend") and
    // Triton MLA for MLA models.
    defaultBackend: (g, mla) => {
      const cc = g.computeCapability;
      if (cc === undefined) return mla ? 'triton_mla' : 'triton';
      const sm100 = cc >= 10 && cc < 11;
      if (mla) return sm100 ? 'cutlass_mla' : cc >= 9 && cc < 10 ? 'flashmla' : 'triton_mla';
      return sm100 ? 'flashinfer' : 'flash_attn';
    },
    // v0.11.0 `vllm serve`: 8192 / 1024 on >=70 GiB non-A100 GPUs, else 2048 / 256 (serve-defaults.ts,
    // with its source); max_num_seqs is capped at max_num_batched_tokens.
    defaultMaxBatchedTokens: (g) => vllmServeDefaults(g.name, g.memMiB).maxBatchedTokens,
    defaultMaxRunningSeqs: (g) => vllmServeDefaults(g.name, g.memMiB).maxNumSeqs,
    // --gpu-memory-utilization 0.9 of total memory (v0.11; 0.92 from v0.25: versions.ts).
    defaultMemFraction: () => 0.9,
    // default capture sizes go up to min(2 x max_num_seqs, 512).
    cudaGraphMaxBs: () => 512,
  },
  sglang: {
    ...COMMON,
    policy: 'prefill-first',
    // The overlap scheduler prepares batch N+1 while batch N runs on the GPU (default since v0.4).
    overlap: true,
    // Compiled graphs only cover batches <= torch-compile-max-bs; larger ones pay guard checks.
    torchCompileLargeBatch: 1.04,
    torchCompileSmallBatch: 0.98,
    torchCompileMaxBs: 32,
    // fa3 on Hopper (MHA and MLA); flashinfer for MLA on Blackwell; flashinfer elsewhere. On ROCm
    // (no compute capability) aiter: server_args.py `elif is_hip(): return "aiter"` (its default MHA
    // backend on HIP); the estimate has no figures of its own for it and uses 'default'.
    defaultBackend: (g) => {
      const cc = g.computeCapability;
      if (cc === undefined) return 'aiter';
      return cc >= 9 && cc < 10 ? 'fa3' : 'flashinfer';
    },
    // chunked-prefill-size from GPU memory in MiB: <35 Gi 2048, <60 Gi 4096, <160 Gi 8192, else 16384 (serve-defaults.ts).
    defaultMaxBatchedTokens: (g) => sglangChunkedPrefillSize(g.memMiB),
    // Derived from the KV pool (capped here at 4096); 48 when EAGLE/NGRAM is on (server_args.py).
    defaultMaxRunningSeqs: (_g, speculative) => (speculative ? 48 : 4096),
    // mem-fraction-static auto: server_args.py's formula by chunk, graph batch, TP/PP and DP attention (sglang-mem.ts).
    defaultMemFraction: sglangMemFractionStatic,
    // cuda-graph-max-bs auto: by GPU memory and TP, as _handle_gpu_memory_settings sets it (32 / 160
    // under 60 GiB, 256 / 512 on H100/H200, 512 on >= 160 GiB; sglang-mem.ts has the table and source).
    cudaGraphMaxBs: sglangCudaGraphMaxBs,
  },
  trtllm: {
    ...COMMON,
    policy: 'no-evict',
    // Default MoE backend is CUTLASS (moe_config.backend): M tile 128 (moe-tiles.ts), at the grouped-GEMM
    // factor the other engines share (fitted.ts moeEff). Its own factor, fitted on study C's one
    // TRT-LLM row, was a per-case fit and is gone; that row now reads high (model-lab/DIAGNOSIS.md 1b).
    moeEff: FITTED.moeEff,
    // PyTorch backend overlap scheduler on by default (disable_overlap_scheduler: false).
    overlap: true,
    // torch_compile_config's piecewise graphs shave a little off small batches (rule of thumb).
    torchCompileSmallBatch: 0.97,
    defaultBackend: () => 'trtllm',
    // BuildConfig max_num_tokens 8192.
    defaultMaxBatchedTokens: () => 8192,
    // BuildConfig max_batch_size 2048.
    defaultMaxRunningSeqs: () => 2048,
    // kv_cache_free_gpu_memory_fraction 0.9 of the memory left after the weights.
    defaultMemFraction: () => 0.9,
    cudaGraphMaxBs: () => 512,
  },
};

export interface BackendEfficiency {
  /** Fraction of peak BF16 FLOP/s reached by prefill attention. */
  prefillFlopsEff: number;
  /** Multiplier on a step's time when it carries prefill (the backend's prefill path as a whole, not only attention). */
  prefillStepFactor: number;
  /** Where prefillStepFactor was measured and applies: 'hopper' = compute capability 9.x only (elsewhere 1). */
  prefillStepFactorOn?: 'hopper';
  /** Fraction of HBM bandwidth reached reading the KV cache in decode. */
  decodeBwEff: number;
}

/**
 * Attention kernels, keyed by servelab's engine-neutral backend name. Unknown names fall back to
 * 'default'. Relative values fit the published SGLang backend stage on H100 (fa3 best, triton a
 * few percent behind in decode, flashinfer far behind in prefill); absolute values are typical
 * achieved fractions of FlashAttention-class kernels (~50-60% of peak, ~70-80% of bandwidth).
 */
export const BACKEND_EFFICIENCY: Record<string, BackendEfficiency> = {
  default: { prefillFlopsEff: 0.5, prefillStepFactor: 1, decodeBwEff: 0.7 },
  fa3: { prefillFlopsEff: 0.6, prefillStepFactor: 1, decodeBwEff: 0.75 },
  flash_attn: { prefillFlopsEff: 0.5, prefillStepFactor: 1, decodeBwEff: 0.7 },
  // SGLang's FlashInfer prefill path on Hopper lacks FA3's fused kernels: prefill steps ~1.5x slower,
  // decode unchanged. PER-CASE FIT: A's flashinfer variant alone (TTFT ~1.8x, ITL equal), so it
  // applies on Hopper only: the gap is relative to FA3, which SGLang does not use on A100 (where
  // FlashInfer is its default) or Blackwell.
  flashinfer: { prefillFlopsEff: 0.4, prefillStepFactor: 1.5, prefillStepFactorOn: 'hopper', decodeBwEff: 0.75 },
  // Triton decode kernels read the KV cache ~10% slower. PER-CASE FIT: A's triton variant alone
  // (published ITL +7%, TPOT +10%).
  triton: { prefillFlopsEff: 0.45, prefillStepFactor: 1, decodeBwEff: 0.62 },
  flex: { prefillFlopsEff: 0.3, prefillStepFactor: 1.1, decodeBwEff: 0.45 },
  torch_native: { prefillFlopsEff: 0.15, prefillStepFactor: 1.3, decodeBwEff: 0.3 },
  flashmla: { prefillFlopsEff: 0.5, prefillStepFactor: 1, decodeBwEff: 0.8 },
  triton_mla: { prefillFlopsEff: 0.4, prefillStepFactor: 1, decodeBwEff: 0.55 },
  cutlass_mla: { prefillFlopsEff: 0.5, prefillStepFactor: 1, decodeBwEff: 0.75 },
  trtllm: { prefillFlopsEff: 0.6, prefillStepFactor: 1, decodeBwEff: 0.75 },
};

/** Non-engine constants of the estimate. */
export const HARDWARE = {
  /** All-reduce latency per call: NVLink custom all-reduce ~10 us, PCIe NCCL ~40 us. */
  allReduceLatencyS: { nvlink: 10e-6, pcie: 40e-6 },
  /** Achieved fraction of link bandwidth in collectives (NCCL bus bandwidth ~70%). */
  collectiveBwEff: 0.7,
  /**
   * Weight-only FP8 on GPUs without FP8 tensor cores (A100): vLLM runs Marlin kernels that
   * dequantize in-kernel and compute in BF16; their speed-up holds only at small batches (Marlin's
   * README: near-ideal up to batch 16-32, decreasing beyond). Two kernels, two values: dense layers
   * (quantization/utils/marlin_utils_fp8.py, apply_fp8_marlin_linear) and routed experts
   * (fused_marlin_moe). Dense: Fit (fitted.ts marlinFp8DenseGemmPenalty) on the training set's one
   * dense weight-only FP8 row (Qwen3-14B-FP8 on A100), checked on the held-out Qwen3-32B-FP8 row.
   */
  marlinFp8DenseGemmPenalty: FITTED.marlinFp8DenseGemmPenalty,
  /** Routed experts (fused_marlin_moe): rule of thumb, not fitted (study B's GLM-4.6-FP8 rows are matched with it and the fitted moeEff). */
  weightOnlyFp8GemmPenalty: 1.15,
  /** Memory the engine keeps outside weights, activations and KV (CUDA context, graphs), bytes: TRT-LLM, and the weights-fit check. Rule of thumb. */
  runtimeReserveBytes: 2.5 * GiB,
  /** KV block size in tokens (vLLM/SGLang page granularity for the scheduler). */
  kvBlockTokens: 16,
  /** Routed tokens are not spread evenly over expert-parallel ranks without EPLB: slowest rank / mean. */
  epImbalance: 1.05,
  /**
   * Block-scaled FP8 GEMMs (128x128 scales, DeepGEMM/CUTLASS/Triton w8a8 block) reach this share
   * of the FP8 peak's share that BF16 GEMMs reach of theirs. Fit (fitted.ts) on the training set,
   * whose FP8 rows are all block-scaled checkpoints (Qwen3-*-FP8). Also used for FP8 checkpoints
   * whose scaling is not known (models.ts fp8Scaling undefined) and for online --quantization fp8.
   */
  fp8GemmEff: FITTED.fp8GemmEff,
  /**
   * Per-tensor (or per-channel/row) FP8 GEMMs: scales applied once in the epilogue, so the main
   * loop is a plain FP8 GEMM that reaches the same share of the FP8 peak as BF16 of the BF16 peak.
   * Not fitted (the training set has no per-tensor FP8 row). Source: pytorch/FBGEMM PR #2546
   * (github.com/pytorch/FBGEMM/pull/2546), H100 500 W, "fp8 row gemm only" vs "bf16" TFLOP/s:
   * 8192^3 1125.51 vs 585.23 (1.92x), 65536x8192x7168 1082.75 vs 575.12 (1.88x), 65536x3584x8192
   * 1141.38 vs 546.31 (2.09x): 0.94-1.04 of the 2x peak ratio. The same runs' "fp8 block gemm
   * only" (870.40, 828.34, 828.31) is 1.44-1.52x BF16, i.e. 0.72-0.76 of it, the same order as the
   * fitted block value above.
   */
  fp8TensorGemmEff: 1,
  /** MLA decode kernels (FlashMLA, FA3-MLA) process query heads in tiles of up to 128 (one CTA per 64-head half, both launched): fewer heads per GPU waste the rest of the tile. */
  mlaHeadTile: 128,
  /** Mean accepted draft tokens per verified draft position (EAGLE/MTP acceptance ~0.6-0.8 on chat data). */
  specAcceptRate: 0.7,
  /**
   * Bytes per second one GPU reads KV blocks back from host memory (the prefix cache's CPU tier:
   * vLLM KV offloading, SGLang HiCache). Assumption: about 40% of PCIe Gen5 x16's 64 GB/s per
   * direction, the share pageable-to-device copies of small blocks reach; no published measurement
   * of either engine's reload rate was found.
   */
  hostKvBytesPerS: 25e9,
};

export function engineEfficiency(engine: EngineName): EngineEfficiency {
  if (!isGpuEngine(engine)) throw new UserError(`servelab's performance model has no entry for ${engine}: it is measured, not predicted`);
  return ENGINE_EFFICIENCY[engine];
}

export function backendEfficiency(name: string): BackendEfficiency {
  return BACKEND_EFFICIENCY[name] ?? BACKEND_EFFICIENCY.default!;
}
