// A sweep's result as the event stream carries it: the load, each point on the frontier's axes,
// and the choice (src/sweep computes them; views only show them).

/** A sweep's load in JSON terms: a rate of `inf` (all at once) is null. */
export interface SweepLoadInfo {
  kind: 'concurrency' | 'rate';
  value: number | null;
}

/** One swept point on the frontier's axes (src/sweep/frontier.ts computes them). */
export interface SweepPointSummary {
  /** Output tokens per second per GPU (the chart's y). */
  tokPerGpu: number;
  /** 1000 / mean TPOT in ms (the chart's x). */
  tokPerUser: number;
  ttftP50Ms: number;
  ttftP99Ms: number;
  tpotP99Ms: number;
  goodput: number | null;
}

/** One load's outcome for one variant: the sweep-point event's body and the view's chart point. */
export interface SweepPointInfo {
  load: SweepLoadInfo;
  status: 'ok' | 'failed' | 'not-run';
  /** Present when measured: x = tokPerUser, y = tokPerGpu. */
  summary?: SweepPointSummary;
  violations: string[];
  reason?: string;
  resumed?: boolean;
}

/** The frontier's choice: the variant and load that meet the SLO with the most tok/s/GPU. */
export interface SweepChoiceInfo {
  variantId: string;
  load: SweepLoadInfo;
  /** "sglang fp8 dp-attn: 1,850 tok/s/GPU at 64 concurrent, TPOT p99 38 ms". */
  sentence: string;
  why: string;
  /** The best point of another variant, in the same words; absent when none met the SLO. */
  runnerUp?: string;
}
