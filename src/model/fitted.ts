// The model's fitted constants, in one place, with what they were fitted on. Everything else in
// src/model is read from engine source, a datasheet or a public measurement (each says which).
//
// FITTED ON: the training set declared in model-lab/training.ts (the three studies of
// src/model/data/studies.ts, seed-42 ShareGPT draw, plus the published Qwen3-14B rows of
// src/model/data/published.ts marked split 'train'), by `npx tsx model-lab/fit.ts --write` on
// 2026-12-05 (coordinate descent on the mean |log(simulated / published)| over those rows).
// The held-out rows (published.ts split 'held-out') were never read by the fit; their error is
// reported by model-lab/validate.ts and docs/calibration.md.
// The values below come from a chain of runs (2 rounds each): the first pass's hand-set values with
// one GEMM and bandwidth value for all GPUs; the per-architecture split from there; then, after
// vLLM's KV budget (kv-budget.ts) and the serial API front-end (efficiency.ts) were added, two more
// runs from those values (the second with --write).
// A further run split the weight-only FP8 penalty into dense (fitted, marlinFp8DenseGemmPenalty) and
// routed-expert (rule of thumb) kernels: with one shared value the fit could not move it (the dense
// Qwen3-14B-FP8 row wanted more, study B's MoE rows none). A last run (--write) followed SGLang's
// CUDA-context term in kv-budget.ts: training error mean |ln| 0.0416, median 2.5% over 36 rows.
// A last run (--write, 2 rounds) followed the MoE tile padding of moe-tiles.ts: moeEff and
// trtllmMoeEff now multiply the tile-padded expert FLOPs (no longer the flat ones), moeEffAmpere
// is new; started from the previous values with moeEff 0.632, moeEffAmpere 0.35, trtllmMoeEff
// 0.374 (a 3-round exploratory fit without moeEffAmpere): training error mean |ln| 0.0322,
// median 2.1%, worst 11.0% over the 36 rows.
// moeLayerOverheadS, hand-set at 120 us before, then joined the fit (2 rounds from these values, no
// --write needed): no grid step (84-168 us) lowered the loss, so it stays 120 us, now as a fit on
// the training set; with the rest fixed the loss is 0.0480 at 60 us, 0.0581 at 30 us, 0.0645 at 240 us.
// A last run (--write, 2 rounds) followed the burst hand-off of vLLM's front end (src/sim/scheduler/front-end.ts),
// started from these values with vllmFrontEndPerRequestS 12 ms (from 23.9 ms the first round pushed
// gemmServingEffAmpere to 0.9 to make up for a 24 s burst): no grid step moved the front end;
// training mean |ln| 0.0322 -> 0.0371, median 2.3%, worst 18.7% (study A vLLM) over the 36 rows.
// Host work per step then became batch-dependent: stepOverheadS and perSeqOverheadS are FITTED ON
// THE H100 ROWS of NVIDIA AIConfigurator's measured aiperf runs (model-lab/data/silicon, every 8th
// H100 row, model-lab/silicon-fit.ts, log silicon-fit.txt): the studies' bursts always run large
// batches, where a fixed step cost and a per-sequence one look alike, and the measured runs at
// concurrency 4-128 tell them apart (11.2 ms fixed -> 2.8 ms + 40 us per sequence, about the old
// figure at the studies' batches). The H200 rows are never fitted. That fit ran with a what-if in
// place (TensorRT-LLM's MoE token tile following the tokens per expert), which also moved
// moeLayerOverheadS to 10.9 us; the what-if breaks study C's published engine order, so it was not
// adopted (model-lab/HISTORY.md, "Measured runs: AIConfigurator's silicon sample") and moeLayerOverheadS keeps the studies' value.
// The other constants were not refit after this change.
// Rerun `npx tsx model-lab/fit.ts` after changing a mechanism.

/**
 * GPU architectures with their own fitted efficiencies: 'ampere' (A100, compute capability 8.0)
 * and 'hopper' (H100, H200). The training set has both (study B and the Qwen3-14B A100 page;
 * studies A, C and the Qwen3-14B H100 page). Other parts borrow the nearest (archOf).
 */
