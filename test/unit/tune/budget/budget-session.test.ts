// runSession under --budget with a scripted runner (no process): a stage of five candidates is
// screened by short runs where that is cheaper than five full runs (the plan's estimates for a
// 4000-prompt workload, where a full bench outweighs start-up), successive halving keeps the top ceil(5/3) = 2 for full runs, the
// others are rows that say "screened out", and the profile records them.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { runSession } from '../../../../src/tune/session/session.js';
import { scriptedRunner } from '../../../helpers/tune/scripted-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a budget session', () => {
  // No process, but a 4000-prompt session end to end: about 20 s alone on 2 cores, past the 60 s
  // default when the rest of the suite shares them.
  it('screens a stage by short runs and runs only the survivors in full', async () => {
    const { config } = parseAutoArgs([
      '--sim',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'sglang',
      '--stages',
      'engine,batching',
      '--num-prompts',
      '4000',
      '--validation',
      'none',
      '--budget',
      '100',
      '--out',
      dir,
      '--run-dir',
      join(dir, 'run'),
    ]);
    const { run, calls } = scriptedRunner({
      sglang: 1000,
      'sglang-mbt-4096': 1300,
      'sglang-mbt-16384': 900,
      'sglang-seqs-512': 950,
      'sglang-seqs-1024': 980,
    });
    const events: TuneEvent[] = [];
    const o = await runSession(config!, { runner: run, onEvent: (e) => events.push(e) });
    expect(o.exitCode).toBe(0);
    const screened = events.find((e): e is Extract<TuneEvent, { type: 'budget-screened' }> => e.type === 'budget-screened');
    expect(screened?.stage).toBe('batching');
    expect(screened?.prompts).toBe(1334);
    expect(
      screened?.rows
        .filter((r) => r.kept)
        .map((r) => r.variantId)
        .sort(),
    ).toEqual(['sglang-mbt-4096', 'sglang-seqs-1024']);
    // Four short runs, then full runs for the two kept only.
    expect(calls.filter((c) => c.startsWith('batching:') && c.endsWith(':sharegpt-like-screen'))).toHaveLength(4);
    expect(calls.filter((c) => c.startsWith('batching:') && c.endsWith(':sharegpt-like')).sort()).toEqual([
      'batching:sglang-mbt-4096:sharegpt-like',
      'batching:sglang-seqs-1024:sharegpt-like',
    ]);
    const rows = events.flatMap((e) => (e.type === 'variant-finished' && e.result.stage === 'batching' ? [e.result] : []));
    expect(rows.find((r) => r.variantId === 'sglang-mbt-16384')?.failure?.reason).toMatch(
      /^screened out: short run 900 tok\/s, 4 of 4, -31% against the best short run; successive halving \(eta 3\)/,
    );
    expect(o.winner?.variantId).toBe('sglang-mbt-4096');
    expect(o.profile?.budget?.skipped.map((s) => s.kind)).toEqual(['screened-out', 'screened-out']);
  }, 150_000);
});
