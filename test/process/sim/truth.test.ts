// sim-serve --truth FILE: the simulated host runs on host corrections the planner does not know.
// Without a file the simulator is the model as fitted (identical figures); with one it differs
// where the file says; a bad file is one line and exit 2, as for any bad flag.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readCorrectionFile } from '../../../src/model/calibration/files.js';
import { EMPTY_SET } from '../../../src/model/calibration/corrections.js';
import { simulateWorkload, type SimulateOptions } from '../../../src/sim/scheduler/virtual.js';
import { sharegptLike } from '../../../src/sim/predict/workload.js';
import { parseSimArgs } from '../../../src/cli/sim-serve-args.js';
import { reapAll, spawnSim, startReady } from '../../helpers/sim/helpers.js';
import { calibrationFile } from '../../../src/profiles/store/calibration-file.js';
import { fitCorrections } from '../../../src/model/calibration/fit.js';

const TRUTH = fileURLToPath(new URL('../../fixtures/truth/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'servelab-truth-'));
afterEach(reapAll);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base: SimulateOptions = {
  engine: 'vllm',
  gpu: 'H100',
  gpus: 1,
  model: 'Qwen/Qwen3-14B',
  knobs: {},
  requests: sharegptLike(200, 42),
  seed: 42,
};

describe('truth files on the virtual clock', () => {
  it('an empty correction set gives the same figures as none', () => {
    expect(simulateWorkload({ ...base, corrections: EMPTY_SET }).metrics).toEqual(simulateWorkload(base).metrics);
  });

  it('each shipped truth file parses and moves the figures off the model', () => {
    const plain = simulateWorkload(base).metrics!;
    for (const f of ['slow-host-cpu.json', 'power-capped.json', 'fast-kernels-pcie.json']) {
      const m = simulateWorkload({ ...base, corrections: readCorrectionFile(join(TRUTH, f)) }).metrics!;
      expect(m.total_token_throughput, f).not.toBe(plain.total_token_throughput);
    }
    // A slower CPU: more host work per step, so a longer TPOT on vLLM (no overlap scheduler).
    const slow = simulateWorkload({ ...base, corrections: readCorrectionFile(join(TRUTH, 'slow-host-cpu.json')) }).metrics!;
    expect(slow.mean_tpot_ms).toBeGreaterThan(plain.mean_tpot_ms);
  });

  it('reads a calibration file’s corrections and refuses a bad field with its name', () => {
    const cal = join(dir, 'cal.json');
    writeFileSync(cal, JSON.stringify({ kind: 'servelab-calibration', corrections: { host: { gemm: 0.9 }, engines: {} } }));
    expect(readCorrectionFile(cal).host.gemm).toBe(0.9);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ host: { gemm: 0 } }));
    expect(() => readCorrectionFile(bad)).toThrow(`${bad}: host.gemm`);
  });
});

describe('sim-serve --truth', () => {
  it('is a flag of the contract', () => {
    expect(parseSimArgs(['--engine', 'vllm', '--model', 'm', '--truth', 'x.json']).truth).toBe('x.json');
  });

  it('a missing file: one line naming it, exit 2', async () => {
    const missing = join(dir, 'nope.json');
    const p = spawnSim(['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--port', '0', '--truth', missing]);
    const exit = await p.exited;
    expect(exit.code).toBe(2);
    expect(p.stderr().trim().split('\n').pop()).toBe(`servelab sim-serve: error: argument --truth: ${missing}: no such file`);
  });

  it('a truth file: the server starts and serves', async () => {
    const { url } = await startReady(['--engine', 'sglang', '--model', 'Qwen/Qwen3-14B', '--truth', join(TRUTH, 'power-capped.json')]);
    const r = await fetch(`${url}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'Qwen/Qwen3-14B', prompt: 'a b c', max_tokens: 3 }),
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(3);
  });
});

describe('sim-serve --calibration', () => {
  /** A calibration of `gpuName` with one host correction, vLLM measured at `version`. */
  function calFile(gpuName: string, version: string): string {
    const fit = { ...fitCorrections([], () => undefined), set: { host: { gemm: 0.8 }, engines: { vllm: {} } } };
    const file = join(dir, `cal-${gpuName.replace(/\W+/g, '')}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        calibrationFile({
          host: { gpuName, gpuCount: 1, gpuMemoryMiB: 81559, simulated: true },
          engineVersions: { vllm: version },
          fit,
          observations: [],
          sources: [],
          servelabVersion: 'test',
        }),
      ),
    );
    return file;
  }

  it('refuses a calibration of another GPU: one line, exit 2', async () => {
    const file = calFile('NVIDIA A100-SXM4-80GB', '0.11.0');
    const p = spawnSim(['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--gpu', 'H100', '--port', '0', '--calibration', file]);
    expect((await p.exited).code).toBe(2);
    expect(p.stderr().trim().split('\n').pop()).toBe(
      `servelab sim-serve: error: argument --calibration: ${file}: calibrated on NVIDIA A100-SXM4-80GB, used on H100: host corrections are per GPU; calibrate this host`,
    );
  });

  it('another engine release: starts, with a warning that names both releases', async () => {
    const { proc } = await startReady([
      '--engine',
      'vllm',
      '--model',
      'Qwen/Qwen3-14B',
      '--gpu',
      'H100',
      '--calibration',
      calFile('NVIDIA H100 80GB HBM3', '0.10.2'),
    ]);
    expect(proc.stderr()).toMatch(/WARNING servelab sim-serve: calibration .*: engine: vllm 0\.11\.0 here, calibrated with 0\.10\.2/);
  });

  it('not together with --truth', () => {
    const p = spawnSim(['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--port', '0', '--truth', 'a.json', '--calibration', 'b.json']);
    return p.exited.then((e) => expect(e.code).toBe(2));
  });
});
