// --dummy-weights for TensorRT-LLM: `load_format: dummy` in the --extra_llm_api_options YAML the
// adapter writes (no trtllm-serve flag), through the one launch path (prepareLaunch), under the
// same rules as vLLM/SGLang; the simulated server reads the same file; the serving command and
// the profile's YAML load the real weights.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import type { Variant } from '../../../../src/core/variant.js';
import { engineFiles } from '../../../../src/profiles/store/store.js';
import { parseSimArgs } from '../../../../src/cli/sim-serve-args.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { launchWeights, servingArgv } from '../../../../src/tune/launch/dummy-weights.js';
import { launchContext, prepareLaunch } from '../../../../src/tune/launch/launch.js';
import { writeServingFiles } from '../../../../src/tune/session/save-outcome.js';
import { planSession } from '../../../../src/tune/session/session.js';
import { planText } from '../../../../src/cli/text-plan.js';
import { reapAll, spawnSim } from '../../../helpers/sim/helpers.js';

const runDir = join(tmpdir(), `servelab-trt-dummy-${process.pid}`);
afterAll(() => {
  reapAll();
  rmSync(runDir, { recursive: true, force: true });
});

const config = (...more: string[]) => parseAutoArgs(['--model', 'Qwen/Qwen3-14B', ...more]).config!;
const trt = (knobs: Variant['knobs'] = {}, model = 'Qwen/Qwen3-14B'): Variant => ({ id: 'trtllm', engine: 'trtllm', model, knobs });

/** The launch a stage gets, decided as the runner decides it (server-start.ts, tune/run/slurm/start.ts). */
function launch(cfg: ReturnType<typeof config>, v: Variant, stage: string) {
  const dummyWeights = launchWeights(cfg, v, stage)?.kind === 'dummy';
  return prepareLaunch(v, launchContext(cfg, { port: 8300, runDir: join(runDir, v.id, stage) }), { dummyWeights }).spec;
}
const yamlOf = (spec: ReturnType<typeof launch>) => YAML.parse(spec.files[0]!.content) as Record<string, unknown>;

