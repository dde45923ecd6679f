// Replica-then-host planning on the built-in models and GPUs (src/model's memory estimate).
import { describe, expect, it } from 'vitest';
import { findGpu } from '../../src/model/gpus.js';
import { getModel } from '../../src/model/models.js';
import { layoutFlags, replicaPlan, smallestFit } from '../../src/tune/replicas.js';

const qwen = getModel('Qwen/Qwen3-14B')!;
const r1 = getModel('deepseek-ai/DeepSeek-R1-0528')!;
const h100 = findGpu('H100')!;
const h200 = findGpu('H200')!;

describe('replicaPlan', () => {
  it('Qwen3-14B on 8xH100: tune one replica on 1 GPU, compare 8x1, 4x2, 2x4, 1x8 in the parallelism stage', () => {
    const p = replicaPlan('vllm', h100, 8, qwen, {})!;
    expect(p.replicaGpus).toBe(1);
    expect(p.stageGpus).toEqual({ tuning: 1, parallelism: 8, validation: 8 });
    expect(p.layouts.map((l) => [l.replicas, l.tp])).toEqual([[8, 1], [4, 2], [2, 4], [1, 8]]);
    expect(p.layouts[0]!.flags).toEqual(['--tensor-parallel-size', '1', '--data-parallel-size', '8']);
    expect(p.layouts[0]!.knobs).toEqual({ tp: 1, dp: 8 });
    expect(p.why).toMatch(/one replica on 1 of 8 GPUs/);
  });

  it('DeepSeek-R1 on 8xH200 needs the whole host in every stage', () => {
    const p = replicaPlan('sglang', h200, 8, r1, {})!;
    expect(p.replicaGpus).toBe(8);
    expect(p.layouts.map((l) => [l.replicas, l.tp])).toEqual([[1, 8]]);
    expect(p.why).toMatch(/needs the whole host/);
  });

  it('a model that does not fit the host gives null', () => {
    expect(smallestFit('vllm', h100, 1, r1, {})).toBeNull();
    expect(replicaPlan('vllm', h100, 1, r1, {})).toBeNull();
  });
});

describe('layoutFlags', () => {
  it('vLLM --data-parallel-size, SGLang --dp-size, TensorRT-LLM has no DP flag', () => {
    expect(layoutFlags('sglang', 2, 4).flags).toEqual(['--tp-size', '2', '--dp-size', '4']);
    expect(layoutFlags('vllm', 8, 1).flags).toEqual(['--tensor-parallel-size', '8']);
    expect(layoutFlags('trtllm', 2, 4)).toMatchObject({ available: false });
    expect(layoutFlags('trtllm', 8, 1)).toMatchObject({ available: true });
  });
});
