// SGLang's automatic --mem-fraction-static (src/model/sglang-mem.ts): the figures follow from the
// formula quoted there (server_args.py _handle_gpu_memory_settings at the 0.5.5.post1 bump) with
// nvidia-smi's memory.total; each expectation is worked by hand in the comment beside it.
import { describe, expect, it } from 'vitest';
import { findGpu } from '../../../src/model/gpus.js';
import { resolveServer } from '../../../src/model/estimate.js';
import { getModel } from '../../../src/model/models.js';
import { sglangCudaGraphMaxBs, sglangMemFractionStatic } from '../../../src/model/sglang-mem.js';

const H100 = findGpu('H100')!; // 81,559 MiB
const H200 = findGpu('H200')!; // 143,771 MiB
const base = { maxBatchedTokens: 8192, tp: 1, pp: 1, dp: 1, dpAttention: false };

describe('SGLang automatic mem_fraction_static', () => {
  it('follows chunk, CUDA-graph batch and TP as server_args.py does', () => {
    // 512 + 8192 x 1.5 + 256 x 2 + 1/8 x 1024 = 13,440 MiB -> 68,119 / 81,559
    expect(sglangMemFractionStatic(H100, base)).toBe(0.835);
    // 512 + 12,288 + 512 x 2 + 1,024 = 14,848 MiB -> 66,711 / 81,559
    expect(sglangMemFractionStatic(H100, { ...base, tp: 8 })).toBe(0.818);
    expect(sglangMemFractionStatic(H200, { ...base, tp: 8 })).toBe(0.897);
    // a 2048-token chunk leaves 4,224 MiB, raised to the 10 GiB floor above 60 GiB: 71,319 / 81,559
    expect(sglangMemFractionStatic(H100, { ...base, maxBatchedTokens: 2048 })).toBe(0.874);
  });

  it('reserves more for DP attention and speculative decoding (not for NGRAM)', () => {
    // + 512 x 8 x 3 + 512 x 8 x 1.5 (graph batch > 300) = 33,280 MiB -> 110,491 / 143,771
    expect(sglangMemFractionStatic(H200, { ...base, tp: 8, dp: 8, dpAttention: true })).toBe(0.769);
    expect(sglangMemFractionStatic(H200, { ...base, tp: 8, speculative: 'eagle' })).toBe(0.882);
    expect(sglangMemFractionStatic(H200, { ...base, tp: 8, speculative: 'draft' })).toBe(0.854);
    expect(sglangMemFractionStatic(H200, { ...base, tp: 8, speculative: 'ngram' })).toBe(0.897);
  });

  it('sets the CUDA-graph batch by GPU memory tier and TP, and the server uses the fraction', () => {
    expect(sglangCudaGraphMaxBs(H100, 1)).toBe(256);
    expect(sglangCudaGraphMaxBs(H100, 8)).toBe(512);
    expect(sglangCudaGraphMaxBs({ ...H100, memMiB: 46068 }, 1)).toBe(32);
    expect(sglangCudaGraphMaxBs({ ...H100, memMiB: 46068 }, 4)).toBe(160);
    const s = resolveServer('sglang', H100, 8, getModel('zai-org/GLM-4.6-FP8')!, { tp: 8 });
    expect(s.memFraction).toBe(0.818);
    expect(resolveServer('sglang', H100, 8, getModel('zai-org/GLM-4.6-FP8')!, { tp: 8, memFraction: 0.8 }).memFraction).toBe(0.8);
  });
});