describe('TensorRT-LLM dummy weights: the YAML of a tuning launch', () => {
  it('a dense tuning launch writes load_format: dummy and adds no flag', () => {
    const spec = launch(config('--dummy-weights'), trt(), 'engine');
    expect(launchWeights(config('--dummy-weights'), trt(), 'engine')).toEqual({
      kind: 'dummy',
      why: expect.stringContaining('load_format: dummy'),
    });
    expect(yamlOf(spec)).toMatchObject({ load_format: 'dummy', enable_iter_perf_stats: true });
    expect(spec.argv[0]).toBe('trtllm-serve');
    expect(spec.argv).toEqual(spec.engineArgv);
    expect(spec.argv).not.toContain('--load-format');
    // The file the command names is the file written.
    expect(spec.argv[spec.argv.indexOf('--extra_llm_api_options') + 1]).toBe(spec.files[0]!.path);
  });

  it('keeps the real weights without the flag, for speculative decoding, MoE and the validation', () => {
    const on = config('--dummy-weights');
    expect(yamlOf(launch(config(), trt(), 'engine'))).not.toHaveProperty('load_format');
    const spec = trt({ speculative: { method: 'eagle3', draftTokens: 3, draftModel: 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B' } });
    expect(launchWeights(on, spec, 'speculative')).toEqual({ kind: 'real', why: expect.stringMatching(/acceptance/) });
    expect(yamlOf(launch(on, spec, 'speculative'))).not.toHaveProperty('load_format');
    const moe = trt({ tp: 8 }, 'zai-org/GLM-4.6');
    expect(launchWeights(on, moe, 'engine')).toEqual({ kind: 'real', why: expect.stringMatching(/^MoE/) });
    expect(yamlOf(launch(on, moe, 'engine'))).not.toHaveProperty('load_format');
    expect(yamlOf(launch(on, trt(), 'validation'))).not.toHaveProperty('load_format');
  });

  it('every YAML key of the dummy launch is in both release lists, load_format: dummy among its choices', () => {
    const keys = Object.keys(yamlOf(launch(config('--dummy-weights'), trt(), 'engine')));
    for (const v of ['1.2.0rc1', '1.3.0rc27']) {
      const list = JSON.parse(readFileSync(join(import.meta.dirname, `../../../../src/engines/data/flags/trtllm-${v}.json`), 'utf8')) as {
        yaml: Record<string, { choices?: string[] }>;
      };
      for (const k of keys) expect(list.yaml[k], `${v} ${k}`).toBeDefined();
      expect(list.yaml.load_format!.choices).toContain('dummy');
    }
  });

  it('the serving command and the profile YAML load the real weights', () => {
    const spec = launch(config('--dummy-weights'), trt(), 'engine');
    expect(servingArgv(spec.engineArgv, 'trtllm', { kind: 'dummy', why: 'x' })).toEqual(spec.engineArgv);
    const files = engineFiles({ variant: trt(), engineArgv: spec.engineArgv });
    expect(files.map((f) => f.path)).toEqual([spec.files[0]!.path]);
    expect(YAML.parse(files[0]!.content)).not.toHaveProperty('load_format');
  });

  it('saving a winner measured on dummy weights rewrites the YAML its command names with the real weights', () => {
    const spec = launch(config('--dummy-weights'), trt(), 'engine');
    const file = spec.files[0]!;
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.content);
    const files = engineFiles({ variant: trt(), engineArgv: spec.engineArgv });
    writeServingFiles({ files }, { weights: { kind: 'real', why: 'x' } });
    expect(YAML.parse(readFileSync(file.path, 'utf8'))).toHaveProperty('load_format', 'dummy');
    writeServingFiles({ files }, { weights: { kind: 'dummy', why: 'x' } });
    expect(YAML.parse(readFileSync(file.path, 'utf8'))).not.toHaveProperty('load_format');
  });
});

describe('TensorRT-LLM dummy weights on the simulated host', () => {
  const sim = config('--sim', '--dummy-weights', '--speed', '5');

  it('sim-serve is given the YAML the engine would read, and takes load_format from it', () => {
    const spec = launch(sim, trt(), 'engine');
    const i = spec.argv.indexOf('--extra_llm_api_options');
    expect(spec.argv.slice(i, i + 2)).toEqual(['--extra_llm_api_options', spec.files[0]!.path]);
    expect(spec.engineArgv[0]).toBe('trtllm-serve');
    mkdirSync(dirname(spec.files[0]!.path), { recursive: true });
    writeFileSync(spec.files[0]!.path, spec.files[0]!.content);
    expect(parseSimArgs(spec.argv.slice(spec.argv.indexOf('sim-serve') + 1)).loadFormat).toBe('dummy');
    // A real-weight launch of the same variant does not hand the YAML over.
    expect(launch(sim, trt(), 'validation').argv).not.toContain('--extra_llm_api_options');
  });

  it('the dry-run plan shows the launched argv and says how TensorRT-LLM gets dummy weights', async () => {
    const cfg = parseAutoArgs([
      '--sim',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'trtllm',
      '--stages',
      'engine,batching',
      '--speed',
      '5',
      '--dummy-weights',
    ]).config!;
    const { plan } = await planSession(cfg);
    const planned = plan.stages.flatMap((s) => s.variants).filter((v) => v.status === 'planned');
    expect(planned.length).toBeGreaterThan(1);
    for (const pv of planned) {
      expect(pv.weights?.kind).toBe('dummy');
      const again = prepareLaunch(
        pv.variant,
        launchContext(cfg, { port: cfg.portStart, runDir: join(cfg.runsDir, 'RUN', 'logs', pv.variant.id) }),
        { dummyWeights: true },
      );
      expect(pv.argv).toEqual(again.spec.argv);
      expect(pv.engineArgv).toEqual(again.spec.engineArgv);
      expect(YAML.parse(again.spec.files[0]!.content)).toHaveProperty('load_format', 'dummy');
    }
    expect(planText(plan, cfg)).toMatch(
      /Stage 1: engine[^\n]*\n  weights: dummy \(TensorRT-LLM: load_format: dummy in its --extra_llm_api_options YAML, client sends ignore_eos\)/,
    );
  });

  it('a launched sim-serve reads the YAML: no weight read in its modelled start-up', async () => {
    const file = join(runDir, 'proc', 'extra_llm_api_options.yaml');
    mkdirSync(dirname(file), { recursive: true });
    const startup = async (content: string) => {
      writeFileSync(file, content);
      const p = spawnSim([
        '--engine',
        'trtllm',
        '--model',
        'Qwen/Qwen3-14B',
        '--port',
        '0',
        '--load-time',
        '0',
        '--extra_llm_api_options',
        file,
      ]);
      const m = await p.waitFor(/Uvicorn running on (http:\/\/[\d.:]+)/);
      const info = (await (await fetch(`${m[1]}/sim/info`)).json()) as { startup: { weightsS: number } };
      p.kill();
      await p.exited;
      return info.startup.weightsS;
    };
    expect(await startup('enable_iter_perf_stats: true\nload_format: dummy\n')).toBe(0);
    expect(await startup('enable_iter_perf_stats: true\n')).toBeGreaterThan(5);
  });
});
