// The early-stop watch judges a challenger against the stage's leader by the margin the tied set
// uses: the larger of --margin and the host's measured noise for one run against the leader's runs.
// With --margin alone, challengers the noise rule would have called tied were cut short.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../../src/core/events.js';
import { earlyStopLeader } from '../../../../src/tune/stage/measure-stage.js';

function ok(id: string, tput: number): VariantResult {
  return {
    variantId: id,
    stage: 'slots',
    scenario: 'x',
    status: 'ok',
    variant: { id, label: id, engine: 'llamacpp', model: 'm', knobs: {} },
    argv: [],
    metrics: { completed: 24, failed: 0, total_token_throughput: tput, total_input_tokens: 3072 } as unknown as VariantResult['metrics'],
    startedAt: '',
    finishedAt: '',
  };
}

const config = { earlyStop: true, objective: 'total', slo: [], marginPct: 2 };
const noiseRuns = new Map([['lead', { label: 'lead', values: [100, 110, 105, 98] }]]);

describe('early stop under the measured noise', () => {
  it('before any noise is known: --margin', () => {
    const lead = earlyStopLeader({ config } as never, [ok('lead', 100), ok('other', 90)]);
    expect(lead).toMatchObject({ leaderId: 'lead', value: 100, marginPct: 2 });
  });

  it("with the host's noise: one run against the leader's 4, as the tied set judges them", () => {
    const ctx = { config, noise: { pct: 12, runs: 10, source: 'test', df: 8 }, noiseRuns } as never;
    const lead = earlyStopLeader(ctx, [ok('lead', 100), ok('other', 90)])!;
    // 12% x (1/sqrt(4) + 1/sqrt(1)) = 18%: a challenger 10% below the leader is within the noise.
    expect(lead.marginPct).toBeCloseTo(18, 5);
  });

  it('a noise under --margin leaves --margin', () => {
    const ctx = { config, noise: { pct: 0.5, runs: 10, source: 'test', df: 8 }, noiseRuns } as never;
    expect(earlyStopLeader(ctx, [ok('lead', 100)])!.marginPct).toBe(2);
  });
});
