// `servelab sweep PROFILE` as a user runs it: bad input is one line and exit 2; a simulated sweep
// prints the table and the choice, and saves the profile's sweep section, report and SVG chart.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { removeDir, runCli, tempDir } from '../../helpers/e2e/cli.js';

const cwd = tempDir('sweep-cmd');
afterAll(() => removeDir(cwd));
const PROFILE = resolve('profiles/Qwen3-14B-H100x1.json');

describe('servelab sweep', () => {
  it.each([
    [['--sweep', 'concurrency:0,4'], /^servelab: bad --sweep level '0': a concurrency is a whole number >= 1/],
    [['--sweep', 'rate:0,inf'], /^servelab: bad --sweep level '0': a rate is requests\/s > 0 or inf/],
    [['--slo', 'tpot<60'], /^servelab: bad --slo part 'tpot<60'/],
    [['--prompts', '0'], /^servelab: --prompts must be a whole number >= 1/],
  ])('refuses %j with one line and exit 2, launching nothing', async (flags, msg) => {
    const r = await runCli(['sweep', PROFILE, '--sim', '--yes', '--auto', ...flags], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('sweeps the profile on the simulated host and saves the sweep with its chart', async () => {
    const out = join(cwd, 'out');
    const r = await runCli(
      [
        'sweep',
        PROFILE,
        '--sim',
        '--yes',
        '--auto',
        '--speed',
        '5',
        '--prompts',
        '8',
        '--sweep',
        'concurrency:1,4',
        '--slo',
        'tpot:p99<500',
        '--out',
        out,
        '--run-dir',
        join(cwd, 'run'),
      ],
      cwd,
    );
    expect(r.stderr).toContain('will run');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^concurrency +tok\/s\/GPU +tok\/s\/user +TTFT p50\/p99 ms +goodput\/s +Pareto +SLO$/m);
    expect(r.stdout, r.stderr).toMatch(/^ +4 +[\d,]+ +[\d.]+ +[\d,]+\/[\d,]+ +[\d.]+ +(yes)? +met$/m);
    expect(r.stdout).toMatch(/choice: .+: [\d,]+ tok\/s\/GPU at 4 concurrent, TPOT p99 \d+ ms/);
    expect(r.stdout).toContain('output tok/s/GPU');
    const files = readdirSync(out).sort();
    expect(files).toEqual(['Qwen3-14B-H100x1.json', 'Qwen3-14B-H100x1.md', 'Qwen3-14B-H100x1.sweep.svg']);
    const saved = loadProfile(join(out, 'Qwen3-14B-H100x1.json'));
    expect(saved.sweep!.spec).toBe('concurrency:1,4');
    expect(saved.sweep!.variants[0]!.points.map((p) => p.status)).toEqual(['ok', 'ok']);
    expect(saved.sweep!.chart).toBe('Qwen3-14B-H100x1.sweep.svg');
    const md = readFileSync(join(out, 'Qwen3-14B-H100x1.md'), 'utf8');
    expect(md).toContain('## Load sweep');
    expect(md).toContain('](Qwen3-14B-H100x1.sweep.svg)');
    expect(readFileSync(join(out, 'Qwen3-14B-H100x1.sweep.svg'), 'utf8')).toContain('<polyline');
    // The shipped study profile is reference data: not rewritten.
    expect(loadProfile(PROFILE).sweep).toBeUndefined();
    expect(existsSync(join(cwd, 'run', 'results'))).toBe(true);

    // replay --sweep: the same levels and sizes again, compared at the SLO point. A recorded
    // frontier twice as high as today's is a regression (exit 3); as recorded it holds (exit 0).
    const file = join(out, 'Qwen3-14B-H100x1.json');
    const replay = (f: string) =>
      runCli(['replay', f, '--sweep', '--sim', '--yes', '--auto', '--speed', '5', '--runs-dir', join(cwd, 'runs')], cwd);
    const doubled = JSON.parse(readFileSync(file, 'utf8'));
    for (const p of doubled.sweep.variants[0].points) p.metrics.output_throughput *= 2;
    const inflated = join(cwd, 'inflated.json');
    writeFileSync(inflated, JSON.stringify(doubled));
    const bad = await replay(inflated);
    expect(bad.stderr).not.toContain('has no sweep');
    expect(bad.stderr).toContain('sweep     concurrency:1,4 as recorded');
    // Doubled: today's point must read below 95% of twice the original, i.e. under 1.9x it.
    expect(bad.stdout).toMatch(/at the SLO: recorded .*; now .* \(-\d+\.\d%\)/);
    expect(bad.stdout).toMatch(/^verdict: regression \(-\d+\.\d%, tolerance 5%\)$/m);
    expect(bad.code).toBe(3);
  });

  it('replay --sweep refuses a profile without a sweep with one line and exit 2', async () => {
    const r = await runCli(['replay', PROFILE, '--sweep', '--sim', '--yes', '--auto'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^servelab: .*Qwen3-14B-H100x1.json has no sweep to compare with; run 'servelab sweep /);
  });
});
