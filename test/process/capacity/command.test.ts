// `servelab capacity` as a user runs it, against a real sim-serve process: bad input is one line
// and exit 2; the search's answer holds its SLO when benchmarked again and the probe above it
// fails; a profile's search is saved in the profile and its report, and `replay --capacity`
// checks it again.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { removeDir, runCli, tempDir } from '../../helpers/e2e/cli.js';
import { reapAll, startReady } from '../../helpers/sim/helpers.js';

const cwd = tempDir('capacity');
const PROFILE = resolve('profiles/Qwen3-14B-H100x1.json');
let url = '';

// Sixteen running sequences at most: past 16 concurrent requests the extra ones wait for running
// ones to finish. On a quiet host, each load on prompts the server had not seen, p98 TTFT
// measured 500 ms at 16, 1258 ms at 17, 1675 ms at 20 and 1885 ms at 24. A loaded host only makes
// them slower: under a full test run 16 came within reach of a 900 ms limit and was re-probed, and
// earlier 20 moved by a fifth. So the limit sits 2.4x above 16 and 1.4x below 20 (where load only
// pushes further over): the search resolves to 16 and fails at 20.
const LIMIT_MS = 1200;
beforeAll(async () => {
  ({ url } = await startReady([
    '--engine',
    'vllm',
    '--gpu',
    'H100',
    '--model',
    'Qwen/Qwen3-14B',
    '--speed',
    '10',
    '--max-running-seqs',
    '16',
  ]));
});
afterAll(async () => {
  await reapAll();
  removeDir(cwd);
});

const WORKLOAD = ['--random-input-len', '256', '--random-output-len', '96'];

describe('servelab capacity: bad input', () => {
  it.each([
    [['--base-url', 'http://127.0.0.1:1'], /^servelab: capacity needs --slo/],
    [
      ['--base-url', 'http://127.0.0.1:1', '--slo', 'ttft:p100<5'],
      /^servelab: --slo ttft:p100: the maximum cannot be judged from a sample/,
    ],
    [
      ['--base-url', 'http://127.0.0.1:1', '--slo', 'ttft:p99<5', '--by', 'users'],
      /^servelab: --by must be concurrency or rate, got 'users'/,
    ],
    [['--base-url', 'http://127.0.0.1:1', '--slo', 'ttft:p99<5', '--resolution', '0'], /^servelab: bad --resolution '0'/],
    [
      ['--base-url', 'http://127.0.0.1:1', '--slo', 'ttft:p99<5', '--start', '1.5'],
      /^servelab: --start must be a whole number >= 1, got '1.5'/,
    ],
    [
      ['--base-url', 'http://127.0.0.1:1', '--slo', 'ttft:p99<5', '--max-concurrency', '8'],
      /^servelab: --max-concurrency caps requests in flight with --by rate/,
    ],
    [['--base-url', 'http://127.0.0.1:1', '--slo', 'ttft:p99<5', '--sim'], /^servelab: --sim is for a PROFILE search/],
    [['--base-url', 'notaurl', '--slo', 'ttft:p99<5'], /^servelab: bench: --base-url must be an http/],
    [['--slo', 'ttft:p99<5'], /^servelab: capacity needs a PROFILE or --base-url URL/],
    [[PROFILE, '--random-input-len', '8', '--slo', 'ttft:p99<5'], /^servelab: --random-input-len is for --base-url/],
    [[PROFILE, '--sim', '--yes'], /^servelab: capacity needs --slo/],
  ])('%j: one line, exit 2', async (args, msg) => {
    const r = await runCli(['capacity', ...args], cwd);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });
});

