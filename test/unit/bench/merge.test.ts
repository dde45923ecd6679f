// The merge of a sharded run's per-shard records, on scripted records: outputs by request index,
// duration from the shared start to the last shard's end, client stats over all threads.
import { describe, expect, it } from 'vitest';
import { calculateMetrics } from '../../../src/bench/metrics/metrics.js';
import {
  dealCount,
  dealRequests,
  mergeClientStats,
  mergeShards,
  mergeSnapshot,
  type ShardReport,
} from '../../../src/bench/workers/merge.js';
import type { ClientStats, RequestOutput } from '../../../src/bench/types.js';
import type { LiveSnapshot } from '../../../src/core/metrics.js';

const out = (startTime: number, ttft: number, itl: number[], outputLen = itl.length + 1): RequestOutput => ({
  success: true,
  promptLen: 5,
  outputLen,
  ttft,
  itl,
  latency: ttft + itl.reduce((a, b) => a + b, 0),
  startTime,
  generatedText: '',
  error: '',
});
const stats = (cpuPct: number, lag: number, reasons: string[] = []): ClientStats => ({
  eventLoopLagP99Ms: lag,
  eventLoopLagMaxMs: lag * 2,
  eventLoopLagMeanMs: lag / 2,
  cpuPct,
  peakCpuPct: cpuPct + 5,
  reasons,
});

describe('dealing requests to shards', () => {
  it('round robin, every index once, in order within a shard', () => {
    const d = dealRequests(7, 3);
    expect(d).toEqual([
      [0, 3, 6],
      [1, 4],
      [2, 5],
    ]);
    expect(dealRequests(2, 4)).toEqual([[0], [1]]);
    expect(dealCount(5, 2)).toEqual([
      [3, 0],
      [2, 3],
    ]);
    expect(dealCount(0, 3)).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });
});

describe('mergeShards', () => {
  // Shard A holds the slow requests: a per-shard average of p99 would differ from the global p99.
  const a: ShardReport = {
    outputs: [
      [0, out(0, 0.5, [0.01, 0.01])],
      [2, out(0.1, 0.9, [0.02])],
    ],
    endEpochMs: 1000 + 1500,
    client: stats(40, 1),
  };
  const b: ShardReport = {
    outputs: [
      [1, out(0.05, 0.1, [0.01, 0.01, 0.01])],
      [3, out(0.15, 0.1, [])],
    ],
    endEpochMs: 1000 + 1200,
    client: stats(30, 3, ['lag']),
  };

  it('orders outputs by request index and takes the duration from the shared start to the last end', () => {
    const m = mergeShards([b, a], 1000);
    expect(m.outputs.map((o) => o.startTime)).toEqual([0, 0.05, 0.1, 0.15]);
    expect(m.duration).toBe(1.5);
    const metrics = calculateMetrics(m.outputs, m.duration, { percentileMetrics: ['ttft', 'itl'], metricPercentiles: [99] });
    expect(metrics.completed).toBe(4);
    expect(metrics.request_throughput).toBeCloseTo(4 / 1.5, 12);
    // Percentiles over all requests: linear interpolation over the 4 TTFTs [0.1, 0.1, 0.5, 0.9].
    expect(metrics.p99_ttft_ms).toBeCloseTo((0.5 + 0.97 * 0.4) * 1000, 9);
    expect(metrics.mean_itl_ms).toBeCloseTo(((0.01 * 5 + 0.02) / 6) * 1000, 9);
  });

  it('refuses a request reported by two shards', () => {
    expect(() => mergeShards([a, { ...b, outputs: [[2, out(0, 0.1, [])]] }], 1000)).toThrow(/request 2 was reported by two/);
  });

  it('client stats: CPU summed, worst lag, reasons named by thread', () => {
    const s = mergeClientStats([a.client, b.client]);
    expect(s.cpuPct).toBe(70);
    expect(s.peakCpuPct).toBe(80);
    expect(s.eventLoopLagP99Ms).toBe(3);
    expect(s.eventLoopLagMaxMs).toBe(6);
    expect(s.reasons).toEqual(['client thread 2 of 2: lag']);
    expect(mergeClientStats([a.client])).toBe(a.client);
  });

  it('live snapshot: token rates summed over shards, the rest from the merged tracker', () => {
    const base = {
      elapsedS: 2,
      total: 4,
      completed: 3,
      failed: 0,
      running: 1,
      outputTokPerS: 1,
      totalTokPerS: 2,
      meanTtftMs: 5,
      p99TtftMs: 9,
      meanTpotMs: 1,
      p99TpotMs: 2,
      meanItlMs: 1,
      p99ItlMs: 2,
      clientBound: false,
    } satisfies LiveSnapshot;
    const m = mergeSnapshot(base, [
      { ...base, outputTokPerS: 100, totalTokPerS: 150 },
      undefined,
      { ...base, outputTokPerS: 50, totalTokPerS: 60, clientBound: true },
    ]);
    expect(m).toMatchObject({ outputTokPerS: 150, totalTokPerS: 210, clientBound: true, completed: 3, p99TtftMs: 9 });
  });
});
