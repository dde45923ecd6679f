// The noise rule's statistics: pooled relative variance over groups of repeated runs, the
// Student-t half-width, and the effective margin of two candidates' intervals.
import { describe, expect, it } from 'vitest';
import { effectiveMarginPct, noiseText, pooledNoise, runInterval, tQuantile } from '../../../../src/core/noise-rule.js';

describe('pooledNoise', () => {
  it('pools the relative deviations of every group run twice or more; single runs add nothing', () => {
    const n = pooledNoise([
      { label: 'the defaults', values: [100, 110, 90] },
      { label: 'once', values: [500] },
    ])!;
    // sd of (0, +10%, -10%) with 2 degrees of freedom = 10%; t(0.975, 2) = 4.303.
    expect(n.df).toBe(2);
    expect(n.sdPct).toBeCloseTo(10);
    expect(n.pct).toBeCloseTo(43.03, 1);
    expect(noiseText(n)).toBe('±43.0% (3 runs of the defaults)');
  });

  it('is undefined while nothing ran twice', () => {
    expect(pooledNoise([{ label: 'a', values: [1] }])).toBeUndefined();
  });

  it('more runs sharpen it: the t quantile falls toward 1.96', () => {
    expect(tQuantile(1)).toBeCloseTo(12.706);
    expect(tQuantile(30)).toBeCloseTo(2.042);
    expect(tQuantile(200)).toBeLessThan(1.98);
  });
});

describe('effectiveMarginPct', () => {
  it('is --margin without noise, else the larger of --margin and the two intervals together', () => {
    expect(effectiveMarginPct(2, undefined)).toBe(2);
    const n = { pct: 6, runs: 3, source: 'x' };
    expect(effectiveMarginPct(2, n)).toBe(6);
    expect(effectiveMarginPct(2, n, 1, 1)).toBe(12);
    expect(effectiveMarginPct(2, n, 4, 4)).toBeCloseTo(6);
    expect(effectiveMarginPct(20, n, 4, 4)).toBe(20);
  });

  it('a candidate interval narrows with its runs', () => {
    expect(runInterval([90, 110, 100, 100], { pct: 6, runs: 4, source: 'x' })).toEqual({ mean: 100, halfPct: 3, runs: 4 });
  });
});
