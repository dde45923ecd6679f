// Bad servers and bad streams: every failure is counted, kept as the request's error, and
// nothing hangs.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runBenchmark } from '../../../src/bench/load/run.js';
import { UserError } from '../../../src/core/errors.js';
import { startScriptedServer, type Script, type ScriptedServer } from '../../fixtures/bench/scripted-server.js';
import { requests } from '../../helpers/bench/helpers.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

async function run(
  script: Script | ((b: Record<string, unknown>, n: number) => Script),
  n = 4,
  extra: Partial<Parameters<typeof runBenchmark>[0]> = {},
) {
  srv = await startScriptedServer(script);
  return runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(n, 5), ...extra });
}

describe('request failures', () => {
  it('HTTP 500: the body is kept as the error and the request counts as failed', async () => {
    const r = await run((_, i) =>
      i % 2 === 0 ? { ttftMs: 1, gapMs: 1, status: 500, body: '{"error":"CUDA out of memory"}' } : { ttftMs: 1, gapMs: 1 },
    );
    expect(r.metrics.completed).toBe(2);
    expect(r.metrics.failed).toBe(2);
    const errs = r.outputs.filter((o) => !o.success).map((o) => o.error);
    expect(errs).toEqual([
      expect.stringMatching(/^HTTP 500 Internal Server Error: .*CUDA out of memory/),
      expect.stringMatching(/^HTTP 500/),
    ]);
    expect(r.metrics.total_output_tokens).toBe(10);
  });

  it('malformed SSE data fails the request', async () => {
    const r = await run({ ttftMs: 1, gapMs: 1, raw: 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {not json\n\n' });
    expect(r.metrics.failed).toBe(4);
    expect(r.outputs[0]!.error).toMatch(/^malformed SSE data \(not a JSON object\): \{not json/);
  });

  it('JSON that is not an object (null, numbers) fails the request instead of crashing', async () => {
    const r = await run({ ttftMs: 1, gapMs: 1, raw: 'data: null\n\n' }, 2);
    expect(r.metrics.failed).toBe(2);
    expect(r.outputs[0]!.error).toBe('malformed SSE data (not a JSON object): null');
    // odd but valid shapes inside choices do not crash either
    await srv!.close();
    const odd = await run({ ttftMs: 1, gapMs: 1, raw: 'data: {"choices":[null]}\n\ndata: {"choices":[{"delta":null,"text":5}]}\n\n' }, 1);
    expect(odd.metrics.completed).toBe(1);
    expect(odd.outputs[0]!.itl).toHaveLength(1);
  });

  it('an error event mid-stream fails the request with the server message', async () => {
    const r = await run({ ttftMs: 1, gapMs: 1, errorAfter: 2 });
    expect(r.metrics.failed).toBe(4);
    expect(r.outputs[0]!.error).toBe('server error event: scripted mid-stream error');
  });

  it('a stream cut before its end fails the request', async () => {
    const r = await run({ ttftMs: 1, gapMs: 1, cutAfter: 2 }, 2);
    expect(r.metrics.failed).toBe(2);
    expect(r.outputs[0]!.error).toMatch(/closed the stream|ECONNRESET|aborted|socket hang up/i);
  });

  it('a 200 with no choice events fails the request (vLLM main)', async () => {
    const r = await run({ ttftMs: 1, gapMs: 1, raw: ': just a comment\n\ndata: [DONE]\n\n' }, 2);
    expect(r.metrics.failed).toBe(2);
    expect(r.outputs[0]!.error).toMatch(/Never received a valid chunk/);
  });

  it('bytes split anywhere, comments and [DONE] still give exact counts and success', async () => {
    const r = await run({ ttftMs: 2, gapMs: 1, splitEvery: 7, comments: true }, 3);
    expect(r.metrics.failed).toBe(0);
    expect(r.metrics.total_output_tokens).toBe(15);
    expect(r.outputs.map((o) => o.itl.length)).toEqual([4, 4, 4]);
    expect(r.outputs[0]!.generatedText).toBe('w0 w1 w2 w3 w4 ');
  });

  it('without usage reports, output tokens are recounted from the text (one word = one token)', async () => {
    const r = await run({ ttftMs: 1, gapMs: 1, usage: false }, 2);
    expect(r.metrics.total_output_tokens).toBe(10);
    // prompt tokens fall back to the dataset's count
    expect(r.metrics.total_input_tokens).toBe(16);
  });
});

describe('bad setups give one clear error and do not hang', () => {
  it('unreachable server', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const p = runBenchmark({ baseUrl: `http://127.0.0.1:${port}`, model: 'm', requests: requests(2, 2) });
    await expect(p).rejects.toThrow(UserError);
    await expect(p).rejects.toThrow(new RegExp(`^cannot reach the server at http://127.0.0.1:${port}: ECONNREFUSED`));
  });

  it('bad options', async () => {
    await expect(runBenchmark({ baseUrl: 'nope', model: 'm', requests: requests(1, 1) })).rejects.toThrow(/invalid --base-url 'nope'/);
    await expect(
      runBenchmark({ baseUrl: 'http://127.0.0.1:1', endpoint: '/v1/completions', model: 'm', requests: requests(1, 1) }),
    ).rejects.toThrow(/openai-chat backend needs an endpoint ending in 'chat\/completions'/);
    await expect(runBenchmark({ baseUrl: 'http://127.0.0.1:1', model: 'm', requests: [] })).rejects.toThrow(/no requests/);
    await expect(runBenchmark({ baseUrl: 'http://127.0.0.1:1', model: 'm', requests: requests(1, 1), maxConcurrency: 0 })).rejects.toThrow(
      /--max-concurrency/,
    );
  });

  it('ready check: gives up after its timeout with the last error', async () => {
    srv = await startScriptedServer({ ttftMs: 1, gapMs: 1, status: 503, body: 'loading model' });
    const p = runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(1, 1), readyCheckTimeoutSec: 0.6 });
    await expect(p).rejects.toThrow(/did not answer a test request within 0.6 s.*HTTP 503.*loading model/);
  });

  it('ready check: waits until the server answers', async () => {
    srv = await startScriptedServer((_, i) => (i < 2 ? { ttftMs: 1, gapMs: 1, status: 503 } : { ttftMs: 1, gapMs: 1 }));
    const r = await runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(2, 2), readyCheckTimeoutSec: 20 });
    expect(r.metrics.completed).toBe(2);
    expect(srv.served).toHaveLength(5); // 2 refused probes, 1 good probe, 2 measured
  });
});

