// What a scenario's benchmark runs: its request list through the bench client on its own thread,
// or, for a multi-turn scenario, its conversations through the bench's closed-loop driver
// (src/bench/multiturn/driver.ts owns the user loop; this only hands it the scenario's spec).
import type { Scenario } from '../../core/scenario.js';
import type { Workload as BenchWorkload, BenchResult, SampledRequest } from '../../bench/types.js';
import { runBenchmarkIsolated, type IsolatedRunOptions } from '../../bench/workers/isolated.js';
import { runMultiTurn } from '../../bench/multiturn/driver.js';
import { loadMultiTurn } from '../../bench/multiturn/workload.js';
import { loadScenario } from '../launch/workloads.js';
import { warmupRequests } from './warmup-requests.js';
import { multiTurnSpecOf } from '../config/multi-turn-scenario.js';
import { UserError } from '../../core/errors.js';
import type { RunOptions } from '../../bench/load/run-options.js';
import type { CapacityTarget } from '../../capacity/runner.js';

/** The run's options but the workload's own parts (requests, their token counts, concurrency). */
export type BenchCall = Omit<IsolatedRunOptions, 'requests' | 'tokenCounts' | 'maxConcurrency'>;

export interface ScenarioBench {
  /** Requests the run will send (a multi-turn run: every turn of every conversation). */
  requests: number;
  /** The request list for early stopping; none for a closed loop, whose load follows the server. */
  list?: SampledRequest[];
  run(o: BenchCall): Promise<BenchResult>;
}

export async function loadScenarioBench(
  scenario: Scenario,
  model: string,
  cache?: Map<string, Promise<BenchWorkload>>,
): Promise<ScenarioBench> {
  if (scenario.dataset === 'multi_turn') {
    const spec = multiTurnSpecOf(scenario);
    const w = await loadMultiTurn(spec, undefined, model);
    return {
      requests: w.conversations.reduce((a, c) => a + c.turns.length, 0),
      run: ({ clientThreads: _threads, requestRate: _rate, burstiness: _b, ...o }) =>
        runMultiTurn({ ...o, workload: w, users: spec.users, counter: w.counter }),
    };
  }
  const workload = await loadScenario(scenario, model, cache);
  return {
    requests: workload.requests.length,
    list: workload.requests,
    run: async (o) =>
      runBenchmarkIsolated({
        ...o,
        requests: workload.requests,
        tokenCounts: workload.tokenCounts,
        maxConcurrency: scenario.maxConcurrency,
        // Warm-ups of the workload's shape that the run does not send (warmup-requests.ts).
        warmupRequests: await warmupRequests(scenario, model, workload.requests, o.numWarmups ?? 0, cache),
      }),
  };
}

/**
 * A capacity probe of a multi-turn scenario: the probe's concurrency is its users, its `n`
 * requests whole conversations of the scenario's turns. Undefined for the other scenarios; a
 * search by rate is refused (a closed loop has no arrival rate to set).
 *
 * Every probe starts as a server in steady state would: the shared system prompt primed in its
 * cache, the conversations new to it (the workload's next ones after those earlier probes of this
 * target sent). So the search's probes, which follow others on one server, and replay's single
 * probe on a fresh server measure alike; re-sending the first conversations let the search's
 * later probes hit whole histories an earlier probe had left in the cache.
 */
export function multiTurnProbe(scenario: Scenario, model: string, by: 'concurrency' | 'rate'): CapacityTarget['probe'] {
  if (scenario.dataset !== 'multi_turn') return undefined;
  if (by === 'rate')
    throw new UserError('the multi-turn workload is a closed loop of users: search its capacity by concurrency (its users), not by rate');
  let sent = 0;
  return async ({ requests: _r, requestRate: _rate, burstiness: _b, maxConcurrency, tokenCounts: _t, ...o }: RunOptions, n: number) => {
    const users = maxConcurrency ?? scenario.maxConcurrency ?? 1;
    const conversations = Math.max(users, Math.ceil(n / (scenario.turns ?? 1)));
    // The same seed draws the same conversations in the same order: the first `sent` were this target's already.
    const spec = multiTurnSpecOf({ ...scenario, numPrompts: sent + conversations, maxConcurrency: users });
    const w = await loadMultiTurn(spec, undefined, model);
    const fresh = { ...w, conversations: w.conversations.slice(sent) };
    sent += conversations;
    return runMultiTurn({ ...o, workload: fresh, users, counter: w.counter, primeSystems: true });
  };
}
