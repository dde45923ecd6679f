// Early stop of a losing variant: stop its benchmark once even an optimistic bound on its final
// result is more than the noise margin below the stage leader. Pure, except watchForEarlyStop,
// which reads live snapshots and aborts the benchmark.
//
// The rule (conservative on purpose: it may let a loser run to the end, it must never stop a
// variant that could have won):
// - A run's objective value is units / duration (tokens, requests or good requests per second),
//   and its duration is at least the time it has already run (elapsed). So whatever the server
//   does next, final value <= (units done + the most units still possible) / elapsed: the rest
//   of the run finishing at infinite speed, every unfinished request producing all it may
//   (max_completion_tokens is sent with every request, so no output is longer).
// - Stop when that bound < leader x (1 - margin): even at best it would be further below the
//   leader than the noise margin, and a challenger needs to beat the leader to win anything.
// - Never before 30% of the requests have finished (completed or failed): the start of a run
//   (connection set-up, the first prefills) says little.
// On the simulated host, snapshots must be in simulated time (toSimulatedSnapshot) like the
// leader's metrics.
import type { VariantResult } from '../core/events.js';
import type { BenchMetrics, LiveSnapshot, SampledRequest } from '../bench/types.js';
import type { Objective } from './decide.js';

/** The words every stopped-early reason starts with (the status column shows them alone). */
export const STOPPED_EARLY = 'stopped early';

export const MIN_FINISHED_FRACTION = 0.3;

export interface Progress {
  /** Requests finished so far (completed + failed), and in the whole run. */
  finished: number;
  total: number;
  /** Seconds the benchmark has run (the final duration is at least this). */
  elapsedS: number;
  /** Upper bound of the objective's units the whole run can reach (done + still possible). */
  unitsMax: number;
}

export type EarlyStopVerdict =
  | { stop: false; why: string }
  | { stop: true; boundValue: number; belowPct: number; status: string };

/** The most the run can still reach: unitsMax / elapsed (see the file comment). */
export function optimisticValue(p: Progress): number {
  return p.elapsedS > 0 ? p.unitsMax / p.elapsedS : Infinity;
}

export function earlyStopVerdict(p: Progress, leaderValue: number, marginPct: number, minFraction = MIN_FINISHED_FRACTION): EarlyStopVerdict {
  if (!(leaderValue > 0)) return { stop: false, why: 'no leader value to compare with' };
  if (p.total <= 0 || p.finished < Math.ceil(minFraction * p.total)) {
    return { stop: false, why: `only ${p.finished}/${p.total} requests finished (at least ${Math.round(minFraction * 100)}% needed)` };
  }
  const bound = optimisticValue(p);
  const threshold = leaderValue * (1 - marginPct / 100);
  if (!(bound < threshold)) return { stop: false, why: `could still reach ${bound.toFixed(1)} vs the leader's ${leaderValue.toFixed(1)}` };
  const belowPct = (1 - bound / leaderValue) * 100;
  return { stop: true, boundValue: bound, belowPct, status: `${STOPPED_EARLY}: ${belowPct.toFixed(0)}% below the leader at ${p.finished}/${p.total} requests` };
}

/**
 * The most units a variant can produce on this workload for the objective. Output tokens are
 * capped by each request's max_completion_tokens (expectedOutputLen). Prompt tokens are the
 * server's count: the leader ran the same prompts, so its total_input_tokens is used (the
 * client's count when larger: the leader's failed requests count with the client's number).
 */
export function unitsMax(objective: Objective, requests: readonly SampledRequest[], leader: Pick<BenchMetrics, 'total_input_tokens'>): number {
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

/** Progress from a live snapshot; failed requests can no longer add requests or good requests. */
export function snapshotProgress(s: LiveSnapshot, leader: EarlyStopLeader): Progress {
  const finished = s.completed + s.failed;
  const units = leader.objective === 'request' || leader.objective === 'goodput' ? Math.max(0, leader.unitsMax - s.failed) : leader.unitsMax;
  return { finished, total: s.total, elapsedS: s.elapsedS, unitsMax: units };
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
  for await (const s of snapshots) {
    if (abort.signal.aborted) return null;
    const v = earlyStopVerdict(snapshotProgress(s, leader), leader.value, marginPct);
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

/** Was this result stopped early by the rule above (rather than pruned by preflight)? */
export function isStoppedEarly(r: Pick<VariantResult, 'status' | 'failure'>): boolean {
  return r.status === 'pruned' && r.failure?.kind === 'pruned' && r.failure.reason.startsWith(STOPPED_EARLY);
}

/** The result of a variant stopped early: never eligible to win (status 'pruned', score() skips it). */
export function stoppedEarlyResult(r: VariantResult, verdict: Extract<EarlyStopVerdict, { stop: true }>): VariantResult {
  return { ...r, status: 'pruned', failure: { kind: 'pruned', reason: verdict.status } };
}
