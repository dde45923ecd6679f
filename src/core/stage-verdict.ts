// The core's verdict on a stage as the event stream carries it (stage-finished): every view shows
// it as it is, none re-derives it.
import type { NoiseEstimate, RunInterval } from './noise-rule.js';

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
  intervals?: Record<string, RunInterval>;
  /** The effective margin the stage decided with, %: the larger of --margin and the measured noise. */
  marginPct?: number;
  /** The property of the declared tie-break order that chose the winner among the tied set. */
  tieBreak?: string;
  /** The host's noise as the stage knew it when it decided. */
  noise?: NoiseEstimate;
}
