// The capacity stage on the event stream (`--capacity RULES`): the search started on
// the winner's server, each probe as it starts and as it is judged, and the answer. Plain data
// and the core's own sentences (src/capacity/text.ts writes them), so the headless text and the
// TUI show the same words without judging anything.

/** One judged probe: its load, its size, the verdict and the figures the SLO names. */
export interface CapacityProbeInfo {
  /** 1-based, in the order the search ran them. */
  index: number;
  load: number;
  numPrompts: number;
  holds: boolean;
  /** The rule furthest over its limit ("ttft:p99", "errors"); null when every rule held. */
  breaks: string | null;
  violations: string[];
  /** The SLO's figures (p99_ttft_ms, mean_tpot_ms, ...) and request_goodput, as measured. */
  figures: Record<string, number | null>;
  /** "probe 3  16 concurrent users, 1000 requests: holds (p99 TTFT 812 ms, goodput 9.40 req/s)". */
  line: string;
}

/** The search's outcome: the answer, the failing probe above it, the rule that broke first, goodput. */
export interface CapacityAnswerInfo {
  by: 'concurrency' | 'rate';
  answer: number | null;
  failing: number | null;
  breaks: string | null;
  goodput: number | null;
  requests: number;
  /** The answer, goodput and requests lines (src/capacity/text.ts). */
  lines: string[];
}

export type CapacityEvent =
  | {
      type: 'capacity-started';
      variantId: string;
      label: string;
      by: 'concurrency' | 'rate';
      /** "ttft:p99<2000,tpot:mean<100". */
      slo: string;
      resolution: string;
      workload: string;
      /** How the search goes and how probes are sized, one line each. */
      rule: string[];
    }
  | { type: 'capacity-probe-started'; variantId: string; index: number; load: number; numPrompts: number }
  | ({ type: 'capacity-probe'; variantId: string } & CapacityProbeInfo)
  /** `error`: why the search has no answer (the server did not come up, it was skipped). */
  | ({ type: 'capacity-finished'; variantId: string; error?: string } & CapacityAnswerInfo);

export const CAPACITY_EVENTS = ['capacity-started', 'capacity-probe-started', 'capacity-probe', 'capacity-finished'] as const;

export function isCapacityEvent(e: { type: string }): e is CapacityEvent {
  return (CAPACITY_EVENTS as readonly string[]).includes(e.type);
}
