// Metric formulas pinned on a hand-built trace. Expected numbers were computed with numpy 2.4
// running vLLM's calculate_metrics formulas on the same trace (see comments for hand checks).
import { describe, expect, it } from 'vitest';
import { calculateMetrics, peakConcurrency, peakOutputTokensPerS } from '../../../src/bench/metrics/metrics.js';
import { median, percentile, std } from '../../../src/core/stats.js';
import type { RequestOutput } from '../../../src/bench/types.js';

const req = (
  o: Partial<RequestOutput> & Pick<RequestOutput, 'startTime' | 'ttft' | 'itl' | 'latency' | 'outputLen' | 'promptLen'>,
): RequestOutput => ({
  success: true,
  generatedText: '',
  error: '',
  ...o,
});

// Times are binary fractions so sums are exact.
const trace: RequestOutput[] = [
  req({ startTime: 0, ttft: 0.125, itl: [0.0625, 0.03125, 0.03125], latency: 0.25, outputLen: 4, promptLen: 10 }),
  // Starts exactly when the first ends (touching), and has a 1-token output: no TPOT.
  req({ startTime: 0.25, ttft: 0.25, itl: [], latency: 0.25, outputLen: 1, promptLen: 5 }),
  req({ startTime: 0.5, ttft: 0.125, itl: [0.25], latency: 0.375, outputLen: 2, promptLen: 7 }),
  // Failed: excluded from every metric.
  { success: false, startTime: 0.1, ttft: 0, itl: [], latency: 0, outputLen: 0, promptLen: 100, generatedText: '', error: 'HTTP 500' },
  req({ startTime: 1.5, ttft: 0.25, itl: [0.5, 0.5, 0.25], latency: 1.5, outputLen: 4, promptLen: 3 }),
];

const opts = { percentileMetrics: ['ttft', 'tpot', 'itl', 'e2el'] as const, metricPercentiles: [50, 90, 99, 99.9] };

