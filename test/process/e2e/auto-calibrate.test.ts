// Acceptance: a run folder that `servelab --auto --sim` wrote (plan.json, session.json,
// results/*.json as the journal keeps them) is a calibration source as it stands: `servelab
// calibrate RUN_DIR` reads its measured variants and `predict --calibration` accepts the file on
// the same simulated GPU. A session on a --truth host launches every sim-serve with the file, and
// its variants carry prior, calibrated and measured figures into the profile and the report; it
// starts from --calibration FILE when given. Trimmed with --engines/--stages/--scale.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VariantResult } from '../../../src/core/events.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, removeDir, runCli, killLeftServers, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-calibrate');
const port = String(testPort());
let run: CliRun;
let truthRun: CliRun | undefined;
const TRUTH = fileURLToPath(new URL('../../fixtures/truth/power-capped.json', import.meta.url));

afterAll(() => {
  for (const r of [run, truthRun]) killLeftServers(r?.stderr ?? '');
  removeDir(cwd);
});

describe('servelab calibrate on an --auto --sim run folder', () => {
  it('reads the journalled measurements and writes a calibration predict accepts', async () => {
    run = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'sglang,trtllm',
        '--stages',
        'engine',
        '--scale',
        '0.02',
        '--validation',
        'none',
        '--port',
        port,
      ],
      cwd,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const runDir = /Run folder: (\S+)/.exec(run.stdout)![1]!;
    const out = join(cwd, 'cal.json');
    const cal = spawnSync(process.execPath, [BIN, 'calibrate', runDir, '--out', out], { cwd, encoding: 'utf8' });
    expect(cal.status, cal.stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.host).toMatchObject({ gpuName: 'H100 SXM 80GB', gpuCount: 1, simulated: true });
    expect(file.fit.observations).toBeGreaterThan(0);
    expect(file.sources).toEqual([runDir]);
    // Every observation is a measured variant of this run, with the plan's prediction beside it.
    for (const o of file.observations)
      expect(o).toMatchObject({
        run: { gpu: 'H100', gpus: 1, workload: { name: 'sharegpt-like' } },
        prior: { totalTokPerS: expect.any(Number) },
      });
    const p = spawnSync(
      process.execPath,
      [
        BIN,
        'predict',
        '--model',
        'Qwen/Qwen3-14B',
        '--gpu',
        'H100',
        '--engine',
        'sglang',
        '--num-prompts',
        '20',
        '--calibration',
        out,
        '--json',
      ],
      { cwd, encoding: 'utf8' },
    );
    expect(p.status, p.stderr).toBe(0);
    expect(JSON.parse(p.stdout).calibration.observations).toBe(file.fit.observations);
  }, 180_000);

  it('--truth: every launch runs on it; results carry prior, calibrated and measured; the report says what the calibration learnt', async () => {
    const out = join(cwd, 'cal.json');
    truthRun = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'sglang,trtllm',
        '--stages',
        'engine,batching',
        '--scale',
        '0.02',
        '--validation',
        'none',
        '--port',
        String(Number(port) + 50),
        '--truth',
        TRUTH,
        '--calibration',
        out,
        '--json',
      ],
      cwd,
    );
    expect(truthRun.code, truthRun.stderr.slice(-3000)).toBe(0);
    const launches = truthRun.events.flatMap((e) => (e.type === 'variant-launching' ? [e.argv] : []));
    expect(launches.length).toBeGreaterThan(1);
    for (const argv of launches) expect(argv.slice(-2)).toEqual(['--truth', TRUTH]);
    const updates = truthRun.events.filter((e) => e.type === 'calibration-updated');
    expect(updates.length).toBeGreaterThan(1);
    const finished = truthRun.events.flatMap((e) =>
      e.type === 'variant-finished' && e.result.status === 'ok' && e.result.metrics ? [e.result as VariantResult] : [],
    );
    // Every measured variant has its calibrated prediction, made on the variants before it (and the started-from file).
    for (const r of finished)
      expect(r.calibrated, r.variantId).toMatchObject({ totalTokPerS: expect.any(Number), bandPct: expect.any(Number) });
    const end = truthRun.events.find((e) => e.type === 'session-finished');
    const profile = loadProfile((end as { profilePath: string }).profilePath);
    expect(profile.calibration).toMatchObject({ startedFrom: out, observations: expect.any(Number) });
    const md = readFileSync((end as { reportPath: string }).reportPath, 'utf8');
    expect(md).toContain('calibrated tok/s +-band (error)');
    expect(md).toMatch(/## Calibration\n\nCalibration on this host: \d+ measured variant\(s\) on top of /);
  }, 180_000);

  it('--dry-run --calibration FILE: the plan shows the calibrated prediction beside the prior', async () => {
    const r = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'sglang',
        '--stages',
        'engine',
        '--scale',
        '0.02',
        '--validation',
        'none',
        '--calibration',
        join(cwd, 'cal.json'),
        '--dry-run',
      ],
      cwd,
    );
    expect(r.code, r.stderr).toBe(0);
    // The prior carries the model's measured error band; the calibrated figure carries this host's.
    expect(r.stdout + r.stderr).toMatch(
      /\[run\] +sglang +\(defaults\) +predicted [\d.]+ tok\/s \+-\d+% \(calibrated [\d.]+ \+-\d+% on \d+ variant\(s\) of this host\)/,
    );
  }, 180_000);

  it('--truth needs --sim, and a missing --truth or --calibration file is one line, exit 2', async () => {
    for (const args of [
      ['--truth', TRUTH],
      ['--sim', '--truth', join(cwd, 'none.json')],
      ['--sim', '--calibration', join(cwd, 'none.json')],
    ]) {
      const r = await runCli(['--auto', '--model', 'Qwen/Qwen3-14B', '--dry-run', ...args], cwd);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  }, 180_000);
});
