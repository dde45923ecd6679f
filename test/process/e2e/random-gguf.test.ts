// `servelab random-gguf` as a user runs it: the file it writes loads in the real llama-server
// (a named architecture, and the shapes of another GGUF with --like), the command says its
// outputs are meaningless and its speeds real, and bad input is one line with exit 2.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { plain } from '../../../src/gguf/format.js';
import { readGgufHeader } from '../../../src/gguf/read.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { LLAMA_SKIP, startLlamaServer, testGguf, VOCAB_GPT2 } from '../../helpers/llamacpp-fixture.js';
import { BIN } from '../../helpers/e2e/cli.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-random-gguf-'));
const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 2000 })));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
fs.writeFileSync(path.join(root, 'notes.txt'), 'just some text, not a model\n');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'random-gguf', ...args], { cwd: root, timeout: 120_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('servelab random-gguf', () => {
  it.each([
    [['--out', 'x.gguf', '--hidden', '100'], "servelab: --hidden must be a multiple of 64 (the head size), got '100'"],
    [['--out', 'x.gguf', '--arch', 'gpt9'], "servelab: random-gguf: --arch must be qwen3 or llama, got 'gpt9'"],
    [
      ['--out', 'x.gguf', '--like', 'a.gguf', '--layers', '2'],
      'servelab: random-gguf: give --like FILE or --arch/--hidden/--layers, not both',
    ],
    [['--out', 'x.gguf', '--vocab', 'notes.txt'], 'servelab: notes.txt: not a GGUF file (it starts with "just", not "GGUF")'],
  ] as const)('bad input %j: one line, exit 2', async (args, message) => {
    const r = await cli([...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    if (typeof message === 'string') expect(r.stderr.trim()).toBe(message);
    else expect(r.stderr.trim()).toMatch(message);
  });

  describe.skipIf(LLAMA_SKIP !== undefined)(`served by the real llama-server${LLAMA_SKIP ? ` (skipped: ${LLAMA_SKIP})` : ''}`, () => {
    it.each([
      ['--arch llama', ['--arch', 'llama', '--hidden', '128', '--layers', '2', '--vocab', VOCAB_GPT2 ?? '']],
      ['--like another GGUF', ['--like', LLAMA_SKIP ? '' : testGguf(), '--seed', '7']],
      // Head counts that do not halve (hidden/64 = 5, 3, 7): one KV head per head, header and tensors agreeing.
      ['5 heads (qwen3 320x5)', ['--arch', 'qwen3', '--hidden', '320', '--layers', '5', '--vocab', VOCAB_GPT2 ?? '']],
      ['3 heads (llama 192x2)', ['--arch', 'llama', '--hidden', '192', '--layers', '2', '--vocab', VOCAB_GPT2 ?? '']],
      ['7 heads (qwen3 448x1)', ['--arch', 'qwen3', '--hidden', '448', '--layers', '1', '--vocab', VOCAB_GPT2 ?? '']],
    ])(
      '%s: loads and completes',
      async (name, args) => {
        const out = path.join(root, `${name.replace(/\W+/g, '-')}.gguf`);
        const r = await cli(['--out', out, ...args]);
        expect(r.code).toBe(0);
        expect(r.stdout.trim()).toBe(out);
        expect(r.stderr).toContain('random weights: outputs are meaningless, speeds are real');
        expect(String(plain(readGgufHeader(out).metadata.get('general.name')))).toContain('outputs meaningless, speeds real');
        const s = await startLlamaServer({ threads: 2, ctxSize: 2048 }, path.join(root, name.replace(/\W+/g, '-')), out);
        handles.push(s.h);
        expect(s.ready).toMatchObject({ ready: true });
        const res = await fetch(`${s.url}/v1/completions`, {
          method: 'POST',
          body: JSON.stringify({ prompt: 'hi', max_tokens: 8, ignore_eos: true }),
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(8);
      },
      180_000,
    );
  });
});
