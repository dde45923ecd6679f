// `servelab predict --engine llamacpp` as a user runs it: a real random-weight GGUF gets the CPU
// estimate's lines, a smaller KV type gives fewer KV bytes, and bad input is one line with exit 2.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { testGguf, VOCAB_GPT2 } from '../llamacpp-fixture.js';
import { BIN } from './cli.js';

function predict(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'predict', '--engine', 'llamacpp', ...args], { timeout: 120_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('predict --engine llamacpp', () => {
  it.skipIf(!VOCAB_GPT2)('answers for a GGUF file; q8_0 KV has fewer bytes per token than f16', async () => {
    const model = testGguf({ arch: 'qwen3', hidden: 128, layers: 2 });
    const f16 = await predict(['--model', model, '-np', '2', '--json']);
    const q8 = await predict(['--model', model, '-np', '2', '-ctk', 'q8_0', '-ctv', 'q8_0', '--json']);
    expect(f16.code).toBe(0);
    const a = JSON.parse(f16.stdout);
    const b = JSON.parse(q8.stdout);
    expect(a.slots).toBe(2);
    expect(b.kvBytesPerToken).toBeLessThan(a.kvBytesPerToken);
    const text = await predict(['--model', model]);
    expect(text.stdout).toMatch(/Decode tok\/s per slot/);
    expect(text.stdout).toMatch(/not measured/);
  });

  it('bad input is one line and exit 2', async () => {
    for (const args of [
      ['--model', '/no/such/file.gguf'],
      [],
      ['--model', 'x.gguf', '--scenario', 'sharegpt-like'],
      ['--model', 'x.gguf', '-np', '0'],
    ]) {
      const r = await predict(args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