describe('servelab capacity --base-url on sim-serve', () => {
  it('answers the highest concurrency meeting p98 TTFT; the answer holds again, the probe above fails', async () => {
    const r = await runCli(
      ['capacity', '--base-url', url, '--slo', `ttft:p98<${LIMIT_MS}`, ...WORKLOAD, '--start', '16', '--resolution', '4', '--json'],
      cwd,
      undefined,
      300_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      by: string;
      answer: number;
      failing: number;
      breaks: string;
      goodput: number;
      probes: { load: number; numPrompts: number; holds: boolean; early?: string; cacheHitBeforeRun?: number }[];
    };
    expect(out.by).toBe('concurrency');
    expect(out.failing - out.answer).toBeGreaterThan(0);
    expect(out.failing - out.answer).toBeLessThanOrEqual(4);
    expect(out.answer).toBeGreaterThanOrEqual(16);
    expect(out.breaks).toBe('ttft:p98');
    expect(out.goodput).toBeGreaterThan(0);
    // Doubling from 16 first, and every probe sized for p98 (10 x 100/(100-98) requests).
    expect(out.probes.slice(0, 2).map((p) => p.load)).toEqual([16, 32]);
    // (a probe stops once its verdict cannot change: then it sent fewer, and says why).
    expect(out.probes.every((p) => p.numPrompts === 500 || (p.early !== undefined && p.numPrompts < 500))).toBe(true);
    // A load fails only when a re-probe agrees: the failing load was probed at least twice.
    expect(out.probes.filter((p) => p.load === out.failing).filter((p) => !p.holds).length).toBeGreaterThanOrEqual(2);
    expect(out.probes.find((p) => p.load === out.answer)!.holds).toBe(true);
    // Each probe draws prompts of its own: none finds an earlier probe's in the prefix cache. The
    // simulated vLLM reports cached tokens whenever a request found any (random prompts share a
    // first word now and then); a second bench of the same prompts read 81% cached before its run.
    expect(out.probes.filter((p) => p.cacheHitBeforeRun !== undefined).length).toBeGreaterThan(1);
    for (const p of out.probes) expect(p.cacheHitBeforeRun ?? 0, `probe at ${p.load}`).toBeLessThan(0.05);

    // Both ends benchmarked again with servelab bench (the same count; seeds no probe drew, one
    // each, so neither finds the other's prompts in the cache).
    const again = async (c: number) => {
      const b = await runCli(
        [
          'bench',
          '--base-url',
          url,
          ...WORKLOAD,
          '--num-prompts',
          '500',
          '--max-concurrency',
          String(c),
          '--metric-percentiles',
          '98',
          '--seed',
          String(1000 + c),
          '--json',
        ],
        cwd,
        undefined,
        120_000,
      );
      expect(b.code, b.stderr).toBe(0);
      return (JSON.parse(b.stdout) as { p98_ttft_ms: number }).p98_ttft_ms;
    };
    expect(await again(out.answer)).toBeLessThan(LIMIT_MS);
    expect(await again(out.failing)).toBeGreaterThanOrEqual(LIMIT_MS);
  }, 600_000);
});

describe('servelab capacity PROFILE --sim', () => {
  it('records the answer in a copy of the study profile and its report; replay --capacity checks it', async () => {
    const out = join(cwd, 'out');
    // A loose SLO: the search's path (8, then 16, the highest asked) is what this test checks.
    const args = ['--sim', '--yes', '--auto', '--speed', '10', '--runs-dir', join(cwd, 'runs')];
    const r = await runCli(
      ['capacity', PROFILE, ...args, '--slo', 'tpot:mean<200', '--start', '8', '--max', '16', '--out', out],
      cwd,
      undefined,
      300_000,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('will run');
    expect(r.stdout).toMatch(
      /^answer: 16 concurrent users at mean TPOT < 200 ms: margin \d+% \(re-probed 0x, noise not measured: no load ran twice in full\) \(nothing failed up to the highest load searched \(--max 16\)/m,
    );
    expect(r.stdout).toMatch(/^goodput at the answer: [\d.]+ req\/s meeting the SLO/m);
    expect(r.stdout).toMatch(/^concurrency +tok\/s\/GPU/m);
    const file = join(out, 'Qwen3-14B-H100x1.json');
    const saved = loadProfile(file);
    expect(saved.capacity).toMatchObject({
      by: 'concurrency',
      answer: 16,
      failing: null,
      slo: 'tpot:mean<200',
      simulated: true,
      chart: 'Qwen3-14B-H100x1.capacity.svg',
    });
    expect(saved.capacity!.probes.map((p) => p.load)).toEqual([8, 16]);
    expect(readFileSync(join(out, 'Qwen3-14B-H100x1.md'), 'utf8')).toContain('## Capacity under the SLO');
    expect(existsSync(join(out, 'Qwen3-14B-H100x1.capacity.svg'))).toBe(true);
    // The shipped study profile is reference data: not rewritten.
    expect(loadProfile(PROFILE).capacity).toBeUndefined();

    const check = await runCli(['replay', file, '--capacity', ...args], cwd, undefined, 300_000);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^still holds 16 concurrent users at mean TPOT < 200 ms \(now mean TPOT \d+ ms, 128 requests\)$/m);
    const none = await runCli(['replay', PROFILE, '--capacity', ...args], cwd);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toMatch(/has no capacity answer to check; run 'servelab capacity /);
  }, 600_000);
});
