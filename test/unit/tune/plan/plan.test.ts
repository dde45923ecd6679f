import { describe, expect, it } from 'vitest';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { getModel } from '../../../../src/model/models.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import type { SessionConfig } from '../../../../src/tune/config/config.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan, expandStage, runnable } from '../../../../src/tune/plan/plan.js';
import type { Plan } from '../../../../src/tune/plan/types.js';
import { engineStageTp } from '../../../../src/tune/plan/tp.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';

function configFor(args: string[]): SessionConfig {
  return parseAutoArgs(['--auto', '--sim', '--run-dir', '/tmp/servelab-plan-test', ...args]).config!;
}

function plan(args: string[]): { plan: Plan; config: SessionConfig } {
  const config = configFor(args);
  const host = simulatedHost(config.sim!.gpu, config.sim!.gpus);
  return { plan: buildPlan(config, planHost(host), realPlanDeps(config, host, config.runDir!)), config };
}

const stage = (p: Plan, name: string) => p.stages.find((s) => s.name === name)!;

describe('buildPlan on 1 x H100 with Qwen3-14B', () => {
  const { plan: p } = plan(['--gpu', 'H100', '--gpus', '1', '--model', 'Qwen/Qwen3-14B', '--scale', '0.1']);

  it("keeps the studies' stage order and skips parallelism on one GPU with the reason", () => {
    expect(p.stages.map((s) => s.name)).toEqual([
      'engine',
      'quantization',
      'parallelism',
      'batching',
      'attention',
      'compile',
      'speculative',
    ]);
    expect(stage(p, 'parallelism').skipped).toMatch(/single GPU/);
    expect(p.caveats[0]).toMatch(/greedy.*local optimum/);
  });

  it('gives no FP8 accuracy figure it has no source for', () => {
    const fp8 = p.caveats.find((c) => c.includes('FP8'))!;
    expect(fp8).toMatch(/not measured by servelab; check it on your own evaluation/);
    expect(fp8).not.toMatch(/\d+% accuracy/);
  });

  it('engine stage: every engine on defaults, with exact commands and predictions', () => {
    const e = stage(p, 'engine').variants;
    expect(e.map((v) => v.variant.id)).toEqual(['vllm', 'sglang', 'trtllm']);
    expect(e[0]!.engineArgv).toEqual(['vllm', 'serve', 'Qwen/Qwen3-14B', '--host', '127.0.0.1', '--port', '8100']);
    expect(e[1]!.engineArgv!.slice(0, 5)).toEqual(['python3', '-m', 'sglang.launch_server', '--model-path', 'Qwen/Qwen3-14B']);
    // On the simulated host the launched argv is sim-serve imitating the engine.
    expect(e[1]!.argv).toEqual(expect.arrayContaining(['sim-serve', '--engine', 'sglang']));
    for (const v of e) {
      expect(v.status).toBe('planned');
      expect(v.predicted!.totalTokPerS).toBeGreaterThan(0);
    }
  });

  it('quantization stage offers the FP8 checkpoint, online FP8 and an FP8 KV cache, each one change', () => {
    const winner = makeVariant('sglang', 'Qwen/Qwen3-14B', {}, { model: 'Qwen/Qwen3-14B' }, 'Qwen/Qwen3-14B-FP8');
    const config = configFor(['--gpu', 'H100', '--model', 'Qwen/Qwen3-14B']);
    const host = simulatedHost('H100', 1);
    const q = expandStage('quantization', winner, {
      config,
      host: planHost(host),
      deps: realPlanDeps(config, host, '/tmp/x'),
      fp8Checkpoint: 'Qwen/Qwen3-14B-FP8',
    });
    expect(q.variants.map((v) => v.change)).toEqual(['checkpoint Qwen/Qwen3-14B-FP8', 'quant=fp8 (online)', 'kv=fp8']);
    expect(q.variants.map((v) => v.variant.id)).toEqual(['sglang-fp8ckpt', 'sglang-quant-fp8', 'sglang-kv-fp8']);
    expect(q.variants[0]!.engineArgv).toContain('Qwen/Qwen3-14B-FP8');
  });

  it('later stages are built from the carried winner and differ in one kind of knob', () => {
    const config = configFor(['--gpu', 'H100', '--model', 'Qwen/Qwen3-14B']);
    const host = simulatedHost('H100', 1);
    const ctx = { config, host: planHost(host), deps: realPlanDeps(config, host, '/tmp/x'), fp8Checkpoint: 'Qwen/Qwen3-14B-FP8' };
    const carried = makeVariant('sglang', 'Qwen/Qwen3-14B-FP8', {}, config, 'Qwen/Qwen3-14B-FP8');
    const b = expandStage('batching', carried, ctx).variants;
    expect(b.map((v) => v.change)).toEqual(['mbt=4096', 'mbt=8192', 'mbt=16384', 'seqs=512', 'seqs=1024']);
    for (const v of b) {
      expect(v.variant.model).toBe('Qwen/Qwen3-14B-FP8');
      expect(Object.keys(v.variant.knobs)).toHaveLength(1);
    }
    const a = expandStage('attention', carried, ctx).variants;
    expect(a.map((v) => v.variant.knobs.attentionBackend)).toEqual(['fa3', 'flashinfer', 'triton']);
    expect(a[0]!.engineArgv).toEqual(expect.arrayContaining(['--attention-backend', 'fa3']));
    // vLLM compiles by default: its compile-stage candidate is compile off, not a no-op.
    const vllmCarried = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, config);
    const compile = expandStage('compile', vllmCarried, ctx).variants;
    expect(compile.map((v) => v.change)).toEqual(['torch.compile off', 'CUDA graphs off (eager)']);
    // Every candidate has its own id, never the carried winner's (the journal keys results by id).
    expect(compile.map((v) => v.variant.id)).toEqual(['vllm-no-compile', 'vllm-eager']);
  });

  it('--stages sets the order (engine first), --drop removes candidates with the reason', () => {
    const { plan: q } = plan([
      '--gpu',
      'H100',
      '--model',
      'Qwen/Qwen3-14B',
      '--stages',
      'attention,quantization',
      '--drop',
      'attn=triton',
      '--engines',
      'sglang,vllm',
    ]);
    expect(q.stages.map((s) => s.name)).toEqual(['engine', 'attention', 'quantization']);
    expect(stage(q, 'engine').variants.map((v) => v.variant.engine)).toEqual(['sglang']);
    const dropped = stage(q, 'attention').variants.find((v) => v.change === 'attn=triton')!;
    expect(dropped.status).toBe('dropped');
    expect(dropped.reason!.reason).toMatch(/--drop/);
  });

  it('--extra-args reach every variant of the engine they name, and change its id', () => {
    const { plan: q } = plan([
      '--gpu',
      'H100',
      '--model',
      'Qwen/Qwen3-14B',
      '--stages',
      'engine',
      '--extra-args',
      'sglang:--log-level warning',
    ]);
    const [vllm, sglang] = stage(q, 'engine').variants;
    expect(vllm!.engineArgv).not.toContain('--log-level');
    expect(sglang!.engineArgv!.slice(-2)).toEqual(['--log-level', 'warning']);
    expect(sglang!.variant.id).toMatch(/^sglang-x[0-9a-f]{8}$/);
  });
});

