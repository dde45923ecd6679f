// runSession with a scripted runner: the stage loop, decisions, references, resume, skip and
// stop, with no process launched. The end-to-end tests with sim-serve are in session.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { projectSession } from '../../../../src/core/view.js';
import { readRunEvents } from '../../../../src/core/view-read.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { AbortedError } from '../../../../src/core/aborted.js';
import { readRunConfig, runSession } from '../../../../src/tune/session/session.js';
import { scriptedRunner } from '../../../helpers/tune/scripted-runner.js';
import { SessionControl } from '../../../../src/tune/context/session-context.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-seams-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function configFor(extra: string[] = []) {
  const runDir = join(dir, `run-${++n}`);
  const { config } = parseAutoArgs([
    '--sim',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'sglang,vllm',
    '--stages',
    'engine,attention,batching',
    '--scale',
    '0.02',
    '--validation',
    'sharegpt-like,random-2000-100',
    '--out',
    dir,
    '--run-dir',
    runDir,
    ...extra,
  ]);
  return config!;
}

function stageFinished(events: TuneEvent[], stage: string) {
  return events.find((e): e is Extract<TuneEvent, { type: 'stage-finished' }> => e.type === 'stage-finished' && e.stage === stage);
}

describe('runSession with an injected runner', () => {
  it('decides each stage once: engine gains against the baseline, later ones against the carried winner', async () => {
    const { run, calls } = scriptedRunner({ sglang: 1200, vllm: 1000, 'sglang-attn-triton': 1300 }, 1190);
    const events: TuneEvent[] = [];
    const o = await runSession(configFor(['--baseline', 'trtllm']), { runner: run, onEvent: (e) => events.push(e) });
    expect(o.exitCode).toBe(0);
    // --baseline trtllm did not run here: the core says which baseline it used instead.
    expect(events).toContainEqual({ type: 'warning', message: "baseline 'trtllm' is not an engine-stage variant; using vllm" });
    expect(stageFinished(events, 'engine')).toMatchObject({
      winnerId: 'sglang',
      carriedId: null,
      referenceId: 'vllm',
      baselineId: 'vllm',
      gains: { sglang: 20, vllm: 0 },
    });
    expect(stageFinished(events, 'engine')!.gainPct).toBeCloseTo(20);
    const attention = stageFinished(events, 'attention')!;
    expect(attention).toMatchObject({ winnerId: 'sglang-attn-triton', carriedId: 'sglang', referenceId: 'sglang' });
    expect(attention.gains['sglang-attn-triton']).toBeCloseTo(8.33, 1);
    // Batching candidates are 1190 vs the carried 1300: kept, and the stage records no gain above 0.
    const batching = stageFinished(events, 'batching')!;
    expect(batching).toMatchObject({ winnerId: 'sglang-attn-triton', carriedId: 'sglang-attn-triton' });
    expect(batching.gainPct).toBeLessThanOrEqual(0);
    expect(batching.why).toMatch(/kept the carried winner/);
    // Validation launches the baseline and the winner once each, for the scenario the stages did
    // not measure (the tuning scenario comes from the journal).
    expect(calls.filter((c) => c.startsWith('validation:'))).toEqual([
      'validation:vllm:random-2000-100',
      'validation:sglang-attn-triton:random-2000-100',
    ]);
    expect(events).toContainEqual({
      type: 'validation-started',
      scenarios: ['sharegpt-like', 'random-2000-100'],
      baselineId: 'vllm',
      baselineWhy: "vLLM's defaults from the engine stage",
      winnerId: 'sglang-attn-triton',
    });
    expect(o.profile?.variant.id).toBe('sglang-attn-triton');
    // The projection of the journaled stream is the view every front end shows.
    const view = projectSession(readRunEvents(o.runDir), { ended: true });
    expect(view.status).toBe('finished');
    expect(view.winner?.variantId).toBe('sglang-attn-triton');
    expect(view.baselineId).toBe('vllm');
    expect(view.validation?.rows.map((r) => r.scenario)).toEqual(['sharegpt-like', 'random-2000-100']);
    expect(view.validation?.rows[0]?.gainPct).toBeCloseTo(30);
  });

  it('skips the variant the user skips and stops after the stage, then still validates and saves', async () => {
    const control = new SessionControl();
    const { run, calls } = scriptedRunner({ sglang: 1200, vllm: 1000 }, 1000, (v) => {
      if (v.id === 'sglang') {
        control.skipVariant();
        control.stopAfterStage();
      }
    });
    const o = await runSession(configFor(), { runner: run, control });
    expect(o.exitCode).toBe(0);
    expect(o.stages[0]!.results.map((r) => [r.variantId, r.status])).toEqual([
      ['sglang', 'skipped'],
      ['vllm', 'ok'],
    ]);
    expect(o.stages.slice(1).map((s) => s.skipped)).toEqual([
      'stopped by the user after the engine stage',
      'stopped by the user after the engine stage',
    ]);
    expect(o.winner?.variantId).toBe('vllm');
    // Baseline and winner are the same variant: launched once for validation.
    expect(calls.filter((c) => c.startsWith('validation:'))).toEqual(['validation:vllm:random-2000-100']);
  });

  it('ends with exit 1 and skips later stages when no engine variant succeeds', async () => {
    const { run } = scriptedRunner({}, { kind: 'oom', reason: 'CUDA out of memory' });
    const events: TuneEvent[] = [];
    const o = await runSession(configFor(), { runner: run, onEvent: (e) => events.push(e) });
    expect(o.exitCode).toBe(1);
    expect(o.profilePath).toBeNull();
    expect(o.stages.slice(1).map((s) => s.skipped)).toEqual([
      'no variant of the engine stage succeeded',
      'no variant of the engine stage succeeded',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'session-finished', exitCode: 1 });
  });

  it('resumes an interrupted run without measuring anything twice, and view shows the interrupted part', async () => {
    const ac = new AbortController();
    const config = configFor();
    const first = scriptedRunner({ sglang: 1200, vllm: 1000 }, 1000, (v) => {
      // The user presses Ctrl-C while the second attention candidate runs.
      if (v.id === 'sglang-attn-flashinfer') {
        ac.abort('SIGINT');
        throw new AbortedError();
      }
    });
    const o1 = await runSession(config, { runner: first.run, signal: ac.signal });
    expect(o1.interrupted).toBe(true);
    expect(o1.exitCode).toBe(130);
    const measured = first.calls.filter((c) => !c.includes('flashinfer'));
    // (Variants run predicted fastest first: triton before flashinfer in the attention stage. fa3
    // is SGLang 0.5.5's default on this H100, the carried winner's server: filed, not launched.)
    // The engine stage's best two run once more in reverse order (the host's noise), then the attention stage.
    expect(measured).toEqual([
      'engine:sglang:sharegpt-like',
      'engine:vllm:sharegpt-like',
      'engine:vllm:sharegpt-like',
      'engine:sglang:sharegpt-like',
      'attention:sglang-attn-triton:sharegpt-like',
    ]);

    // What `servelab view` shows of it: what was measured, marked interrupted.
    const interrupted = projectSession(readRunEvents(o1.runDir), { ended: true });
    expect(interrupted.status).toBe('interrupted');
    expect(interrupted.stages.find((s) => s.name === 'engine')!.rows.map((r) => r.result.variantId)).toEqual(['sglang', 'vllm']);
    expect(interrupted.stages.find((s) => s.name === 'attention')!.rows.map((r) => r.result.variantId)).toEqual([
      'sglang-attn-fa3',
      'sglang-attn-triton',
    ]);

    const second = scriptedRunner({ sglang: 1200, vllm: 1000 }, 1000);
    const o2 = await runSession(readRunConfig(o1.runDir), { runner: second.run, resume: true });
    expect(o2.exitCode).toBe(0);
    expect(
      second.calls.some(
        (c) =>
          c === 'engine:sglang:sharegpt-like' || c === 'engine:vllm:sharegpt-like' || c.includes('attn-fa3') || c.includes('attn-triton'),
      ),
    ).toBe(false);
    expect(second.calls[0]).toBe('attention:sglang-attn-flashinfer:sharegpt-like');
    // The resumed stream starts the view afresh and ends finished.
    expect(projectSession(readRunEvents(o1.runDir), { ended: true }).status).toBe('finished');
    expect(JSON.parse(readFileSync(join(o1.runDir, 'session.json'), 'utf8')).status).toBe('finished');
  });
});
