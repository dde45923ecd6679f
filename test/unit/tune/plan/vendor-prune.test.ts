// TensorRT-LLM on an AMD host: the plan prunes its variants with the one-line reason and its source,
// read from the adapter's gpuVendors; on the same model and an NVIDIA host nothing is pruned for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { availableEngines } from '../../../../src/tune/session/open.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan } from '../../../../src/tune/plan/plan.js';
import { vendorRefusal } from '../../../../src/engines/vendor-support.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-vendor-prune-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function plan(gpu: string, extra: string[] = ['--stages', 'engine']) {
  const runDir = join(dir, `${gpu}-${extra.length}`);
  const { config } = parseAutoArgs(['--auto', '--sim', '--gpu', gpu, '--model', 'Qwen/Qwen3-14B', '--run-dir', runDir, ...extra]);
  const host = simulatedHost(gpu, 1);
  const { versions } = await availableEngines(config!, host, () => {});
  return buildPlan(config!, planHost(host), realPlanDeps(config!, host, runDir, versions));
}

describe('engines on a GPU vendor they do not run on', () => {
  it('the simulated host of an AMD part is an AMD plan host', () => {
    expect(planHost(simulatedHost('MI300X', 8)).vendor).toBe('amd');
    expect(planHost(simulatedHost('H100', 1)).vendor).toBeUndefined();
  });

  it('MI355X: TensorRT-LLM is pruned with its reason and source; vLLM and SGLang are planned', async () => {
    const p = await plan('MI355X');
    const engine = p.stages.find((s) => s.name === 'engine')!.variants;
    const trt = engine.find((v) => v.variant.engine === 'trtllm')!;
    expect(trt.status).toBe('pruned');
    expect(trt.reason?.kind).toBe('unsupported');
    expect(trt.reason?.reason).toBe(
      'TensorRT-LLM does not run on AMD GPUs: it is CUDA-only (nvidia.github.io/TensorRT-LLM/supported-hardware.html)',
    );
    expect(engine.filter((v) => v.variant.engine !== 'trtllm').map((v) => v.status)).toEqual(['planned', 'planned']);
  });

  it('H100: TensorRT-LLM is planned', async () => {
    const p = await plan('H100');
    expect(p.stages[0]!.variants.find((v) => v.variant.engine === 'trtllm')!.status).toBe('planned');
  });

  it('an AMD host is not Hopper: vLLM is not offered FlashAttention-3 or any NVIDIA kernel', async () => {
    const p = await plan('MI300X', ['--engines', 'vllm', '--stages', 'engine,attention']);
    const att = p.stages.find((s) => s.name === 'attention')!;
    // On AMD the attention stage tries the engine's ROCm backends only (its ROCm knob rows); the
    // simulated host's default vLLM table (0.11) has none, the AITER switches choose there.
    expect(att.variants).toEqual([]);
    expect(att.skipped).toBe('vllm offers no attention backend to choose');
  });

  it('the refusal is the adapter data: absent vendor means NVIDIA, engines without gpuVendors run anywhere', () => {
    expect(vendorRefusal('trtllm', undefined)).toBeUndefined();
    expect(vendorRefusal('trtllm', 'nvidia')).toBeUndefined();
    expect(vendorRefusal('trtllm', 'amd')).toMatch(/^TensorRT-LLM does not run on AMD GPUs/);
    for (const e of ['vllm', 'sglang', 'llamacpp']) expect(vendorRefusal(e, 'amd')).toBeUndefined();
  });
});
