import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findGpu, GPUS, hasNativeFp8 } from '../../../src/model/gpus.js';
import { builtinModelIds, getModel, parseHfConfig } from '../../../src/model/models.js';
import { paramCounts } from '../../../src/model/param-counts.js';
import { fits, kvBytesPerToken, resolveServer, weightBytes } from '../../../src/model/estimate.js';
import { resolveParallel } from '../../../src/model/layout.js';
import { stepTime } from '../../../src/model/step-time.js';

const GiB = 1024 ** 3;

describe('GPU catalog', () => {
  it('finds GPUs by alias, catalog name and nvidia-smi name', () => {
    expect(findGpu('H100')?.name).toBe('H100 SXM 80GB');
    expect(findGpu('NVIDIA H100 80GB HBM3')?.name).toBe('H100 SXM 80GB');
    expect(findGpu('NVIDIA H200')?.name).toBe('H200 141GB');
    expect(findGpu('NVIDIA A100-SXM4-80GB')?.name).toBe('A100 SXM 80GB');
    expect(findGpu('NVIDIA A100-PCIE-40GB')?.name).toBe('A100 40GB');
    expect(findGpu('NVIDIA L40S')?.name).toBe('L40S');
    expect(findGpu('b200')?.name).toBe('B200');
    expect(findGpu('Tesla T4')).toBeUndefined();
    expect(findGpu('')).toBeUndefined();
  });

  it('FP8 support follows compute capability >= 8.9 (AMD parts: their FP8 peak)', () => {
    for (const g of GPUS) expect(hasNativeFp8(g)).toBe(g.computeCapability === undefined ? g.fp8Flops > 0 : g.computeCapability >= 8.9);
    expect(hasNativeFp8(findGpu('A100')!)).toBe(false);
    expect(hasNativeFp8(findGpu('L40S')!)).toBe(true);
  });
});

