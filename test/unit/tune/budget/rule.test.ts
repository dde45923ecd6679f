// The budget's rules (src/tune/budget/rule.ts): the skip rule on the calibrated upper bound,
// successive halving's cut, when screening pays, and the order by expected gain per GPU-hour.
import { describe, expect, it } from 'vitest';
import {
  byGainPerCost,
  expectedGainPct,
  fullShortRatio,
  notLaunchedWhy,
  screenCut,
  screeningPays,
  screenPrompts,
} from '../../../../src/tune/budget/rule.js';
import { budgetLimitGpuHours } from '../../../../src/tune/budget/budget.js';
import { parseDurationText } from '../../../../src/core/duration-text.js';

describe('the skip rule', () => {
  it('does not launch a variant whose upper bound stays below the leader by more than the margin, and says why', () => {
    // 820 +6% = 869.2, more than 2% below 1000.
    const why = notLaunchedWhy({ value: 820, bandPct: 6, observations: 5 }, 1000, 2);
    expect(why).toBe(
      'not launched: predicted -18% +-6%, calibrated on 5 variant(s) of this host; its upper bound is -13% against the leader, beyond the 2% margin',
    );
  });
  it('launches one whose upper bound reaches the leader within the margin', () => {
    // 930 x 1.06 = 985.8 >= 980.
    expect(notLaunchedWhy({ value: 930, bandPct: 6, observations: 5 }, 1000, 2)).toBeNull();
    // The same prediction with the prior model's wide band is launched.
    expect(notLaunchedWhy({ value: 820, bandPct: 30, observations: 0 }, 1000, 2)).toBeNull();
  });
  it('names the prior model when no variant of the host is measured yet', () => {
    expect(notLaunchedWhy({ value: 500, bandPct: 20, observations: 0 }, 1000, 2)).toMatch(
      /prior model, no variant of this host measured yet/,
    );
  });
});

describe('successive halving', () => {
  const rows = [
    { id: 'a', value: 1000 },
    { id: 'b', value: 900 },
    { id: 'c', value: 990 },
    { id: 'd', value: 700 },
    { id: 'e', value: null },
  ];
  it('keeps the top ceil(n/3) of the short runs and any within the noise of the best', () => {
    const cut = screenCut(rows, { noisePct: 2, marginPct: 2 });
    // 4 short runs measured: ceil(4/3) = 2 on rank (a, c); b and d are more than 2% below a.
    expect(cut.kept.sort()).toEqual(['a', 'c']);
    expect([...cut.dropped.keys()].sort()).toEqual(['b', 'd', 'e']);
    expect(cut.dropped.get('e')).toMatch(/short run failed/);
    expect(cut.dropped.get('b')).toMatch(/^screened out: short run 900 tok\/s, 3 of 4, -10% against the best short run/);
    // A wider noise keeps b too.
    expect(screenCut(rows, { noisePct: 11, marginPct: 2 }).kept.sort()).toEqual(['a', 'b', 'c']);
  });
  it('always keeps an exempt id (the baseline validation reuses) and drops a kept one that cannot reach the leader', () => {
    expect(screenCut(rows, { noisePct: 2, marginPct: 2, exempt: new Set(['d']) }).kept.sort()).toEqual(['a', 'c', 'd']);
    // Scaled by the full/short ratio 1.2: a -> 1200, c -> 1188; against a leader of 1300 both stay > 2% + 2% below.
    const cut = screenCut(rows, { noisePct: 2, marginPct: 2, leader: 1300, ratio: 1.2 });
    expect(cut.kept).toEqual([]);
    expect(cut.dropped.get('a')).toMatch(/x 1.20 \(this session's full\/short ratio\) is -8% against the leader/);
  });
  it('screens only where n short runs and ceil(n/3) full ones cost less than n full runs', () => {
    // Start-up 30, full bench 160, short 160/3: 5 x 83.3 + 2 x 190 = 796.7 < 950.
    expect(screeningPays(5, 30, 160, 160 / 3)).toBe(true);
    // Start-up dominates: 5 x 37 + 2 x 51 = 287 > 255.
    expect(screeningPays(5, 30, 21, 7)).toBe(false);
    // One candidate, or ceil(n/3) = n: nothing to cut.
    expect(screeningPays(1, 0, 100, 10)).toBe(false);
    expect(screenPrompts(1000)).toBe(334);
    expect(screenPrompts(20)).toBe(8);
    expect(screenPrompts(5)).toBe(5);
  });
  it('takes the median full/short ratio', () => {
    expect(fullShortRatio([])).toBeUndefined();
    expect(
      fullShortRatio([
        { full: 120, short: 100 },
        { full: 300, short: 200 },
        { full: 110, short: 100 },
      ]),
    ).toBeCloseTo(1.2);
  });
});

describe('the order by expected gain per GPU-hour', () => {
  it('is the expected improvement over the leader: positive below the leader, about the gap well above it', () => {
    expect(expectedGainPct({ value: 900, bandPct: 10 }, 1000)).toBeGreaterThan(0);
    expect(expectedGainPct({ value: 900, bandPct: 10 }, 1000)).toBeLessThan(expectedGainPct({ value: 900, bandPct: 20 }, 1000));
    expect(expectedGainPct({ value: 1500, bandPct: 1 }, 1000)).toBeCloseTo(50, 0);
  });
  it('puts a cheap likely gain before a dear one and keeps ties in order', () => {
    const items = [
      { id: 'dear', gain: 10, cost: 2 },
      { id: 'cheap', gain: 6, cost: 0.5 },
      { id: 'tie', gain: 6, cost: 0.5 },
    ];
    expect(
      byGainPerCost(
        items,
        (i) => i.gain,
        (i) => i.cost,
      ).map((i) => i.id),
    ).toEqual(['cheap', 'tie', 'dear']);
  });
});

describe('the budget flags', () => {
  it('reads durations with units and the smaller of the two limits', () => {
    expect(parseDurationText('2h')).toBe(7200);
    expect(parseDurationText('1h30m')).toBe(5400);
    expect(parseDurationText('90m')).toBe(5400);
    expect(parseDurationText('2')).toBeUndefined();
    expect(parseDurationText('2 hours')).toBeUndefined();
    expect(budgetLimitGpuHours({ wallS: 7200 }, 8)).toBe(16);
    expect(budgetLimitGpuHours({ gpuHours: 10, wallS: 7200 }, 8)).toBe(10);
  });
});
