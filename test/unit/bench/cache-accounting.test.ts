// Cache accounting per request: the cached-token count read from a real llama-server message
// (captured), the SGLang rule that no report after some reports is a miss, and the hit rate
// beside the possible reuse, TTFT split into hits and misses, printed and saved.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyMessage, type StreamState } from '../../../src/bench/http/stream-message.js';
import { cachedTokensOf } from '../../../src/bench/http/cache-report.js';
import { cacheMetrics } from '../../../src/bench/metrics/cache.js';
import { formatResultBlock } from '../../../src/bench/output/format.js';
import { anyEngineCacheFields } from '../../../src/engines/cache-report.js';
import type { RequestOutput } from '../../../src/bench/types.js';

const CHUNK = readFileSync(fileURLToPath(new URL('../../fixtures/bench/llamacpp-80fb11a-cached-chunk.txt', import.meta.url)), 'utf8')
  .trim()
  .replace(/^data: /, '');

const state = (cacheFields?: string[]): StreamState => ({
  out: { success: false, st: 0, ttft: 0, itl: [], latency: 0, generatedText: '', error: '', chunks: 0 },
  prev: 0,
  hooks: {},
  ...(cacheFields ? { cacheFields } : {}),
});

describe('cached tokens of a response', () => {
  it("llama-server's last message (captured): timings.cache_n and the OpenAI usage field both say 161", () => {
    for (const fields of [['timings.cache_n'], undefined, anyEngineCacheFields()]) {
      const s = state(fields);
      expect(applyMessage(s, { event: '', data: CHUNK }, 1)).toBeUndefined();
      expect(s.out.cachedTokens).toBe(161);
      expect(s.out.promptTokens).toBe(162);
    }
  });

  it('the first listed path present wins; absent or non-numeric is no report', () => {
    expect(
      cachedTokensOf({ meta_info: { cached_tokens: 5 }, timings: { cache_n: 7 } }, ['meta_info.cached_tokens', 'timings.cache_n']),
    ).toBe(5);
    expect(cachedTokensOf({ usage: { prompt_tokens: 3 } })).toBeUndefined();
    expect(cachedTokensOf({ timings: { cache_n: 'x' } }, ['timings.cache_n'])).toBeUndefined();
  });

  it("every engine's fields are offered to a client that does not know the engine, the OpenAI one first", () => {
    const f = anyEngineCacheFields();
    expect(f[0]).toBe('usage.prompt_tokens_details.cached_tokens');
    expect(f).toContain('timings.cache_n');
    expect(f).toContain('meta_info.cached_tokens');
  });
});

const out = (o: Partial<RequestOutput>): RequestOutput => ({
  success: true,
  promptLen: 100,
  outputLen: 4,
  ttft: 0.1,
  itl: [],
  latency: 0.2,
  startTime: 0,
  generatedText: '',
  error: '',
  ...o,
});

describe('cache metrics of a run', () => {
  it('hit rate over prompt tokens beside the possible reuse; TTFT of hits and misses', () => {
    const m = cacheMetrics([
      out({ cachedTokens: 0, reusableLen: 0, ttft: 0.5 }),
      out({ cachedTokens: 90, reusableLen: 90, ttft: 0.05 }),
      out({ cachedTokens: 60, reusableLen: 90, ttft: 0.15 }),
      out({ success: false, cachedTokens: 100, reusableLen: 100 }),
    ])!;
    expect(m.cache_possible_reuse).toBeCloseTo(180 / 300);
    expect(m.cache_hit_rate).toBeCloseTo(150 / 300);
    expect([m.cache_hit_requests, m.cache_miss_requests]).toEqual([2, 1]);
    expect(m.mean_ttft_cache_hit_ms).toBeCloseTo(100);
    expect(m.mean_ttft_cache_miss_ms).toBeCloseTo(500);
    const block = formatResultBlock({ completed: 3, duration: 1, total_input_tokens: 300, total_output_tokens: 12 } as never, {
      cache: m,
      percentileMetrics: [],
    });
    expect(block).toMatch(/Possible prefix reuse \(%\):\s+60\.00/);
    expect(block).toMatch(/Measured cache hit rate \(%\):\s+50\.00/);
    expect(block).toMatch(/Mean TTFT, cache misses \(ms\):\s+500\.00/);
  });

  it('a response without a report counts as a miss once others reported (SGLang omits a zero)', () => {
    const m = cacheMetrics([out({ cachedTokens: 50, reusableLen: 50 }), out({ reusableLen: 0 })])!;
    expect(m.cache_hit_rate).toBeCloseTo(50 / 200);
    expect(m.cache_miss_requests).toBe(1);
  });

  it('no reuse and no report: no cache section; reuse without report: hit rate not reported', () => {
    expect(cacheMetrics([out({}), out({ reusableLen: 0 })])).toBeUndefined();
    const m = cacheMetrics([out({ reusableLen: 40 })])!;
    expect(m.cache_hit_rate).toBeNull();
    expect(formatResultBlock({ completed: 1 } as never, { cache: m, percentileMetrics: [] })).toMatch(
      /Measured cache hit rate \(%\):\s+not reported by the server/,
    );
  });
});
