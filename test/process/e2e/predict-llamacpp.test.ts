// `servelab predict --engine llamacpp` as a user runs it: a real random-weight GGUF gets the CPU
// estimate's lines, a smaller KV type gives fewer KV bytes, and bad input is one line with exit 2.
// --calibration FILE is checked against this host's CPU like the GPU path: another CPU model or a
// GPU's calibration is refused (exit 2, one line naming both), other differences are warned.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CALIBRATION_KIND } from '../../../src/model/calibration/files.js';
import { cpuInfo } from '../../../src/host/cpu.js';
import { LLAMA_SKIP, testGguf, VOCAB_GPT2 } from '../../helpers/llamacpp-fixture.js';
import { BIN, removeDir, tempDir } from '../../helpers/e2e/cli.js';
import { skipNote } from '../../helpers/skip.js';

const dir = tempDir('servelab-predict-cal-');
afterAll(() => removeDir(dir));

/** A calibration file as `servelab calibrate` writes it, with a llama.cpp bandwidth correction of x2, on the given host. */
function calibration(name: string, host: Record<string, unknown>): string {
  const file = path.join(dir, name);
  const doc = {
    kind: CALIBRATION_KIND,
    version: 1,
    createdAt: '2026-12-02T00:00:00.000Z',
    servelabVersion: 'test',
    host: { gpuName: 'CPU', gpuCount: 0, gpuMemoryMiB: 0, simulated: false, ...host },
    engineVersions: { llamacpp: '80fb11a' },
    corrections: { host: {}, engines: { llamacpp: { bandwidth: 2 } } },
    fit: { observations: 4, priorMedianAbsPct: 30, looMedianAbsPct: 10, inSampleMedianAbsPct: 5, bandLogSd: 0.1, rows: [] },
    observations: [],
    sources: ['test'],
  };
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

function predict(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'predict', '--engine', 'llamacpp', ...args], { timeout: 120_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('predict --engine llamacpp', () => {
  it.skipIf(!VOCAB_GPT2)(`answers for a GGUF file; q8_0 KV has fewer bytes per token than f16${skipNote(LLAMA_SKIP)}`, async () => {
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

  it.skipIf(!VOCAB_GPT2)(
    `--calibration checks the CPU: same CPU applies it, another model or a GPU is refused, other threads warn${skipNote(LLAMA_SKIP)}`,
    async () => {
      const model = testGguf({ arch: 'qwen3', hidden: 128, layers: 2 });
      const here = cpuInfo().model;
      const threads = availableParallelism();
      const same = calibration('same.json', { cpuThreads: threads, ...(here ? { cpuModel: here } : {}) });
      const ok = await predict(['--model', model, '--calibration', same]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/calibrated by .*same\.json \(prior estimate/);
      if (here) expect(ok.stderr).toBe('');

      const other = await predict([
        '--model',
        model,
        '--calibration',
        calibration('other.json', { cpuThreads: threads, cpuModel: 'AMD EPYC 9654 96-Core Processor' }),
      ]);
      if (here) {
        expect(other.code).toBe(2);
        expect(other.stderr.trim().split('\n')).toHaveLength(1);
        expect(other.stderr).toContain('AMD EPYC 9654');
        expect(other.stderr).toContain(here);
        expect(other.stdout).toBe('');
      }

      const gpu = await predict([
        '--model',
        model,
        '--calibration',
        calibration('gpu.json', { gpuName: 'H100-SXM', gpuCount: 8, gpuMemoryMiB: 81559 }),
      ]);
      expect(gpu.code).toBe(2);
      expect(gpu.stderr).toMatch(/calibrated on H100-SXM, used on CPU/);

      const more = await predict([
        '--model',
        model,
        '--calibration',
        calibration('threads.json', { cpuThreads: threads + 62, ...(here ? { cpuModel: here } : {}) }),
        '--json',
      ]);
      expect(more.code).toBe(0);
      expect(more.stderr).toContain(`CPU threads: calibrated with ${threads + 62}, here ${threads}`);
      expect(JSON.parse(more.stdout).calibration).toContain('threads.json');

      const unnamed = await predict(['--model', model, '--calibration', calibration('unnamed.json', { cpuThreads: threads })]);
      expect(unnamed.code).toBe(0);
      if (here) expect(unnamed.stderr).toContain('does not name its CPU model');
    },
  );
});
