// An aborted run returns at once with the metrics of what finished, not after the requests it cut:
// a bound on the wall clock, so this file runs in the timing pass.
import { afterEach, describe, expect, it } from 'vitest';
import { runBenchmark } from '../../../src/bench/load/run.js';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/bench/scripted-server.js';
import { requests } from '../../helpers/bench/helpers.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('AbortSignal', () => {
  it('stops cleanly and returns the metrics of what finished', async () => {
    srv = await startScriptedServer({ ttftMs: 5, gapMs: 20 });
    const ac = new AbortController();
    let finished = 0;
    const t0 = Date.now();
    const r = await runBenchmark({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(40, 10),
      maxConcurrency: 2,
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type === 'request-finished' && ++finished === 3) ac.abort();
      },
    });
    expect(Date.now() - t0).toBeLessThan(5000); // 40 requests would take ~4 s more
    expect(r.aborted).toBe(true);
    expect(r.metrics.completed).toBeGreaterThanOrEqual(3);
    expect(r.metrics.completed).toBeLessThan(40);
    expect(r.metrics.failed).toBe(0); // requests cut by our abort are neither finished nor failed
    expect(r.outputs.every((o) => o.success)).toBe(true);
    expect(r.metrics.total_output_tokens).toBe(r.metrics.completed * 10);
    expect(r.notes.join()).toMatch(/aborted: \d+ of 40 requests finished/);
  });
});
