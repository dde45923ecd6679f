import { describe, expect, it } from 'vitest';
import { formatSlo, goodputFromSlo, sloKey, sloPercentiles, sloViolations } from '../../../../src/core/slo.js';
import { parseSlo } from '../../../../src/core/slo-rule.js';
import { UserError } from '../../../../src/core/errors.js';
import type { BenchMetrics } from '../../../../src/core/metrics.js';

describe('parseSlo', () => {
  it('reads the documented example', () => {
    const rules = parseSlo('ttft:p99<2000,tpot:mean<100,e2el:p99<30000');
    expect(rules).toEqual([
      { metric: 'ttft', stat: 'p99', limitMs: 2000 },
      { metric: 'tpot', stat: 'mean', limitMs: 100 },
      { metric: 'e2el', stat: 'p99', limitMs: 30000 },
    ]);
    expect(rules.map(sloKey)).toEqual(['p99_ttft_ms', 'mean_tpot_ms', 'p99_e2el_ms']);
    expect(formatSlo(rules)).toBe('ttft:p99<2000,tpot:mean<100,e2el:p99<30000');
    expect(sloPercentiles(rules)).toEqual([99, 99]);
  });

  it('accepts spaces, upper case, median, fractional percentiles and a ms suffix', () => {
    expect(parseSlo(' TTFT : median < 500ms , itl:p99.9<80 ')).toEqual([
      { metric: 'ttft', stat: 'median', limitMs: 500 },
      { metric: 'itl', stat: 'p99.9', limitMs: 80 },
    ]);
  });

  it.each(['', 'ttft<2000', 'ttft:p99>2000', 'latency:p99<10', 'ttft:avg<10', 'ttft:p99<', 'ttft:p99<0', 'ttft:p0<5', 'ttft:p150<5'])(
    'rejects %j with a UserError (exit 2)',
    (text) => {
      let err: unknown;
      try {
        parseSlo(text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).code).toBe(2);
      expect((err as UserError).message).not.toContain('\n');
    },
  );
});

describe('sloViolations and goodput', () => {
  const m = { p99_ttft_ms: 2500, mean_tpot_ms: 40, median_ttft_ms: 900 } as unknown as BenchMetrics;
  it('names each broken rule and passes the kept ones', () => {
    const v = sloViolations(m, parseSlo('ttft:p99<2000,tpot:mean<100,ttft:median<1000'));
    expect(v).toEqual(['p99 TTFT 2500 ms >= 2000 ms']);
  });
  it('treats an unmeasured metric as broken', () => {
    expect(sloViolations(m, parseSlo('e2el:p99<100'))).toEqual(['p99 E2EL was not measured']);
  });
  it('maps rules to vLLM --goodput thresholds, tightest per metric, ITL ignored', () => {
    expect(goodputFromSlo(parseSlo('ttft:p99<2000,ttft:mean<800,tpot:mean<100,itl:p99<50'))).toEqual({ ttft: 800, tpot: 100 });
    expect(goodputFromSlo(parseSlo('itl:p99<50'))).toBeUndefined();
  });
});
