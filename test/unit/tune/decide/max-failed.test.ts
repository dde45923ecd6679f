// Partial success is not success: score() refuses a run whose failed requests exceed --max-failed
// (default 1%), whatever its throughput over the successes, and says so in the row's words.
import { describe, expect, it } from 'vitest';
import { decideStage, score } from '../../../../src/tune/decide/decide.js';
import { decideStageVerdict } from '../../../../src/tune/decide/stage-verdict.js';
import { parseSlo } from '../../../../src/core/slo-rule.js';
import { pickFinalists } from '../../../../src/tune/sweep/finalists.js';
import type { VariantResult } from '../../../../src/core/events.js';
import type { BenchMetrics } from '../../../../src/core/metrics.js';

function result(id: string, total: number, completed: number, failed: number): VariantResult {
  const metrics = {
    duration: 10,
    completed,
    failed,
    total_input_tokens: 1000,
    total_output_tokens: 1000,
    request_throughput: 1,
    request_goodput: null,
    output_throughput: total / 2,
    total_token_throughput: total,
    max_output_tokens_per_s: total,
    max_concurrent_requests: 100,
    mean_ttft_ms: 100,
    mean_tpot_ms: 10,
  } as BenchMetrics;
  return {
    variantId: id,
    stage: 's',
    scenario: 'sharegpt-like',
    status: 'ok',
    variant: { id, engine: 'vllm', model: 'm', knobs: {} },
    argv: [],
    metrics,
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:01:00Z',
  };
}

const opts = { objective: 'total' as const, slo: [], marginPct: 2 };

describe('score() and --max-failed', () => {
  it('refuses a run over the default 1%, shows its value, and names the share', () => {
    const s = score(result('half', 21887, 514, 486), opts);
    expect(s.eligible).toBe(false);
    expect(s.value).toBe(21887);
    expect(s.notEligible).toBe('514/1000 ok: not eligible');
    expect(s.violations).toEqual(['486 of 1000 requests failed (49%), over the --max-failed 1%']);
  });

  it('keeps a run at or under the threshold eligible, and the threshold is the flag', () => {
    expect(score(result('one', 100, 990, 10), opts).eligible).toBe(true);
    expect(score(result('two', 100, 980, 20), opts).eligible).toBe(false);
    expect(score(result('two', 100, 980, 20), { ...opts, maxFailedPct: 5 }).eligible).toBe(true);
    expect(score(result('any', 100, 1, 999), { ...opts, maxFailedPct: 100 }).eligible).toBe(true);
  });

  it('never lets the fastest partial success win a stage, first or later', () => {
    const faulty = result('faulty', 21887, 140, 60);
    const clean = result('clean', 12129, 200, 0);
    const first = decideStage(null, [faulty, clean], opts);
    expect(first.winner?.variantId).toBe('clean');
    const later = decideStage(clean, [faulty], opts);
    expect(later.winner?.variantId).toBe('clean');
    expect(later.changed).toBe(false);
  });

  it('with nothing eligible, carries one that served its requests before a faster partial success', () => {
    const slow = result('slow', 100, 200, 0);
    const faulty = result('faulty', 900, 140, 60);
    const d = decideStage(null, [faulty, slow], { ...opts, slo: parseSlo('ttft:mean<1') });
    expect(d.why).toMatch(/^no variant meets the SLOs .*carrying the fastest, slow$/);
    expect(d.winner?.variantId).toBe('slow');
  });

  it("the verdict carries each refused row's words; finalists leave it out", () => {
    const faulty = result('faulty', 21887, 140, 60);
    const clean = result('clean', 12129, 200, 0);
    const out = decideStageVerdict('engine', null, null, [faulty, clean], opts);
    expect(out.verdict.notEligible).toEqual({ faulty: '140/200 ok: not eligible' });
    const fin = pickFinalists([{ name: 'engine', winnerId: 'clean', results: [faulty, clean] }], null, clean, opts, Infinity);
    expect(fin.map((f) => f.result.variantId)).toEqual(['clean']);
  });
});
