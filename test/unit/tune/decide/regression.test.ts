// A guard across workloads: validation rows judged by the noise rule's margin, and the named
// regression line every view shows.
import { describe, expect, it } from 'vitest';
import { regressesNowhere, validationTable } from '../../../../src/tune/decide/validate.js';
import { regressionLine } from '../../../../src/core/validation-table.js';
import { effectiveMarginPct } from '../../../../src/core/noise-rule.js';
import type { VariantResult } from '../../../../src/core/events.js';
import type { Scenario } from '../../../../src/core/scenario.js';

const sc = (name: string) => ({ name, label: name, numPrompts: 10, maxConcurrency: null }) as unknown as Scenario;
function side(total: number | null): VariantResult {
  return {
    variantId: 'v',
    stage: 'validation',
    scenario: 's',
    status: total === null ? 'failed' : 'ok',
    variant: { id: 'v', engine: 'vllm', model: 'm', knobs: {} },
    argv: [],
    ...(total === null ? {} : { metrics: { total_token_throughput: total, mean_tpot_ms: 10 } as never }),
    startedAt: '',
    finishedAt: '',
  };
}

describe('validationTable with the noise rule', () => {
  const scenarios = [sc('random-2000-100'), sc('sharegpt'), sc('random-128-4'), sc('random-4000-200')];
  const base = new Map([
    ['random-2000-100', side(1000)],
    ['sharegpt', side(1000)],
    ['random-128-4', side(1000)],
    ['random-4000-200', side(1000)],
  ]);
  const opt = new Map([
    ['random-2000-100', side(1300)],
    ['sharegpt', side(800)],
    ['random-128-4', side(950)],
    ['random-4000-200', side(null)],
  ]);

  it('flags a loss beyond the margin and a failure where the baseline ran; a loss within it is none', () => {
    const rows = validationTable(scenarios, base, opt, effectiveMarginPct(2, { pct: 6.1, runs: 3, source: 'x' }));
    expect(rows.map((r) => [r.scenario, r.regression ?? false, r.marginPct])).toEqual([
      ['random-2000-100', false, 6.1],
      ['sharegpt', true, 6.1],
      ['random-128-4', false, 6.1],
      ['random-4000-200', true, 6.1],
    ]);
    expect(regressesNowhere(rows)).toBe(false);
    expect(regressionLine(rows)).toBe(
      'regression vs the baseline on sharegpt -20.0% (beyond the 6.1% margin), random-4000-200 (failed; the baseline ran)',
    );
  });

  it('at the plain --margin, a 5% loss is a regression too; without a margin nothing is judged', () => {
    const rows = validationTable(scenarios.slice(0, 3), base, opt, 2);
    expect(rows.filter((r) => r.regression).map((r) => r.scenario)).toEqual(['sharegpt', 'random-128-4']);
    const unjudged = validationTable(scenarios, base, opt);
    expect(unjudged.every((r) => r.regression === undefined && r.marginPct === undefined)).toBe(true);
    expect(regressionLine(unjudged)).toBeNull();
  });
});