export type FitArch = 'ampere' | 'hopper';

/**
 * Ada (8.9) and Blackwell (10.x, 12.0) have no training rows: they borrow Hopper's values
 * (unvalidated). So do AMD's parts, which have no compute capability (their error on published
 * points: model-lab/new-parts-check.txt).
 */
export function archOf(computeCapability: number | undefined): FitArch {
  return computeCapability !== undefined && computeCapability < 8.9 ? 'ampere' : 'hopper';
}

export interface FittedConstants {
  /** Dense GEMMs at serving batch sizes: fraction of the GPU's maximum achievable matmul FLOP/s (gpus.ts matmulEff), per architecture. */
  gemmServingEffAmpere: number;
  gemmServingEffHopper: number;
  /** Fraction of HBM bandwidth reached streaming weights, per architecture. */
  weightBwEffAmpere: number;
  weightBwEffHopper: number;
  /**
   * Routed-expert grouped GEMMs relative to the dense GEMM efficiency, charged on the tile-padded
   * FLOPs (moe-tiles.ts), all three engines on Hopper (and the GPUs that borrow Hopper's values).
   * TensorRT-LLM shares it: its own value, fitted on study C's TRT-LLM row alone, was a per-case fit
   * (model-lab/DIAGNOSIS.md section 1b).
   */
  moeEff: number;
  /** The same on Ampere (A100), all engines: the only MoE training rows there are study B's 5 (vLLM fused_marlin_moe, weight-only FP8), so it is fitted on B alone. */
  moeEffAmpere: number;
  /**
   * Per-MoE-layer launch cost per step with CUDA graphs (routing, top-k, align/permute, unpermute),
   * seconds, all engines. Was hand-set to 120 us on study C's low-concurrency TPOT with no source;
   * now fitted on the training set, whose MoE rows are studies B (GLM-4.6, 89 MoE layers) and C
   * (DeepSeek-R1, 58) only.
   */
  moeLayerOverheadS: number;
  /** Host work per engine step (scheduling, sampling launch), seconds. Fitted on the measured H100 rows (silicon-fit.ts). */
  stepOverheadS: number;
  /** Host work per scheduled sequence per step (input prep, output processing), seconds. Fitted on the measured H100 rows (silicon-fit.ts). */
  perSeqOverheadS: number;
  /** Block-scaled FP8 GEMMs: fraction of the FP8 peak's share that BF16 GEMMs reach of theirs. */
  fp8GemmEff: number;
  /** vLLM's API server: serial work per request before the engine sees it, seconds (efficiency.ts frontEndPerRequestS). */
  vllmFrontEndPerRequestS: number;
  /** Weight-only FP8 (Marlin) dense GEMMs on A100: time relative to BF16 GEMMs at the same FLOPs (efficiency.ts marlinFp8DenseGemmPenalty). */
  marlinFp8DenseGemmPenalty: number;
}

// BEGIN FITTED (written by model-lab/fit.ts --write)
export const FITTED: FittedConstants = {
  gemmServingEffAmpere: 0.763,
  gemmServingEffHopper: 0.434,
  weightBwEffAmpere: 0.95,
  weightBwEffHopper: 0.762,
  moeEff: 0.629,
  moeEffAmpere: 0.227,
  moeLayerOverheadS: 0.000109,
  stepOverheadS: 0.0028,
  perSeqOverheadS: 0.00004,
  fp8GemmEff: 0.647,
  vllmFrontEndPerRequestS: 0.00991,
  marlinFp8DenseGemmPenalty: 1.44,
};
// END FITTED

/** The serving GEMM fraction and weight-streaming bandwidth fraction for a GPU. */
export function archEfficiency(computeCapability: number | undefined): { gemm: number; weightBw: number } {
  const hopper = archOf(computeCapability) === 'hopper';
  return {
    gemm: hopper ? FITTED.gemmServingEffHopper : FITTED.gemmServingEffAmpere,
    weightBw: hopper ? FITTED.weightBwEffHopper : FITTED.weightBwEffAmpere,
  };
}
