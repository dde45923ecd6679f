// The baseline validation compares against, and which journal rows validation reuses: early stop
// and --dummy-weights may change what a session costs, never what its before/after table compares.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Failure, TuneEvent, VariantResult } from '../../../../src/core/events.js';
import type { Variant } from '../../../../src/core/variant.js';
import { projectSession } from '../../../../src/core/view.js';
import { readRunEvents } from '../../../../src/core/view-read.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { readRunConfig, runSession } from '../../../../src/tune/session/session.js';
import type { ScenarioRunner } from '../../../../src/tune/context/session-context.js';
import { summaryText } from '../../../../src/cli/text.js';
import { Journal } from '../../../../src/tune/context/journal.js';
import {
  baselineWhy,
  journaledForValidation,
  namedBaselineWarning,
  pickBaseline,
  reusableForValidation,
} from '../../../../src/tune/decide/validate.js';
import { metricsFor, scriptedRunner } from '../../../helpers/tune/scripted-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STOPPED: Failure = { kind: 'pruned', reason: 'stopped early: 20% below the leader at 8/20 requests' };

function row(engine: Variant['engine'], status: VariantResult['status'], failure?: Failure): VariantResult {
  const variant: Variant = { id: engine, engine, model: 'Qwen/Qwen3-14B', knobs: {} };
  return {
    variantId: engine,
    stage: 'engine',
    scenario: 'sharegpt-like',
    status,
    variant,
    argv: [],
    ...(failure ? { failure } : {}),
    ...(status === 'ok' ? { metrics: metricsFor(1000) } : {}),
    startedAt: 'a',
    finishedAt: 'b',
  };
}

