import { describe, expect, it } from 'vitest';
import { calculateMetrics } from '../../../src/bench/metrics/metrics.js';
import { toSimulated, toSimulatedSnapshot } from '../../../src/bench/metrics/simulated.js';
import type { BenchResult, RequestOutput } from '../../../src/bench/types.js';

const outputs: RequestOutput[] = [0, 1, 2, 3].map((i) => ({
  success: true,
  promptLen: 10,
  outputLen: 5,
  ttft: 0.01,
  itl: [0.002, 0.002, 0.002, 0.002],
  latency: 0.018,
  startTime: i * 0.015,
  generatedText: '',
  error: '',
}));
const opts = { percentileMetrics: ['ttft', 'tpot', 'itl', 'e2el'] as ('ttft' | 'tpot' | 'itl' | 'e2el')[], metricPercentiles: [99] };
const wall: BenchResult = {
  metrics: calculateMetrics(outputs, 0.07, opts),
  outputs,
  config: {
    backend: 'openai-chat',
    endpointType: 'openai-chat',
    modelId: 'm',
    numPrompts: 4,
    requestRate: 100,
    burstiness: 1,
    maxConcurrency: null,
    ...opts,
  },
  clientBound: false,
  client: { eventLoopLagP99Ms: 0, eventLoopLagMaxMs: 0, eventLoopLagMeanMs: 0, cpuPct: 1, peakCpuPct: 1, reasons: [] },
  tokenCounts: 'approximate',
  aborted: false,
  notes: [],
  startedAt: new Date(0).toISOString(),
};

describe('toSimulated', () => {
  const sim = toSimulated(wall, 50);
  it('multiplies durations and latencies, divides throughputs', () => {
    expect(sim.metrics.duration).toBeCloseTo(3.5, 12);
    expect(sim.metrics.mean_ttft_ms).toBeCloseTo(500, 9);
    expect(sim.metrics.mean_tpot_ms).toBeCloseTo(100, 9);
    expect(sim.metrics.p99_itl_ms).toBeCloseTo(100, 9);
    expect(sim.metrics.mean_e2el_ms).toBeCloseTo(900, 9);
    expect(sim.metrics.request_throughput).toBeCloseTo(wall.metrics.request_throughput / 50, 9);
    expect(sim.metrics.output_throughput).toBeCloseTo(wall.metrics.output_throughput / 50, 9);
    expect(sim.metrics.total_token_throughput).toBeCloseTo(wall.metrics.total_token_throughput / 50, 9);
    expect(sim.metrics.max_concurrent_requests).toBe(wall.metrics.max_concurrent_requests);
    expect(sim.config.requestRate).toBe(2);
  });
  it('re-cuts the 1 s peak buckets in simulated time', () => {
    // Wall: all 20 events inside the first second. Simulated: 3.5 s, fewer per bucket.
    expect(wall.metrics.max_output_tokens_per_s).toBe(20);
    expect(sim.metrics.max_output_tokens_per_s).toBeLessThan(20);
    expect(sim.metrics.max_output_tokens_per_s).toBeGreaterThan(0);
  });
  it('marks the result and refuses to convert twice', () => {
    expect(sim.simulated).toEqual({ speed: 50 });
    expect(sim.notes.join()).toMatch(/simulated/);
    expect(wall.simulated).toBeUndefined();
    expect(() => toSimulated(sim, 50)).toThrow(/already in simulated time/);
    expect(() => toSimulated(wall, 0)).toThrow(/speed/);
  });
  it('converts live snapshots the same way', () => {
    const s = toSimulatedSnapshot(
      {
        elapsedS: 1,
        total: 4,
        completed: 1,
        failed: 0,
        running: 2,
        outputTokPerS: 500,
        totalTokPerS: 1000,
        meanTtftMs: 10,
        p99TtftMs: 20,
        meanTpotMs: 2,
        p99TpotMs: 3,
        meanItlMs: 2,
        p99ItlMs: 4,
        clientBound: false,
      },
      10,
    );
    expect(s).toMatchObject({ elapsedS: 10, outputTokPerS: 50, totalTokPerS: 100, meanTtftMs: 100, p99TpotMs: 30, running: 2 });
  });
});
