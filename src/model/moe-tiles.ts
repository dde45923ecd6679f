// Tile padding of the routed experts' grouped GEMMs. A grouped GEMM runs each expert's tokens as
// its own matrix, padded up to the kernel's M tile: at a decode batch of ~150 with 8 of 128
// experts each expert sees ~10 tokens and a 64-row tile does ~15% useful work, while a prefill
// chunk of 8192 tokens fills the tiles. The model charges the padded FLOPs (this file) at the
// dense GEMM rate times one fitted grouped-GEMM factor (fitted.ts moeEff, moeEffAmpere; TensorRT-LLM shares them since trtllmMoeEff was removed).
// Per-expert tokens are the step's mean (tokens x top_k / experts touched); the spread between
// experts is not modelled. Engines' tuned per-shape config files (vLLM/SGLang fused_moe
// configs/E=..,N=..,device_name=...json) can pick other tiles; the defaults below are what runs
// without one.
import type { EngineName } from '../core/variant.js';
import { ENGINE_BEHAVIOUR } from './engine-behaviour.js';

export interface MoeTileInput {
  engine: EngineName;
  /** FP8 weights on FP8 tensor cores (fp8_w8a8), as opposed to BF16. */
  fp8: boolean;
  /** FP8 weights run weight-only through Marlin (GPUs without FP8 tensor cores; vLLM only). */
  weightOnlyFp8: boolean;
  /** Tokens entering the MoE layer on one rank this step (the kernel's M). */
  tokens: number;
  numExperts: number;
  topK: number;
}

/**
 * The M tile of the engine's default MoE kernel.
 * - vLLM (Triton fused_moe, vllm/model_executor/layers/fused_moe/fused_moe.py@000d1458
 *   get_default_config): block-FP8 `"BLOCK_SIZE_M": 64`; Marlin `for block_size_m in [8, 16, 32,
 *   48, 64]: if M * topk / E / block_size_m < 0.9: break`; otherwise `elif M <= E:
 *   "BLOCK_SIZE_M": 16` else 64. FP8 checkpoints are taken as block-scaled (fp8GemmEff assumes it too).
 * - SGLang (python/sglang/srt/layers/moe/fused_moe_triton/fused_moe.py get_default_config):
 *   `if dtype == "fp8_w8a8"`: `"BLOCK_SIZE_M": 128`, 64 `if M <= E`; otherwise 64, 16 `if M <= E`.
 * - TensorRT-LLM (CUTLASS MoE, cpp/tensorrt_llm/kernels/cutlass_kernels/cutlass_heuristic.cpp
 *   get_candidate_tiles_sm90, GROUPED_GEMM and not WEIGHT_ONLY): every candidate tile is
 *   CtaShape128xN or 256x128, and the DeepSeek FP8 block-scaling path sets CtaShape128x16x128B;
 *   the autotuner picks among them, so 128, the smallest. Ampere's SM80 MoE tiles are not read: 128 used.
 */
export function moeTileM(x: MoeTileInput): number {
  const small = x.tokens <= x.numExperts;
  const tiles = ENGINE_BEHAVIOUR[x.engine].moeTiles;
  if (tiles === 'cutlass') return 128;
  if (tiles === 'triton-default') return x.fp8 ? (small ? 64 : 128) : small ? 16 : 64;
  if (x.weightOnlyFp8) {
    for (const t of [8, 16, 32, 48, 64]) if ((x.tokens * x.topK) / x.numExperts / t < 0.9) return t;
    return 64;
  }
  if (x.fp8) return 64;
  return small ? 16 : 64;
}

/**
 * Padded FLOPs over useful FLOPs of the routed experts this step (>= 1): m / roundUp(m, tile) is
 * the useful share, m = tokens x top_k / experts touched (1 - (1 - k/E)^tokens of them).
 */
export function moePaddingFactor(x: MoeTileInput): number {
  const tokens = Math.max(1, x.tokens);
  const touched = x.numExperts * (1 - Math.pow(1 - x.topK / x.numExperts, tokens));
  const m = (tokens * x.topK) / Math.max(1, touched);
  const tile = moeTileM(x);
  return (Math.ceil(m / tile) * tile) / m;
}