describe('pickBaseline', () => {
  it("is vLLM's defaults whether it finished, was stopped early, skipped by the user or filed as the same server", () => {
    const sglang = row('sglang', 'ok');
    expect(pickBaseline([sglang, row('vllm', 'ok')])?.variantId).toBe('vllm');
    expect(pickBaseline([sglang, row('vllm', 'pruned', STOPPED)])?.variantId).toBe('vllm');
    expect(pickBaseline([sglang, row('vllm', 'skipped', { kind: 'skipped', reason: 'skipped by the user' })])?.variantId).toBe('vllm');
    expect(
      pickBaseline([
        sglang,
        row('vllm', 'skipped', {
          kind: 'skipped',
          reason: 'same server as vllm-x (all defaults): not launched, its measurement is reused',
        }),
      ])?.variantId,
    ).toBe('vllm');
  });

  it('is never one that cannot serve: failed, pruned before launch or dropped; then the first in plan order that can', () => {
    const stoppedSglang = row('sglang', 'pruned', STOPPED);
    const trt = row('trtllm', 'ok');
    expect(pickBaseline([stoppedSglang, row('vllm', 'failed', { kind: 'oom', reason: 'CUDA out of memory' }), trt])?.variantId).toBe(
      'sglang',
    );
    expect(pickBaseline([trt, row('vllm', 'pruned', { kind: 'unsupported', reason: 'FP8 is not supported on A100' })])?.variantId).toBe(
      'trtllm',
    );
    expect(pickBaseline([trt, row('vllm', 'skipped', { kind: 'skipped', reason: 'dropped by the user (--drop)' })])?.variantId).toBe(
      'trtllm',
    );
    expect(pickBaseline([row('vllm', 'failed', { kind: 'crash', reason: 'x' })])).toBeNull();
  });

  it('keeps a named baseline (--baseline) that ran or failed; one pruned or dropped falls back, said so', () => {
    const failed = row('sglang', 'failed', { kind: 'crash', reason: 'x' });
    expect(pickBaseline([failed, row('vllm', 'ok')], 'sglang')?.variantId).toBe('sglang');
    // Pruned before launch (no server here) or dropped by the user: validation must not launch it.
    const pruned = row('sglang', 'pruned', { kind: 'unsupported', reason: 'FP8 is not supported on this GPU' });
    const vllm = row('vllm', 'ok');
    expect(pickBaseline([pruned, vllm], 'sglang')?.variantId).toBe('vllm');
    expect(namedBaselineWarning([pruned, vllm], 'sglang', vllm)).toBe(
      "baseline 'sglang' cannot serve here (pruned: FP8 is not supported on this GPU); using vllm",
    );
    const dropped = row('sglang', 'skipped', { kind: 'skipped', reason: 'dropped by the user (--drop)' });
    expect(pickBaseline([dropped, vllm], 'sglang')?.variantId).toBe('vllm');
    expect(namedBaselineWarning([vllm], 'trtllm', vllm)).toBe("baseline 'trtllm' is not an engine-stage variant; using vllm");
    expect(namedBaselineWarning([failed, vllm], 'sglang', failed)).toBeNull();
    expect(baselineWhy(failed, 'sglang')).toMatch(/^named by --baseline sglang; failed there/);
    // Validation takes a failed tuning row back: the phrase must not claim a new measurement.
    expect(baselineWhy(failed, 'sglang', true)).toBe('named by --baseline sglang; failed there, its tuning row reused here');
    expect(baselineWhy(row('vllm', 'pruned', STOPPED))).toBe(
      "vLLM's defaults from the engine stage; stopped early there, measured in full here",
    );
  });

  it('a resumed run takes back validation rows journaled under the older --dummy-weights key (<scenario>|real-weights)', () => {
    const j = Journal.create(join(dir, 'legacy-key'), {});
    const find = (id: string, key: string, rep: number) => j.find(id, key, rep);
    // The dummy-weights tuning row is not validation's; the older run's validation row is.
    j.record('tune', 0, { ...row('vllm', 'ok'), metrics: metricsFor(900) }, 'sharegpt-like');
    expect(journaledForValidation(find, 'vllm', 'sharegpt-like', true)).toBeUndefined();
    j.record('validate', 0, row('vllm', 'ok'), 'sharegpt-like|real-weights');
    expect(journaledForValidation(find, 'vllm', 'sharegpt-like', true)?.metrics?.total_token_throughput).toBe(1000);
    // Validation's own rows come before the tuning row; one under today's key before the older one.
    expect(journaledForValidation(find, 'vllm', 'sharegpt-like', false)?.metrics?.total_token_throughput).toBe(1000);
    j.record('validate', 0, { ...row('vllm', 'ok'), metrics: metricsFor(1100) }, 'sharegpt-like|validation');
    expect(journaledForValidation(find, 'vllm', 'sharegpt-like', true)?.metrics?.total_token_throughput).toBe(1100);
  });

  it('validation reuses only full tuning rows, and none when the tuning used dummy weights', () => {
    expect(reusableForValidation(row('vllm', 'ok'), false)).toBe(true);
    expect(reusableForValidation(row('vllm', 'pruned', STOPPED), false)).toBe(false);
    expect(reusableForValidation(row('vllm', 'skipped', { kind: 'skipped', reason: 'skipped by the user' }), false)).toBe(false);
    expect(reusableForValidation(row('vllm', 'ok'), true)).toBe(false);
  });
});

let n = 0;
const configFor = (more: string[], validation = 'sharegpt-like,random-2000-100') =>
  parseAutoArgs([
    '--sim',
    '--engines',
    'sglang,vllm',
    '--stages',
    'engine',
    '--scale',
    '0.02',
    '--validation',
    validation,
    '--out',
    dir,
    '--run-dir',
    join(dir, `run-${++n}`),
    ...more,
  ]).config!;

/** The scripted runner, with vLLM stopped early in the engine stage when it is watched (a partial row, status pruned). */
function stoppingVllm(): { run: ScenarioRunner; calls: string[] } {
  const inner = scriptedRunner({ sglang: 1200, vllm: 1000 });
  const run: ScenarioRunner = async (variant, scenarios, req) => {
    const out = await inner.run(variant, scenarios, req);
    return req.earlyStop && variant.engine === 'vllm' ? out.map((r) => ({ ...r, status: 'pruned' as const, failure: STOPPED })) : out;
  };
  return { run, calls: inner.calls };
}

