// The early-stop rule: a probe's p99 verdict is settled once more requests broke the bound than
// the percentile allows (fails), or once the requests left cannot break it (holds).
import { describe, expect, it } from 'vitest';
import { EarlyStop } from '../../../src/capacity/early-stop.js';
import type { RequestOutput } from '../../../src/bench/types.js';
import { parseSlo } from '../../../src/core/slo-rule.js';

const out = (ttftS: number, success = true): RequestOutput => ({
  success,
  promptLen: 8,
  outputLen: 4,
  ttft: ttftS,
  itl: [],
  latency: ttftS + 0.03,
  startTime: 0,
  generatedText: '',
  error: success ? '' : 'HTTP 500',
});

describe('EarlyStop on p99 TTFT < 500 ms over 1000 planned requests', () => {
  const slo = parseSlo('ttft:p99<500');
  it('fails once 11 requests broke the bound (p99 then reads an over value), not at 10', () => {
    const s = new EarlyStop(1000, slo);
    for (let i = 0; i < 10; i++) expect(s.add(out(0.6))).toBeNull();
    expect(s.add(out(0.6))).toBe('fails');
    expect(s.reason).toMatch(/^ttft:p99: 11 of 1000/);
  });
  it('holds once the requests left cannot break it, and not before', () => {
    const s = new EarlyStop(1000, slo);
    let v = null;
    let n = 0;
    while (v === null) {
      v = s.add(out(0.1));
      n++;
    }
    expect(v).toBe('holds');
    // k = floor(0.99 x 999) = 989: with 9 left, even 9 over leave s[989] and s[990] under.
    expect(n).toBe(991);
  });
  it('fails at once on a failed request, as a full probe would', () => {
    const s = new EarlyStop(1000, slo);
    expect(s.add(out(0, false))).toBe('fails');
  });
  it("reads a simulator's wall time at its speed", () => {
    const s = new EarlyStop(1000, slo, 10);
    for (let i = 0; i < 11; i++) s.add(out(0.06));
    expect(s.tally()).toBe('ttft:p99 11/11');
  });
  it('never holds early with a mean rule, which only the full probe can read', () => {
    const s = new EarlyStop(10, parseSlo('ttft:p99<500,tpot:mean<100'));
    const verdicts = Array.from({ length: 9 }, () => s.add(out(0.1)));
    expect(verdicts.every((v) => v === null)).toBe(true);
  });
});
