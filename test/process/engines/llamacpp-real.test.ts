// The llamacpp adapter against the real llama-server (servelab's build, or one on PATH): detect
// its version, launch a random-weight model, wait for /health, serve 64 concurrent fixed-length
// completions without one failure, scrape /metrics, count tokens through /tokenize, stop it, and
// classify real start failures by name. Skips, saying why, only where no llama-server exists.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Variant } from '../../../src/core/variant.js';
import { parseLlamaVersion } from '../../../src/engines/llamacpp/detect.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { LLAMA_QUANTIZE, LLAMA_SKIP, startLlamaServer, testGguf } from '../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../helpers/skip.js';
import { llamacpp } from '../../../src/engines/llamacpp/adapter.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-llamacpp-'));
const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 2000 })));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let n = 0;
async function start(knobs: Variant['knobs'], model = testGguf()) {
  const r = await startLlamaServer(knobs, path.join(root, `run${n++}`), model);
  handles.push(r.h);
  return r;
}

describe.skipIf(LLAMA_SKIP !== undefined)(`llama-server, for real${LLAMA_SKIP ? ` (skipped: ${LLAMA_SKIP})` : ''}`, () => {
  it('detects the build and its version', async () => {
    const info = await llamacpp.detect!({});
    expect(info).toMatchObject({ engine: 'llamacpp', installed: true, runtime: 'native' });
    expect(info.version).toMatch(/^\d+(\.\d+)*(-\w+)?$/);
    expect(parseLlamaVersion('version: 0.4.0-dev (build 1, commit 80fb11a)\nbuilt with GNU 12.2.0 for Linux x86_64')).toEqual({
      version: '0.4.0-dev',
      build: 1,
      commit: '80fb11a',
    });
  });

  it('serves 64 concurrent fixed-length completions of a random-weight model, none failing', async () => {
    const { h, url, ready } = await start({ maxRunningSeqs: 8, ctxSize: 8192, threads: 2 });
    expect(ready).toMatchObject({ ready: true });
    const one = async (i: number, stream: boolean) => {
      const r = await fetch(`${url}/v1/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', prompt: `request ${i}: `.repeat(8), max_tokens: 24, ignore_eos: true, stream }),
      });
      const text = await r.text();
      return { status: r.status, text };
    };
    const results = await Promise.all(Array.from({ length: 64 }, (_, i) => one(i, i % 2 === 0)));
    const failed = results.filter(
      (r) => r.status !== 200 || /"error"/.test(r.text) || (r.text.startsWith('data:') && !r.text.includes('[DONE]')),
    );
    expect(failed.map((f) => f.text.slice(0, 200))).toEqual([]);
    const usage = results
      .filter((r) => !r.text.startsWith('data:'))
      .map((r) => (JSON.parse(r.text) as { usage: { completion_tokens: number } }).usage.completion_tokens);
    expect(new Set(usage)).toEqual(new Set([24]));
    const metrics = llamacpp.parseMetrics(await (await fetch(`${url}${llamacpp.metricsPath}`)).text());
    expect(metrics).toMatchObject({ running: 0, waiting: 0 });
    expect(metrics.genTokPerS).toBeGreaterThan(0);
    const tok = (await (await fetch(`${url}/tokenize`, { method: 'POST', body: JSON.stringify({ content: 'hello world' }) })).json()) as {
      tokens: number[];
    };
    expect(tok.tokens).toHaveLength(2);
    const exit = await h.stop({ graceMs: 5000 });
    expect(exit.code === 0 || exit.signal !== null).toBe(true);
  }, 300_000); // a real server on 2 shared cores: minutes when other test files run beside it

  it.skipIf(!LLAMA_QUANTIZE)(
    `serves a Q4_K_M quantization of the random model (made by llama-quantize) without repacking${skipNote(!LLAMA_QUANTIZE && 'no llama-quantize beside the server')}`,
    async () => {
      const q = path.join(root, 'q4km.gguf');
      const r = spawnSync(LLAMA_QUANTIZE!, [testGguf(), q, 'Q4_K_M'], { encoding: 'utf8' });
      expect(r.status, r.stderr.slice(-500)).toBe(0);
      // With repacking on, every quantized file segfaulted here (AVX-512/AMX Xeon): see the knob table's note.
      const { url, ready } = await start({ repack: false, threads: 2, ctxSize: 2048, maxRunningSeqs: 4 }, q);
      expect(ready).toMatchObject({ ready: true });
      const res = await Promise.all(
        Array.from({ length: 16 }, () =>
          fetch(`${url}/v1/completions`, { method: 'POST', body: JSON.stringify({ prompt: 'hi', max_tokens: 16, ignore_eos: true }) }),
        ),
      );
      expect(res.map((x) => x.status)).toEqual(new Array(16).fill(200));
    },
    300_000,
  );

  it.each([
    ['a missing GGUF', {}, 'missing', 'model-not-found', /cannot be opened \(No such file or directory\)/],
    [
      'a quantized V cache without flash attention',
      { vCacheDtype: 'q4_0', flashAttn: 'off' },
      undefined,
      'unsupported',
      /quantized V cache needs flash attention/,
    ],
    ['a bad flag value', { extraArgs: ['-fa', 'maybe'] }, undefined, 'bad-flag', /rejected -fa: unknown value for --flash-attn: 'maybe'/],
    [
      'a KV cache larger than memory',
      { ctxSize: 60_000_000, maxRunningSeqs: 1 },
      undefined,
      'oom',
      /KV cache for this context does not fit in memory/,
    ],
  ] as const)(
    'names a real start failure: %s',
    async (_name, knobs, model, kind, reason) => {
      const { ready } = await start(knobs as Variant['knobs'], model ? path.join(root, 'no-such.gguf') : testGguf());
      expect(ready.ready).toBe(false);
      if (ready.ready) return;
      // The whole failure in the message: a start that lost its log lines reads 'crash' with its evidence.
      expect(ready.failure.kind, JSON.stringify(ready.failure)).toBe(kind);
      expect(ready.failure.reason).toMatch(reason);
    },
    120_000,
  );
});