describe('validation in a session', () => {
  it('compares against vLLM stopped early in the engine stage, measured in full on every scenario, and a resume measures nothing again', async () => {
    const { run, calls } = stoppingVllm();
    const events: TuneEvent[] = [];
    // Without the tuning scenario in the validation set the baseline is watched in the engine
    // stage like any variant (baseline-in-full.ts), and stopped there.
    const o = await runSession(configFor(['--model', 'Qwen/Qwen3-14B'], 'random-2000-100,random-4000-200'), {
      runner: run,
      onEvent: (e) => events.push(e),
    });
    expect(o.exitCode).toBe(0);
    expect(o.winner?.variantId).toBe('sglang');
    expect(o.baseline?.variantId).toBe('vllm');
    expect(o.stages[0]!.results.find((r) => r.variantId === 'vllm')?.status).toBe('pruned');
    expect(calls.filter((c) => c.startsWith('validation:'))).toEqual([
      'validation:vllm:random-2000-100+random-4000-200',
      'validation:sglang:random-2000-100+random-4000-200',
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'validation-started',
        baselineId: 'vllm',
        baselineWhy: "vLLM's defaults from the engine stage; stopped early there, measured in full here",
      }),
    );
    const view = projectSession(readRunEvents(o.runDir), { ended: true });
    expect(view.validation?.rows.map((r) => [r.scenario, r.baseline?.totalTokPerS, r.gainPct])).toEqual([
      ['random-2000-100', 1000, 20],
      ['random-4000-200', 1000, 20],
    ]);
    expect(summaryText(view)).toContain(
      "Before/after: baseline vllm (vLLM's defaults from the engine stage; stopped early there, measured in full here) vs winner sglang",
    );

    // Validation's rows have their own journal keys: the resumed engine stage still reads vLLM's
    // stopped row (same decision), and validation takes its own rows back.
    const again = stoppingVllm();
    const o2 = await runSession(readRunConfig(o.runDir), { runner: again.run, resume: true });
    expect(again.calls).toEqual([]);
    expect(o2.stages[0]!.results.find((r) => r.variantId === 'vllm')?.status).toBe('pruned');
    expect(o2.validation).toEqual(o.validation);
  });

  it('a --baseline that failed in the engine stage keeps its failed row, and the summary does not claim it was measured again', async () => {
    const failing = scriptedRunner({ sglang: { kind: 'crash', reason: 'server exited' }, vllm: 1000 });
    const events: TuneEvent[] = [];
    const o = await runSession(configFor(['--model', 'Qwen/Qwen3-14B', '--baseline', 'sglang']), {
      runner: failing.run,
      onEvent: (e) => events.push(e),
    });
    expect(o.baseline?.variantId).toBe('sglang');
    // Only the scenario the engine stage did not measure is launched for it.
    expect(failing.calls.filter((c) => c.startsWith('validation:sglang'))).toEqual(['validation:sglang:random-2000-100']);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'validation-started',
        baselineWhy: 'named by --baseline sglang; failed there, its tuning row reused here',
      }),
    );
  });

  it('under --dummy-weights reuses the tuning rows when no launch can load dummy weights (MoE), and not when one does', async () => {
    const moe = scriptedRunner({}, 1000);
    const m = await runSession(configFor(['--model', 'deepseek-ai/DeepSeek-R1-0528', '--gpu', 'H200', '--gpus', '8', '--dummy-weights']), {
      runner: moe.run,
    });
    expect(m.plan.dummyWeights?.used).toBe(false);
    // One side: sglang and vllm tie at 1000 and the baseline is the winner, or two sides; either way only the scenario the stages did not measure.
    expect(moe.calls.filter((c) => c.startsWith('validation:')).every((c) => c.endsWith(':random-2000-100'))).toBe(true);
    expect(m.profile?.notes.join('\n')).toMatch(
      /--dummy-weights has no effect for this model: no tuning launch can load dummy weights \(MoE/,
    );
    const summary = summaryText(projectSession(readRunEvents(m.runDir), { ended: true }));
    expect(summary).toMatch(
      /^--dummy-weights has no effect for this model: .*so benchmarks do not send ignore_eos and validation reuses the tuning measurements\.$/m,
    );
    expect(summary).not.toContain('[dummy]');

    const dense = scriptedRunner({ sglang: 1200, vllm: 1000 });
    const d = await runSession(configFor(['--model', 'Qwen/Qwen3-14B', '--dummy-weights']), { runner: dense.run });
    expect(d.plan.dummyWeights?.used).toBe(true);
    expect(dense.calls.filter((c) => c.startsWith('validation:'))).toEqual([
      'validation:vllm:sharegpt-like+random-2000-100',
      'validation:sglang:sharegpt-like+random-2000-100',
    ]);
  });
});
