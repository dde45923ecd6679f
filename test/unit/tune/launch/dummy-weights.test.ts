// --dummy-weights: which launches load dummy weights, the argv they get through the one launch
// path (prepareLaunch), the dry-run plan showing that same argv, and the serving command without it.
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Variant } from '../../../../src/core/variant.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { clientIgnoresEos, launchWeights, servingArgv } from '../../../../src/tune/launch/dummy-weights.js';
import { launchContext, prepareLaunch } from '../../../../src/tune/launch/launch.js';
import { planSession } from '../../../../src/tune/session/session.js';
import { modelledStartupS } from '../../../../src/tune/plan/deps.js';
import { planText } from '../../../../src/cli/text-plan.js';
import { parseTuiFlags } from '../../../../src/cli/auto-args.js';
import { configFromChoices } from '../../../../src/tui/services/form.js';
import { form } from '../../../helpers/tui/fixtures.js';

const flags = (...more: string[]) => parseAutoArgs(['--model', 'Qwen/Qwen3-14B', ...more]).config!;
const on = flags('--dummy-weights');
const off = flags();
const dense = (engine: Variant['engine'], knobs: Variant['knobs'] = {}): Variant => ({
  id: engine,
  engine,
  model: 'Qwen/Qwen3-14B',
  knobs,
});
const runDir = join(tmpdir(), 'servelab-dummy-test');
const config0 = (more: string[]) => parseAutoArgs(['--sim', '--engines', 'vllm,sglang', '--speed', '5', ...more]).config!;
// Planning every stage for Qwen3-14B on the simulated host takes seconds; the two tests that need
// the --dummy-weights plan of that one config share one planSession call.
const qwenDummy = config0(['--model', 'Qwen/Qwen3-14B', '--dummy-weights']);
let qwenDummyPlan: ReturnType<typeof planSession> | undefined;
const planQwenDummy = () => (qwenDummyPlan ??= planSession(qwenDummy));

/** The argv a launch of `variant` in `stage` gets, deciding as the runner does (server-start.ts). */
function launched(config: typeof on, variant: Variant, stage: string): string[] {
  const dummyWeights = launchWeights(config, variant, stage)?.kind === 'dummy';
  return prepareLaunch(variant, launchContext(config, { port: 8200, runDir }), { dummyWeights }).spec.argv;
}

describe('--dummy-weights flag', () => {
  it('is off unless given, and stored in the session config when given', () => {
    expect(off.dummyWeights).toBeUndefined();
    expect(on.dummyWeights).toBe(true);
  });

  it('the workbench start command takes it too (the same flags as --auto)', () => {
    const choices = { host: { simulated: true, gpuType: 'H100', gpuCount: 1 }, form };
    expect(configFromChoices(parseTuiFlags(['--dummy-weights']), choices).dummyWeights).toBe(true);
    expect(configFromChoices(parseTuiFlags([]), choices).dummyWeights).toBeUndefined();
  });
});

describe('launchWeights and the argv of each engine', () => {
  it('vLLM and SGLang tuning launches end with --load-format dummy only with the flag', () => {
    expect(launched(on, dense('vllm'), 'engine').slice(-2)).toEqual(['--load-format', 'dummy']);
    expect(launched(on, dense('sglang'), 'batching').slice(-2)).toEqual(['--load-format', 'dummy']);
    expect(launched(off, dense('vllm'), 'engine')).not.toContain('--load-format');
    expect(launched(off, dense('sglang'), 'engine')).not.toContain('--load-format');
    expect(launchWeights(off, dense('vllm'), 'engine')).toBeUndefined();
  });

  it('keeps the real weights for speculative decoding, MoE and the validation, and says why', () => {
    const spec = dense('sglang', { speculative: { method: 'ngram', numSteps: 3, draftTokens: 4 } });
    expect(launchWeights(on, spec, 'speculative')).toEqual({ kind: 'real', why: expect.stringMatching(/acceptance/) });
    expect(launched(on, spec, 'speculative')).not.toContain('--load-format');
    const moe: Variant = { id: 'vllm-tp8', engine: 'vllm', model: 'zai-org/GLM-4.6', knobs: { tp: 8 } };
    expect(launchWeights(on, moe, 'engine')).toEqual({ kind: 'real', why: expect.stringMatching(/^MoE/) });
    expect(launched(on, moe, 'engine')).not.toContain('--load-format');
    expect(launchWeights(on, dense('vllm'), 'validation')).toEqual({ kind: 'real', why: expect.stringMatching(/final validation/) });
    expect(launched(on, dense('vllm'), 'validation')).not.toContain('--load-format');
    // TensorRT-LLM takes them in its YAML, not as a flag (dummy-weights-trtllm.test.ts).
    expect(launchWeights(on, dense('trtllm'), 'engine')).toEqual({
      kind: 'dummy',
      why: expect.stringMatching(/TensorRT-LLM: load_format: dummy/),
    });
    expect(launched(on, dense('trtllm'), 'engine')).not.toContain('--load-format');
  });

  it('keeps the real weights of a model whose config is unknown (it may be MoE)', () => {
    const unknown: Variant = { id: 'vllm', engine: 'vllm', model: 'someone/unknown-model', knobs: {} };
    expect(launchWeights(on, unknown, 'engine')).toEqual({ kind: 'real', why: expect.stringMatching(/may be MoE/) });
  });

  it('puts the flags inside the docker command, after the image, like every engine argument', () => {
    const docker = flags('--dummy-weights', '--runtime', 'docker', '--image', 'vllm/vllm-openai:v0.11.0');
    const argv = launched(docker, dense('vllm'), 'engine');
    expect(argv[0]).toBe('docker');
    expect(argv.indexOf('--load-format')).toBeGreaterThan(argv.indexOf('vllm/vllm-openai:v0.11.0'));
    expect(argv.slice(-2)).toEqual(['--load-format', 'dummy']);
  });

  it('sends ignore_eos from every tuning client of a session that uses dummy weights, never from validation or otherwise', () => {
    expect(clientIgnoresEos(true, 'engine')).toBe(true);
    expect(clientIgnoresEos(true, 'speculative')).toBe(true);
    expect(clientIgnoresEos(true, 'validation')).toBe(false);
    expect(clientIgnoresEos(false, 'engine')).toBe(false);
  });
});

