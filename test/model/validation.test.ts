// Out-of-sample guard: the model against published results it was NOT fitted on
// (src/model/data/published.ts; the fit used the three studies only). The recorded values are
// the model's measured held-out error when this test was written (docs/calibration.md); the test
// fails when a change makes the held-out error grow, so a fit that helps the studies but hurts
// held-out data shows up. It does not say the model is good: see the goals in the docs.
import { describe, expect, it } from 'vitest';
import { PUBLISHED } from '../../src/model/data/published.js';
import { summarize, validateOne } from '../../src/sim/validate.js';

const RECORDED = {
  /** Median |simulated / published - 1| over all held-out rows (a row the model refuses counts as infinite). */
  medianAbs: 0.315,
  /** Held-out rows the model says do not fit although they ran. */
  refused: 5,
  /** Groups whose engine ranking the model gets right. */
  rankingRight: 2,
};

describe('held-out validation (published results outside the three studies)', () => {
  const s = summarize(PUBLISHED.map((r) => validateOne(r)));

  it('every held-out row names its source and engine version', () => {
    for (const r of PUBLISHED) {
      expect(r.source).toMatch(/^https:\/\/github\.com\/gpustack\/gpustack\/blob\/main\/docs\/performance-lab\//);
      expect(r.engineVersion).toMatch(/^\d+\.\d+/);
    }
    expect(PUBLISHED.length).toBeGreaterThanOrEqual(30);
  });

  it(`the held-out median |throughput error| does not grow beyond the recorded ${(RECORDED.medianAbs * 100).toFixed(1)}%`, () => {
    expect(s.medianAbs).toBeLessThanOrEqual(RECORDED.medianAbs);
  });

  it('no more held-out configurations are refused, and no fewer rankings are right', () => {
    expect(s.rows.filter((x) => x.error === null).length).toBeLessThanOrEqual(RECORDED.refused);
    expect(s.groups.filter((g) => g.right).length).toBeGreaterThanOrEqual(RECORDED.rankingRight);
  });
});
