import { describe, expect, it } from 'vitest';
import { judgeReplay, sloFailures } from '../../../src/profiles/report/verdict.js';
import type { BenchMetrics } from '../../../src/core/metrics.js';

function m(total: number, extra: Partial<Record<string, number>> = {}): BenchMetrics {
  return {
    duration: 10,
    completed: 100,
    failed: 0,
    total_input_tokens: 1000,
    total_output_tokens: 1000,
    request_throughput: 10,
    request_goodput: null,
    output_throughput: total / 2,
    total_token_throughput: total,
    max_output_tokens_per_s: 1,
    max_concurrent_requests: 100,
    mean_ttft_ms: 100,
    p99_ttft_ms: 200,
    mean_tpot_ms: 20,
    ...extra,
  } as BenchMetrics;
}

describe('judgeReplay', () => {
  it('ok within tolerance either way', () => {
    expect(judgeReplay({ recorded: m(1000), now: m(1000), tolerancePct: 5 }).verdict).toBe('ok');
    expect(judgeReplay({ recorded: m(1000), now: m(951), tolerancePct: 5 }).verdict).toBe('ok');
    expect(judgeReplay({ recorded: m(1000), now: m(1049), tolerancePct: 5 }).verdict).toBe('ok');
  });

  it('regression when total throughput falls by more than the tolerance', () => {
    const j = judgeReplay({ recorded: m(1000), now: m(949), tolerancePct: 5 });
    expect(j.verdict).toBe('regression');
    expect(j.reasons).toEqual(['total throughput -5.1% (tolerance 5%)']);
  });

  it('faster when it rises by more than the tolerance', () => {
    const j = judgeReplay({ recorded: m(1000), now: m(1100), tolerancePct: 5 });
    expect(j.verdict).toBe('faster');
    expect(j.reasons[0]).toBe('total throughput +10.0% (tolerance 5%)');
  });

  it("the tolerance is the user's", () => {
    expect(judgeReplay({ recorded: m(1000), now: m(900), tolerancePct: 15 }).verdict).toBe('ok');
    expect(judgeReplay({ recorded: m(1000), now: m(999), tolerancePct: 0 }).verdict).toBe('regression');
  });

  it('a doubled claim is a regression', () => {
    expect(judgeReplay({ recorded: m(2000), now: m(1000), tolerancePct: 5 }).verdict).toBe('regression');
  });

  it('an SLO failing now is a regression even when throughput is up', () => {
    const j = judgeReplay({
      recorded: m(1000),
      now: m(1200, { p99_ttft_ms: 2500 }),
      tolerancePct: 5,
      slo: [{ metric: 'ttft', stat: 'p99', limitMs: 2000 }],
    });
    expect(j.verdict).toBe('regression');
    expect(j.reasons).toEqual(['SLO p99 TTFT < 2000 ms broken: 2500.0 ms']);
  });

  it('an SLO that holds does not change the verdict', () => {
    const j = judgeReplay({ recorded: m(1000), now: m(1000), tolerancePct: 5, slo: [{ metric: 'tpot', stat: 'mean', limitMs: 100 }] });
    expect(j.verdict).toBe('ok');
  });

  it('gives deltas per metric with direction', () => {
    const j = judgeReplay({ recorded: m(1000), now: m(1100, { mean_ttft_ms: 50 }), tolerancePct: 5 });
    const total = j.deltas.find((d) => d.key === 'total_token_throughput')!;
    expect(total).toMatchObject({ recorded: 1000, now: 1100, better: 'higher' });
    expect(total.deltaPct).toBeCloseTo(10, 10);
    const ttft = j.deltas.find((d) => d.key === 'mean_ttft_ms')!;
    expect(ttft).toMatchObject({ recorded: 100, now: 50, better: 'lower', deltaPct: -50 });
    // A metric present on one side only still shows, with no delta.
    const itl = judgeReplay({ recorded: m(1), now: m(1, { mean_itl_ms: 3 }), tolerancePct: 5 }).deltas.find((d) => d.key === 'mean_itl_ms');
    expect(itl).toMatchObject({ recorded: null, now: 3, deltaPct: null });
  });
});

describe('sloFailures', () => {
  it('limit is exclusive and missing metrics fail', () => {
    expect(sloFailures(m(1, { mean_tpot_ms: 100 }), [{ metric: 'tpot', stat: 'mean', limitMs: 100 }])).toHaveLength(1);
    expect(sloFailures(m(1, { mean_tpot_ms: 99.9 }), [{ metric: 'tpot', stat: 'mean', limitMs: 100 }])).toEqual([]);
    expect(sloFailures(m(1), [{ metric: 'e2el', stat: 'p99', limitMs: 100 }])).toEqual(['SLO p99 E2EL < 100 ms: not measured']);
  });
});
