// vLLM (`vllm serve`). Every spelling comes from the knob table (vllm/knobs.ts) at the
// variant's engine version; this file only says when a knob is given. The attention backend is
// an environment variable in 0.11 and a flag (`--attention-backend`) in the newer tables.
import { VLLM_ROCM } from './rocm-stage.js';
import { vllmCacheStage } from './cache-stage.js';
import { UserError } from '../../core/errors.js';
import { ENGINE_LABEL, type Variant } from '../../core/variant.js';
import { baseEnv, engineHost, finishSpec, flag } from '../kit/argv.js';
import { VLLM_TABLE } from './knobs.js';
import { vllmRanks } from '../../host/slurm/index.js';
import { resolveVersion } from '../data/versions.js';
import { classifyWith } from '../kit/classify.js';
import { SHARED_FAILURE_RULES } from '../kit/failure-rules.js';
import { pickMetrics } from '../kit/metrics.js';
import { detectGpuEngine } from '../kit/detect.js';
import type { EngineAdapter, LaunchContext } from '../kit/types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

/** --speculative-config JSON (vllm/config/speculative.py); key names from the knob table. */
function speculativeConfig(spec: NonNullable<Variant['knobs']['speculative']>, version: string): string {
  const key = (k: string) => VLLM_TABLE.mustRow(`speculative.${k}`, version).name;
  const methodRow = VLLM_TABLE.mustRow('speculative.method', version);
  if (!methodRow.values![spec.method]) {
    throw new UserError(
      `vLLM ${version} cannot decode speculatively with '${spec.method}' (${methodRow.note ?? `use one of ${Object.keys(methodRow.values!).join(', ')}`})`,
    );
  }
  if (spec.method === 'draft' && !spec.draftModel)
    throw new UserError(
      `vLLM ${version} draft-model speculation needs the draft model (speculative.draftModel, a smaller model of the same vocabulary)`,
    );
  const cfg: Record<string, unknown> = { [methodRow.name]: methodRow.values![spec.method] };
  if (spec.draftModel) cfg[key('draftModel')] = spec.draftModel;
  const n = spec.numSteps ?? spec.draftTokens;
  if (n !== undefined) cfg[key('tokens')] = n;
  if (spec.method === 'ngram') {
    cfg[key('ngramMax')] = n ?? 4;
    cfg[key('ngramMin')] = 1;
  }
  return JSON.stringify(cfg);
}

/** Flags whose value passes through (or maps through the row's values). */
const PLAIN = ['quantization', 'maxBatchedTokens', 'maxRunningSeqs', 'memFraction', 'maxModelLen'] as const;

/** A row's value goes to argv (flag) or the environment (env), as the table says for the release. */
function put(argv: string[], env: Record<string, string>, r: { via: string; name: string }, value: string): void {
  if (r.via === 'env') env[r.name] = value;
  else flag(argv, r.name, value);
}

export function vllmEngineArgv(variant: Variant, ctx: LaunchContext): { argv: string[]; env: Record<string, string> } {
  const k = variant.knobs;
  const version = resolveVersion('vllm', variant.engineVersion).table;
  const row = (knob: string) => VLLM_TABLE.mustRow(knob, version);
  const argv = ['vllm', 'serve', variant.model];
  flag(argv, '--host', engineHost(ctx));
  flag(argv, '--port', ctx.port);
  if (k.tp && k.tp > 1) flag(argv, row('tp').name, k.tp);
  if (k.pp && k.pp > 1) flag(argv, row('pp').name, k.pp);
  if (k.dp && k.dp > 1) flag(argv, row('dp').name, k.dp);
  // vLLM has no EP size: EP = TP x DP when on.
  flag(argv, row('ep').name, (k.ep ?? 1) > 1);
  if (k.kvCacheDtype && k.kvCacheDtype !== 'auto') {
    const r = row('kvCacheDtype');
    flag(argv, r.name, VLLM_TABLE.engineValue(r, k.kvCacheDtype, version));
  }
  for (const knob of PLAIN) {
    const v = k[knob];
    if (v !== undefined) flag(argv, row(knob).name, typeof v === 'string' ? VLLM_TABLE.engineValue(row(knob), v, version) : v);
  }
  if (k.performanceMode !== undefined) {
    const r = VLLM_TABLE.rowAt('performanceMode', version);
    if (!r)
      throw new UserError(
        `vLLM ${version} has no --performance-mode (it arrived in 0.17, vllm#34936); drop performanceMode or use a newer vLLM`,
      );
    flag(argv, r.name, VLLM_TABLE.engineValue(r, k.performanceMode, version));
  }
  // Compilation is on by default; eager turns off both compile and CUDA graphs. Compile off
  // alone must keep CUDA graphs, which needs an explicit cudagraph_mode (see the table's note).
  if (k.cudaGraph === false) flag(argv, row('cudaGraph').name, true);
  else if (k.torchCompile === false) flag(argv, row('torchCompile').name, row('torchCompile').values!.false);
  if (k.speculative) flag(argv, row('speculative').name, speculativeConfig(k.speculative, version));
  const env = baseEnv(ctx, variant.knobs);
  if (k.attentionBackend) {
    const r = row('attentionBackend');
    put(argv, env, r, VLLM_TABLE.engineValue(r, k.attentionBackend, version));
    const fa = VLLM_TABLE.rowAt('attentionBackend.faVersion', version);
    const faValue = fa?.values?.[k.attentionBackend];
    if (fa && faValue) put(argv, env, fa, faValue);
  }
  argv.push(...vllmCacheArgs(k, version));
  if (k.extraArgs?.length) argv.push(...k.extraArgs);
  return { argv, env };
}

