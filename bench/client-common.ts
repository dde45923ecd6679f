// Shared by the client benchmarks: run the bench library against the scripted server (its own
// process) and measure the client's timing error per SSE event, on both processes' epoch clocks.
import { runBenchmarkIsolated } from '../src/bench/isolated.js';
import { runBenchmark } from '../src/bench/run.js';
import { mean, percentile } from '../src/bench/stats.js';
import type { BenchResult, SampledRequest } from '../src/bench/types.js';
import type { ChildServer } from '../test/fixtures/bench/spawn-server.js';

export interface TimingFigures {
  streams: number;
  requests: number;
  eventsPerS: number;
  /** Client timestamp minus server write time, per SSE event (ms). */
  eventDelayMeanMs: number;
  eventDelayP99Ms: number;
  /** Reported mean TTFT/TPOT minus the server's own (ms). */
  ttftErrMs: number;
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
 * threads 0: the client on this thread (runBenchmark, as `servelab bench`); >= 1: on that many
 * worker threads (runBenchmarkIsolated with clientThreads, as the tuning session runs it).
 */
export async function measureTiming(srv: ChildServer, streams: number, requests: number, tokens: number, threads = 0): Promise<TimingFigures> {
  await srv.reset();
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
  const byIndex = new Map(served.map((s) => [Number(/-(\d+)$/.exec(s.id)?.[1]), s]));
  const delays: number[] = [];
  const trueTtft: number[] = [];
  const trueTpot: number[] = [];
  const trueGaps: number[] = [];
  result.outputs.forEach((o, i) => {
    const s = byIndex.get(i);
    if (!s || !o.success || !s.writesEpochMs) return;
    trueTtft.push(s.ttftMs);
    trueTpot.push(mean(s.gapsMs));
    trueGaps.push(...s.gapsMs);
    let t = result.clockOriginMs! + (o.startTime + o.ttft) * 1000;
    const times = [t];
    for (const g of o.itl) times.push((t += g * 1000));
    times.forEach((ct, k) => {
      const w = s.writesEpochMs![k];
      if (w !== undefined) delays.push(ct - w);
    });
  });
  const events = result.outputs.reduce((a, o) => a + (o.success ? o.itl.length + 1 : 0), 0);
  return {
    streams,
    requests,
    eventsPerS: events / result.metrics.duration,
    eventDelayMeanMs: mean(delays),
    eventDelayP99Ms: percentile(delays, 99),
    ttftErrMs: result.metrics.mean_ttft_ms - mean(trueTtft),
    tpotErrMs: result.metrics.mean_tpot_ms - mean(trueTpot),
    itlErrMs: result.metrics.mean_itl_ms - mean(trueGaps),
    tpotRatio: result.metrics.mean_tpot_ms / mean(trueTpot),
    cpuPct: result.client.cpuPct,
    cpuUsPerEvent: (result.client.cpuPct / 100) * result.metrics.duration * 1e6 / Math.max(1, events),
    lagP99Ms: result.client.eventLoopLagP99Ms,
    clientBound: result.clientBound,
    result,
  };
}

export function row(cells: (string | number)[]): string {
  return '| ' + cells.map((c) => (typeof c === 'number' ? c.toFixed(2) : c)).join(' | ') + ' |';
}
