// BudgetTracker (src/tune/budget/budget.ts): what is left, and how the session's measured launches
// rescale the plan's estimates (validation's kept-back share included).
import { describe, expect, it } from 'vitest';
import { BudgetTracker } from '../../../../src/tune/budget/budget.js';

const plan = { limitGpuHours: 1, validationGpuHours: 0.2, fullProtocolGpuHours: 3, rule: 'r', simulated: false };

describe('BudgetTracker', () => {
  it('keeps validation back and takes estimates as they are before any launch', () => {
    const t = new BudgetTracker(plan, () => 0.3, 1);
    expect(t.left()).toBeCloseTo(0.5, 9);
    expect(t.estimate(0.1)).toBeCloseTo(0.1, 9);
    expect(t.canPay(0.5)).toBe(true);
    expect(t.canPay(0.51)).toBe(false);
  });

  it("scales every estimate by the median measured/estimated ratio of the session's launches", () => {
    const t = new BudgetTracker(plan, () => 0, 2);
    // Estimated 0.02 host GPU-h each (36 s on 2 GPUs); measured 9, 18 and 90 s of wall: ratios 0.25, 0.5, 2.5.
    for (const s of [9, 18, 90]) t.learn(0.02, { startupS: s / 3, benchmarkS: (2 * s) / 3 });
    expect(t.ratio()).toBeCloseTo(0.5, 9);
    expect(t.estimate(0.1)).toBeCloseTo(0.05, 9);
    expect(t.validation()).toBeCloseTo(0.1, 9);
    expect(t.left()).toBeCloseTo(0.9, 9);
    expect(t.state().validationGpuHours).toBeCloseTo(0.1, 9);
    // A launch without measured time (a journal hit) teaches nothing.
    t.learn(0.02, undefined);
    expect(t.ratio()).toBeCloseTo(0.5, 9);
  });
});
