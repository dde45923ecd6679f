// The warm-up before `replay --capacity`'s one probe. The search judged its answer on a server
// that had already served the lower loads and the pilots (up to twice the answer), so its
// kernels, graphs and allocator were warm at that batch size; the replay's server is launched
// fresh. One full batch at the load (the tuning runner's rule, warmup-count.ts) puts it where
// the search's probe was, so a cold first wave is not read as a regression.
import type { Scenario } from '../../core/scenario.js';
import { warmupsFor } from '../run/warmup-count.js';

/** Warm-up requests before the replay's probe at `load` (users, or req/s under the scenario's own cap). */
export function capacityReplayWarmups(by: 'concurrency' | 'rate', load: number, scenario: Pick<Scenario, 'maxConcurrency'>): number {
  const maxConcurrency = by === 'concurrency' ? Math.ceil(load) : scenario.maxConcurrency;
  return warmupsFor({ numPrompts: Number.MAX_SAFE_INTEGER, maxConcurrency }, 0, 0);
}
