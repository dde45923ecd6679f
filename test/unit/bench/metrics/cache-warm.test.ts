// The warm-cache rule on requests as the client records them: hits within what the run's own
// earlier requests sent (or were sent back) are the workload's; hits beyond are from before the run.
import { describe, expect, it } from 'vitest';
import { cacheMetrics } from '../../../../src/bench/metrics/cache.js';
import type { RequestOutput } from '../../../../src/bench/types.js';

const out = (promptLen: number, reusableLen: number, cachedTokens: number, ownCacheLen?: number): RequestOutput => ({
  success: true,
  promptLen,
  outputLen: 4,
  ttft: 0.1,
  itl: [],
  latency: 0.2,
  startTime: 0,
  generatedText: 'x',
  error: '',
  reusableLen,
  cachedTokens,
  ...(ownCacheLen !== undefined ? { ownCacheLen } : {}),
});

describe('cache warm before the run', () => {
  it('is cold when every hit is within what earlier requests of the run sent', () => {
    const c = cacheMetrics([out(100, 0, 0), out(100, 50, 48), out(100, 50, 50)])!;
    expect(c).toMatchObject({ cache_warm_before_run: false, cache_hit_before_run: 0 });
  });

  it('is warm when the first request of a prefix already hits: the hit rate is left as measured', () => {
    const c = cacheMetrics([out(100, 0, 96), out(100, 50, 96), out(100, 50, 96)])!;
    expect(c.cache_hit_rate).toBeCloseTo(0.96);
    expect(c.cache_possible_reuse).toBeCloseTo(1 / 3);
    expect(c.cache_warm_before_run).toBe(true);
    expect(c.cache_hit_before_run).toBeCloseTo((96 + 46 + 46) / 300);
  });

  it("counts a conversation's reply (ownCacheLen) as the run's own, and a sliver beyond it as noise", () => {
    // Turn 2 resends turn 1's 100-token prompt and its 20-token reply: 120 could be cached by the run itself.
    const turns = [out(100, 0, 0, 0), out(150, 100, 118, 120)];
    expect(cacheMetrics(turns)).toMatchObject({ cache_warm_before_run: false });
    expect(cacheMetrics([out(100, 0, 0, 0), out(150, 100, 122, 120)])).toMatchObject({ cache_warm_before_run: false });
    expect(cacheMetrics([out(100, 0, 0, 0), out(150, 100, 148, 120)])).toMatchObject({ cache_warm_before_run: true });
  });
});

describe("a tuning result's cache line", () => {
  it('says the cache was warm before the run beside the figures', async () => {
    const { cacheText } = await import('../../../../src/core/traffic-text.js');
    expect(cacheText({ cache: { hitRate: 0.97, possibleReuse: 0.45, warmBeforeRun: true } })).toBe(
      'prefix cache hit 97% of 45% possible (cache warm before the run)',
    );
    expect(cacheText({ cache: { hitRate: 0.4, possibleReuse: 0.45 } })).toBe('prefix cache hit 40% of 45% possible');
  });
});
