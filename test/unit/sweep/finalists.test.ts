// The finalists rule: baseline, winner, and each stage's best other variant within 5% of that
// stage's winner, at most five, closest first; a stage that kept the carried winner compares
// against the carried winner's own measurement.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../src/core/events.js';
import { FINALIST_WITHIN_PCT, MAX_FINALISTS, pickFinalists, type StageRows } from '../../../src/tune/sweep/finalists.js';
import { metricsFor } from '../../helpers/tune/scripted-runner.js';

function r(id: string, total: number | null): VariantResult {
  const base = {
    variantId: id,
    stage: 's',
    scenario: 'w',
    variant: { id, engine: 'vllm' as const, model: 'm', knobs: {} },
    argv: [],
    startedAt: 'a',
    finishedAt: 'b',
  };
  return total === null
    ? { ...base, status: 'failed', failure: { kind: 'crash', reason: 'x' } }
    : { ...base, status: 'ok', metrics: metricsFor(total) };
}

const opts = { objective: 'total' as const, slo: [] };

describe('pickFinalists', () => {
  it('takes each stage runner-up within the percentage, against the carried winner when the stage kept it', () => {
    const base = r('vllm', 1000);
    const win = r('sglang', 1300);
    const stages: StageRows[] = [
      { name: 'engine', winnerId: 'sglang', results: [base, win, r('trtllm', 1250)] },
      // Kept the carried sglang (1300): the best challenger at 1240 is -4.6%, in; a failed row is ignored.
      { name: 'attention', winnerId: 'sglang', results: [r('sglang-attn', 1240), r('sglang-bad', null)] },
      // 1200 is -7.7% of 1300: out.
      { name: 'batching', winnerId: 'sglang', results: [r('sglang-b', 1200)] },
      { name: 'compile', winnerId: 'sglang', skipped: 'stopped', results: [] },
    ];
    const f = pickFinalists(stages, base, win, opts);
    expect(f.map((x) => [x.result.variantId, x.why])).toEqual([
      ['vllm', 'baseline'],
      ['sglang', 'winner'],
      ['trtllm', 'runner-up of engine (-3.8%)'],
      ['sglang-attn', 'runner-up of attention (-4.6%)'],
    ]);
    expect(FINALIST_WITHIN_PCT).toBe(5);
  });

  it('names a variant once with every reason, and keeps at most MAX_FINALISTS, closest first', () => {
    const win = r('w', 1000);
    const stages: StageRows[] = ['a', 'b', 'c', 'd', 'e'].map((s, i) => ({ name: s, winnerId: 'w', results: [r(`${s}-x`, 990 - i * 10)] }));
    stages.unshift({ name: 'engine', winnerId: 'w', results: [win] });
    const f = pickFinalists(stages, win, win, opts);
    expect(f[0]).toMatchObject({ why: 'baseline and winner' });
    expect(f).toHaveLength(MAX_FINALISTS);
    expect(f.map((x) => x.result.variantId)).toEqual(['w', 'a-x', 'b-x', 'c-x', 'd-x']);
  });
});
