// How many warm-up requests a tuning session sends before a measured run: at least one full batch
// at the run's concurrency, so the measured requests never meet a server that has not yet served
// that many at once (cold kernels, CUDA graphs captured for batch sizes it has not seen, allocator
// growth). Under-warming at concurrency 4 inflated mean latency by 28% in vLLM-Omni
// (vllm-project/vllm-omni#6356). `servelab bench` keeps vLLM's --num-warmups (a drop-in); only
// tuning sessions use this rule.
import type { Scenario } from '../../core/scenario.js';

/** Never fewer warm-ups than this, whatever the load. */
export const MIN_WARMUPS = 4;
/**
 * The batch of a run without a concurrency cap (every request at once, or arrivals at a rate): its
 * concurrency is bounded by the server, not the client, so one batch of this size stands for it.
 * vLLM's own performance evaluation warms with 128 requests (vllm-project/perf-eval#59).
 */
export const UNCAPPED_WARMUPS = 128;

/** The batch one full warm-up sends for this scenario: its concurrency cap, at most its own request count. */
export function warmupBatch(scenario: Pick<Scenario, 'numPrompts' | 'maxConcurrency'>): number {
  return Math.min(scenario.maxConcurrency ?? UNCAPPED_WARMUPS, scenario.numPrompts);
}

/**
 * Warm-ups before `scenario` on a server already warmed with batches up to `warmedBatch` (0: a
 * fresh server): a full batch when this run's is larger, else none. `floor` is the session's
 * --warmup setting, which the rule never goes below on a fresh server.
 */
export function warmupsFor(scenario: Pick<Scenario, 'numPrompts' | 'maxConcurrency'>, warmedBatch: number, floor: number): number {
  const batch = Math.max(MIN_WARMUPS, floor, warmupBatch(scenario));
  return batch > warmedBatch ? batch : 0;
}
