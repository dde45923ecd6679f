// What the calibration fit (fit.ts) takes in: one observation of a measured variant, the figures
// it compares with the model's, and how much each figure is trusted.
import type { Corrections } from './corrections.js';

/** The figures an observation compares (the plan's `predicted` keys of a variant result). */
export interface Figures {
  totalTokPerS: number;
  meanTtftMs: number;
  meanTpotMs: number;
}

export interface Observation {
  /** variant id (and scenario) it came from, for the report. */
  id: string;
  engine: string;
  measured: Figures;
  /** The plan's prediction when it was measured (reported; the fit recomputes the model's own). */
  prior?: Figures;
}

/** The model's figures for an observation's variant and workload under corrections; undefined when it does not run. */
export type Predictor<O extends Observation> = (obs: O, k: Corrections) => Figures | undefined;

/**
 * Metrics in the fit with the standard deviation of their ln(measured / model) noise. Hand-set:
 * throughput is the figure a benchmark repeats best and the one decisions rank by; TPOT and TTFT
 * (under a burst mostly queueing and front end) move more with the client and the host's load.
 * Chosen by comparison, not fitted: on two `--auto --sim` run folders of this machine (2026-12-01,
 * 7 and 9 measured variants) 0.05 / 0.08 / 0.25 gave leave-one-out 4.3% and 9.4%, these 1.4% and
 * 3.1% (the loaded machine's client-bound runs read TPOT high and throughput normal).
 */
export const METRICS: readonly { key: keyof Figures; sd: number }[] = [
  { key: 'totalTokPerS', sd: 0.03 },
  { key: 'meanTpotMs', sd: 0.1 },
  { key: 'meanTtftMs', sd: 0.3 },
];

/** Prior spread of ln(measured / predicted throughput) before any observation: hand-set from the 26.5% held-out median error (docs/calibration.md). */
export const PRIOR_BAND_LOG_SD = 0.25;
