// --engine-env: variables every variant starts with (all engines, or one), carried from the
// engine stage on and shown in its command; a malformed item is a one-line error that says how to write it.
import { describe, expect, it } from 'vitest';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { UserError } from '../../../../src/core/errors.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan } from '../../../../src/tune/plan/plan.js';

const parse = (...more: string[]) =>
  parseAutoArgs(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B', '--run-dir', '/tmp/servelab-engine-env-test', ...more]).config!;

describe('--engine-env', () => {
  it('every engine, or one', () => {
    const c = parse('--engine-env', 'HSA_NO_SCRATCH_RECLAIM=1', '--engine-env', 'vllm:VLLM_ROCM_USE_AITER=1', '--engine-env', 'X=a=b');
    expect(c.engineEnv).toEqual({ '*': { HSA_NO_SCRATCH_RECLAIM: '1', X: 'a=b' }, vllm: { VLLM_ROCM_USE_AITER: '1' } });
    expect(parse().engineEnv).toBeUndefined();
  });

  it('a malformed item says how to write it', () => {
    for (const bad of ['NOVALUE', '1X=2', 'nosuch:X=1']) {
      let err: unknown;
      try {
        parse('--engine-env', bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(/^--engine-env '.*': write NAME=VALUE, or ENGINE:NAME=VALUE for one of vllm, sglang/);
    }
  });

  it('the engine stage starts with it and later stages carry it', () => {
    const config = parse(
      '--engines',
      'vllm,sglang',
      '--stages',
      'engine,batching',
      '--engine-env',
      'HSA_NO_SCRATCH_RECLAIM=1',
      '--engine-env',
      'vllm:VLLM_ROCM_USE_AITER=1',
    );
    const host = simulatedHost(config.sim!.gpu, config.sim!.gpus);
    const p = buildPlan(config, planHost(host), realPlanDeps(config, host, config.runDir!));
    const byEngine = Object.fromEntries(p.stages[0]!.variants.map((v) => [v.variant.engine, v]));
    expect(byEngine.vllm!.variant.knobs.env).toEqual({ HSA_NO_SCRATCH_RECLAIM: '1', VLLM_ROCM_USE_AITER: '1' });
    expect(byEngine.sglang!.variant.knobs.env).toEqual({ HSA_NO_SCRATCH_RECLAIM: '1' });
    expect(byEngine.sglang!.env).toMatchObject({ HSA_NO_SCRATCH_RECLAIM: '1' });
    const later = p.stages.find((s) => s.name === 'batching')!.variants[0]!;
    expect(later.variant.knobs.env).toEqual(
      p.stages[0]!.variants.find((v) => v.variant.engine === later.variant.engine)!.variant.knobs.env,
    );
  });
});
