// A simulated server pinned to host GPUs reports its own GPUs from 0 (as under CUDA_VISIBLE_DEVICES):
// the sampler files them under the host GPUs it holds, so parallel variants do not all show on GPU 0.
import { describe, expect, it } from 'vitest';
import { pinnedSample } from '../../../../src/tune/run/sampler.js';

const g = (index: number, utilPct: number) => ({ index, name: 'H100', utilPct, memUsedMiB: 10, memTotalMiB: 81559 });

describe('pinnedSample', () => {
  it('maps the server GPU i to host GPU gpuIds[i] and drops GPUs it does not hold', () => {
    expect(pinnedSample([g(0, 80), g(1, 60), g(2, 0), g(3, 0)], [4, 5]).map((x) => [x.index, x.utilPct])).toEqual([
      [4, 80],
      [5, 60],
    ]);
  });
});
