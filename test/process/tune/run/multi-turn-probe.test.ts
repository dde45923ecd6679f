// Capacity probes of a multi-turn workload, on a real sim-serve, start as a server in steady state
// would, whichever probe they are: the shared system prompt primed in the cache (every first turn
// finds it), and conversations the server has not seen (a later probe does not re-send an earlier
// one's histories, which it would find whole in the cache). So the search's probes, which follow
// others on one server, and replay's single probe on a fresh one measure alike.
import { afterAll, describe, expect, it } from 'vitest';
import { cacheMetrics } from '../../../../src/bench/metrics/cache.js';
import type { RunOptions } from '../../../../src/bench/load/run-options.js';
import { parseScenario } from '../../../../src/tune/config/scenarios.js';
import { multiTurnProbe } from '../../../../src/tune/run/scenario-bench.js';
import { reapAll, startReady } from '../../../helpers/sim/helpers.js';

afterAll(reapAll);

describe('multi-turn capacity probes', () => {
  it('prime the system prompt and send new conversations each probe: a second probe is no warmer than the first', async () => {
    const { url } = await startReady(['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--speed', '50']);
    const scenario = parseScenario('multi-turn:4/3/300/32/8', { scale: 1 });
    const probe = multiTurnProbe(scenario, 'Qwen/Qwen3-14B', 'concurrency')!;
    const o = { baseUrl: url, model: 'Qwen/Qwen3-14B', requests: [], maxConcurrency: 4 } as RunOptions;
    const first = await probe(o, 24);
    const second = await probe(o, 24);
    for (const r of [first, second]) {
      expect(r.metrics.completed).toBe(24);
      // Every first turn finds the system prompt, the first one sent included: it was primed.
      const firstTurns = r.outputs.filter((x) => x.turn!.index === 1);
      expect(firstTurns).toHaveLength(8);
      for (const t of firstTurns) expect(t.cachedTokens ?? 0).toBeGreaterThanOrEqual(256);
    }
    // No conversation of the first probe is sent again: its histories would be cache hits no workload offers.
    const firstMessages = (r: typeof first) => new Set(r.outputs.filter((x) => x.turn!.index === 1).map((x) => x.promptLen));
    expect(cacheMetrics(second.outputs)).toMatchObject({ cache_warm_before_run: false });
    expect(cacheMetrics(first.outputs)).toMatchObject({ cache_warm_before_run: false });
    expect(firstMessages(second)).not.toEqual(firstMessages(first));
  });
});