describe('request body and headers', () => {
  it('completions backend, ignore_eos, temperature, headers and API key', async () => {
    srv = await startScriptedServer({ ttftMs: 1, gapMs: 1 });
    const r = await runBenchmark({
      baseUrl: srv.url,
      backend: 'openai',
      model: 'org/model',
      servedModelName: 'served',
      requests: requests(1, 3),
      ignoreEos: true,
      temperature: 0,
      headers: { 'X-Trace': 'abc' },
      apiKey: 'sk-test',
    });
    expect(r.metrics.completed).toBe(1);
    const s = srv.served[0]!;
    expect(s.body).toMatchObject({
      model: 'served',
      prompt: expect.any(String),
      max_tokens: 3,
      ignore_eos: true,
      temperature: 0,
      stream: true,
    });
    expect(s.headers['x-trace']).toBe('abc');
    expect(s.headers.authorization).toBe('Bearer sk-test');
    expect(r.outputs[0]!.generatedText).toBe('w0 w1 w2 ');
  });

  it('a given header replaces the default of the same name in any case; a bad name or a line break is refused before anything is sent', async () => {
    srv = await startScriptedServer({ ttftMs: 1, gapMs: 1 });
    const r = await runBenchmark({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(1, 2),
      headers: { 'content-type': 'application/json; charset=utf-8', 'X-Request-Id': 'mine' },
    });
    expect(r.metrics.completed).toBe(1);
    // Node's server keeps the first of repeated Content-Type lines: a duplicate would show 'application/json'.
    expect(srv.served[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(srv.served[0]!.headers['x-request-id']).toBe('mine');
    const bad = runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(1, 2), headers: { 'X-Evil': 'a\r\nHost: elsewhere' } });
    await expect(bad).rejects.toThrow(UserError);
    await expect(bad).rejects.toThrow(/--header "X-Evil": not a valid HTTP header name or value/);
    await expect(runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(1, 2), headers: { 'X Bad': '1' } })).rejects.toThrow(
      /--header "X Bad"/,
    );
    expect(srv.served.length).toBe(1);
  });
});
