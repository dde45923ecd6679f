// Early stop of a losing variant: stop its benchmark once an optimistic bound on its final result
// is more than the noise margin below the stage leader. Pure, except watchForEarlyStop, which
// reads live snapshots and aborts the benchmark.
//
// The rule (conservative on purpose: it may let a loser run to the end; it must not stop a
// variant that could have won, under the assumption stated below):
// - A run's objective value is units / duration (tokens, requests or good requests per second).
//   Every unfinished request may still produce all it may (max_completion_tokens is sent with
//   every request, so no output is longer): the run ends with at most unitsMax units.
// - Its duration is at least elapsed + (requests left) / (the fastest rate it may reach). That
//   rate is taken as the fastest window so far (early-stop-rate.ts: the shortest stretch in which
//   10% of the requests finished) plus the noise margin: bound = unitsMax / (elapsed + left /
//   (peak x (1 + margin))). The rest of the run also has the tail, where fewer requests are in
//   flight and the rate drops, so this errs towards a higher bound.
// - While the rate is still rising (the latest window is the fastest so far) the peak says nothing
//   about the rest: the bound is then the rest of the run at infinite speed, unitsMax / elapsed.
//   Same before the first full window.
// - Stop when that bound < leader x (1 - margin): even at best it would end further below the
//   leader than the noise margin, and a challenger needs to beat the leader to win anything.
// - Never before 30% of the requests have finished (completed or failed): the start of a run
//   (connection set-up, the first prefills) says little. Never in the last 10% either: a stop
//   there saves almost nothing and loses the run's figure (vLLM was stopped at 996/1000 requests
//   in DeepSeek-R1's engine stage on 8xH200).
// - The reason says what the rule knows: a bound ("at least 4% below the leader"), not the gap a
//   finished run would show (that vLLM, run to the end, was 19% below SGLang).
// The assumption: after 30% of its requests (and the warm-up requests before them) a server whose
// rate has levelled off does not later run faster than its fastest window by more than the
// margin; a server still speeding up is never judged on its peak.
// On the simulated host, snapshots must be in simulated time (toSimulatedSnapshot) like the
// leader's metrics.
import type { VariantResult } from '../../core/events.js';
import type { SampledRequest } from '../../bench/types.js';
import type { BenchMetrics, LiveSnapshot } from '../../core/metrics.js';
import type { Objective } from '../../core/objective.js';
import { peakRequestRate, type PeakRate, type RatePoint } from './early-stop-rate.js';

// The status words and their test live with the result's status (src/core/result-status.ts).
import { STOPPED_EARLY } from '../../core/result-status.js';
export { isStoppedEarly } from '../../core/result-status.js';

export const MIN_FINISHED_FRACTION = 0.3;
/** From this share of requests finished a run is never stopped: it is all but done. */
export const MAX_STOP_FRACTION = 0.9;

export interface Progress {
  /** Requests finished so far (completed + failed), and in the whole run. */
  finished: number;
  total: number;
  /** Seconds the benchmark has run (the final duration is at least this). */
  elapsedS: number;
  /** Upper bound of the objective's units the whole run can reach (done + still possible). */
  unitsMax: number;
  /** Window rates so far (early-stop-rate.ts); null or absent: the infinite-speed bound. */
  rate?: PeakRate | null;
}

export type EarlyStopVerdict = { stop: false; why: string } | { stop: true; boundValue: number; belowPct: number; status: string };

/** The most the run can still reach (see the file comment), and which bound gave it. */
export function optimisticValue(p: Progress, marginPct = 0): { value: number; basis: 'peak' | 'infinite' } {
  if (!(p.elapsedS > 0)) return { value: Infinity, basis: 'infinite' };
  const r = p.rate;
  if (!r || r.rising || !(r.peak > 0)) return { value: p.unitsMax / p.elapsedS, basis: 'infinite' };
  const left = Math.max(0, p.total - p.finished);
  return { value: p.unitsMax / (p.elapsedS + left / (r.peak * (1 + marginPct / 100))), basis: 'peak' };
}

