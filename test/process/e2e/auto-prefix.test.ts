// Acceptance: a tuning session on shared-prefix traffic (vLLM's prefix_repetition) on the
// simulated host says what a user tuning for such traffic looks for: each run's prefix-cache hit
// rate against the reuse the workload made possible, in the headless lines and in the profile.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { TuneEvent } from '../../../src/core/events.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { killLeftServers, removeDir, runCli, tempDir } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-prefix');
let stderr = '';
afterAll(() => {
  killLeftServers(stderr);
  removeDir(cwd);
});

describe('servelab --auto --sim --scenario prefix:P/S/N/O', () => {
  it('reports the prefix cache hit rate per run and saves it with the result', async () => {
    const run = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'vllm',
        '--stages',
        'engine',
        '--scenario',
        'prefix:512/64/4/32',
        '--num-prompts',
        '60',
        '--validation',
        'none',
        '--repeats-max',
        '1',
        '--run-dir',
        join(cwd, 'run'),
        '--out',
        cwd,
        '--port',
        String(testPort()),
        '--json',
      ],
      cwd,
    );
    stderr = run.stderr;
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const line = /vllm: .*; prefix cache hit (\d+)% of (\d+)% possible/.exec(run.stderr);
    expect(line, run.stderr.slice(-2000)).not.toBeNull();
    const [hit, possible] = [Number(line![1]), Number(line![2])];
    // 4 prefixes of 512 tokens before 64-token suffixes: most of each prompt was sent before.
    expect(possible).toBeGreaterThan(50);
    // The simulated cache hashes word blocks, the client counts the tokens resent: close, not equal.
    expect(hit).toBeGreaterThan(0);
    expect(Math.abs(hit - possible)).toBeLessThanOrEqual(15);
    const done = run.events.at(-1) as Extract<TuneEvent, { type: 'session-finished' }>;
    const r = loadProfile(done.profilePath!).stages[0]!.results.find((x) => x.variantId === 'vllm')!;
    expect(r.cache!.possibleReuse).toBeCloseTo(possible / 100, 2);
    expect(Math.round(r.cache!.hitRate! * 100)).toBe(hit);
    expect(r.turnTtftMs).toBeUndefined();
  });
});
