// TTFT by turn, the reuse and hit rate per turn, and conversations per second, from a run's
// tagged outputs; the printed section and the result JSON keys.
import { describe, expect, it } from 'vitest';
import { formatResult } from '../../../../src/bench/output/format.js';
import { resultJson } from '../../../../src/bench/output/save.js';
import { turnMetrics } from '../../../../src/bench/multiturn/turn-metrics.js';
import { calculateMetrics } from '../../../../src/bench/metrics/metrics.js';
import type { BenchResult, RequestOutput } from '../../../../src/bench/types.js';

function out(
  conversation: number,
  index: number,
  ttft: number,
  promptLen: number,
  reusableLen: number,
  cachedTokens?: number,
): RequestOutput {
  return {
    success: true,
    promptLen,
    outputLen: 4,
    ttft,
    itl: [0.01, 0.01, 0.01],
    latency: ttft + 0.03,
    startTime: conversation + index,
    generatedText: 'a b c d',
    error: '',
    reusableLen,
    ...(cachedTokens !== undefined ? { cachedTokens } : {}),
    turn: { conversation, index, of: 2 },
  };
}

function result(outputs: RequestOutput[]): BenchResult {
  return {
    metrics: calculateMetrics(outputs, 4, { percentileMetrics: ['ttft'], metricPercentiles: [99] }),
    outputs,
    config: {
      backend: 'openai-chat',
      endpointType: 'openai-chat',
      modelId: 'm',
      numPrompts: outputs.length,
      requestRate: Infinity,
      burstiness: 1,
      maxConcurrency: 2,
      percentileMetrics: ['ttft'],
      metricPercentiles: [99],
    },
    clientBound: false,
    client: { eventLoopLagP99Ms: 0, eventLoopLagMaxMs: 0, eventLoopLagMeanMs: 0, cpuPct: 0, peakCpuPct: 0, reasons: [] },
    tokenCounts: 'exact',
    aborted: false,
    notes: [],
    startedAt: '2026-12-05T00:00:00.000Z',
    conversations: { total: 2, completed: 2, users: 2 },
  };
}

const outputs = [out(0, 1, 0.4, 100, 0, 0), out(0, 2, 0.1, 150, 100, 110), out(1, 1, 0.6, 100, 0, 0), out(1, 2, 0.3, 160, 100, 100)];

describe('turn metrics', () => {
  it('groups by turn index: TTFT, prompt length, possible reuse and measured hits', () => {
    const t = turnMetrics(result(outputs))!;
    expect(t.turn_index).toEqual([1, 2]);
    expect(t.turn_completed).toEqual([2, 2]);
    expect(t.turn_mean_ttft_ms[0]).toBeCloseTo(500, 9);
    expect(t.turn_mean_ttft_ms[1]).toBeCloseTo(200, 9);
    expect(t.turn_mean_input_len).toEqual([100, 155]);
    expect(t.turn_cache_possible_reuse[0]).toBe(0);
    expect(t.turn_cache_possible_reuse[1]).toBeCloseTo(200 / 310, 9);
    expect(t.turn_cache_hit_rate[1]).toBeCloseTo(210 / 310, 9);
    expect(t.conversation_throughput).toBeCloseTo(0.5, 9);
  });

  it('no cache report: hit rates are null, not zero', () => {
    const t = turnMetrics(result(outputs.map(({ cachedTokens: _drop, ...o }) => o)))!;
    expect(t.turn_cache_hit_rate).toEqual([null, null]);
  });

  it('a single-turn run has none', () => {
    const { conversations: _c, ...single } = result(outputs);
    expect(turnMetrics(single)).toBeUndefined();
  });

  it('prints a TTFT-by-turn table and saves per-turn keys after vLLM keys', () => {
    const text = formatResult(result(outputs));
    expect(text).toMatch(/Conversations completed:\s+2 \/ 2/);
    expect(text).toMatch(/Conversation throughput \(conv\/s\):\s+0\.50/);
    expect(text).toMatch(/^Turn\s+Reqs\s+Mean TTFT\s+P99 TTFT\s+Mean in\s+Reuse %\s+Hit %$/m);
    expect(text).toMatch(/^2\s+2\s+200\.00\s+\S+\s+155\s+64\.5\s+67\.7$/m);
    const j = resultJson(result(outputs));
    const keys = Object.keys(j);
    expect(keys.indexOf('turn_mean_ttft_ms')).toBeGreaterThan(keys.indexOf('mean_ttft_ms'));
    expect(j).toMatchObject({ completed: 4, conversations: 2, completed_conversations: 2, turn_completed: [2, 2] });
    expect(keys.filter((k) => k.startsWith('turn_')).every((k) => Array.isArray(j[k]))).toBe(true);
  });
});
