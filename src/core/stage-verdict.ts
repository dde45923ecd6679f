// The core's verdict on a stage as the event stream carries it (stage-finished): every view shows
// it as it is, none re-derives it.

/**
 * The core's decision for one stage, as every view shows it: nothing here is re-derived by a
 * view. Gains are in percent of the objective, against `referenceId`.
 */
export interface StageVerdict {
  stage: string;
  /** The variant carried forward out of the stage (the one carried in when nothing beat it). */
  winnerId: string | null;
  /** The winner carried into the stage; null in the first stage. */
  carriedId: string | null;
  /** What the gains are measured against: the baseline in the engine stage, else the carried winner. */
  referenceId: string | null;
  /** The session's baseline (--baseline, else vLLM on defaults), once the engine stage chose it. */
  baselineId: string | null;
  /** The stage's gain as the profile records it. */
  gainPct: number | null;
  /** Each measured variant's gain against the reference (null when either has no number). */
  gains: Record<string, number | null>;
  /** One line: why this winner (or why the stage did not run). */
  why: string;
  /** Why the stage did not run, when it did not. */
  skipped?: string;
  /** Its best two stayed within the noise margin after adaptive repeats (src/tune/decide/repeats.ts); `why` says how the tie was broken. */
  tied?: boolean;
  /** Rows that cannot win because too many of their requests failed (--max-failed): variant id -> "514/1000 ok: not eligible". */
  notEligible?: Record<string, string>;
  /** The tied set: every candidate its runs could not tell from the best, in the plan's order (src/tune/decide/repeats.ts). */
  tiedIds?: string[];
  /** Each measured candidate's mean objective and interval under the host's noise, by variant id. */
  intervals?: Record<string, RunIntervalInfo>;
  /** The effective margin the stage decided with, %: the larger of --margin and the measured noise. */
  marginPct?: number;
  /** The property of the declared tie-break order that chose the winner among the tied set. */
  tieBreak?: string;
  /** The host's noise as the stage knew it when it decided. */
  noise?: NoiseInfo;
}

/** The run-to-run noise of the objective measured on this host (src/tune/decide/noise.ts owns the rule). */
export interface NoiseInfo {
  /** 95% half-width of one run, % of the objective. */
  pct: number;
  runs: number;
  /** What it was measured from: "3 runs of the defaults". */
  source: string;
  sdPct?: number;
  df?: number;
}

/** A candidate's mean objective over its runs and the half-width the noise gives it. */
export interface RunIntervalInfo {
  mean: number;
  /** % of the mean; absent while the noise is unknown. */
  halfPct?: number;
  runs: number;
}
