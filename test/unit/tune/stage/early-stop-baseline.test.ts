// The engine stage's baseline runs in full when validation will take its tuning row (it measures
// the tuning scenario on the baseline anyway): a scripted engine stage whose runner stops a
// variant early whenever the stage hands it a leader it cannot beat, as the real runner does.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { readRunConfig, runSession } from '../../../../src/tune/session/session.js';
import type { ScenarioRunner } from '../../../../src/tune/context/session-context.js';
import { scriptedRunner } from '../../../helpers/tune/scripted-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-full-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const configFor = (more: string[]) =>
  parseAutoArgs([
    '--sim',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'sglang,vllm',
    '--stages',
    'engine',
    '--scale',
    '0.02',
    '--out',
    dir,
    '--run-dir',
    join(dir, `run-${++n}`),
    ...more,
  ]).config!;

/**
 * Scripted throughputs; a tuning run handed an early-stop leader it trails by more than the margin
 * comes back stopped early (status pruned), as runner.ts reports one. `watched` lists who got a leader.
 */
function stoppingRunner(outcomes: Record<string, number>) {
  const inner = scriptedRunner(outcomes);
  const watched: string[] = [];
  const run: ScenarioRunner = async (variant, scenarios, req) => {
    const out = await inner.run(variant, scenarios, req);
    const es = req.earlyStop;
    if (!es) return out;
    watched.push(variant.id);
    return out.map((r) =>
      r.metrics && r.metrics.total_token_throughput < es.value * (1 - es.marginPct / 100)
        ? {
            ...r,
            status: 'pruned' as const,
            failure: { kind: 'pruned' as const, reason: `stopped early: below the leader ${es.leaderId}` },
          }
        : r,
    );
  };
  return { run, calls: inner.calls, watched };
}

describe('the baseline runs in full in the engine stage', () => {
  it('when validation measures the tuning scenario on it: never stopped early, and validation takes its row', async () => {
    const r = stoppingRunner({ sglang: 1200, vllm: 1000 });
    const o = await runSession(configFor(['--validation', 'sharegpt-like,random-2000-100']), { runner: r.run });
    expect(o.exitCode).toBe(0);
    const engine = o.stages[0]!.results;
    expect(engine.find((x) => x.variantId === 'vllm')?.status).toBe('ok');
    expect(r.watched).not.toContain('vllm');
    expect(o.baseline?.variantId).toBe('vllm');
    // The engine stage's gain is read against a full measurement of the baseline.
    expect(o.stages[0]!.gainPct).toBeCloseTo(20, 6);
    // No second tuning-scenario run of the baseline: validation measures only what the stage did not.
    expect(r.calls.filter((c) => c.startsWith('validation:'))).toEqual([
      'validation:vllm:random-2000-100',
      'validation:sglang:random-2000-100',
    ]);
    expect(o.validation.map((v) => [v.scenario, v.baseline?.totalTokPerS, v.gainPct])).toEqual([
      ['sharegpt-like', 1000, 20],
      ['random-2000-100', 1000, 20],
    ]);
    // A resume reads every row back: nothing is launched again and the table is the same.
    const again = stoppingRunner({ sglang: 1200, vllm: 1000 });
    const o2 = await runSession(readRunConfig(o.runDir), { runner: again.run, resume: true });
    expect(again.calls).toEqual([]);
    expect(o2.validation).toEqual(o.validation);
    expect(o.plan.notes).toContain(
      'Early stop never cuts vllm short in the engine stage: it is the baseline, and validation reuses its full sharegpt-like measurement (a partial one would be measured again there).',
    );
  });

  it('the named baseline (--baseline) is the one kept in full, and the others are still watched', async () => {
    const r = stoppingRunner({ sglang: 1200, trtllm: 1000, vllm: 1000 });
    const o = await runSession(configFor(['--engines', 'sglang,vllm,trtllm', '--validation', 'sharegpt-like', '--baseline', 'trtllm']), {
      runner: r.run,
    });
    // The predicted order runs sglang first: trtllm and vllm are each handed it as their leader.
    // Then the best two run once more in reverse order: the session's first measure of the host's noise.
    expect(r.calls.filter((c) => c.startsWith('engine:'))).toEqual([
      'engine:sglang:sharegpt-like',
      'engine:trtllm:sharegpt-like',
      'engine:vllm:sharegpt-like',
      'engine:trtllm:sharegpt-like',
      'engine:sglang:sharegpt-like',
    ]);
    expect(r.watched).toEqual(['vllm']);
    expect(o.stages[0]!.results.map((x) => [x.variantId, x.status])).toEqual([
      ['sglang', 'ok'],
      ['vllm', 'pruned'],
      ['trtllm', 'ok'],
    ]);
    expect(o.baseline?.variantId).toBe('trtllm');
    expect(r.calls.filter((c) => c.startsWith('validation:'))).toEqual([]);
  });

  it('without the tuning scenario in the validation set (or with --validation none) the normal rule applies', async () => {
    for (const validation of ['random-2000-100', 'none']) {
      const r = stoppingRunner({ sglang: 1200, vllm: 1000 });
      const o = await runSession(configFor(['--validation', validation]), { runner: r.run });
      expect(r.watched).toEqual(['vllm']);
      expect(o.stages[0]!.results.find((x) => x.variantId === 'vllm')?.status).toBe('pruned');
      expect(o.plan.notes.some((t) => t.startsWith('Early stop never cuts'))).toBe(false);
    }
  });

  it('with --no-early-stop nothing is watched and the plan says nothing of it', async () => {
    const r = stoppingRunner({ sglang: 1200, vllm: 1000 });
    const o = await runSession(configFor(['--validation', 'sharegpt-like', '--no-early-stop']), { runner: r.run });
    expect(r.watched).toEqual([]);
    expect(o.plan.notes.some((t) => t.startsWith('Early stop never cuts'))).toBe(false);
  });
});
