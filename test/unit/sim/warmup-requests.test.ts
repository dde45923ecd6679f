// aiperf's warm-up requests (--warmup-request-count) are sent but left out of its statistics: the
// virtual clock's warmupRequests does the same, so the first wave's burst stops counting.
import { describe, expect, it } from 'vitest';
import { predict } from '../../../src/sim/predict/predict.js';
import { measuredError } from '../../../src/model/data/measured-error.js';

const base = {
  engine: 'sglang' as const,
  model: 'Qwen/Qwen3-32B',
  gpu: 'H100',
  gpus: 1,
  knobs: {},
  requests: Array.from({ length: 48 }, () => ({ promptLen: 1024, outputLen: 64 })),
  maxConcurrency: 16,
  seed: 42,
};

describe('warm-up requests', () => {
  it('leaves the first requests out of the counts and the figures', () => {
    const all = predict(base);
    const measured = predict({ ...base, warmupRequests: 32 });
    expect(all.completed).toBe(48);
    expect(measured.completed).toBe(16);
    // The measured span starts with the first measured request.
    expect(measured.duration!).toBeLessThan(all.duration! * 0.6);
  });

  it('carries the measured error band for the engine at the client concurrency', () => {
    const p = predict(base);
    expect(p.measured_error).toEqual(measuredError('sglang', 16));
    expect(p.measured_error!.label).toBe('concurrency 9-32');
  });
});
