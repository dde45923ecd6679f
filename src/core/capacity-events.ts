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
  /** Why it stopped before its last request (its verdict could no longer change). */
  early?: string;
  /** A short probe that only placed the bracket's start. */
  pilot?: boolean;
  /** 2 or 3: a re-probe of a load. */
  attempt?: number;
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
  /** % under the tightest limit at the answer, and the noise measured from the re-probes (±%). */
  marginPct?: number | null;
  noisePct?: number;
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
  /**
   * A running probe's requests so far (about every few seconds): `line` is the core's sentence,
   * "... 64 concurrent users: 412/1000 requests, at or over the limit (so far/fails at): ttft:p99 3/11".
   */
  | { type: 'capacity-probe-progress'; variantId: string; index: number; load: number; done: number; planned: number; line: string }
  /** `error`: why the search has no answer (the server did not come up, it was skipped). */
  | ({ type: 'capacity-finished'; variantId: string; error?: string } & CapacityAnswerInfo);

export const CAPACITY_EVENTS = [
  'capacity-started',
  'capacity-probe-started',
  'capacity-probe',
  'capacity-finished',
  'capacity-probe-progress',
] as const;

export function isCapacityEvent(e: { type: string }): e is CapacityEvent {
  return (CAPACITY_EVENTS as readonly string[]).includes(e.type);
}