describe('one launch path under --dummy-weights', () => {
  it('the dry-run plan shows the argv the runner launches, flags included, on the simulated host too', async () => {
    const config = qwenDummy;
    const { plan } = await planQwenDummy();
    const planned = plan.stages.flatMap((s) => s.variants).filter((v) => v.status === 'planned');
    expect(planned.some((v) => v.weights?.kind === 'dummy')).toBe(true);
    for (const pv of planned) {
      const again = prepareLaunch(
        pv.variant,
        launchContext(config, { port: config.portStart, runDir: join(config.runsDir, 'RUN', 'logs', pv.variant.id) }),
        {
          dummyWeights: launchWeights(config, pv.variant, pv.stage)?.kind === 'dummy',
        },
      );
      expect(pv.argv).toEqual(again.spec.argv);
      expect(pv.engineArgv).toEqual(again.spec.engineArgv);
      expect(pv.engineArgv!.includes('--load-format')).toBe(pv.weights?.kind === 'dummy');
      // sim-serve gets the engine's own flag, before its instant-load flag.
      if (pv.weights?.kind === 'dummy') expect(pv.argv!.slice(-4)).toEqual(['--load-format', 'dummy', '--load-time', '0']);
    }
    // The dry-run text says which stages use dummy weights, and that validation does not.
    const text = planText(plan, config);
    expect(text).toMatch(/Stage 1: engine[^\n]*\n  weights: dummy \(--load-format dummy, client sends ignore_eos\) for all 2 variant\(s\)/);
    expect(text).toMatch(/Stage 7: speculative[^]*?weights: real for all \d+ variant\(s\): speculative decoding/);
    expect(text).toMatch(/Validation: [^\n]*\n  weights: real \(the final validation always runs the real weights/);
    expect(planText((await planSession(flags('--sim', '--engines', 'vllm', '--speed', '5'))).plan, off)).not.toMatch(/weights:/);
  });

  it('decides once per session: a dense model uses them; for an MoE model the flag changes nothing, and the plan says why', async () => {
    expect((await planQwenDummy()).plan.dummyWeights).toEqual({ used: true });
    const moe = config0(['--model', 'deepseek-ai/DeepSeek-R1-0528', '--gpu', 'H200', '--gpus', '8', '--dummy-weights']);
    const { plan } = await planSession(moe);
    expect(plan.dummyWeights).toEqual({ used: false, why: expect.stringMatching(/^MoE: random router weights/) });
    // So its tuning clients send no ignore_eos (the runner asks clientIgnoresEos with this decision).
    expect(clientIgnoresEos(plan.dummyWeights!.used, 'engine')).toBe(false);
    const text = planText(plan, moe);
    expect(text.match(/^note: --dummy-weights has no effect for this model: .*$/gm)).toEqual([
      expect.stringMatching(
        /\(MoE: random router weights.*\), so benchmarks do not send ignore_eos and validation reuses the tuning measurements\.$/,
      ),
    ]);
    expect(text).not.toMatch(/final validation always runs the real weights/);
    // Without the flag there is no decision and no line.
    expect(
      (await planSession(config0(['--model', 'deepseek-ai/DeepSeek-R1-0528', '--gpu', 'H200', '--gpus', '8']))).plan.dummyWeights,
    ).toBeUndefined();
  });
});

describe('serving command, modelled start-up', () => {
  it('the serving command drops the dummy flags of a dummy measurement only', () => {
    const argv = ['vllm', 'serve', 'Qwen/Qwen3-14B', '--load-format', 'dummy'];
    expect(servingArgv(argv, 'vllm', { kind: 'dummy', why: 'x' })).toEqual(['vllm', 'serve', 'Qwen/Qwen3-14B']);
    expect(servingArgv(argv, 'vllm', { kind: 'real', why: 'x' })).toEqual(argv);
    expect(servingArgv(argv, 'vllm', undefined)).toEqual(argv);
  });

  it('a dummy launch skips the weight read in the modelled start-up', () => {
    const sim = { gpu: 'H100', gpus: 1 };
    const real = modelledStartupS(dense('vllm'), sim)!;
    const dummy = modelledStartupS(dense('vllm'), sim, { dummyWeights: true })!;
    // Qwen3-14B BF16: about 29.5 GB of weights at the model's 2 GB/s.
    expect(real - dummy).toBeGreaterThan(10);
    expect(dummy).toBeGreaterThan(0);
  });
});
