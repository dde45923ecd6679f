// The routed experts' M tile: the engines' tuned fused-MoE config files (data/moe-configs.ts)
// where one exists for the layer's shape and GPU, else the engine's default config.
import { describe, expect, it } from 'vitest';
import { TUNED_MOE_CONFIGS } from '../../src/model/data/moe-configs.js';
import { moePaddingFactor, moeTileM, tunedMoeConfig, type MoeTileInput } from '../../src/model/moe-tiles.js';

const H100 = 'NVIDIA H100 80GB HBM3';
// Qwen3-235B-A22B BF16 on vLLM at TP8: E=128, N=1536/8=192.
const qwen = (tokens: number, over: Partial<MoeTileInput> = {}): MoeTileInput => ({
  engine: 'vllm', fp8: false, weightOnlyFp8: false, tokens, numExperts: 128, topK: 8,
  device: H100, moeIntermediate: 1536, tp: 8, ep: 1, ...over,
});

describe('tuned fused-MoE config files', () => {
  it('vLLM Qwen3-235B TP8 on H100 reads E=128,N=192 and its 16-row tile at a decode batch the default runs at 64', () => {
    expect(tunedMoeConfig(qwen(150))?.file).toMatch(/E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3\.json$/);
    expect(moeTileM(qwen(150))).toBe(16);
    expect(moeTileM(qwen(150, { device: undefined }))).toBe(64);
    expect(moePaddingFactor(qwen(150))).toBeLessThan(moePaddingFactor(qwen(150, { device: undefined })) / 2);
  });

  it('picks the nearest M key, the smaller one on a tie (Python min over ascending keys)', () => {
    expect(moeTileM(qwen(192))).toBe(16); // 128 and 256 are both 64 away
    expect(moeTileM(qwen(193))).toBe(32);
    expect(moeTileM(qwen(8192))).toBe(128);
  });

  it('the file is per shape, GPU and dtype: other TP/EP widths, GPUs or FP8 fall back to the default', () => {
    expect(tunedMoeConfig(qwen(150, { tp: 4 }))).toBeUndefined(); // N=384
    expect(tunedMoeConfig(qwen(150, { ep: 8 }))).toBeUndefined(); // E=16, N=1536
    expect(tunedMoeConfig(qwen(150, { device: 'NVIDIA L40S' }))).toBeUndefined();
    expect(tunedMoeConfig(qwen(150, { fp8: true }))).toBeUndefined();
    expect(tunedMoeConfig(qwen(150, { engine: 'sglang' }))).toBeUndefined();
  });

  it('vLLM names every H200 part NVIDIA_H200: DeepSeek-R1 block FP8 at TP8 finds its file', () => {
    const r1: MoeTileInput = { engine: 'vllm', fp8: true, weightOnlyFp8: false, tokens: 300, numExperts: 256, topK: 8, device: 'NVIDIA H200 NVL', moeIntermediate: 2048, tp: 8, ep: 1 };
    expect(tunedMoeConfig(r1)?.device).toBe('NVIDIA_H200');
    expect(moeTileM(r1)).toBe(16);
    expect(moeTileM({ ...r1, tokens: 2000 })).toBe(64);
    expect(tunedMoeConfig({ ...r1, fp8Tensor: true })).toBeUndefined(); // per-tensor: another file name
  });

  it('Marlin and TensorRT-LLM never read a Triton config file', () => {
    expect(moeTileM(qwen(150, { engine: 'trtllm' }))).toBe(128);
    expect(tunedMoeConfig(qwen(150, { fp8: false, weightOnlyFp8: true }))).toBeUndefined();
  });

  it("SGLang's default for block FP8 is 64 rows; per-tensor FP8 is 128 above E", () => {
    const glm: MoeTileInput = { engine: 'sglang', fp8: true, weightOnlyFp8: false, tokens: 300, numExperts: 160, topK: 8 };
    expect(moeTileM(glm)).toBe(64);
    expect(moeTileM({ ...glm, fp8Tensor: true })).toBe(128);
    expect(moeTileM({ ...glm, fp8Tensor: true, tokens: 100 })).toBe(64);
  });

  it('every table row is consistent with its file name and lists ascending keys', () => {
    for (const c of TUNED_MOE_CONFIGS) {
      const dtype = c.dtype ? `,dtype=${c.dtype.replace(',block_shape', '').replace('=[128,128]', '')}` : '';
      expect(c.file).toContain(`E=${c.experts},N=${c.n},device_name=${c.device}${dtype}`);
      if (c.dtype.includes('block')) expect(c.file).toContain('block_shape=[128,128]');
      expect(c.source).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{8}$/);
      const keys = c.blockM.map((e) => e[0]);
      expect([...keys].sort((a, b) => a - b)).toEqual(keys);
      for (const [, m] of c.blockM) expect([16, 32, 64, 128, 256]).toContain(m);
    }
  });
});
