// Acceptance (a budget instead of a protocol): bad --budget values are one line and
// exit 2; a small `--auto --sim --budget` session on a simulated host the planner does not know
// shows the budget and its projection, files rows the budget kept from running with why, stops
// launching when the budget left cannot pay, and records what it skipped in the profile.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, runCli, killLeftServers, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-budget');
const port = testPort();
const runs: CliRun[] = [];
const TRUTH = fileURLToPath(new URL('../../fixtures/truth/power-capped.json', import.meta.url));
const base = ['--auto', '--sim', '--model', 'Qwen/Qwen3-14B'];

afterAll(() => {
  for (const r of runs) killLeftServers(r.stderr);
  removeDir(cwd);
});

describe('--budget', () => {
  it.each([
    { args: ['--budget', '0'], message: /^servelab: --budget must be a number of host GPU-hours > 0, got '0'$/ },
    { args: ['--budget-wall', '2'], message: /^servelab: --budget-wall must be a duration such as 2h, 90m or 1h30m, got '2'$/ },
    {
      args: ['--budget', '0.001', '--dry-run'],
      message: /^servelab: the budget \(0\.001 host GPU-h\) does not cover validation's estimated [\d.]+ GPU-h/,
    },
  ])('$args: one line, exit 2', async ({ args, message }) => {
    const r = await runCli([...base, ...args], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
  });

  it('shows the budget, says which rows it did not launch and why, and records them in the profile', async () => {
    const out = join(cwd, 'out');
    // About three launches of 20 prompts fit: the engine stage cannot pay for all of its three, nor later stages.
    const r = await runCli(
      [
        ...base,
        '--truth',
        TRUTH,
        '--scale',
        '0.02',
        '--validation',
        'none',
        '--budget',
        '0.03',
        '--out',
        out,
        '--runs-dir',
        join(cwd, 'runs'),
        '--port',
        String(port),
      ],
      cwd,
    );
    runs.push(r);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).toMatch(/budget left [\d.]+ of 0\.03 GPU-h \(spent [\d.]+, validation's 0\.00 kept back; simulated time\)/);
    // A row the budget kept from running, in the summary, with its reason.
    expect(r.stdout).toMatch(
      /^ {2}\S+: not launched: (the budget left \([\d.]+ GPU-h, validation's [\d.]+ kept back\) cannot pay for its (full|short) run \(est\. [\d.]+ GPU-h\)|predicted [-+]\d+% \+-\d+%, calibrated on \d+ variant\(s\) of this host)/m,
    );
    expect(r.stdout).toMatch(/^Budget: budget left/m);
    // The table's status column says so in the same words (not "pruned: pruned").
    expect(r.stdout).toMatch(/^\S+ +\S+ +not launched +- /m);
    expect(r.stdout).not.toMatch(/pruned: pruned/);
    // Later stages are skipped with the reason, once no launch can be paid.
    expect(r.stdout).toMatch(
      /Stage \S+: skipped \(the budget left \([\d.]+ GPU-h, validation's [\d.]+ kept back\) cannot pay for another launch/,
    );
    const profilePath = /^Profile: (.+)$/m.exec(r.stdout)![1]!;
    const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as {
      budget: { limitGpuHours: number; spentGpuHours: number; skipped: { why: string }[] };
    };
    expect(profile.budget.limitGpuHours).toBe(0.03);
    expect(profile.budget.skipped.length).toBeGreaterThan(0);
    expect(profile.budget.skipped[0]!.why).toMatch(/^not launched: /);
  }, 180_000);
});
