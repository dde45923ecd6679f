// The metric formulas of `vllm bench serve` (serve.py calculate_metrics), on per-request outputs.
// Where vLLM main fixed a v0.11.0 bug we follow main; docs/bench.md lists each difference.
import { mean, medianSorted, percentileSorted, sortedCopy, std } from '../../core/stats.js';
import type { RequestOutput } from '../types.js';
import type { BenchMetrics, GoodputSlo, LatencyMetric } from '../../core/metrics.js';

export const ALL_LATENCY_METRICS: readonly LatencyMetric[] = ['ttft', 'tpot', 'itl', 'e2el'];

export interface MetricOptions {
  /** Which latency metrics get mean/median/std/percentile keys (vLLM --percentile-metrics). */
  percentileMetrics: readonly LatencyMetric[];
  /** vLLM --metric-percentiles, e.g. [99] or [50, 90, 99.9]. */
  metricPercentiles: readonly number[];
  /** SLOs in milliseconds (vLLM --goodput); undefined = request_goodput null. */
  goodput?: GoodputSlo;
}

/** vLLM names a percentile key by `str(int(p))` when p is whole, `str(p)` otherwise. */
export function percentileWord(p: number): string {
  // JS prints whole numbers without ".0" and others like Python's str(float) for typical values.
  return String(p);
}

/**
 * Peak output throughput: one count per choice event (not per token) in 1 s buckets from the
 * first successful start, exactly as v0.11.0 and main do (vllm-project/vllm#37666).
 */
export function peakOutputTokensPerS(ok: readonly RequestOutput[]): number {
  if (ok.length === 0) return 0;
  let t0 = Infinity;
  let tmax = -Infinity;
  for (const o of ok) {
    t0 = Math.min(t0, o.startTime);
    tmax = Math.max(tmax, o.startTime + o.latency);
  }
  const n = Math.ceil(tmax - t0) + 1;
  const buckets = new Float64Array(n);
  for (const o of ok) {
    let t = o.startTime + o.ttft;
    const add = (time: number) => {
      const b = Math.trunc(time - t0);
      if (b >= 0 && b < n) buckets[b]! += 1;
    };
    add(t);
    for (const gap of o.itl) {
      t += gap;
      add(t);
    }
  }
  let max = 0;
  for (const v of buckets) max = Math.max(max, v);
  return max;
}

/**
 * Peak concurrent requests, vLLM main's exact sweep line (PR #56647): half-open intervals
 * [start, end), and at equal times an end (-1) is processed before a start (+1), so requests
 * that only touch are not counted as overlapping.
 */
export function peakConcurrency(intervals: readonly { start: number; end: number }[]): number {
  const events: [number, number][] = [];
  for (const { start, end } of intervals) {
    events.push([start, 1], [end, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let max = 0;
  for (const [, d] of events) {
    cur += d;
    if (cur > max) max = cur;
  }
  return max;
}

export function calculateMetrics(outputs: readonly RequestOutput[], durationS: number, opts: MetricOptions): BenchMetrics {
  const ok = outputs.filter((o) => o.success);
  const ttfts: number[] = [];
  const tpots: number[] = [];
  const allTpots: number[] = [];
  const e2els: number[] = [];
  const itls: number[] = [];
  let totalInput = 0;
  let totalOutput = 0;
  // Every inter-token gap of every request: by far the longest series, gathered only when asked for.
  const wantItl = opts.percentileMetrics.includes('itl');
  for (const o of ok) {
    totalInput += o.promptLen;
    totalOutput += o.outputLen;
    let tpot = 0;
    if (o.outputLen > 1) {
      tpot = (o.latency - o.ttft) / (o.outputLen - 1);
      tpots.push(tpot);
    }
    // A 1-token output has no TPOT; goodput treats it as 0 (vLLM all_tpots).
    allTpots.push(tpot);
    if (wantItl) for (const g of o.itl) itls.push(g);
    ttfts.push(o.ttft);
    e2els.push(o.latency);
  }
  const completed = ok.length;
  let good: number | null = null;
  if (opts.goodput && Object.keys(opts.goodput).length > 0) {
    const slo = opts.goodput;
    good = 0;
    for (let i = 0; i < ok.length; i++) {
      const pass =
        (slo.ttft === undefined || slo.ttft / 1000 >= ttfts[i]!) &&
        (slo.tpot === undefined || slo.tpot / 1000 >= allTpots[i]!) &&
        (slo.e2el === undefined || slo.e2el / 1000 >= e2els[i]!);
      if (pass) good++;
    }
  }
  // A run aborted before anything finished has no duration; report zero rates, not NaN.
  const dur = durationS;
  const rate = (x: number) => (dur > 0 ? x / dur : 0);
  const m: Record<string, number | null> = {
    duration: dur,
    completed,
    failed: outputs.length - completed,
    total_input_tokens: totalInput,
    total_output_tokens: totalOutput,
    request_throughput: rate(completed),
    request_goodput: good === null ? null : rate(good),
    output_throughput: rate(totalOutput),
    total_token_throughput: rate(totalInput + totalOutput),
    max_output_tokens_per_s: peakOutputTokensPerS(ok),
    max_concurrent_requests: peakConcurrency(ok.map((o) => ({ start: o.startTime, end: o.startTime + o.latency }))),
  };
  const series: Record<LatencyMetric, number[]> = { ttft: ttfts, tpot: tpots, itl: itls, e2el: e2els };
  for (const name of ALL_LATENCY_METRICS) {
    if (!opts.percentileMetrics.includes(name)) continue;
    const xs = series[name];
    const sorted = sortedCopy(xs);
    m[`mean_${name}_ms`] = mean(xs) * 1000;
    m[`median_${name}_ms`] = medianSorted(sorted) * 1000;
    m[`std_${name}_ms`] = std(xs) * 1000;
    for (const p of opts.metricPercentiles) m[`p${percentileWord(p)}_${name}_ms`] = percentileSorted(sorted, p) * 1000;
  }
  return m as unknown as BenchMetrics;
}
