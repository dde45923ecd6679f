// FP8 weight scaling (models.ts fp8Scaling) and the GEMM rate it selects (estimate.ts
// gemmFlopsPerGpu): per-tensor checkpoints at the cited per-tensor rate, block-scaled and unknown
// ones at the fitted block-scaled rate, weight-only FP8 at the BF16 peak.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_CONFIGS } from '../../../src/model/model-configs.js';
import { WIDER_HELD_OUT } from '../../../src/model/data/published-wider.js';
import { HARDWARE } from '../../../src/model/efficiency.js';
import { gemmFlopsPerGpu, resolveServer } from '../../../src/model/estimate.js';
import { findGpu } from '../../../src/model/gpus.js';
import { fp8ScalingOf, getModel, parseHfConfig } from '../../../src/model/models.js';

const H100 = findGpu('H100')!;
const A100 = findGpu('A100')!;

describe('FP8 scaling of a checkpoint', () => {
  it('reads block scaling from config.json weight_block_size and ModelOpt quant_algo names', () => {
    expect(getModel('deepseek-ai/DeepSeek-R1-0528')!.fp8Scaling).toBe('block');
    expect(fp8ScalingOf({ quant_algo: 'FP8', kv_cache_quant_algo: null })).toBe('tensor');
    expect(fp8ScalingOf({ quant_algo: 'FP8_PER_CHANNEL_PER_TOKEN' })).toBe('tensor');
    expect(fp8ScalingOf({ quant_algo: 'FP8_BLOCK_SCALES' })).toBe('block');
    expect(fp8ScalingOf({ quant_algo: 'NVFP4' })).toBeUndefined();
    const ct = (strategy: string) => ({
      quant_method: 'compressed-tensors',
      config_groups: { group_0: { weights: { num_bits: 8, type: 'float', strategy } } },
    });
    expect(fp8ScalingOf(ct('channel'))).toBe('tensor');
    expect(fp8ScalingOf(ct('block'))).toBe('block');
    // A BF16 config says nothing; an FP8 config without scaling details stays unknown.
    expect(parseHfConfig(BUILTIN_CONFIGS['Qwen/Qwen3-14B']).fp8Scaling).toBeUndefined();
    expect(
      parseHfConfig({ ...BUILTIN_CONFIGS['Qwen/Qwen3-14B'], quantization_config: { quant_method: 'fp8' } }).fp8Scaling,
    ).toBeUndefined();
  });

  it('knows the per-tensor ModelOpt Llama checkpoints and leaves the unread Qwen3-235B one unknown', () => {
    const l8 = getModel('nvidia/Llama-3.1-8B-Instruct-FP8')!;
    expect(l8).toMatchObject({ weightDtype: 'fp8', fp8Scaling: 'tensor', numLayers: 32, hiddenSize: 4096 });
    expect(getModel('nvidia/Llama-3.3-70B-Instruct-FP8')).toMatchObject({ weightDtype: 'fp8', fp8Scaling: 'tensor', numLayers: 80 });
    const q235 = getModel('nvidia/Qwen3-235B-A22B-FP8')!;
    expect(q235.weightDtype).toBe('fp8');
    expect(q235.fp8Scaling).toBeUndefined();
    // An id only known by its -FP8 suffix: fp8 weights of unknown scaling.
    expect(getModel('Qwen/Qwen3-32B-FP8')).toMatchObject({ weightDtype: 'fp8' });
    expect(getModel('Qwen/Qwen3-32B-FP8')!.fp8Scaling).toBeUndefined();
  });

  describe('a local ModelOpt folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'servelab-modelopt-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    it('takes its scaling from hf_quant_config.json', () => {
      writeFileSync(join(dir, 'config.json'), JSON.stringify(BUILTIN_CONFIGS['meta-llama/Llama-3.1-8B-Instruct']));
      expect(getModel(dir)!.weightDtype).toBe('bf16');
      writeFileSync(
        join(dir, 'hf_quant_config.json'),
        JSON.stringify({ producer: { name: 'modelopt' }, quantization: { quant_algo: 'FP8', kv_cache_quant_algo: null } }),
      );
      expect(getModel(dir)).toMatchObject({ weightDtype: 'fp8', fp8Scaling: 'tensor' });
    });
  });
});

