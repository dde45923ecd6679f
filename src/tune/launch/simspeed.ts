// How fast to run the simulated clock for one launch. The simulator runs `speed` times faster than
// the wall clock, so a server that streams E SSE events per simulated second makes the benchmark
// client parse E x speed events per wall second. Past roughly 19k events/s on a 2-core VM (and
// ~10k on a loaded one; perf/client-ceiling.bench.ts) the client's own delay leaks into TTFT and
// ITL and the run is flagged client-bound. So, unless the user fixed --speed, each launch gets the
// fastest clock that keeps the predicted peak event rate under a budget.
import type { Variant } from '../../core/variant.js';
import { getModel } from '../../model/models.js';
import { PREDICTION_LATENCY, simulateWorkload } from '../../sim/scheduler/virtual.js';
import type { Workload } from '../../bench/types.js';

/**
 * Wall-clock SSE events per second the client is asked to handle at most: under the ~19k/s where
 * its mean timing error passes 1 ms, at about a quarter of a core (14-17 us of CPU per event).
 */
export const CLIENT_EVENT_BUDGET = 15_000;
/** Never slower than real time: a slower clock makes a session crawl for little gain in accuracy. */
export const MIN_AUTO_SPEED = 1;

/** The clock speed for a predicted peak of `eventsPerSimS` events per simulated second. */
export function speedForEventRate(maxSpeed: number, eventsPerSimS: number): number {
  if (!(eventsPerSimS > 0)) return maxSpeed;
  const s = Math.floor((CLIENT_EVENT_BUDGET / eventsPerSimS) * 10) / 10;
  return Math.min(maxSpeed, Math.max(MIN_AUTO_SPEED, s));
}

/**
 * Predicted peak SSE events per simulated second of `variant` over `workloads` (the virtual clock,
 * the same model sim-serve runs): one event per output token in each 1 s bucket at the busiest
 * second, plus the role and usage chunks of each request. Undefined when the model is unknown or
 * the variant does not fit (the launch fails anyway).
 */
export function predictedPeakEvents(
  variant: Variant,
  sim: { gpu: string; gpus: number; seed: number },
  workloads: { workload: Workload; maxConcurrency?: number }[],
): number | undefined {
  const model = getModel(variant.model);
  if (!model) return undefined;
  let peak: number | undefined;
  for (const { workload, maxConcurrency } of workloads) {
    const r = simulateWorkload({
      engine: variant.engine,
      gpu: sim.gpu,
      gpus: sim.gpus,
      model,
      knobs: variant.knobs,
      requests: workload.requests.map((q) => ({ promptLen: q.promptLen, outputLen: q.expectedOutputLen })),
      ...(maxConcurrency ? { maxConcurrency } : {}),
      seed: sim.seed,
      latencyMetrics: PREDICTION_LATENCY,
    });
    if (!r.metrics) continue;
    const events = r.metrics.max_output_tokens_per_s + 2 * r.metrics.request_throughput;
    peak = Math.max(peak ?? 0, events);
  }
  return peak;
}
