// Each probe of a capacity search sends prompts its server has not seen, and says what it found
// cached anyway. Re-sending one seed's prompts let every probe after the first find them in the
// server's prefix cache (on by default in vLLM V1, SGLang and llama-server's RAM cache, each with
// its source in src/engines/{vllm,sglang,llamacpp}/knobs.ts): on
// llama-server a second identical run read 94.5% of its prompt tokens from cache and its mean
// TTFT fell from 1,258 to 412 ms, which a TTFT rule reads as capacity. A workload's own reuse (a
// shared prefix, a trace's blocks) stays within each probe.
import { cacheMetrics } from '../bench/metrics/cache.js';
import type { BenchResult } from '../bench/types.js';

/** Probes drawn from each target so far (a target is one search's view of one server). */
const draws = new WeakMap<object, number>();

/** The seed of a target's probe number `draw` (1, 2, ...): the workload's own seed moved by it. */
export const probeSeed = (seed: number | undefined, draw: number) => (seed ?? 0) + draw;

/** The next probe's draw on `target`: 1 for its first. */
export function nextDraw(target: object): number {
  const draw = (draws.get(target) ?? 0) + 1;
  draws.set(target, draw);
  return draw;
}

/** What an earlier probe (or anything before) left in the server's prefix cache, where the server says. */
export function cacheBefore(r: BenchResult): { cacheHitBeforeRun?: number } {
  const c = cacheMetrics(r.outputs);
  return c && c.cache_reported_requests > 0 ? { cacheHitBeforeRun: Number(c.cache_hit_before_run.toFixed(3)) } : {};
}
