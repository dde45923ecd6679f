// The sweep part of the projection: finalists as series, points filed by load (a resumed point
// replaces nothing twice), the frontier and the choice; --objective frontier moves the winner.
import { describe, expect, it } from 'vitest';
import type { TuneEvent, VariantResult } from '../../../src/core/events.js';
import { projectSession } from '../../../src/core/view.js';
import { sweepChartSeries } from '../../../src/sweep/view-chart.js';
import { metricsFor } from '../../helpers/tune/scripted-runner.js';

const result = (id: string, total: number): VariantResult => ({
  variantId: id,
  stage: 'engine',
  scenario: 'w',
  status: 'ok',
  variant: { id, engine: 'vllm', model: 'm', knobs: {} },
  argv: [],
  metrics: metricsFor(total),
  startedAt: 'a',
  finishedAt: 'b',
});
const summary = (x: number, y: number) => ({ tokPerGpu: y, tokPerUser: x, ttftP50Ms: 90, ttftP99Ms: 300, tpotP99Ms: 30, goodput: null });
const c = (value: number) => ({ kind: 'concurrency' as const, value });

function stream(decides: boolean): TuneEvent[] {
  return [
    { type: 'session-started', runDir: '/r', simulated: true, at: 'a' },
    { type: 'stage-started', stage: 'engine', index: 0, variants: ['a', 'b'] },
    { type: 'variant-finished', result: result('a', 1000) },
    { type: 'variant-finished', result: result('b', 1200) },
    {
      type: 'stage-finished',
      stage: 'engine',
      winnerId: 'b',
      carriedId: null,
      referenceId: 'a',
      baselineId: 'a',
      gainPct: 20,
      gains: {},
      why: 'b is the fastest',
    },
    {
      type: 'sweep-started',
      spec: 'concurrency:1,8',
      slo: 'tpot:p99<60',
      rule: 'r',
      variants: [
        { variantId: 'a', label: 'A', why: 'baseline' },
        { variantId: 'b', label: 'B', why: 'winner' },
      ],
    },
    { type: 'sweep-point', variantId: 'a', label: 'A', load: c(8), status: 'ok', summary: summary(40, 90), violations: [] },
    { type: 'sweep-point', variantId: 'a', label: 'A', load: c(1), status: 'ok', summary: summary(80, 10), violations: [], resumed: true },
    { type: 'sweep-point', variantId: 'b', label: 'B', load: c(1), status: 'ok', summary: summary(70, 12), violations: [] },
    {
      type: 'sweep-point',
      variantId: 'b',
      label: 'B',
      load: c(8),
      status: 'ok',
      summary: summary(30, 95),
      violations: ['p99 TPOT 70 ms >= 60 ms'],
    },
    {
      type: 'sweep-finished',
      decides,
      frontier: [
        { variantId: 'b', load: c(8), tokPerGpu: 95, tokPerUser: 30 },
        { variantId: 'a', load: c(8), tokPerGpu: 90, tokPerUser: 40 },
        { variantId: 'a', load: c(1), tokPerGpu: 10, tokPerUser: 80 },
      ],
      choice: {
        variantId: 'a',
        load: c(8),
        sentence: 'A: 90 tok/s/GPU at 8 concurrent, TPOT p99 30 ms',
        why: 'w',
        runnerUp: 'B: 12 tok/s/GPU at 1 concurrent',
      },
    },
  ];
}

describe('the sweep in the session view', () => {
  it('files each point under its variant in load order, with the frontier and the choice', () => {
    const v = projectSession(stream(true));
    expect(v.sweep?.series.map((s) => [s.variantId, s.why, s.points.map((p) => p.load.value)])).toEqual([
      ['a', 'baseline', [1, 8]],
      ['b', 'winner', [1, 8]],
    ]);
    expect(v.sweep?.series[0]!.points[0]!.resumed).toBe(true);
    expect(v.sweep?.done).toBe(true);
    expect(v.sweep?.choice?.runnerUp).toBe('B: 12 tok/s/GPU at 1 concurrent');
    // The frontier decides: the session's winner is its choice, with its staged result.
    expect(v.winner?.variantId).toBe('a');
    const series = sweepChartSeries(v.sweep!);
    expect(series.map((s) => [s.name, s.points.map((p) => [p.x, p.y, p.broken ?? false])])).toEqual([
      [
        'A',
        [
          [80, 10, false],
          [40, 90, false],
        ],
      ],
      [
        'B',
        [
          [70, 12, false],
          [30, 95, true],
        ],
      ],
      [
        'Pareto frontier',
        [
          [30, 95, false],
          [40, 90, false],
          [80, 10, false],
        ],
      ],
    ]);
  });

  it('keeps the staged winner when the choice does not decide, and a live sweep is not done', () => {
    expect(projectSession(stream(false)).winner?.variantId).toBe('b');
    const live = projectSession(stream(true).slice(0, 8));
    expect(live.sweep?.done).toBe(false);
    expect(live.sweep?.series[0]!.points).toHaveLength(2);
  });
});
