// The simulated engine: every variant, whatever its engine, runs as `servelab sim-serve` (a real
// HTTP server process) through exactly the same launch path as a real engine. The real engine's
// argv travels alongside as `engineArgv`, so plans, journals and profiles show what would run on
// a GPU host.
import { SELF_SCRIPT } from '../../core/self.js';
import { UserError } from '../../core/errors.js';
import { isGpuEngine, type KnobName } from '../../core/variant.js';
import { knobsToSimArgs } from './argv.js';
import { withEnvKnob } from '../../core/env-knob.js';
import { NEUTRAL_KNOBS } from '../data/knobs.js';
import { classifyWith } from '../kit/classify.js';
import { SHARED_FAILURE_RULES } from '../kit/failure-rules.js';
// sim-serve imitates llama-server's texts as well as the GPU engines' (its --engine llamacpp).
import { LLAMACPP_RULES } from '../llamacpp/failure-rules.js';
import { pickMetrics } from '../kit/metrics.js';
import { sglang } from '../sglang/adapter.js';
import { trtllm, trtllmYamlArgs } from '../trtllm/adapter.js';
import { vllm } from '../vllm/adapter.js';
import type { EngineAdapter, EngineInfo, LaunchContext } from '../kit/types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

const REAL = { vllm, sglang, trtllm } as const;

/** Any engine's ready line: the simulator prints the one of the engine it imitates. */
const SIM_READY = /Application startup complete\.|The server is fired up and ready to roll!|Uvicorn running on/;

const ALL_KNOBS: ReadonlySet<KnobName> = new Set<KnobName>([...NEUTRAL_KNOBS.map((n) => n.knob), 'speculative', 'extraArgs', 'env']);

export const sim: EngineAdapter = {
  name: 'sim',
  // The simulator itself reads every knob; the planner still asks the *imitated* engine's adapter.
  supports: ALL_KNOBS,
  metricsPath: '/metrics',
  command(variant, ctx: LaunchContext): LaunchSpec {
    const simCtx = ctx.sim ?? { gpu: 'H100', gpus: 1, speed: 1 };
    if (!isGpuEngine(variant.engine)) throw new UserError(`servelab's simulator has no model of ${variant.engine}: run it on a real host`);
    const real = REAL[variant.engine].command(variant, { ...ctx, runtime: { kind: 'native' } });
    const argv = [
      process.execPath,
      SELF_SCRIPT,
      'sim-serve',
      '--engine',
      variant.engine,
      '--model',
      variant.model,
      ...knobsToSimArgs(variant.knobs),
      '--gpu',
      simCtx.gpu,
      // sim-serve's --gpus is the GPUs the server can see (tp/pp/dp decide how many it uses): a
      // launch pinned to some (parallel variants, launch.ts) sees those only, as a real engine
      // under CUDA_VISIBLE_DEVICES does, so a layout wider than its GPUs fails here as it would there.
      '--gpus',
      String(ctx.devices?.length || simCtx.gpus),
      '--host',
      ctx.host,
      '--port',
      String(ctx.port),
      '--speed',
      String(simCtx.speed),
    ];
    if (simCtx.seed !== undefined) argv.push('--seed', String(simCtx.seed));
    // The release being rehearsed: sim-serve speaks its start-up lines and models its defaults.
    if (variant.engineVersion) argv.push('--engine-version', variant.engineVersion);
    // The env knob's names: sim-serve reads their values from its own environment and logs them.
    for (const name of Object.keys(variant.knobs.env ?? {}).sort()) argv.push('--engine-env', name);
    // TensorRT-LLM's dummy weights live in its YAML (trtllm/adapter.ts TRTLLM_DUMMY_YAML): sim-serve reads that file.
    if (ctx.dummyWeights && variant.engine === 'trtllm') argv.push(...trtllmYamlArgs(real));
    return {
      argv,
      // The variant's own environment reaches sim-serve as it would the engine (sim-serve names it in its log).
      env: withEnvKnob(variant.knobs.env, {}),
      files: real.files,
      host: ctx.host,
      port: ctx.port,
      healthPath: '/health',
      readyLogLine: SIM_READY,
      speed: simCtx.speed,
      engineArgv: real.engineArgv,
      engine: 'sim',
    };
  },
  classifyFailure: (lines, exit, ctx) => classifyWith([...LLAMACPP_RULES, ...SHARED_FAILURE_RULES], 'sim', lines, exit, ctx),
  parseMetrics: (text) =>
    pickMetrics(text, {
      running: ['vllm:num_requests_running', 'sglang:num_running_reqs', 'trtllm_num_requests_running'],
      waiting: ['vllm:num_requests_waiting', 'sglang:num_queue_reqs', 'trtllm_num_requests_waiting'],
      kvUsage: ['vllm:kv_cache_usage_perc', 'sglang:token_usage', 'trtllm_kv_cache_utilization'],
      preemptions: ['vllm:num_preemptions_total', 'sglang:num_retracted_requests_total'],
    }),
  detect: async (): Promise<EngineInfo> => ({ engine: 'sim', installed: true, runtime: 'sim', version: 'sim' }),
  label: 'servelab sim',
  // sim-serve's own default (src/cli/sim-serve-args.ts), as vLLM's.
  defaultPort: 8000,
  modelFiles: 'checkpoint',
};
