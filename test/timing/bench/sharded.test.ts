// The sharded client against the same scripted server (its own process) as a one-client run:
// same request set, same arrival schedule, one concurrency cap over all threads, and metrics
// computed with the one-client definitions over all requests.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { arrivalDelays } from '../../../src/bench/load/arrivals.js';
import { runBenchmarkIsolated } from '../../../src/bench/workers/isolated.js';
import { liveBenchWorkers } from '../../../src/bench/workers/worker-count.js';
import { calculateMetrics } from '../../../src/bench/metrics/metrics.js';
import { percentile } from '../../../src/core/stats.js';
import type { BenchEvent } from '../../../src/bench/types.js';
import { spawnScriptedServer, type ChildServer } from '../../fixtures/bench/spawn-server.js';
import { requests } from '../../helpers/bench/helpers.js';

const N = 40;
const OUT = 10;
const CAP = 6;

let srv: ChildServer;
beforeAll(async () => {
  srv = await spawnScriptedServer({ ttftMs: 15, gapMs: 4 });
});
afterAll(async () => {
  await srv.stop();
});
beforeEach(async () => {
  await srv.reset();
});

const workload = () => ({
  baseUrl: srv.url,
  model: 'org/scripted-model',
  requests: requests(N, OUT),
  requestRate: 200,
  seed: 7,
  maxConcurrency: CAP,
  numWarmups: 3,
  percentileMetrics: ['ttft', 'tpot', 'itl', 'e2el'] as const,
});

/** Most requests the server had open at once (from its own receive and last-write times). */
function serverPeak(ts: { receivedAtEpochMs: number; writesEpochMs?: number[] }[]): number {
  const ev = ts.flatMap(
    (t) =>
      [
        [t.receivedAtEpochMs, 1],
        [t.writesEpochMs!.at(-1)!, -1],
      ] as [number, number][],
  );
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let peak = 0;
  for (const [, d] of ev) peak = Math.max(peak, (cur += d));
  return peak;
}

describe('sharded client (runBenchmarkIsolated with clientThreads)', () => {
  it('sends the same requests as one client and measures them with the same definitions', async () => {
    const one = await runBenchmarkIsolated({ ...workload(), percentileMetrics: [...workload().percentileMetrics] });
    const oneServed = (await srv.timings()).map((t) => t.id.replace(/^bench-[0-9a-f]+-/, '')).sort();
    await srv.reset();
    const events: BenchEvent[] = [];
    const two = await runBenchmarkIsolated({
      ...workload(),
      percentileMetrics: [...workload().percentileMetrics],
      clientThreads: 2,
      onEvent: (e) => events.push(e),
      snapshotIntervalMs: 50,
    });
    const served = await srv.timings(true);
    const twoServed = served.map((t) => t.id.replace(/^bench-[0-9a-f]+-/, '')).sort();
    // The same request set, warm-ups included (ids are the request indices).
    expect(twoServed).toEqual(oneServed);
    expect(twoServed.filter((id) => /^\d+$/.test(id))).toHaveLength(N);
    for (const r of [one, two]) {
      expect(r.outputs).toHaveLength(N);
      expect(r.metrics.completed).toBe(N);
      expect(r.metrics.total_output_tokens).toBe(N * OUT);
    }
    expect(two.outputs.map((o) => [o.promptLen, o.outputLen])).toEqual(one.outputs.map((o) => [o.promptLen, o.outputLen]));
    expect(Object.keys(two.metrics).sort()).toEqual(Object.keys(one.metrics).sort());
    expect(two.config).toEqual(one.config);
    // Merged metrics are the one-client formulas over all requests, not per-shard averages.
    expect(two.metrics).toEqual(
      calculateMetrics(two.outputs, two.metrics.duration, { percentileMetrics: ['ttft', 'tpot', 'itl', 'e2el'], metricPercentiles: [99] }),
    );
    expect(two.metrics.p99_ttft_ms).toBeCloseTo(
      percentile(
        two.outputs.map((o) => o.ttft),
        99,
      ) * 1000,
      9,
    );
    // No request leaves before its slot of the one arrival schedule (same seed), on either thread.
    // Each thread stamps against its own start of the shared instant: on a loaded 2-core host the
    // threads wake a little apart, so a slot is checked to 5 ms, not to the timer's 1 ms.
    const delays = arrivalDelays(N, 200, 1, 7);
    two.outputs.forEach((o, i) => expect(o.startTime).toBeGreaterThanOrEqual(delays[i]! - 5e-3));
    // The cap is the run's, over both threads.
    expect(serverPeak(served.filter((t) => /-\d+$/.test(t.id)))).toBeLessThanOrEqual(CAP);
    // Live view: every request event once, and a merged final snapshot.
    expect(events.filter((e) => e.type === 'request-finished')).toHaveLength(N);
    const last = events.filter((e) => e.type === 'snapshot').at(-1);
    expect(last?.type === 'snapshot' && last.snapshot).toMatchObject({ total: N, completed: N, running: 0 });
    expect(liveBenchWorkers()).toBe(0);
  });

  it('abort stops every thread and returns what finished', async () => {
    const ac = new AbortController();
    let finished = 0;
    const r = await runBenchmarkIsolated({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(300, 20),
      maxConcurrency: 4,
      clientThreads: 2,
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type === 'request-finished' && ++finished === 6) ac.abort();
      },
    });
    expect(r.aborted).toBe(true);
    expect(r.outputs.length).toBeGreaterThanOrEqual(6);
    expect(r.outputs.length).toBeLessThan(300);
    expect(liveBenchWorkers()).toBe(0);
  });

  it('warm-ups that all fail give the same error as one client, and no thread is left', async () => {
    const down = await spawnScriptedServer({ ttftMs: 0, gapMs: 0, status: 503, body: 'overloaded' });
    try {
      const bad = { baseUrl: down.url, model: 'm', requests: requests(4, 4), numWarmups: 3 };
      const e1 = await runBenchmarkIsolated({ ...bad, clientThreads: 1 }).catch((e: unknown) => e);
      const e2 = await runBenchmarkIsolated({ ...bad, clientThreads: 2 }).catch((e: unknown) => e);
      expect(e1).toBeInstanceOf(Error);
      expect((e1 as Error).message).toMatch(/all 3 warm-up requests failed/);
      expect((e2 as Error).message).toBe((e1 as Error).message);
      expect(liveBenchWorkers()).toBe(0);
    } finally {
      await down.stop();
    }
  });
});