describe('model metadata', () => {
  it('has the built-ins with their public parameter counts', () => {
    const billions = (id: string) => paramCounts(getModel(id)!).total / 1e9;
    expect(billions('Qwen/Qwen3-14B')).toBeCloseTo(14.8, 0);
    expect(billions('meta-llama/Llama-3.1-8B-Instruct')).toBeCloseTo(8.0, 0);
    expect(billions('meta-llama/Llama-3.1-70B-Instruct')).toBeCloseTo(70.6, 0);
    expect(billions('Qwen/Qwen3-30B-A3B')).toBeCloseTo(30.5, 0);
    expect(billions('zai-org/GLM-4.6')).toBeGreaterThan(350);
    expect(billions('deepseek-ai/DeepSeek-R1-0528')).toBeCloseTo(671, -1);
    expect(paramCounts(getModel('deepseek-ai/DeepSeek-R1-0528')!).active / 1e9).toBeCloseTo(37, -1);
    expect(builtinModelIds()).toContain('zai-org/GLM-4.6');
  });

  it('resolves an -FP8 checkpoint to its base with fp8 weights, and DeepSeek-R1 is FP8 natively', () => {
    const m = getModel('Qwen/Qwen3-14B-FP8')!;
    expect(m.weightDtype).toBe('fp8');
    expect(m.numLayers).toBe(40);
    expect(getModel('Qwen/Qwen3-14B')!.weightDtype).toBe('bf16');
    expect(getModel('deepseek-ai/DeepSeek-R1-0528')!.weightDtype).toBe('fp8');
    expect(getModel('nobody/unknown-7B')).toBeUndefined();
  });

  it('parses dense, MoE and MLA configs, and reads a local folder', () => {
    const dense = parseHfConfig({
      hidden_size: 4096,
      num_attention_heads: 32,
      num_hidden_layers: 32,
      vocab_size: 32000,
      intermediate_size: 11008,
    });
    expect(dense).toMatchObject({ numKvHeads: 32, headDim: 128, moe: undefined, mla: undefined, weightDtype: 'bf16' });
    const mixtral = parseHfConfig({
      hidden_size: 4096,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      num_hidden_layers: 32,
      vocab_size: 32000,
      intermediate_size: 14336,
      num_local_experts: 8,
      num_experts_per_tok: 2,
    });
    expect(mixtral.moe).toMatchObject({ numExperts: 8, expertsPerTok: 2, moeIntermediateSize: 14336 });
    const ds = getModel('deepseek-ai/DeepSeek-R1-0528')!;
    expect(ds.mla).toMatchObject({ kvLoraRank: 512, qkRopeHeadDim: 64 });
    expect(ds.moe).toMatchObject({ numExperts: 256, expertsPerTok: 8, denseLayers: 3 });
    expect(() => parseHfConfig({ hidden_size: 1 })).toThrow(/num_attention_heads/);
    const dir = mkdtempSync(join(tmpdir(), 'servelab-model-'));
    try {
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({
          architectures: ['X'],
          hidden_size: 2048,
          num_attention_heads: 16,
          num_hidden_layers: 24,
          vocab_size: 50000,
          quantization_config: { quant_method: 'awq', bits: 4 },
        }),
      );
      expect(getModel(dir)).toMatchObject({ architecture: 'X', numLayers: 24, weightDtype: 'int4' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('estimate', () => {
  it('weights per GPU scale with dtype and tensor parallelism', () => {
    const m = getModel('meta-llama/Llama-3.1-70B-Instruct')!;
    const tp1 = weightBytes(m, 'bf16', resolveParallel('vllm', {})).perGpu;
    const tp4 = weightBytes(m, 'bf16', resolveParallel('vllm', { tp: 4 })).perGpu;
    const fp8 = weightBytes(m, 'fp8', resolveParallel('vllm', {})).perGpu;
    expect(tp1 / GiB).toBeCloseTo(131.5, 0);
    expect(tp4).toBeCloseTo(tp1 / 4, -7);
    expect(fp8 / tp1).toBeGreaterThan(0.5);
    expect(fp8 / tp1).toBeLessThan(0.56);
  });

  it('KV bytes per token: GQA splits over TP, MLA is replicated unless DP-attention', () => {
    const q = getModel('Qwen/Qwen3-14B')!;
    expect(kvBytesPerToken(q, 'auto', resolveParallel('vllm', {}))).toBe(2 * 40 * 8 * 128 * 2);
    expect(kvBytesPerToken(q, 'fp8', resolveParallel('vllm', { tp: 2 }))).toBe(2 * 40 * 4 * 128);
    const ds = getModel('deepseek-ai/DeepSeek-R1-0528')!;
    expect(kvBytesPerToken(ds, 'auto', resolveParallel('sglang', { tp: 8 }))).toBe(576 * 61 * 2);
    const tp = resolveServer('sglang', findGpu('H200')!, 8, ds, { tp: 8 });
    const dpa = resolveServer('sglang', findGpu('H200')!, 8, ds, { tp: 8, dp: 8, dpAttention: true });
    // MLA's latent is whole on every rank; under DP attention each rank's pool holds its own
    // requests (x 8), in less memory: SGLang reserves more for DP attention (sglang-mem.ts).
    expect(dpa.kvBytesPerTokenPerGpu).toBe(tp.kvBytesPerTokenPerGpu);
    expect(dpa.kvCapacityTokens).toBe(Math.floor(dpa.kvBytesPerGpu / dpa.kvBytesPerTokenPerGpu) * 8);
    expect(dpa.memFraction).toBeLessThan(tp.memFraction);
    expect(dpa.kvCapacityTokens).toBeGreaterThan(tp.kvCapacityTokens * 3);
    // SGLang turns DP-attention off silently when dp is 1 (docs/engines.md).
    expect(resolveParallel('sglang', { tp: 8, dpAttention: true }).dpAttention).toBe(false);
    expect(resolveParallel('sglang', { tp: 8, dp: 8, dpAttention: true })).toMatchObject({ dpAttention: true, attnTp: 1, gpusUsed: 8 });
  });

  it('fits says why not', () => {
    const a100 = findGpu('A100')!;
    expect(fits('vllm', a100, 8, getModel('zai-org/GLM-4.6')!, { tp: 8 })).toMatchObject({ fits: false, kind: 'oom-weights' });
    expect(fits('vllm', a100, 8, getModel('zai-org/GLM-4.6-FP8')!, { tp: 8 })).toMatchObject({ fits: true });
    expect(fits('vllm', findGpu('H100')!, 4, getModel('Qwen/Qwen3-14B')!, { tp: 3 })).toMatchObject({ fits: false, kind: 'tp-mismatch' });
    expect(fits('vllm', findGpu('H100')!, 1, getModel('Qwen/Qwen3-14B')!, { tp: 2 })).toMatchObject({ fits: false, kind: 'too-few-gpus' });
    expect(fits('sglang', findGpu('H100')!, 1, getModel('Qwen/Qwen3-14B')!, { memFraction: 0.3 })).toMatchObject({
      fits: false,
      kind: 'oom-kv',
    });
    const r = fits('vllm', findGpu('L40S')!, 1, getModel('meta-llama/Llama-3.1-70B-Instruct')!, {});
    expect(r.fits).toBe(false);
    expect(r.reason).toMatch(/GiB/);
  });

  it('step time: decode is memory-bound at small batch and grows with batch and context', () => {
    const s = resolveServer('vllm', findGpu('H100')!, 1, getModel('Qwen/Qwen3-14B')!, {});
    const one = stepTime(s, { prefillTokens: 0, prefillAttnPairs: 0, decodeSeqs: 1, decodeCtx: 500 }).seconds;
    // 27.5 GiB of weights at 3.35 TB/s: at least ~8.8 ms per token.
    expect(one).toBeGreaterThan(0.0088);
    expect(one).toBeLessThan(0.03);
    const many = stepTime(s, { prefillTokens: 0, prefillAttnPairs: 0, decodeSeqs: 256, decodeCtx: 256 * 500 }).seconds;
    const longer = stepTime(s, { prefillTokens: 0, prefillAttnPairs: 0, decodeSeqs: 256, decodeCtx: 256 * 4000 }).seconds;
    expect(many).toBeGreaterThan(one);
    expect(longer).toBeGreaterThan(many);
    const prefill = stepTime(s, { prefillTokens: 8192, prefillAttnPairs: 8192 * 4096, decodeSeqs: 0, decodeCtx: 0 });
    expect(prefill.seconds).toBeGreaterThan(many);
    const tp2 = resolveServer('vllm', findGpu('H100')!, 2, getModel('Qwen/Qwen3-14B')!, { tp: 2 });
    expect(stepTime(tp2, { prefillTokens: 0, prefillAttnPairs: 0, decodeSeqs: 1, decodeCtx: 500 }).commS).toBeGreaterThan(0);
  });
});