describe('numpy-compatible statistics', () => {
  it('percentile uses linear interpolation h=(n-1)p/100', () => {
    // sorted [1,2,3,4]: p99 -> h=2.97 -> 3 + 0.97*(4-3)
    expect(percentile([4, 1, 3, 2], 99)).toBeCloseTo(3.97, 12);
    expect(percentile([4, 1, 3, 2], 0)).toBe(1);
    expect(percentile([4, 1, 3, 2], 100)).toBe(4);
    expect(percentile([10], 99)).toBe(10);
    expect(percentile([], 99)).toBe(0);
  });
  it('median averages the middle pair; std is population (ddof=0)', () => {
    expect(median([1, 2, 3, 10])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
    expect(std([2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
  });
});

describe('calculateMetrics (vLLM formulas)', () => {
  const m = calculateMetrics(trace, 3, { ...opts, percentileMetrics: [...opts.percentileMetrics] }) as unknown as Record<string, number>;

  it('counts only successful requests', () => {
    expect(m.completed).toBe(4);
    expect(m.failed).toBe(1);
    expect(m.total_input_tokens).toBe(25); // 10+5+7+3, the failed 100 excluded
    expect(m.total_output_tokens).toBe(11);
    expect(m.request_throughput).toBeCloseTo(4 / 3, 12);
    expect(m.output_throughput).toBeCloseTo(11 / 3, 12);
    expect(m.total_token_throughput).toBeCloseTo(36 / 3, 12);
    expect(m.request_goodput).toBeNull();
  });

  it('TTFT, TPOT (1-token outputs excluded), ITL (flat, per event) and E2EL match numpy', () => {
    const expected: Record<string, number> = {
      mean_ttft_ms: 187.5,
      median_ttft_ms: 187.5,
      std_ttft_ms: 62.5,
      p90_ttft_ms: 250,
      // TPOTs: (0.25-0.125)/3, (0.375-0.125)/1, (1.5-0.25)/3 -> mean 236.11 ms
      mean_tpot_ms: 236.11111111111114,
      median_tpot_ms: 250,
      std_tpot_ms: 153.40779190537862,
      p90_tpot_ms: 383.33333333333337,
      p99_tpot_ms: 413.3333333333333,
      'p99.9_tpot_ms': 416.33333333333337,
      mean_itl_ms: 232.14285714285714,
      median_itl_ms: 250,
      std_itl_ms: 190.34826433328428,
      p99_itl_ms: 500,
      mean_e2el_ms: 593.75,
      median_e2el_ms: 312.5,
      std_e2el_ms: 525.7063700393976,
      p90_e2el_ms: 1162.5,
      p99_e2el_ms: 1466.2499999999995,
      'p99.9_e2el_ms': 1496.6250000000002,
    };
    for (const [k, v] of Object.entries(expected)) expect(m[k], k).toBeCloseTo(v, 9);
  });

  it('peak output throughput counts choice events per 1 s bucket', () => {
    // Buckets from t0=0: [7, 1, 2, 1]
    expect(m.max_output_tokens_per_s).toBe(7);
  });

  it('peak concurrency uses the exact sweep line: touching intervals do not overlap', () => {
    // vLLM v0.11.0's inclusive 1 s buckets would say 3 here; the requests never overlap.
    expect(m.max_concurrent_requests).toBe(1);
    expect(
      peakConcurrency([
        { start: 0, end: 1 },
        { start: 1, end: 2 },
        { start: 2, end: 3 },
      ]),
    ).toBe(1);
    expect(
      peakConcurrency([
        { start: 0, end: 1 },
        { start: 0.5, end: 2 },
        { start: 0.99, end: 1.5 },
      ]),
    ).toBe(3);
    expect(
      peakConcurrency([
        { start: 0, end: 2 },
        { start: 1, end: 1 + 1e-9 },
        { start: 1, end: 3 },
      ]),
    ).toBe(3);
    expect(peakConcurrency([])).toBe(0);
  });

  it('goodput uses TPOT 0 for 1-token outputs and needs every SLO to hold', () => {
    const g = (goodput: Record<string, number>) =>
      calculateMetrics(trace, 3, { ...opts, percentileMetrics: ['ttft'], goodput }).request_goodput;
    expect(g({ ttft: 200 })).toBeCloseTo(2 / 3, 12); // ttfts .125 .25 .125 .25
    expect(g({ tpot: 100 })).toBeCloseTo(2 / 3, 12); // tpots 41.7, 0 (1 token), 250, 416.7
    expect(g({ ttft: 200, tpot: 100 })).toBeCloseTo(1 / 3, 12);
    expect(g({ e2el: 250 })).toBeCloseTo(2 / 3, 12); // SLO >= value: 250 passes
  });

  it('selects metrics and percentiles like --percentile-metrics / --metric-percentiles', () => {
    const k = Object.keys(calculateMetrics(trace, 3, { percentileMetrics: ['itl', 'e2el'], metricPercentiles: [99, 50] }));
    expect(k.filter((x) => x.endsWith('_ms'))).toEqual([
      'mean_itl_ms',
      'median_itl_ms',
      'std_itl_ms',
      'p99_itl_ms',
      'p50_itl_ms',
      'mean_e2el_ms',
      'median_e2el_ms',
      'std_e2el_ms',
      'p99_e2el_ms',
      'p50_e2el_ms',
    ]);
  });

  it('an empty or all-failed run gives zeros, not NaN', () => {
    const e = calculateMetrics([trace[3]!], 0, { percentileMetrics: ['ttft'], metricPercentiles: [99] }) as unknown as Record<
      string,
      number
    >;
    expect(e.completed).toBe(0);
    expect(e.request_throughput).toBe(0);
    expect(e.mean_ttft_ms).toBe(0);
    expect(e.p99_ttft_ms).toBe(0);
    expect(e.max_output_tokens_per_s).toBe(0);
    expect(peakOutputTokensPerS([])).toBe(0);
  });
});
