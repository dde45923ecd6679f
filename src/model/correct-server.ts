// Host corrections applied to a resolved server: the estimate's constants times the multipliers
// of corrections.ts, in one place. Rates (GEMM FLOP/s, HBM and link bandwidth) and costs (host
// overheads, the API front end) are scaled here; the two step-level factors (prefill steps,
// attention) are carried on the server for step-time.ts. Neutral corrections return the server
// as it was, so the uncorrected model is untouched.
import type { ServerConfig } from './estimate.js';
import { isNeutral, type Corrections } from './calibration/corrections.js';

/** `cfg` with the host corrections applied (a copy; `cfg` is not changed). */
export function correctServer<T extends ServerConfig>(cfg: T, k: Corrections | undefined): T {
  if (!k || isNeutral(k)) return cfg;
  const h = k.hostOverhead;
  const eff = {
    ...cfg.eff,
    stepOverheadS: cfg.eff.stepOverheadS * h,
    perSeqOverheadS: cfg.eff.perSeqOverheadS * h,
    perLayerOverheadS: cfg.eff.perLayerOverheadS * h,
    moeLayerOverheadS: cfg.eff.moeLayerOverheadS * h,
    eagerLayerOverheadS: cfg.eff.eagerLayerOverheadS * h,
    eagerMoeLayerOverheadS: cfg.eff.eagerMoeLayerOverheadS * h,
    specStepOverheadS: cfg.eff.specStepOverheadS * h,
    frontEndPerRequestS: cfg.eff.frontEndPerRequestS * k.frontEnd,
    frontEndPerPromptTokenS: cfg.eff.frontEndPerPromptTokenS * k.frontEnd,
  };
  const gpu = { ...cfg.gpu, memBwBps: cfg.gpu.memBwBps * k.bandwidth, interconnectBps: cfg.gpu.interconnectBps * k.comm };
  return { ...cfg, eff, gpu, gemmFlops: cfg.gemmFlops * k.gemm, corrections: k };
}
