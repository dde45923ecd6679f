// Acceptance (validation that does not pay twice): a second session under the same
// --runs-dir, on the same simulated host, model and workload, takes the validation baseline an
// earlier run measured instead of launching it, and says where and when it was measured;
// --fresh-baseline, or another host (here: a --truth file), measures it again.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { removeDir, runCli, killLeftServers, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-baseline-reuse');
const port = testPort();
const runs: CliRun[] = [];
const TRUTH = fileURLToPath(new URL('../../fixtures/truth/power-capped.json', import.meta.url));

afterAll(() => {
  for (const r of runs) killLeftServers(r.stderr);
  removeDir(cwd);
});

const session = async (i: number, extra: string[] = []) => {
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
      'random:200/50',
      '--runs-dir',
      join(cwd, 'runs'),
      '--port',
      String(port + i * 20),
      '--json',
      ...extra,
    ],
    cwd,
  );
  runs.push(r);
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  return r;
};
const validationLaunches = (events: TuneEvent[]) => {
  const started = events.findIndex((e) => e.type === 'validation-started');
  return events.slice(started).filter((e) => e.type === 'variant-launching').length;
};
const reuseWarning = (events: TuneEvent[]) => events.find((e) => e.type === 'warning' && /reused from/.test(e.message));

describe('baseline reuse across run folders', () => {
  it('reuses the earlier baseline with its date; --fresh-baseline and another host measure it again', async () => {
    const first = await session(0);
    expect(validationLaunches(first.events)).toBe(1);
    expect(reuseWarning(first.events)).toBeUndefined();
    const second = await session(1);
    expect(validationLaunches(second.events)).toBe(0);
    expect((reuseWarning(second.events) as { message: string }).message).toMatch(
      /^baseline sglang: random-200-50\S* reused from \S+ \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\), same host, engine release, model and workload; --fresh-baseline measures it again$/,
    );
    const rows = (second.events.find((e) => e.type === 'validation-finished') as { rows: { baseline: unknown }[] }).rows;
    expect(rows[0]!.baseline).not.toBeNull();
    const fresh = await session(2, ['--fresh-baseline']);
    expect(validationLaunches(fresh.events)).toBe(1);
    const otherHost = await session(3, ['--truth', TRUTH]);
    expect(validationLaunches(otherHost.events)).toBe(1);
  }, 300_000);
});
