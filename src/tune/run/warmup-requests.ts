// What a tuning session warms a server with: random prompts of the run's mean prompt and output
// lengths, which the run does not send. vLLM's --num-warmups sends copies of the first request
// (`servelab bench` keeps that: a drop-in). On a server with a prefix or prompt cache those
// copies are served from the cache after the first, so a full batch of them does not load the
// server as the run will, and the run's first request then finds its prompt cached: llama-server
// and the simulated engines reported "cache warm before the run" on workloads that share nothing.
// Drawn as vLLM's random dataset with the model's tokenizer, under another seed than the run's.
import type { Scenario } from '../../core/scenario.js';
import type { SampledRequest, Workload } from '../../bench/types.js';
import { loadScenario } from '../launch/workloads.js';

/** Added to the scenario's seed for its warm-up draw: any fixed offset gives other prompts. */
export const WARMUP_SEED_OFFSET = 7919;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/**
 * `count` warm-up requests (the sender cycles them), none where every drawn prompt is one the run
 * sends: then the sender falls back on copies of the first request.
 */
export async function warmupRequests(
  scenario: Scenario,
  model: string,
  measured: readonly SampledRequest[],
  count: number,
  cache?: Map<string, Promise<Workload>>,
): Promise<SampledRequest[]> {
  if (count <= 0 || !measured.length) return [];
  const draw: Scenario = {
    name: `${scenario.name} (warm-up)`,
    label: `${scenario.label} warm-up`,
    dataset: 'random',
    inputLen: Math.max(1, Math.round(mean(measured.map((r) => r.promptLen)))),
    outputLen: Math.max(1, Math.round(mean(measured.map((r) => r.expectedOutputLen)))),
    rangeRatio: 0,
    numPrompts: count,
    seed: scenario.seed + WARMUP_SEED_OFFSET,
    maxConcurrency: scenario.maxConcurrency,
  };
  const sent = new Set(measured.map((r) => r.prompt));
  const w = await loadScenario(draw, model, cache);
  return w.requests.filter((r) => !sent.has(r.prompt));
}
