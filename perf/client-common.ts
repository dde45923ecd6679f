// Shared by the client benchmarks: run the bench library against the scripted server (its own
// process) and measure the client's timing error per SSE event. Both processes' stamps are put on
// one clock: the server's epoch stamps less their skew from this process's, measured through the
// host's CLOCK_MONOTONIC (serverClockSkewMs).
import { runBenchmarkIsolated } from '../src/bench/workers/isolated.js';
import { runBenchmark } from '../src/bench/load/run.js';
import { mean, percentile } from '../src/core/stats.js';
import type { BenchResult, SampledRequest } from '../src/bench/types.js';
import { epochMinusMonotonicMs } from '../test/fixtures/bench/scripted-server.js';
import type { ChildServer } from '../test/fixtures/bench/spawn-server.js';

export interface TimingFigures {
  streams: number;
  requests: number;
  eventsPerS: number;
  /** Client timestamp minus server write time, per SSE event (ms). */
  eventDelayMeanMs: number;
  eventDelayP99Ms: number;
  /**
   * The client's own share of the reported mean TTFT (ms): reported mean TTFT minus the mean of
   * (server's first write - the instant the client handed the request to the OS). That is the
   * client's send delay (its stamp st to the hand-off) plus its lateness reading the first event.
   */
  ttftErrMs: number;
  /** Mean of the client's send delay alone: st to the request's hand-off to the OS (ms). */
  sendDelayMs: number;
  /**
   * Mean request trip (ms): hand-off to the server having read the whole request (the kernel's
   * loopback and the server's own scheduling and parsing). In every TTFT, but not the client's.
   */
  tripMs: number;
  /** Reported mean TTFT minus the server's own (arrival to first write): the earlier definition, trip included. */
  ttftVsServerMs: number;
  /** Reported mean TPOT minus the server's own (ms). */
  tpotErrMs: number;
  /** Reported mean ITL minus the server's mean gap between writes (ms). */
  itlErrMs: number;
  /** Reported mean TPOT / the server's: vLLM's Python client reaches ~3x at 1000 streams on 2 cores. */
  tpotRatio: number;
  cpuPct: number;
  /** Client CPU time per SSE event (µs): what one event costs, independent of machine load. */
  cpuUsPerEvent: number;
  lagP99Ms: number;
  clientBound: boolean;
  result: BenchResult;
}

function reqs(n: number, out: number): SampledRequest[] {
  return Array.from({ length: n }, (_, i) => ({ prompt: `bench prompt number ${i}`, promptLen: 4, expectedOutputLen: out }));
}

/**
 * How far the server process's epoch stamps run ahead of this process's (ms), measured through
 * CLOCK_MONOTONIC, which both share (scripted-server.ts epochMinusMonotonicMs). Client threads of
 * this process share its epoch offset (they derive performance.timeOrigin from the same clocks).
 */
export async function serverClockSkewMs(srv: ChildServer): Promise<number> {
  return (await srv.clockOffset()) - epochMinusMonotonicMs();
}

/**
 * threads 0: the client on this thread (runBenchmark, as `servelab bench`); >= 1: on that many
 * worker threads (runBenchmarkIsolated with clientThreads, as the tuning session runs it).
 */
export async function measureTiming(
  srv: ChildServer,
  streams: number,
  requests: number,
  tokens: number,
  threads = 0,
): Promise<TimingFigures> {
  await srv.reset();
  const skew = await serverClockSkewMs(srv);
  const opts = {
    baseUrl: srv.url,
    model: 'scripted-model',
    requests: reqs(requests, tokens),
    maxConcurrency: streams,
    numWarmups: streams,
    percentileMetrics: ['ttft', 'tpot', 'itl'] as ('ttft' | 'tpot' | 'itl')[],
  };
  const result = threads === 0 ? await runBenchmark(opts) : await runBenchmarkIsolated({ ...opts, clientThreads: threads });
  const served = (await srv.timings(true)).filter((s) => !/warmup|ready/.test(s.id));
  const events = result.outputs.reduce((a, o) => a + (o.success ? o.itl.length + 1 : 0), 0);
  return {
    streams,
    requests,
    eventsPerS: events / result.metrics.duration,
    ...timingErrors(result, served, skew),
    cpuPct: result.client.cpuPct,
    cpuUsPerEvent: ((result.client.cpuPct / 100) * result.metrics.duration * 1e6) / Math.max(1, events),
    lagP99Ms: result.client.eventLoopLagP99Ms,
    clientBound: result.clientBound,
    result,
  };
}

type Served = Awaited<ReturnType<ChildServer['timings']>>[number];
export type TimingErrors = Pick<
  TimingFigures,
  | 'eventDelayMeanMs'
  | 'eventDelayP99Ms'
  | 'ttftErrMs'
  | 'sendDelayMs'
  | 'tripMs'
  | 'ttftVsServerMs'
  | 'tpotErrMs'
  | 'itlErrMs'
  | 'tpotRatio'
>;

/**
 * The client's errors from its result and the server's records (matched by the request index at
 * the end of x-request-id); `skewMs` is how far the server's epoch stamps run ahead of the
 * client's. Pure, so the definitions are tested on scripted records (test/unit/bench/client-errors.test.ts).
 */
export function timingErrors(
  result: Pick<BenchResult, 'outputs' | 'metrics' | 'clockOriginMs'>,
  served: readonly Served[],
  skewMs: number,
): TimingErrors {
  const byIndex = new Map(served.map((s) => [Number(/-(\d+)$/.exec(s.id)?.[1]), s]));
  const delays: number[] = [];
  const trueTtft: number[] = [];
  const wireTtft: number[] = [];
  const sends: number[] = [];
  const trips: number[] = [];
  const trueTpot: number[] = [];
  const trueGaps: number[] = [];
  const origin = result.clockOriginMs!;
  result.outputs.forEach((o, i) => {
    const s = byIndex.get(i);
    if (!s || !o.success || !s.writesEpochMs || o.sentTime === undefined) return;
    // Everything below on the client's clock: the server's stamps less their skew.
    const sent = origin + o.sentTime * 1000;
    trueTtft.push(s.ttftMs);
    wireTtft.push(s.firstWriteEpochMs - skewMs - sent);
    sends.push((o.sentTime - o.startTime) * 1000);
    trips.push(s.receivedAtEpochMs - skewMs - sent);
    trueTpot.push(mean(s.gapsMs));
    trueGaps.push(...s.gapsMs);
    let t = origin + (o.startTime + o.ttft) * 1000;
    const times = [t];
    for (const g of o.itl) times.push((t += g * 1000));
    times.forEach((ct, k) => {
      const w = s.writesEpochMs![k];
      if (w !== undefined) delays.push(ct - (w - skewMs));
    });
  });
  const m = result.metrics;
  return {
    eventDelayMeanMs: mean(delays),
    eventDelayP99Ms: percentile(delays, 99),
    ttftErrMs: m.mean_ttft_ms - mean(wireTtft),
    sendDelayMs: mean(sends),
    tripMs: mean(trips),
    ttftVsServerMs: m.mean_ttft_ms - mean(trueTtft),
    tpotErrMs: m.mean_tpot_ms - mean(trueTpot),
    itlErrMs: m.mean_itl_ms - mean(trueGaps),
    tpotRatio: m.mean_tpot_ms / mean(trueTpot),
  };
}

export function row(cells: (string | number)[]): string {
  return '| ' + cells.map((c) => (typeof c === 'number' ? c.toFixed(2) : c)).join(' | ') + ' |';
}
