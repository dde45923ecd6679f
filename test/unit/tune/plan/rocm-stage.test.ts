// The ROCm stage and the env knob in planning: on an AMD host the stage follows the attention
// stage and its variants differ from the carried winner by their environment alone (the command
// shown carries it); elsewhere a named rocm stage is skipped with the reason. The attention stage
// on an AMD host tries ROCm's backends, not the NVIDIA kernels.
import { describe, expect, it } from 'vitest';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { formatCommand } from '../../../../src/core/shell-quote.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import type { SessionConfig } from '../../../../src/tune/config/config.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan, expandStage } from '../../../../src/tune/plan/plan.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';
import { withRocmStage } from '../../../../src/tune/plan/rocm-stage.js';
import type { Plan } from '../../../../src/tune/plan/types.js';
import type { PlanHost } from '../../../../src/engines/kit/plan-types.js';

function configFor(args: string[]): SessionConfig {
  return parseAutoArgs(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B', '--run-dir', '/tmp/servelab-rocm-test', ...args]).config!;
}

/** The simulated H100 host, told it is AMD (the host model sets vendor from detection or the catalogue; set here directly). */
function plan(config: SessionConfig, vendor?: PlanHost['vendor'], gpuName?: string): Plan {
  const host = simulatedHost(config.sim!.gpu, config.sim!.gpus);
  const ph: PlanHost = { ...planHost(host), ...(vendor ? { vendor } : {}), ...(gpuName ? { gpuName } : {}) };
  return buildPlan(config, ph, realPlanDeps(config, host, config.runDir!));
}

const stage = (p: Plan, name: string) => p.stages.find((s) => s.name === name);

describe('the ROCm stage', () => {
  it('joins the stages right after attention on an AMD host only', () => {
    expect(withRocmStage(['engine', 'attention', 'compile'], { vendor: 'amd' })).toEqual(['engine', 'attention', 'rocm', 'compile']);
    expect(withRocmStage(['engine', 'attention', 'compile'], {})).toEqual(['engine', 'attention', 'compile']);
    expect(withRocmStage(['engine', 'batching'], { vendor: 'amd' })).toEqual(['engine', 'batching']);
  });

  it('is skipped with the reason on an NVIDIA host when named', () => {
    const p = plan(configFor(['--engines', 'vllm', '--stages', 'engine,rocm']));
    expect(stage(p, 'rocm')?.skipped).toMatch(/not an AMD GPU host .*ROCm/);
  });

  it("plans vLLM's AITER switches as variants that differ by env alone, and the command carries them", () => {
    const p = plan(configFor(['--engines', 'vllm', '--stages', 'engine,attention']), 'amd', 'MI300X');
    const rocm = stage(p, 'rocm')!;
    expect(rocm.skipped).toBeUndefined();
    const changes = rocm.variants.map((v) => v.change);
    expect(changes).toContain('VLLM_ROCM_USE_AITER=1');
    expect(changes).toContain('VLLM_ROCM_USE_AITER=1 VLLM_ROCM_USE_AITER_MHA=0');
    expect(changes).toContain('HSA_NO_SCRATCH_RECLAIM=1');
    // One GPU: no quick-reduce, and the stage says why.
    expect(changes.some((c) => c.includes('QUICK_REDUCE'))).toBe(false);
    expect(rocm.notes.join('\n')).toMatch(/quick-reduce is not tried/);
    expect(rocm.notes.join('\n')).toMatch(/MI300X \(gfx942\).*float8_e4m3fnuz/);
    const base = stage(p, 'engine')!.variants[0]!;
    const aiter = rocm.variants.find((v) => v.change === 'VLLM_ROCM_USE_AITER=1')!;
    // The same argv, another environment: distinct ids, distinct commands.
    expect(aiter.engineArgv).toEqual(base.engineArgv);
    expect(aiter.variant.id).not.toBe(base.variant.id);
    expect(aiter.variant.knobs.env).toEqual({ VLLM_ROCM_USE_AITER: '1' });
    expect(aiter.env).toMatchObject({ VLLM_ROCM_USE_AITER: '1' });
    expect(formatCommand(aiter.engineArgv!, aiter.env ?? {})).toMatch(/^VLLM_ROCM_USE_AITER=1 vllm serve /);
  });

  it('tries quick-reduce when the winner spans GPUs, keeping the env it carries', () => {
    const config = configFor(['--engines', 'vllm', '--gpus', '2']);
    const host = simulatedHost(config.sim!.gpu, config.sim!.gpus);
    const ctx = {
      config,
      host: { ...planHost(host), vendor: 'amd' as const, gpuName: 'MI300X' },
      deps: realPlanDeps(config, host, config.runDir!),
    };
    const carried = makeVariant('vllm', 'Qwen/Qwen3-14B', { tp: 2, env: { VLLM_ROCM_USE_AITER: '1' } }, config);
    const x = expandStage('rocm', carried, ctx);
    const q = x.variants.find((v) => v.change === 'VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=INT4')!;
    expect(q.variant.knobs.env).toEqual({ VLLM_ROCM_USE_AITER: '1', VLLM_ROCM_QUICK_REDUCE_QUANTIZATION: 'INT4' });
    expect(x.variants.map((v) => v.change)).toContain('VLLM_ROCM_QUICK_REDUCE_QUANTIZATION=INT8');
    // AITER is on already: no candidate sets it again alone.
    expect(x.variants.map((v) => v.change)).not.toContain('VLLM_ROCM_USE_AITER=1');
  });

  it("plans SGLang's AITER switch", () => {
    const p = plan(configFor(['--engines', 'sglang', '--stages', 'engine,attention']), 'amd', 'MI355X');
    const rocm = stage(p, 'rocm')!;
    expect(rocm.variants.map((v) => v.change)).toEqual(['SGLANG_USE_AITER=1', 'HSA_NO_SCRATCH_RECLAIM=1']);
    expect(rocm.notes.join('\n')).toMatch(/MI355X \(gfx950\).*float8_e4m3fn \(OCP\)/);
  });

  it("the attention stage on an AMD host tries ROCm's backends", () => {
    const sg = plan(configFor(['--engines', 'sglang', '--stages', 'engine,attention']), 'amd', 'MI300X');
    expect(stage(sg, 'attention')!.variants.map((v) => v.change)).toEqual(['attn=aiter', 'attn=triton']);
    const nv = plan(configFor(['--engines', 'sglang', '--stages', 'engine,attention']));
    expect(stage(nv, 'attention')!.variants.map((v) => v.change)).not.toContain('attn=aiter');
  });
});