export function earlyStopVerdict(
  p: Progress,
  leaderValue: number,
  marginPct: number,
  minFraction = MIN_FINISHED_FRACTION,
): EarlyStopVerdict {
  if (!(leaderValue > 0)) return { stop: false, why: 'no leader value to compare with' };
  if (p.total <= 0 || p.finished < Math.ceil(minFraction * p.total)) {
    return { stop: false, why: `only ${p.finished}/${p.total} requests finished (at least ${Math.round(minFraction * 100)}% needed)` };
  }
  if (p.finished >= Math.ceil(MAX_STOP_FRACTION * p.total)) {
    return {
      stop: false,
      why: `${p.finished}/${p.total} requests finished: in its last ${Math.round((1 - MAX_STOP_FRACTION) * 100)}% a run is never stopped (it would save little and lose the figure)`,
    };
  }
  const { value: bound, basis } = optimisticValue(p, marginPct);
  const threshold = leaderValue * (1 - marginPct / 100);
  if (!(bound < threshold))
    return {
      stop: false,
      why: `could still reach ${bound.toFixed(1)} (${basis === 'peak' ? 'the rest at its fastest window' : 'the rest at infinite speed'}) vs the leader's ${leaderValue.toFixed(1)}`,
    };
  const belowPct = (1 - bound / leaderValue) * 100;
  return {
    stop: true,
    boundValue: bound,
    belowPct,
    status: `${STOPPED_EARLY}: at least ${belowPct.toFixed(0)}% below the leader at ${p.finished}/${p.total} requests`,
  };
}

/**
 * The most units a variant can produce on this workload for the objective. Output tokens are
 * capped by each request's max_completion_tokens (expectedOutputLen). Prompt tokens are the
 * server's count: the leader ran the same prompts, so its total_input_tokens is used (the
 * client's count when larger: the leader's failed requests count with the client's number).
 */
export function unitsMax(
  objective: Objective,
  requests: readonly SampledRequest[],
  leader: Pick<BenchMetrics, 'total_input_tokens'>,
): number {
  const out = requests.reduce((a, r) => a + r.expectedOutputLen, 0);
  const promptClient = requests.reduce((a, r) => a + r.promptLen, 0);
  switch (objective) {
    case 'output':
      return out;
    case 'total':
      return out + Math.max(leader.total_input_tokens, promptClient);
    case 'request':
    case 'goodput':
      return requests.length;
  }
}

export interface EarlyStopLeader {
  objective: Objective;
  /** The leader's objective value (same units and clock as the snapshots). */
  value: number;
  /** unitsMax() for this workload. */
  unitsMax: number;
}

/**
 * Progress from a live snapshot (and the run's earlier points, for the window rates); failed
 * requests can no longer add requests or good requests.
 */
export function snapshotProgress(s: LiveSnapshot, leader: EarlyStopLeader, history: readonly RatePoint[] = []): Progress {
  const finished = s.completed + s.failed;
  const units =
    leader.objective === 'request' || leader.objective === 'goodput' ? Math.max(0, leader.unitsMax - s.failed) : leader.unitsMax;
  const rate = peakRequestRate([...history, { elapsedS: s.elapsedS, finished }], s.total);
  return { finished, total: s.total, elapsedS: s.elapsedS, unitsMax: units, rate };
}

/**
 * Reads live snapshots of a running benchmark; when the rule says stop, aborts it (the abort's
 * reason is the status line) and returns the verdict. Returns null when the snapshots end first.
 */
export async function watchForEarlyStop(
  snapshots: AsyncIterable<LiveSnapshot>,
  leader: EarlyStopLeader,
  marginPct: number,
  abort: AbortController,
): Promise<Extract<EarlyStopVerdict, { stop: true }> | null> {
  // The run starts at 0 requests finished at 0 s; every snapshot read adds a point.
  const history: RatePoint[] = [{ elapsedS: 0, finished: 0 }];
  for await (const s of snapshots) {
    if (abort.signal.aborted) return null;
    const v = earlyStopVerdict(snapshotProgress(s, leader, history), leader.value, marginPct);
    history.push({ elapsedS: s.elapsedS, finished: s.completed + s.failed });
    if (v.stop) {
      abort.abort(new Error(v.status));
      return v;
    }
  }
  return null;
}

/** Snapshots pushed from a bench onEvent listener, read as an async iterable (latest wins). */
export function snapshotChannel(): { push(s: LiveSnapshot): void; end(): void; snapshots: AsyncIterable<LiveSnapshot> } {
  let latest: LiveSnapshot | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  async function* gen(): AsyncGenerator<LiveSnapshot> {
    for (;;) {
      if (latest) {
        const s = latest;
        latest = undefined;
        yield s;
        continue;
      }
      if (ended) return;
      await new Promise<void>((r) => (wake = r));
    }
  }
  return {
    push: (s) => {
      latest = s;
      poke();
    },
    end: () => {
      ended = true;
      poke();
    },
    snapshots: gen(),
  };
}

/** The result of a variant stopped early: never eligible to win (status 'pruned', score() skips it). */
export function stoppedEarlyResult(r: VariantResult, verdict: Extract<EarlyStopVerdict, { stop: true }>): VariantResult {
  return { ...r, status: 'pruned', failure: { kind: 'pruned', reason: verdict.status } };
}