describe('buildPlan on 8 x A100 with GLM-4.6', () => {
  const { plan: p } = plan(['--gpu', 'A100', '--gpus', '8', '--model', 'zai-org/GLM-4.6', '--scale', '0.1']);

  it('serves the FP8 checkpoint because BF16 does not fit, and says so', () => {
    expect(p.checkpoint).toBe('zai-org/GLM-4.6-FP8');
    expect(p.notes.join('\n')).toMatch(/does not fit 8 x A100/);
  });

  it('prunes SGLang FP8 as unsupported on this GPU before any launch; vLLM runs at TP 8', () => {
    const e = stage(p, 'engine').variants;
    const sglang = e.find((v) => v.variant.engine === 'sglang')!;
    expect(sglang.status).toBe('pruned');
    expect(sglang.reason!.kind).toBe('unsupported');
    expect(sglang.reason!.reason).toMatch(/not supported on this GPU/);
    const vllm = e.find((v) => v.variant.engine === 'vllm')!;
    expect(vllm.status).toBe('planned');
    expect(vllm.variant.knobs.tp).toBe(8);
    expect(vllm.warnings.join(' ')).toMatch(/Marlin/);
  });

  it('parallelism stage: TP+EP for the MoE model; DP replicas that do not fit are pruned with the memory reason', () => {
    const par = stage(p, 'parallelism');
    expect(par.skipped).toBeUndefined();
    expect(par.variants.map((v) => v.change)).toContain('tp8+ep8');
    const replica = par.variants.find((v) => v.change.includes('replicas'))!;
    expect(replica.status).toBe('pruned');
    expect(replica.reason!.kind).toBe('oom');
  });
});

describe('engineStageTp', () => {
  it('uses every GPU when the heads allow it, else the largest divisor that does', () => {
    const qwen = getModel('Qwen/Qwen3-14B')!; // 40 heads, 8 KV heads
    expect(engineStageTp(qwen, 1)).toBe(1);
    expect(engineStageTp(qwen, 8)).toBe(8);
    expect(engineStageTp({ ...qwen, numHeads: 40, numKvHeads: 8 }, 6)).toBe(2);
    expect(engineStageTp(undefined, 4)).toBe(4);
  });
});

describe('runnable', () => {
  it('lists only the variants that will launch', () => {
    const { plan: p } = plan(['--gpu', 'A100', '--gpus', '8', '--model', 'zai-org/GLM-4.6', '--stages', 'engine']);
    expect(runnable(stage(p, 'engine')).map((v) => v.variant.engine)).toEqual(['vllm']);
  });
});

describe('parallelism for a dense model on 8 GPUs', () => {
  it('offers DP replicas down to one GPU each; the dense model gets no EP or DP-attention', () => {
    const config = configFor(['--gpu', 'H100', '--gpus', '8', '--model', 'Qwen/Qwen3-14B']);
    const host = simulatedHost('H100', 8);
    const ctx = { config, host: planHost(host), deps: realPlanDeps(config, host, '/tmp/x') };
    const carried = makeVariant('vllm', 'Qwen/Qwen3-14B', { tp: 8 }, config);
    const par = expandStage('parallelism', carried, ctx).variants;
    expect(par.map((v) => v.change)).toEqual(['tp4 x dp2 replicas', 'tp2 x dp4 replicas', 'tp1 x dp8 replicas']);
    expect(par.map((v) => v.status)).toEqual(['planned', 'planned', 'planned']);
    expect(par[2]!.engineArgv).toEqual(expect.arrayContaining(['--data-parallel-size', '8']));
    expect(par[2]!.engineArgv).not.toContain('--tensor-parallel-size');
  });
});
