// The ONE place that turns wall-clock measurements of a simulator running `speed` times faster
// than real time into simulated-GPU figures: simulated seconds = wall seconds x speed. Per-request
// times are scaled and every metric is recomputed, so durations and latencies multiply by
// `speed`, throughputs divide by it, and the 1 s peak buckets are re-cut in simulated time.
import { calculateMetrics } from './metrics.js';
import type { BenchEvent, BenchResult, RequestOutput } from '../types.js';
import type { LiveSnapshot } from '../../core/metrics.js';

export function toSimulated(result: BenchResult, speed: number): BenchResult {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`toSimulated: speed must be a positive number, got ${speed}`);
  if (result.simulated) throw new Error('toSimulated: result is already in simulated time');
  const outputs: RequestOutput[] = result.outputs.map((o) => ({
    ...o,
    ttft: o.ttft * speed,
    itl: o.itl.map((g) => g * speed),
    latency: o.latency * speed,
    startTime: o.startTime * speed,
  }));
  const c = result.config;
  const metrics = calculateMetrics(outputs, result.metrics.duration * speed, {
    percentileMetrics: c.percentileMetrics,
    metricPercentiles: c.metricPercentiles,
    ...(c.goodput ? { goodput: c.goodput } : {}),
  });
  return {
    ...result,
    metrics,
    outputs,
    // The configured arrival rate was in wall time; in simulated time it is `speed` times slower.
    config: { ...c, requestRate: c.requestRate / speed },
    simulated: { speed },
    notes: [...result.notes, `simulated: wall-clock figures converted at ${speed}x (simulated s = wall s x ${speed})`],
  };
}

/** A live snapshot from a simulator run, in simulated time. */
export function toSimulatedSnapshot(s: LiveSnapshot, speed: number): LiveSnapshot {
  return {
    ...s,
    elapsedS: s.elapsedS * speed,
    outputTokPerS: s.outputTokPerS / speed,
    totalTokPerS: s.totalTokPerS / speed,
    meanTtftMs: s.meanTtftMs * speed,
    p99TtftMs: s.p99TtftMs * speed,
    meanTpotMs: s.meanTpotMs * speed,
    p99TpotMs: s.p99TpotMs * speed,
    meanItlMs: s.meanItlMs * speed,
    p99ItlMs: s.p99ItlMs * speed,
  };
}

/** A live event from a simulator run, in simulated time. */
export function toSimulatedEvent(e: BenchEvent, speed: number): BenchEvent {
  switch (e.type) {
    case 'snapshot':
      return { type: 'snapshot', snapshot: toSimulatedSnapshot(e.snapshot, speed) };
    case 'first-token':
      return { ...e, t: e.t * speed, ttft: e.ttft * speed };
    case 'token':
      return { ...e, t: e.t * speed, gap: e.gap * speed };
    case 'request-finished':
      return {
        ...e,
        t: e.t * speed,
        output: {
          ...e.output,
          ttft: e.output.ttft * speed,
          itl: e.output.itl.map((g) => g * speed),
          latency: e.output.latency * speed,
          startTime: e.output.startTime * speed,
        },
      };
    default:
      return { ...e, t: e.t * speed };
  }
}