describe('FP8 GEMM rate by scaling', () => {
  it('per-tensor runs at the per-tensor rate, block and unknown at the fitted block rate, weight-only at BF16', () => {
    expect(gemmFlopsPerGpu(H100, 'fp8', 'tensor')).toBe(H100.fp8Flops * HARDWARE.fp8TensorGemmEff);
    expect(gemmFlopsPerGpu(H100, 'fp8', 'block')).toBe(H100.fp8Flops * HARDWARE.fp8GemmEff);
    expect(gemmFlopsPerGpu(H100, 'fp8', undefined)).toBe(H100.fp8Flops * HARDWARE.fp8GemmEff);
    expect(gemmFlopsPerGpu(A100, 'fp8', 'tensor')).toBe(A100.bf16Flops);
    expect(gemmFlopsPerGpu(H100, 'bf16', 'tensor')).toBe(H100.bf16Flops);
    expect(HARDWARE.fp8TensorGemmEff).toBeGreaterThan(HARDWARE.fp8GemmEff);
  });

  it('resolveServer picks the rate from the checkpoint', () => {
    const tensor = resolveServer('trtllm', H100, 1, getModel('nvidia/Llama-3.1-8B-Instruct-FP8')!, {});
    const unknown = resolveServer('trtllm', H100, 1, getModel('meta-llama/Llama-3.1-8B-Instruct-FP8')!, {});
    expect(tensor.gemmFlops).toBe(H100.fp8Flops * HARDWARE.fp8TensorGemmEff);
    expect(unknown.gemmFlops).toBe(H100.fp8Flops * HARDWARE.fp8GemmEff);
    // Online FP8 of a BF16 checkpoint keeps today's (block-fitted) rate.
    const online = resolveServer('vllm', H100, 1, getModel('meta-llama/Llama-3.1-8B-Instruct')!, { quantization: 'fp8' });
    expect(online.gemmFlops).toBe(H100.fp8Flops * HARDWARE.fp8GemmEff);
  });

  it('the TensorRT-LLM perf-overview rows name the served ModelOpt checkpoints', () => {
    const models = new Set(WIDER_HELD_OUT.filter((r) => r.engine === 'trtllm').map((r) => r.model));
    expect(models).toEqual(
      new Set([
        'deepseek-ai/DeepSeek-R1-0528',
        'nvidia/Llama-3.3-70B-Instruct-FP8',
        'nvidia/Qwen3-235B-A22B-FP8',
        'nvidia/Llama-3.1-8B-Instruct-FP8',
      ]),
    );
    for (const m of models) expect(getModel(m)!.weightDtype).toBe('fp8');
    // trtllm-bench keeps the checkpoint's KV quantization and no ModelOpt checkpoint's is settled
    // (published-wider.ts CKPT_KV): BF16 kept, and the row's caveat says so.
    for (const r of WIDER_HELD_OUT.filter((x) => x.model.startsWith('nvidia/'))) {
      expect(r.knobs.kvCacheDtype).toBeUndefined();
      expect(r.caveat).toContain("the checkpoint's kv_cache_quant_algo");
    }
    // The caveat names the weight scaling the model uses for the row.
    const l70 = WIDER_HELD_OUT.find((r) => r.model === 'nvidia/Llama-3.3-70B-Instruct-FP8')!;
    expect(l70.caveat).toContain('per-tensor FP8 weights');
    const q235 = WIDER_HELD_OUT.find((r) => r.model === 'nvidia/Qwen3-235B-A22B-FP8')!;
    expect(q235.caveat).toContain('was not read here');
  });
});
