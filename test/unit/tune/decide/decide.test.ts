import { describe, expect, it } from 'vitest';
import { combineRepeats, decideStage, dollarsPerMillionTokens, medianMetrics, objectiveValue } from '../../../../src/tune/decide/decide.js';
import { parseObjective } from '../../../../src/core/objective.js';
import { parseSlo } from '../../../../src/core/slo-rule.js';
import type { VariantResult } from '../../../../src/core/events.js';
import type { BenchMetrics } from '../../../../src/core/metrics.js';

function metrics(total: number, extra: Record<string, number> = {}): BenchMetrics {
  return {
    duration: 10,
    completed: 100,
    failed: 0,
    total_input_tokens: 1000,
    total_output_tokens: 1000,
    request_throughput: total / 200,
    request_goodput: total / 400,
    output_throughput: total / 2,
    total_token_throughput: total,
    max_output_tokens_per_s: total,
    max_concurrent_requests: 100,
    mean_ttft_ms: 1000,
    p99_ttft_ms: 1500,
    mean_tpot_ms: 50,
    ...extra,
  } as BenchMetrics;
}

function result(id: string, total: number | null, extra: Record<string, number> = {}): VariantResult {
  return {
    variantId: id,
    stage: 's',
    scenario: 'sharegpt-like',
    status: total === null ? 'failed' : 'ok',
    variant: { id, engine: 'vllm', model: 'm', knobs: {} },
    argv: [],
    metrics: total === null ? undefined : metrics(total, extra),
    failure: total === null ? { kind: 'unsupported', reason: 'nope' } : undefined,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:01:00Z',
  };
}

const opts = { objective: 'total' as const, slo: [], marginPct: 2 };

describe('decideStage', () => {
  it('first stage: the fastest wins, gain measured against the baseline', () => {
    const vllm = result('vllm', 6595.66);
    const sglang = result('sglang', 8403.97);
    const trt = result('trtllm', 8315.15);
    const d = decideStage(null, [vllm, sglang, trt], opts, vllm);
    expect(d.winner?.variantId).toBe('sglang');
    expect(d.gainPct).toBeCloseTo(27.42, 1);
  });

  it('keeps the carried winner when the best challenger is inside the margin', () => {
    const carried = result('fp8', 10426.27);
    const d = decideStage(carried, [result('fa3', 10434.44), result('triton', 10055.13)], opts);
    expect(d.winner?.variantId).toBe('fp8');
    expect(d.changed).toBe(false);
    expect(d.gainPct).toBeCloseTo(0.078, 2);
    expect(d.why).toContain('noise margin');
  });

  it('takes a challenger that beats the carried winner by more than the margin', () => {
    const d = decideStage(result('bf16', 8403.97), [result('fp8', 10426.27)], opts);
    expect(d.winner?.variantId).toBe('fp8');
    expect(d.changed).toBe(true);
    expect(d.gainPct).toBeCloseTo(24.06, 1);
  });

  it('a margin of 0 takes any improvement; failures never win', () => {
    const d = decideStage(result('a', 100), [result('b', 100.5), result('c', null)], { ...opts, marginPct: 0 });
    expect(d.winner?.variantId).toBe('b');
    const none = decideStage(null, [result('x', null)], opts);
    expect(none.winner).toBeNull();
  });

  it('SLOs: a faster variant that breaks one loses to a slower one that keeps it', () => {
    const slo = parseSlo('ttft:p99<2000');
    const fast = result('fast', 12000, { p99_ttft_ms: 5000 });
    const slow = result('slow', 9000, { p99_ttft_ms: 1000 });
    expect(decideStage(null, [fast, slow], { ...opts, slo }).winner?.variantId).toBe('slow');
    // A carried winner breaking the SLO is replaced by an eligible challenger even when slower.
    const d = decideStage(fast, [slow], { ...opts, slo });
    expect(d.winner?.variantId).toBe('slow');
    expect(d.why).toContain('meets the SLOs');
  });

  it('objectives pick different numbers', () => {
    const m = metrics(1000);
    expect(objectiveValue(m, 'total')).toBe(1000);
    expect(objectiveValue(m, 'output')).toBe(500);
    expect(objectiveValue(m, 'request')).toBe(5);
    expect(objectiveValue(m, 'goodput')).toBe(2.5);
    expect(() => parseObjective('fastest')).toThrow(/unknown --objective/);
  });
});

describe('repeats and cost', () => {
  it('takes the per-metric median of repeats', () => {
    const m = medianMetrics([metrics(100), metrics(300), metrics(200)]);
    expect(m.total_token_throughput).toBe(200);
    const r = combineRepeats([result('a', 100), result('a', null), result('a', 300)]);
    expect(r.metrics?.total_token_throughput).toBe(200);
    expect(r.status).toBe('ok');
    expect(combineRepeats([result('a', null)]).status).toBe('failed');
  });

  it('keeps counts whole over an even number of runs (the profile holds them as integers)', () => {
    const m = medianMetrics([
      metrics(101.5, { completed: 96, total_input_tokens: 52_001 }),
      metrics(200.25, { completed: 95, total_input_tokens: 51_990 }),
    ]);
    expect(m.completed).toBe(95);
    expect(m.total_input_tokens).toBe(51_990);
    expect(m.total_token_throughput).toBeCloseTo(150.875, 9);
  });

  it('gives $ per million tokens from the GPU-hour price', () => {
    // 8 GPUs at $2/h = $16/h; 10000 tok/s = 36M tok/h -> $0.444 per M.
    expect(dollarsPerMillionTokens(metrics(10000), 8, 2)).toBeCloseTo(16 / 36, 6);
    expect(dollarsPerMillionTokens(metrics(0), 1, 2)).toBeNull();
  });
});

describe('the quality floor', () => {
  it('a faster variant below the --quality-floor cannot win, and says why', () => {
    const q = { prompts: 8, failed: 0, gpuS: 1, agreement: { prompts: 8, exactMatch: 0.25, meanSharedPrefix: 10, meanBaselineTokens: 60 } };
    const fast = { ...result('fast', 1300), quality: { ...q, belowFloor: 0.9 } };
    const agreeing = { ...result('agreeing', 1100), quality: { ...q, agreement: { ...q.agreement, exactMatch: 1 } } };
    const d = decideStage(result('carried', 1000), [fast, agreeing], opts);
    expect(d.winner?.variantId).toBe('agreeing');
    // The same agreement without the floor's mark is no bar: only the mark decides.
    expect(decideStage(result('carried', 1000), [{ ...fast, quality: q }, agreeing], opts).winner?.variantId).toBe('fast');
    const alone = decideStage(null, [fast], opts);
    expect(alone.why).toMatch(/quality: exact match 25% below the --quality-floor 90%/);
  });
});
