// --no-regress through runSession with a runner that launches nothing: a winner that loses one
// validation workload beyond the margin gives way to the best finalist that loses none, or, when
// every finalist regresses, stays with its regression named and the session says none exists.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import type { ScenarioRunner } from '../../../../src/tune/context/session-context.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { runSession } from '../../../../src/tune/session/session.js';
import { metricsFor, scriptedRunner } from '../../../helpers/tune/scripted-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-no-regress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function configFor(extra: string[]) {
  return parseAutoArgs([
    '--sim',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'vllm',
    '--stages',
    'engine,quantization',
    '--scenario',
    'random-2000-100',
    '--scale',
    '0.02',
    '--validation',
    'random-2000-100,sharegpt-like',
    '--drop',
    'vllm-fp8ckpt',
    '--out',
    dir,
    '--run-dir',
    join(dir, `run-${++n}`),
    ...extra,
  ]).config!;
}

/** The tuning figures, and on ShareGPT-shaped validation each variant's own. */
function runner(sharegpt: Record<string, number>): ScenarioRunner {
  const { run } = scriptedRunner({ vllm: 1000, 'vllm-quant-fp8': 1300, 'vllm-kv-fp8': 1200 });
  return async (variant, scenarios, req) =>
    (await run(variant, scenarios, req)).map((r) =>
      r.scenario === 'sharegpt-like' && sharegpt[r.variantId] !== undefined ? { ...r, metrics: metricsFor(sharegpt[r.variantId]!) } : r,
    );
}

const noRegress = (events: TuneEvent[]) => events.find((e): e is Extract<TuneEvent, { type: 'no-regress' }> => e.type === 'no-regress');

describe('--no-regress', () => {
  it('keeps the best finalist that regresses nowhere', async () => {
    const events: TuneEvent[] = [];
    const o = await runSession(configFor(['--no-regress']), {
      runner: runner({ vllm: 1000, 'vllm-quant-fp8': 800, 'vllm-kv-fp8': 990 }),
      onEvent: (e) => events.push(e),
    });
    expect(o.exitCode).toBe(0);
    expect(noRegress(events)).toMatchObject({ winnerId: 'vllm-quant-fp8', chosenId: 'vllm-kv-fp8' });
    expect(o.winner?.variantId).toBe('vllm-kv-fp8');
    expect(o.profile?.variant.id).toBe('vllm-kv-fp8');
    expect(o.validation.some((r) => r.regression)).toBe(false);
  });

  it('says that none exists and keeps the winner with its regression named', async () => {
    const events: TuneEvent[] = [];
    const o = await runSession(configFor(['--no-regress']), {
      runner: runner({ vllm: 1000, 'vllm-quant-fp8': 800, 'vllm-kv-fp8': 700 }),
      onEvent: (e) => events.push(e),
    });
    expect(o.exitCode).toBe(0);
    const e = noRegress(events)!;
    expect(e.chosenId).toBeNull();
    expect(e.tried.map((t) => t.variantId)).toEqual(['vllm-quant-fp8', 'vllm-kv-fp8']);
    expect(e.why).toBe(
      '--no-regress: no finalist regresses on no workload (vllm-quant-fp8: regression vs the baseline on sharegpt-like -20.0% (beyond the 2% margin); vllm-kv-fp8: regression vs the baseline on sharegpt-like -30.0% (beyond the 2% margin)); keeping vllm-quant-fp8',
    );
    expect(o.winner?.variantId).toBe('vllm-quant-fp8');
    // The table saved is the winner's own, its regression named on the exit event.
    expect(o.validation.find((r) => r.scenario === 'sharegpt-like')).toMatchObject({ gainPct: -20, regression: true });
    const finished = events.find((x): x is Extract<TuneEvent, { type: 'session-finished' }> => x.type === 'session-finished')!;
    expect(finished.regression).toBe('regression vs the baseline on sharegpt-like -20.0% (beyond the 2% margin)');
  });

  it('without the flag, flags the regression and keeps the winner', async () => {
    const events: TuneEvent[] = [];
    const o = await runSession(configFor([]), { runner: runner({ vllm: 1000, 'vllm-quant-fp8': 800 }), onEvent: (e) => events.push(e) });
    expect(noRegress(events)).toBeUndefined();
    expect(o.winner?.variantId).toBe('vllm-quant-fp8');
    expect(o.validation.filter((r) => r.regression).map((r) => r.scenario)).toEqual(['sharegpt-like']);
  });
});
