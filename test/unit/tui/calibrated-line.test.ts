// The Run screen's line of a finished variant shows the plan's prior and the host-calibrated
// prediction with its band beside the measurement, on a terminal wide enough for it.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../src/core/events.js';
import { variantLine } from '../../../src/tui/panels/run/Leaderboard.js';
import { result } from '../../helpers/tui/fixtures.js';

describe('the leaderboard line of a calibrated session', () => {
  const r: VariantResult = {
    ...result('sglang', 'engine', 10_000),
    predicted: { totalTokPerS: 8000, meanTtftMs: 1, meanTpotMs: 1 },
    calibrated: { totalTokPerS: 9500, meanTtftMs: 1, meanTpotMs: 1, bandPct: 6.4, observations: 3 },
  };
  it('prior, calibrated +-band and measured at 160 columns; only the measurement at 80', () => {
    expect(variantLine(r, 'sglang defaults', 160)).toMatch(/10,000 tok\/s .*TPOT 20\.0ms pred 8,000, cal 9,500 \+-6% up 31s$/);
    expect(variantLine(r, 'sglang defaults', 80)).not.toContain('cal ');
  });
  it('no calibrated cell before the calibration has an observation', () => {
    const first = { ...r, calibrated: { ...r.calibrated!, observations: 0 } };
    expect(variantLine(first, 'sglang defaults', 160)).not.toContain('cal ');
  });
});
