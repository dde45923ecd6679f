import { describe, expect, it } from 'vitest';
import { LiveTracker } from '../../../src/bench/metrics/live.js';

describe('the live hit rate', () => {
  const done = (promptLen: number, cachedTokens?: number) => ({
    ttft: 0.1,
    latency: 0.5,
    outputLen: 10,
    promptLen,
    ...(cachedTokens !== undefined ? { cachedTokens } : {}),
  });
  it('is cached over prompt tokens of the finished requests; a silent response counts as a miss once any reported', () => {
    const t = new LiveTracker(3);
    t.finished(done(100, 80));
    expect(t.snapshot(1, 1, false).cacheHitRate).toBeCloseTo(0.8);
    t.finished(done(100));
    expect(t.snapshot(2, 2, false).cacheHitRate).toBeCloseTo(0.4);
  });
  it('is absent while no response reported a cache', () => {
    const t = new LiveTracker(2);
    t.finished(done(100));
    expect(t.snapshot(1, 1, false).cacheHitRate).toBeUndefined();
  });
});
