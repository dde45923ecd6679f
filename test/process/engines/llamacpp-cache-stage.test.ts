// llama.cpp's cache-stage candidates against the real llama-server (servelab's build): each one's
// flags start the server, and the prompt cache they turn on and off is the server's own: the same
// prompt sent again reports timings.cache_n (and usage.prompt_tokens_details.cached_tokens) with
// the default, and nothing with --no-cache-prompt. Skips, saying why, only without a llama-server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Variant } from '../../../src/core/variant.js';
import { llamacppCacheStage } from '../../../src/engines/llamacpp/cache-stage.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { LLAMA_SKIP, startLlamaServer } from '../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../helpers/skip.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-llamacpp-cache-'));
const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 2000 })));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let n = 0;
async function start(knobs: Variant['knobs']) {
  const r = await startLlamaServer(knobs, path.join(root, `run${n++}`));
  handles.push(r.h);
  expect(r.ready, JSON.stringify(r.ready)).toMatchObject({ ready: true });
  return r.url;
}

/** The same 300-word prompt twice: what the second request found cached. */
async function cachedOnRepeat(url: string): Promise<{ cacheN: number; cachedTokens: number | undefined }> {
  const prompt = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
  let last: { timings: { cache_n: number }; usage: { prompt_tokens_details?: { cached_tokens?: number } } } | undefined;
  for (let k = 0; k < 2; k++) {
    const r = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: prompt }], max_tokens: 4 }),
    });
    last = (await r.json()) as typeof last;
  }
  return { cacheN: last!.timings.cache_n, cachedTokens: last!.usage.prompt_tokens_details?.cached_tokens };
}

describe.skipIf(LLAMA_SKIP !== undefined)(
  `llama.cpp's cache stage on the real llama-server${skipNote(LLAMA_SKIP)}`,
  { timeout: 120_000 },
  () => {
    it('serves a repeated prompt from its prompt cache by default, and not with the stage\'s "prompt cache off"', async () => {
      const on = await cachedOnRepeat(await start({}));
      expect(on.cacheN).toBeGreaterThan(250);
      expect(on.cachedTokens).toBe(on.cacheN);
      const off = llamacppCacheStage({ knobs: {}, version: '0.4.0-dev' }).candidates.find((c) => c.change === 'prompt cache off')!;
      expect((await cachedOnRepeat(await start(off.knobs))).cacheN).toBe(0);
    });

    it("starts with every other candidate's flags, all together", async () => {
      const others = llamacppCacheStage({ knobs: {}, version: '0.4.0-dev' }).candidates.filter((c) => c.change !== 'prompt cache off');
      expect(others.length).toBeGreaterThan(4);
      // One server with one value of each knob the stage tries (a later candidate of the same knob replaces the earlier).
      const knobs = Object.assign({}, ...others.map((c) => c.knobs)) as Variant['knobs'];
      expect((await cachedOnRepeat(await start(knobs))).cacheN).toBeGreaterThan(250);
    });
  },
);
