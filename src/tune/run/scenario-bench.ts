// What a scenario's benchmark runs: its request list through the bench client on its own thread,
// or, for a multi-turn scenario, its conversations through the bench's closed-loop driver
// (src/bench/multiturn/driver.ts owns the user loop; this only hands it the scenario's spec).
import type { Scenario } from '../../core/scenario.js';
import type { Workload as BenchWorkload, BenchResult, SampledRequest } from '../../bench/types.js';
import { runBenchmarkIsolated, type IsolatedRunOptions } from '../../bench/workers/isolated.js';
import { runMultiTurn } from '../../bench/multiturn/driver.js';
import { loadMultiTurn } from '../../bench/multiturn/workload.js';
import { loadScenario } from '../launch/workloads.js';
import { multiTurnSpecOf } from '../config/multi-turn-scenario.js';

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
    run: (o) =>
      runBenchmarkIsolated({
        ...o,
        requests: workload.requests,
        tokenCounts: workload.tokenCounts,
        maxConcurrency: scenario.maxConcurrency,
      }),
  };
}
