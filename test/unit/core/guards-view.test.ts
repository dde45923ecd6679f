// What a user sees of the guards, through the one projection: a refused row's words in the stage
// table, the named regression under the before/after table and on the exit line, and --no-regress's
// choice as the session's winner (the summary, and the Results screen's data read the same view).
import { describe, expect, it } from 'vitest';
import type { TuneEvent, VariantResult } from '../../../src/core/events.js';
import { projectSession } from '../../../src/core/view.js';
import { progressLine, summaryText } from '../../../src/cli/text.js';
import { resultsData } from '../../../src/tui/state/results.js';

function ok(id: string, total: number, completed = 100, failed = 0): VariantResult {
  return {
    variantId: id,
    stage: 'engine',
    scenario: 'sharegpt-like',
    status: 'ok',
    variant: { id, engine: 'vllm', model: 'm', knobs: {} },
    argv: ['sim'],
    metrics: { total_token_throughput: total, output_throughput: total / 2, mean_ttft_ms: 9, mean_tpot_ms: 4, completed, failed } as never,
    ...(failed ? { requestErrors: [{ error: 'HTTP 500: boom', count: failed }] } : {}),
    startedAt: 'a',
    finishedAt: 'b',
  };
}

const rows = [
  {
    scenario: 'random-2000-100',
    baseline: { totalTokPerS: 100, meanTpotMs: 5 },
    optimized: { totalTokPerS: 130, meanTpotMs: 4 },
    gainPct: 30,
    marginPct: 2,
  },
  {
    scenario: 'sharegpt-like',
    baseline: { totalTokPerS: 100, meanTpotMs: 5 },
    optimized: { totalTokPerS: 80, meanTpotMs: 6 },
    gainPct: -20,
    marginPct: 2,
    regression: true,
  },
];

const events: TuneEvent[] = [
  { type: 'session-started', runDir: '/r', simulated: true, at: 'x' },
  { type: 'variant-finished', result: ok('vllm', 100) },
  { type: 'variant-finished', result: ok('fast', 130) },
  { type: 'variant-finished', result: ok('half', 200, 514, 486) },
  {
    type: 'stage-finished',
    stage: 'engine',
    winnerId: 'fast',
    carriedId: null,
    referenceId: 'vllm',
    baselineId: 'vllm',
    gainPct: 30,
    gains: { vllm: 0, fast: 30, half: 100 },
    why: 'fast is the fastest',
    notEligible: { half: '514/1000 ok: not eligible' },
  },
  { type: 'validation-started', scenarios: ['random-2000-100', 'sharegpt-like'], baselineId: 'vllm', winnerId: 'fast' },
  { type: 'validation-finished', rows },
];

describe('the guards as a user sees them', () => {
  it("a refused row reads 'N/M ok: not eligible' with its errors; a regression is named in the summary and the Results data", () => {
    const view = projectSession(events);
    const text = summaryText(view);
    expect(text).toMatch(/half \s+514\/1000 ok: not eligible/);
    expect(text).toContain(
      'half: 514/1000 ok: not eligible (too many failed requests; its throughput is over the successes only): 486 x HTTP 500: boom',
    );
    expect(text).toContain('REGRESSION: regression vs the baseline on sharegpt-like -20.0% (beyond the 2% margin)');
    const data = resultsData(view, { labels: {}, gpus: 1 });
    expect(data.tables[0]!.rows.find((r) => r.result.variantId === 'half')!.notEligible).toBe('514/1000 ok: not eligible');
    expect(data.validationRegression).toBe('regression vs the baseline on sharegpt-like -20.0% (beyond the 2% margin)');
  });

  it('the exit line names the regression; --no-regress makes its choice the winner', () => {
    expect(
      progressLine({
        type: 'session-finished',
        profilePath: 'p.json',
        reportPath: 'p.md',
        exitCode: 0,
        regression: 'regression vs the baseline on x -20.0%',
      }),
    ).toBe("profile p.json\nreport  p.md\nwarning: the winner's regression vs the baseline on x -20.0%");
    const why = '--no-regress: fast regresses (...); kept vllm, the best finalist that regresses on no workload';
    const view = projectSession([
      ...events,
      { type: 'no-regress', winnerId: 'fast', chosenId: 'vllm', tried: [{ variantId: 'fast', regression: '...' }], why },
    ]);
    expect(view.winner?.variantId).toBe('vllm');
    expect(summaryText(view)).toContain(why);
    expect(resultsData(view, { labels: {}, gpus: 1 }).noRegressWhy).toBe(why);
  });
});