/** The prefix cache's flags (the cache stage): on/off, and KV offloading to CPU where the release has it. */
function vllmCacheArgs(k: Variant['knobs'], version: string): string[] {
  const out: string[] = [];
  if (k.prefixCaching !== undefined) out.push(VLLM_TABLE.mustRow('prefixCaching', version).values![String(k.prefixCaching)]!);
  if (k.kvOffloadGiB !== undefined) {
    const r = VLLM_TABLE.rowAt('kvOffloadGiB', version);
    if (!r)
      throw new UserError(
        `vLLM ${version} has no --kv-offloading-size in servelab's tables (read from 0.20.1 on); drop kvOffloadGiB or use a newer vLLM`,
      );
    out.push(r.name, String(k.kvOffloadGiB), VLLM_TABLE.mustRow('kvOffloadGiB.backend', version).name, 'native');
  }
  return out;
}

export const VLLM_SUPPORTS = VLLM_TABLE.supportedKnobs();

export const vllm: EngineAdapter = {
  name: 'vllm',
  supports: VLLM_SUPPORTS,
  attentionBackends: VLLM_TABLE.rowsAt().find((r) => r.knob === 'attentionBackend')!.candidates!,
  metricsPath: '/metrics',
  // vllm/entrypoints/openai/cli_args.py FrontendArgs.enable_prompt_tokens_details (default False;
  // the serving classes take it in releases before and after 0.11): without the flag the usage
  // has no prompt_tokens_details. Which first release has it is not checked here.
  cacheReport: {
    fields: ['usage.prompt_tokens_details.cached_tokens'],
    enableFlag: '--enable-prompt-tokens-details',
    source: 'vllm/entrypoints/openai/cli_args.py (enable_prompt_tokens_details: bool = False)',
  },
  command(variant, ctx): LaunchSpec {
    const { argv, env } = vllmEngineArgv(variant, ctx);
    // "Starting vLLM API server ..." is logged once the engine client is built, but before uvicorn
    // listens (api_server.py, just before serve_http); uvicorn's lifespan line comes after it.
    return finishSpec('vllm', argv, env, [], ctx, /Application startup complete\./);
  },
  classifyFailure: (lines, exit, ctx) => classifyWith(SHARED_FAILURE_RULES, 'vllm', lines, exit, ctx),
  parseMetrics: (text) =>
    pickMetrics(text, {
      running: ['vllm:num_requests_running'],
      waiting: ['vllm:num_requests_waiting'],
      kvUsage: ['vllm:kv_cache_usage_perc', 'vllm:gpu_cache_usage_perc'],
      preemptions: ['vllm:num_preemptions_total', 'vllm:num_preemptions'],
    }),
  detect: (opts) => detectGpuEngine('vllm', opts),
  label: ENGINE_LABEL.vllm,
  defaultPort: 8000,
  modelFiles: 'checkpoint',
  image: 'vllm/vllm-openai',
  officialImage: (v) => `vllm/vllm-openai:${v ? `v${v}` : 'latest'}`,
  launches: (exe, a1) => exe === 'vllm' && a1 === 'serve',
  baselineFirst: true,
  // FlashAttention-3 kernels are built for Hopper (SM90) only (Dao-AILab/flash-attention README).
  hopperOnlyBackends: ['fa3'],
  compilesByDefault: true,
  noReplicaOverNodes:
    'vLLM 0.11 spans one replica over nodes only through Ray, which servelab does not launch: no pipeline stages across nodes are tried',
  // docs/serving/data_parallel_deployment.md; SGLang 0.5 serves replicas on several nodes through its router.
  dataParallelOverNodes: true,
  multiNodeRanks: vllmRanks,
  cacheStage: vllmCacheStage,
  rocm: VLLM_ROCM,
};
