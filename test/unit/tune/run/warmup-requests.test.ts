// A tuning session's warm-up requests: random prompts of the run's mean lengths that the run does
// not send, all different (copies of one prompt are served from a prefix cache after the first).
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../src/tune/config/scenarios.js';
import { loadScenario } from '../../../../src/tune/launch/workloads.js';
import { warmupRequests } from '../../../../src/tune/run/warmup-requests.js';

const MODEL = 'Qwen/Qwen3-14B';

describe('warmupRequests', () => {
  it('draws fresh prompts of the run mean lengths, none of them one the run sends', async () => {
    const scenario = { ...parseScenario('random:300/40', { scale: 1, numPrompts: 12 }), rangeRatio: 0.5 };
    const cache = new Map();
    const run = await loadScenario(scenario, MODEL, cache);
    const warm = await warmupRequests(scenario, MODEL, run.requests, 8, cache);
    expect(warm).toHaveLength(8);
    const sent = new Set(run.requests.map((r) => r.prompt));
    expect(warm.filter((r) => sent.has(r.prompt))).toEqual([]);
    expect(new Set(warm.map((r) => r.prompt)).size).toBe(8);
    const meanOf = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
    expect(new Set(warm.map((r) => r.expectedOutputLen))).toEqual(new Set([meanOf(run.requests.map((r) => r.expectedOutputLen))]));
    const inLen = meanOf(run.requests.map((r) => r.promptLen));
    for (const r of warm) expect(Math.abs(r.promptLen - inLen)).toBeLessThanOrEqual(2);
    // The run's own workload in the cache is untouched: the draw has a name of its own.
    expect((await loadScenario(scenario, MODEL, cache)).requests).toBe(run.requests);
  });

  it('sends none when none are asked for', async () => {
    const scenario = parseScenario('random:100/10', { scale: 1, numPrompts: 4 });
    const run = await loadScenario(scenario, MODEL);
    expect(await warmupRequests(scenario, MODEL, run.requests, 0)).toEqual([]);
  });
});
