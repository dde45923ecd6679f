// `servelab bench` against the real llama-server on a random-weight model: 64 requests at once,
// none failing (the server closes each connection after its streamed response, and the model
// can never end on half a UTF-8 character), with the server's own token counts, and prompts sized
// by the GGUF's own vocabulary (--model FILE.gguf is its tokenizer).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { BIN } from '../../helpers/e2e/cli.js';
import { LLAMA_SKIP, startLlamaServer, testGguf } from '../../helpers/llamacpp-fixture.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-llamacpp-bench-'));
let server: ServerHandle | undefined;
afterAll(async () => {
  await server?.stop({ graceMs: 2000 });
  fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(LLAMA_SKIP !== undefined)(`servelab bench on llama-server${LLAMA_SKIP ? ` (skipped: ${LLAMA_SKIP})` : ''}`, () => {
  it('64 concurrent requests all succeed, counted by the server, sized by the GGUF vocabulary', async () => {
    const model = testGguf();
    const { h, url, ready } = await startLlamaServer({ maxRunningSeqs: 8, ctxSize: 8192, threads: 2 }, path.join(root, 'run'), model);
    server = h;
    expect(ready).toMatchObject({ ready: true });
    const args = [
      'bench',
      '--base-url',
      url,
      '--backend',
      'openai',
      '--endpoint',
      '/v1/completions',
      '--model',
      model,
      '--dataset-name',
      'random',
      '--random-input-len',
      '16',
      '--random-output-len',
      '16',
      '--num-prompts',
      '64',
      '--max-concurrency',
      '64',
    ];
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: root, timeout: 300_000 });
    const text = stdout + stderr;
    expect(text).toMatch(/Successful requests:\s+64\b/);
    expect(text).not.toMatch(/Failed requests|request\(s\) failed/);
    expect(text).toMatch(/Total generated tokens:\s+1024\b/);
    expect(text).not.toMatch(/approximate|one word = one token/);
    // vLLM's random dataset decodes random ids and encodes the text again: merges can shorten it.
    const input = Number(/Total input tokens:\s+(\d+)/.exec(text)?.[1]);
    expect(input).toBeLessThanOrEqual(64 * 16);
    expect(input).toBeGreaterThan(64 * 16 * 0.8);
  }, 300_000); // a real server on 2 shared cores: minutes when other test files run beside it
});
