// Workloads for a launch: each scenario loaded once per session (ShareGPT reading and tokenizing
// is not free), and the simulated clock an automatic launch runs at.
import type { Variant } from '../../core/variant.js';
import type { Scenario } from '../../core/scenario.js';
import { predictedPeakEvents, speedForEventRate } from './simspeed.js';
import { loadWorkload } from '../../bench/datasets/datasets.js';
import type { Workload } from '../../bench/types.js';

/** A scenario's identity for the journal and the workload cache: its name and its size. */
export function scenarioKey(s: Scenario): string {
  return `${s.name}-n${s.numPrompts}`;
}

export function loadScenario(s: Scenario, model: string, cache?: Map<string, Promise<Workload>>): Promise<Workload> {
  const key = scenarioKey(s);
  const hit = cache?.get(key);
  if (hit) return hit;
  const p = loadWorkload({
    dataset: s.dataset,
    path: s.datasetPath,
    numPrompts: s.numPrompts,
    randomInputLen: s.inputLen,
    randomOutputLen: s.outputLen,
    randomRangeRatio: s.rangeRatio,
    seed: s.seed,
    model,
    ...sharedPrefixSpec(s),
  });
  cache?.set(key, p);
  // A failed load is not cached: the next caller gets the error again, not a stale promise.
  p.catch(() => cache?.delete(key));
  return p;
}

/** The shared-prefix and trace workloads' own fields (prefix_repetition's suffix is inputLen). */
function sharedPrefixSpec(s: Scenario) {
  // vLLM's --random-prefix-len: every random prompt starts with the same prefixLen tokens.
  if (s.dataset === 'random') return s.prefixLen ? { randomPrefixLen: s.prefixLen } : {};
  if (s.dataset === 'prefix_repetition')
    return {
      ...(s.prefixLen !== undefined ? { prefixRepetitionPrefixLen: s.prefixLen } : {}),
      ...(s.inputLen !== undefined ? { prefixRepetitionSuffixLen: s.inputLen } : {}),
      ...(s.numPrefixes !== undefined ? { prefixRepetitionNumPrefixes: s.numPrefixes } : {}),
      ...(s.outputLen !== undefined ? { prefixRepetitionOutputLen: s.outputLen } : {}),
    };
  return {
    ...(s.traceBlockSize !== undefined ? { traceBlockSize: s.traceBlockSize } : {}),
    ...(s.traceSpeedup !== undefined ? { traceSpeedup: s.traceSpeedup } : {}),
  };
}

/** The clock an automatic launch of `variant` on `scenarios` runs at (simspeed.ts), at most sim.speed. */
export async function autoSimSpeed(
  variant: Variant,
  scenarios: readonly Scenario[],
  sim: { gpu: string; gpus: number; speed: number; seed: number },
  tokenizerModel: string,
  cache?: Map<string, Promise<Workload>>,
): Promise<number> {
  try {
    const workloads = await Promise.all(
      scenarios.map(async (s) => ({
        workload: await loadScenario(s, tokenizerModel, cache),
        maxConcurrency: s.maxConcurrency ?? undefined,
      })),
    );
    const peak = predictedPeakEvents(variant, sim, workloads);
    return peak === undefined ? sim.speed : speedForEventRate(sim.speed, peak);
  } catch {
    // A workload that cannot load fails in the benchmark with its own one-line error.
    return sim.speed;
  }
}
