// A profile of a calibrated session keeps each result's calibrated prediction and the
// session's calibration through the schema, and the report shows prior, calibrated with its band,
// and measured side by side, plus the session's leave-one-out line. Without them the report is
// unchanged (the shipped reports are checked byte for byte in shipped.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../src/profiles/report/report.js';
import { parseProfile, serializeProfile } from '../../../src/profiles/store/store.js';

const file = fileURLToPath(new URL('../../../profiles/Qwen3-14B-H100x1.json', import.meta.url));

describe('calibrated profile', () => {
  it('round-trips the calibrated figures and reports them beside prior and measured', () => {
    const p = parseProfile(readFileSync(file, 'utf8'), file);
    const r = p.stages[0]!.results[0]!;
    const measured = r.metrics!.total_token_throughput;
    r.predicted = { totalTokPerS: measured * 0.8, meanTtftMs: 1, meanTpotMs: 1 };
    r.calibrated = { totalTokPerS: measured * 1.05, meanTtftMs: 1, meanTpotMs: 1, bandPct: 6.4, observations: 3 };
    p.calibration = {
      observations: 3,
      priorMedianAbsPct: 18.2,
      looMedianAbsPct: 3.1,
      bandPct: 6.4,
      corrections: { host: { gemm: 0.85 }, engines: {} },
    };
    const back = parseProfile(serializeProfile(p), 'memory');
    expect(back.stages[0]!.results[0]!.calibrated).toEqual(r.calibrated);
    const md = renderReport(back);
    expect(md).toContain('| calibrated tok/s +-band (error) |');
    expect(md).toContain(`${(measured * 1.05).toFixed(2)} +-6% (+5.0%; on 3 variant(s))`);
    expect(md).toContain('## Calibration');
    expect(md).toContain('leave-one-out 3.1% against 18.2% for the prior model; band +-6%; corrections: host gemm x0.850.');
  });

  it('refuses a calibrated prediction without its band', () => {
    const p = JSON.parse(readFileSync(file, 'utf8'));
    p.stages[0].results[0].calibrated = { totalTokPerS: 1, meanTtftMs: 1, meanTpotMs: 1, observations: 1 };
    expect(() => parseProfile(JSON.stringify(p), 'bad.json')).toThrow(/calibrated\.bandPct/);
  });
});
