// The model's fitted constants, in one place, with what they were fitted on. Everything else in
// src/model is read from engine source, a datasheet or a public measurement (each says which).
//
// FITTED ON: the training set declared in src/model/data/training.ts (the three studies of
// seed-studies.md, seed-42 ShareGPT draw, plus the published Qwen3-14B rows of
// src/model/data/published.ts marked split 'train'), by `npx tsx bench/fit.ts --write` on
// 2026-12-01 (coordinate descent on the mean |log(simulated / published)| over those rows).
// The held-out rows (published.ts split 'held-out') were never read by the fit; their error is
// reported by bench/validate.ts and docs/calibration.md.
// Rerun `npx tsx bench/fit.ts` after changing a mechanism: it prints the values and the error.

export interface FittedConstants {
  /** Dense GEMMs at serving batch sizes: fraction of the GPU's maximum achievable matmul FLOP/s (gpus.ts matmulEff). */
  gemmServingEff: number;
  /** Fraction of HBM bandwidth reached streaming weights. */
  weightBwEff: number;
  /** Routed-expert grouped GEMMs relative to the dense GEMM efficiency (vLLM, SGLang). */
  moeEff: number;
  /** The same for TensorRT-LLM's default CUTLASS MoE backend (one training point: study C's TRT-LLM variant). */
  trtllmMoeEff: number;
  /** Host work per engine step (scheduling, sampling launch), seconds. */
  stepOverheadS: number;
  /** Host work per scheduled sequence per step (input prep, output processing), seconds. */
  perSeqOverheadS: number;
  /** Block-scaled FP8 GEMMs: fraction of the FP8 peak's share that BF16 GEMMs reach of theirs. */
  fp8GemmEff: number;
}

// BEGIN FITTED (written by bench/fit.ts --write)
export const FITTED: FittedConstants = {
  gemmServingEff: 0.62,
  weightBwEff: 0.8,
  moeEff: 0.2,
  trtllmMoeEff: 0.07,
  stepOverheadS: 0.004,
  perSeqOverheadS: 0.00003,
  fp8GemmEff: 0.65,
};
// END FITTED
