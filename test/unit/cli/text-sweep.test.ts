// The headless lines for sweep events and the summary's sweep section.
import { describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { projectSession } from '../../../src/core/view.js';
import { progressLine, summaryText } from '../../../src/cli/text.js';

const c = (value: number) => ({ kind: 'concurrency' as const, value });
const started: TuneEvent = {
  type: 'sweep-started',
  spec: 'concurrency:1,8',
  slo: 'tpot:p99<60',
  rule: 'baseline, winner',
  variants: [{ variantId: 'a', label: 'A', why: 'baseline and winner' }],
};
const point = (value: number, violations: string[] = []): TuneEvent => ({
  type: 'sweep-point',
  variantId: 'a',
  label: 'A',
  load: c(value),
  status: 'ok',
  violations,
  summary: { tokPerGpu: 1850.4, tokPerUser: 41.2, ttftP50Ms: 90, ttftP99Ms: 812, tpotP99Ms: 38, goodput: null },
});
const finished: TuneEvent = {
  type: 'sweep-finished',
  decides: true,
  frontier: [{ variantId: 'a', load: c(1), tokPerGpu: 1850.4, tokPerUser: 41.2 }],
  choice: {
    variantId: 'a',
    load: c(1),
    sentence: 'A: 1,850 tok/s/GPU at 1 concurrent, TPOT p99 38 ms',
    why: '1 of 2 measured points meet the SLO',
  },
};

describe('sweep progress lines', () => {
  it('says what is swept, each point with its figures and broken rules, and the choice', () => {
    expect(progressLine(started)).toBe('sweep concurrency:1,8 for tpot:p99<60: 1 finalist(s) (baseline, winner)\n  a: baseline and winner');
    expect(progressLine(point(1))).toBe('  a at 1 concurrent: 1,850 tok/s/GPU, 41.2 tok/s/user, TPOT p99 38 ms, TTFT p99 812 ms');
    expect(progressLine(point(8, ['p99 TPOT 70 ms >= 60 ms']))).toMatch(/a at 8 concurrent: .* \(SLO broken: p99 TPOT 70 ms >= 60 ms\)$/);
    expect(progressLine({ type: 'sweep-point', variantId: 'a', label: 'A', load: c(8), status: 'not-run', violations: [] })).toBeNull();
    expect(progressLine(finished)).toBe('frontier: A: 1,850 tok/s/GPU at 1 concurrent, TPOT p99 38 ms (chosen)');
  });

  it('puts the chart, the points and the choice in the summary', () => {
    const text = summaryText(
      projectSession([{ type: 'session-started', runDir: '/r', simulated: true, at: 'a' }, started, point(1), point(8, ['x']), finished]),
    );
    expect(text).toContain('Load sweep concurrency:1,8 for tpot:p99<60');
    expect(text).toContain('tok/s/user (1000 / mean TPOT)');
    expect(text).toMatch(/1 concurrent +1,850 tok\/s\/GPU +41.2 tok\/s\/user .*\[SLO met, frontier\]/);
    expect(text).toMatch(/8 concurrent .*\[SLO broken\]/);
    expect(text).toContain('Chosen: A: 1,850 tok/s/GPU at 1 concurrent, TPOT p99 38 ms');
  });
});
