// `servelab calibrate` and `predict --calibration` as a user runs them (real processes): a
// profile and a run folder measured on a simulated host whose truth the model does not know
// (test/fixtures/truth/power-capped.json, slower GEMMs and HBM) give a calibration whose
// corrections point that way; predict refuses it on another GPU and reports prior, calibrated
// and band; bad input is one line and exit 2.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readCorrectionFile } from '../../../src/model/calibration/files.js';
import { simulateWorkload } from '../../../src/sim/scheduler/virtual.js';
import { scenarioRequests } from '../../../src/sim/predict/workload.js';
import { BIN } from '../../helpers/sim/helpers.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'servelab-calibrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: dir });
const truth = readCorrectionFile(join(ROOT, 'test/fixtures/truth/power-capped.json'));
const workload = {
  scenario: 'sharegpt-like',
  name: 'sharegpt-like',
  dataset: 'custom',
  numPrompts: 120,
  seed: 42,
  maxConcurrency: null,
  requestRate: null,
};

/** What the simulated host (the truth file) measures for a variant of the shipped Qwen3-14B study. */
function measured(r: { variant: { engine: 'vllm' | 'sglang' | 'trtllm'; model: string; knobs: object } }) {
  const sim = simulateWorkload({
    engine: r.variant.engine,
    gpu: 'H100',
    gpus: 1,
    model: r.variant.model,
    knobs: r.variant.knobs,
    requests: scenarioRequests(workload, 42),
    seed: 42,
    corrections: truth,
  });
  return sim.metrics!;
}

/** The shipped study profile, re-measured on the simulated host at 120 prompts (its first four variants). */
function writeProfile(): string {
  const p = JSON.parse(readFileSync(join(ROOT, 'profiles/Qwen3-14B-H100x1.json'), 'utf8'));
  p.workload = { ...workload, name: undefined };
  p.host = { ...p.host, simulated: true };
  p.stages = [
    {
      ...p.stages[0],
      results: p.stages
        .flatMap((s: { results: object[] }) => s.results)
        .slice(0, 4)
        .map((r: any) => ({ ...r, scenario: 'sharegpt-like', metrics: measured(r) })),
    },
  ];
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify(p));
  return file;
}

/** A run folder holding two journalled results of the same host. */
function writeRunDir(): string {
  const p = JSON.parse(readFileSync(join(ROOT, 'profiles/Qwen3-14B-H100x1.json'), 'utf8'));
  const runDir = join(dir, 'run');
  mkdirSync(join(runDir, 'results'), { recursive: true });
  const scenario = { ...workload, label: 'ShareGPT-like' };
  writeFileSync(
    join(runDir, 'session.json'),
    JSON.stringify({
      journal: 1,
      status: 'finished',
      config: { scenario, validation: [], sim: { gpu: 'H100', gpus: 1, speed: 5, seed: 0 } },
    }),
  );
  p.stages[0].results.slice(0, 2).forEach((r: any, i: number) => {
    const result = { ...r, scenario: 'sharegpt-like', metrics: measured(r) };
    writeFileSync(
      join(runDir, 'results', `000${i + 1}-engine-${r.variantId}.json`),
      JSON.stringify({ seq: i + 1, key: `${r.variantId}@sharegpt-like#0`, role: 'tune', repeat: 0, result }),
    );
  });
  return runDir;
}

describe('servelab calibrate', () => {
  const out = join(dir, 'cal.json');

  it('fits a profile measured on a slower host: the corrections say slower, the file records what was used', () => {
    const r = run(['calibrate', writeProfile(), '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Calibrated on 4 measured variant\(s\)/);
    expect(r.stdout).toMatch(/leave-one-out/);
    const cal = JSON.parse(readFileSync(out, 'utf8'));
    expect(cal).toMatchObject({
      kind: 'servelab-calibration',
      host: { gpuName: 'NVIDIA H100 80GB HBM3', simulated: true },
      fit: { observations: 4 },
    });
    expect(cal.observations).toHaveLength(4);
    expect(cal.engineVersions.sglang).toBe('0.5.5.post1');
    // Slower GEMMs and HBM on the truth host: the throughput-weighted speed the fit sees is lower.
    expect(cal.corrections.host.gemm * cal.corrections.host.bandwidth).toBeLessThan(1);
    expect(
      cal.fit.rows.every(
        (row: { prior: { totalTokPerS: number }; measured: { totalTokPerS: number } }) =>
          row.prior.totalTokPerS > row.measured.totalTokPerS,
      ),
    ).toBe(true);
  });

  it('reads a run folder too', () => {
    const r = run(['calibrate', writeRunDir(), '--out', join(dir, 'cal-run.json')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Calibrated on 2 measured variant\(s\) of H100 x1 \(simulated host\)/);
  });

  it('predict --calibration: calibrated figure below the prior, with the band; refused on another GPU', () => {
    const r = run([
      'predict',
      '--model',
      'Qwen/Qwen3-14B',
      '--gpu',
      'H100',
      '--engine',
      'vllm',
      '--num-prompts',
      '120',
      '--calibration',
      out,
      '--json',
    ]);
    expect(r.status).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(p.total_token_throughput).toBeLessThan(p.prior.total_token_throughput);
    expect(p.calibration).toMatchObject({ file: out, observations: 4 });
    expect(p.calibration.band_pct).toBeGreaterThan(0);
    // vLLM was measured at the release predict models (0.11.0): no warning; SGLang's target release is not 0.5.5.post1: a warning.
    expect(r.stderr).toBe('');
    const w = run([
      'predict',
      '--model',
      'Qwen/Qwen3-14B',
      '--gpu',
      'H100',
      '--engine',
      'sglang',
      '--num-prompts',
      '50',
      '--calibration',
      out,
    ]);
    expect(w.status).toBe(0);
    expect(w.stderr).toMatch(/^warning: calibration .*: engine: sglang \S+ here, calibrated with 0\.5\.5\.post1$/m);
    const refused = run(['predict', '--model', 'Qwen/Qwen3-14B', '--gpu', 'A100', '--calibration', out]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      `servelab: --calibration ${out}: calibrated on NVIDIA H100 80GB HBM3, used on A100: host corrections are per GPU; calibrate this host`,
    ]);
  });

  it('bad input: one line, exit 2', () => {
    for (const args of [
      ['calibrate', '--out', out],
      ['calibrate', join(dir, 'missing.json'), '--out', out],
      ['calibrate', dir],
      ['predict', '--model', 'Qwen/Qwen3-14B', '--calibration', join(dir, 'missing.json')],
    ]) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});
