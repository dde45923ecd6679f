// A server that never answers: the request times out after --request-timeout and the run ends
// within seconds. The bound is on the wall clock, so this file runs in the timing pass.
import { afterEach, describe, expect, it } from 'vitest';
import { runBenchmark } from '../../../src/bench/load/run.js';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/bench/scripted-server.js';
import { requests } from '../../helpers/bench/helpers.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('request failures', () => {
  it('a server that never answers: the request times out and counts as failed', async () => {
    srv = await startScriptedServer({ ttftMs: 60_000, gapMs: 1 });
    const r = await runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(2, 5), requestTimeoutSec: 0.3 });
    expect(r.metrics.failed).toBe(2);
    expect(r.metrics.duration).toBeLessThan(5);
    expect(r.outputs[0]!.error).toBe('request timed out after 0.3 s (--request-timeout)');
  });
});
