// What the planner's model predicts for a variant on a scenario, and how far that model is known to miss.
export interface Predicted {
  totalTokPerS: number;
  meanTtftMs: number;
  meanTpotMs: number;
  /** Peak SSE events per (simulated) second. */
  peakEventsPerS?: number;
  /**
   * The model's measured error where this prediction sits: median |error| of throughput per GPU,
   * %, on held-out measured runs of this engine at this concurrency (model/data/measured-error.ts).
   */
  errorPct?: number;
}
