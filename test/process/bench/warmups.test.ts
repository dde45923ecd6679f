// Warm-up requests reach the server before the run's: vLLM's copies of the first request, or the
// pool a tuning session hands over (RunOptions.warmupRequests), cycled, on one client thread or
// sharded over several.
import { afterEach, describe, expect, it } from 'vitest';
import { runBenchmarkIsolated } from '../../../src/bench/workers/isolated.js';
import { runBenchmark } from '../../../src/bench/load/run.js';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/bench/scripted-server.js';
import { requests } from '../../helpers/bench/helpers.js';
import type { SampledRequest } from '../../../src/bench/types.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const textOf = (body: Record<string, unknown>) =>
  Array.isArray(body.messages) ? (body.messages as { content: string }[]).map((m) => m.content).join(' ') : String(body.prompt ?? '');
const pool: SampledRequest[] = ['warm one', 'warm two', 'warm three'].map((prompt) => ({ prompt, promptLen: 2, expectedOutputLen: 3 }));

describe('warm-up requests', () => {
  it('without a pool: copies of the first request, as vLLM sends them', async () => {
    srv = await startScriptedServer({ ttftMs: 2, gapMs: 1, tokens: 3 });
    const run = requests(4, 3);
    await runBenchmark({ baseUrl: srv.url, model: 'm', requests: run, maxConcurrency: 2, numWarmups: 3 });
    expect(srv.served.slice(0, 3).map((s) => textOf(s.body))).toEqual([run[0]!.prompt, run[0]!.prompt, run[0]!.prompt]);
  });

  it('with a pool: its prompts, cycled, before any of the run', async () => {
    srv = await startScriptedServer({ ttftMs: 2, gapMs: 1, tokens: 3 });
    const run = requests(4, 3);
    const r = await runBenchmark({ baseUrl: srv.url, model: 'm', requests: run, maxConcurrency: 2, numWarmups: 4, warmupRequests: pool });
    expect(r.metrics.completed).toBe(4);
    const warm = srv.served.slice(0, 4).map((s) => textOf(s.body));
    expect(warm.sort()).toEqual(['warm one', 'warm one', 'warm three', 'warm two']);
    expect(srv.served.slice(4).map((s) => textOf(s.body))).not.toContain('warm one');
  });

  it('a sharded run sends the pool too, each thread its share', async () => {
    srv = await startScriptedServer({ ttftMs: 2, gapMs: 1, tokens: 3 });
    const run = requests(6, 3);
    const r = await runBenchmarkIsolated({
      baseUrl: srv.url,
      model: 'm',
      requests: run,
      maxConcurrency: 4,
      numWarmups: 3,
      warmupRequests: pool,
      clientThreads: 2,
    });
    expect(r.metrics.completed).toBe(6);
    const warm = srv.served.map((s) => textOf(s.body)).filter((t) => t.startsWith('warm'));
    expect(warm.sort()).toEqual(['warm one', 'warm three', 'warm two']);
  });
});
