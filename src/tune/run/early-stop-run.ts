// Early stop wired into one benchmark (the rule is early-stop.ts): live snapshots, in the same
// clock and units as the leader's result, go to watchForEarlyStop, which aborts this benchmark
// only (not the server's session, not other variants) once the variant cannot beat the leader by
// the margin. The stage loop names the leader; the runner owns the benchmark.
import type { SampledRequest } from '../../bench/types.js';
import type { LiveSnapshot } from '../../core/metrics.js';
import type { EarlyStopRequest } from './contract/types.js';
import { snapshotChannel, unitsMax, watchForEarlyStop, type EarlyStopVerdict } from '../decide/early-stop.js';

export type StopVerdict = Extract<EarlyStopVerdict, { stop: true }>;

export interface EarlyStopWatch {
  /** Give every live snapshot here. */
  push(s: LiveSnapshot): void;
  /** The benchmark's signal: the variant's stop signal, or this watch's abort. */
  signal: AbortSignal;
  /** After the benchmark returns: the verdict when it was stopped early, else null. */
  settle(): Promise<StopVerdict | null>;
}

export function earlyStopWatch(
  req: EarlyStopRequest | undefined,
  requests: readonly SampledRequest[],
  stopSignal: AbortSignal,
): EarlyStopWatch {
  if (!req) return { push: () => {}, signal: stopSignal, settle: async () => null };
  const abort = new AbortController();
  const channel = snapshotChannel();
  const leader = {
    objective: req.objective,
    value: req.value,
    unitsMax: unitsMax(req.objective, requests, { total_input_tokens: req.leaderInputTokens }),
  };
  const watching = watchForEarlyStop(channel.snapshots, leader, req.marginPct, abort);
  return {
    push: channel.push,
    signal: AbortSignal.any([stopSignal, abort.signal]),
    settle: async () => {
      channel.end();
      return watching;
    },
  };
}
