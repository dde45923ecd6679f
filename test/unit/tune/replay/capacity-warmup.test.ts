// replay --capacity warms its fresh server with one full batch at the recorded load before its
// probe, as the search's probe had lower loads before it on a warm server.
import { describe, expect, it } from 'vitest';
import { capacityReplayWarmups } from '../../../../src/tune/replay/capacity-warmup.js';
import { MIN_WARMUPS, UNCAPPED_WARMUPS } from '../../../../src/tune/run/warmup-count.js';

describe('capacityReplayWarmups', () => {
  it('sends a full batch at the answer by concurrency, never fewer than the runner does', () => {
    expect(capacityReplayWarmups('concurrency', 80, { maxConcurrency: null })).toBe(80);
    expect(capacityReplayWarmups('concurrency', 2, { maxConcurrency: null })).toBe(MIN_WARMUPS);
  });

  it("by rate: the scenario's own cap, else the runner's uncapped batch", () => {
    expect(capacityReplayWarmups('rate', 12.5, { maxConcurrency: 32 })).toBe(32);
    expect(capacityReplayWarmups('rate', 12.5, { maxConcurrency: null })).toBe(UNCAPPED_WARMUPS);
  });
});
