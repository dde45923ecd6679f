// Warm-up scaled to load: a tuning run is preceded by at least one full batch at its concurrency.
import { describe, expect, it } from 'vitest';
import { UNCAPPED_WARMUPS, warmupsFor } from '../../../../src/tune/run/warmup-count.js';

describe('warmupsFor', () => {
  it('sends a full batch at the run concurrency, never fewer than 4 or the --warmup floor', () => {
    expect(warmupsFor({ numPrompts: 1000, maxConcurrency: 1 }, 0, 1)).toBe(4);
    expect(warmupsFor({ numPrompts: 1000, maxConcurrency: 16 }, 0, 4)).toBe(16);
    expect(warmupsFor({ numPrompts: 1000, maxConcurrency: 512 }, 0, 4)).toBe(512);
    expect(warmupsFor({ numPrompts: 1000, maxConcurrency: 2 }, 0, 10)).toBe(10);
  });

  it('an uncapped run warms with one batch of UNCAPPED_WARMUPS, at most its own request count', () => {
    expect(warmupsFor({ numPrompts: 1000, maxConcurrency: null }, 0, 4)).toBe(UNCAPPED_WARMUPS);
    expect(warmupsFor({ numPrompts: 20, maxConcurrency: null }, 0, 1)).toBe(20);
  });

  it('a server warmed at this batch or above is not warmed again; a larger batch is', () => {
    expect(warmupsFor({ numPrompts: 1000, maxConcurrency: 16 }, 128, 4)).toBe(0);
    expect(warmupsFor({ numPrompts: 1000, maxConcurrency: 256 }, 128, 4)).toBe(256);
  });
});
