// The noise rule: a difference between two measurements on this host counts only when it exceeds
// both the user's --margin and the run-to-run noise servelab measured here. One owner: every
// decision (stages, budget, validation, replay, capacity) asks this file. It sits in the core so
// that capacity, below the tuner, judges by the same rule.

/** The run-to-run noise measured on this host, as a half-width in percent of the objective. */
export interface NoiseEstimate {
  /** Half-width, % (e.g. 6.1 for "±6.1%"). */
  pct: number;
  /** Runs it was measured from. */
  runs: number;
  /** What was measured, for the text: "3 runs of the defaults". */
  source: string;
}

/** The margin a decision uses: the larger of --margin and the measured noise. */
export function effectiveMarginPct(marginPct: number, noise: NoiseEstimate | undefined): number {
  return Math.max(marginPct, noise?.pct ?? 0);
}
