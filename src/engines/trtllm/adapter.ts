// TensorRT-LLM 1.x (`trtllm-serve`). Attention, CUDA graphs, torch.compile, attention-DP,
// KV dtype and speculative settings have no flags: they go into the --extra_llm_api_options
// YAML that this adapter writes into the run folder. Unknown YAML keys fail (extra="forbid"),
// so only keys from the knob table (trtllm/knobs.ts, read from llm_args.py) are written.
import { trtllmCacheStage } from './cache-stage.js';
import path from 'node:path';
import YAML from 'yaml';
import { UserError } from '../../core/errors.js';
import type { ServerMetricsSample } from '../../core/metrics.js';
import { ENGINE_LABEL, type SpeculativeKnob, type Variant } from '../../core/variant.js';
import { baseEnv, engineHost, finishSpec, flag } from '../kit/argv.js';
import { TRTLLM_TABLE } from './knobs.js';
import { trtllmRanks } from '../../host/slurm/index.js';
import { resolveVersion } from '../data/versions.js';
import { classifyWith } from '../kit/classify.js';
import { SHARED_FAILURE_RULES } from '../kit/failure-rules.js';
import { pickMetrics } from '../kit/metrics.js';
import { detectGpuEngine } from '../kit/detect.js';
import type { EngineAdapter, LaunchContext } from '../kit/types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

export const TRTLLM_YAML_NAME = 'extra_llm_api_options.yaml';

/**
 * Dummy weights (--dummy-weights): YAML `load_format: dummy`. trtllm-serve has no flag for it; the
 * LLM API field is reached through --extra_llm_api_options like every YAML key here. Read with the
 * search tools (the llm_args.py copies are stored without a commit and are named by what they hold):
 * - tensorrt_llm/llmapi/llm_args.py, the ≈1.1/1.2 copy the 1.2.0rc1 table was read from
 *   (DeepSeekSparseAttentionConfig, no Eagle3DecodingConfig): `class LoadFormat(Enum): AUTO = 0
 *   # Initialize all weights randomly. DUMMY = 1 ... VISION_ONLY = 2`; TorchLlmArgs `load_format:
 *   Union[str, LoadFormat] = Field(default=LoadFormat.AUTO, description="How to load the model
 *   weights. ...")`; `@field_validator('load_format', mode='before') convert_load_format`:
 *   `v.upper()` must name a member, else `ValueError(f"Invalid LoadFormat: {v}")`.
 * - the later copy the 1.3.0rc27 table was read from (Eagle3DecodingConfig): the same enum, field
 *   and description; docs nvidia.github.io/TensorRT-LLM/1.4.0rc4/llm-api/reference/TorchLlmArgs.html
 *   lists `load_format: str | LoadFormat = LoadFormat.AUTO`.
 * - tensorrt_llm/_torch/pyexecutor/model_loader.py@b51992a3: `elif load_format == LoadFormat.DUMMY:
 *   initialize_dummy_weights(model)` (no checkpoint read; config.json and tokenizer still are).
 * Not run on a GPU by servelab.
 */
export const TRTLLM_DUMMY_YAML = { key: 'load_format', value: 'dummy' } as const;

/** Set a dotted YAML key ('kv_cache_config.dtype') in a plain object. */
function setKey(doc: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let cur = doc;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
  cur[parts.at(-1)!] = value;
}

function speculativeYaml(doc: Record<string, unknown>, s: SpeculativeKnob, version: string): void {
  const row = (knob: string) => TRTLLM_TABLE.mustRow(`speculative.${knob}`, version);
  const method = row('method');
  if (!method.values![s.method]) {
    throw new UserError(
      `TensorRT-LLM ${version} (PyTorch backend) cannot decode speculatively with '${s.method}' (use one of ${Object.keys(method.values!).join(', ')}): ${method.note ?? ''}`.trim(),
    );
  }
  setKey(doc, method.name, method.values![s.method]);
  const n = s.numSteps ?? s.draftTokens;
  if (s.method === 'mtp') setKey(doc, row('mtpLayers').name, n ?? 1);
  else if (n !== undefined) setKey(doc, row('tokens').name, n);
  if (s.method === 'ngram') setKey(doc, row('ngramSize').name, 2);
  if (s.draftModel) setKey(doc, row('draftModel').name, s.draftModel);
}

/**
 * The YAML document for a variant (plain object; tests compare it). `dummyWeights` adds
 * `load_format: dummy` for a tuning launch; without it (profiles, serving) the real weights load.
 */
export function trtllmYaml(variant: Variant, opts: { dummyWeights?: boolean } = {}): Record<string, unknown> {
  const k = variant.knobs;
  const version = resolveVersion('trtllm', variant.engineVersion).table;
  const row = (knob: string) => TRTLLM_TABLE.mustRow(knob, version);
  // enable_iter_perf_stats feeds the JSON /metrics endpoint that servelab polls.
  const doc: Record<string, unknown> = {};
  setKey(doc, row('plumbing.iterStats').name, true);
  if (k.attentionBackend)
    setKey(doc, row('attentionBackend').name, TRTLLM_TABLE.engineValue(row('attentionBackend'), k.attentionBackend, version));
  if (k.cudaGraph === false) setKey(doc, row('cudaGraph').name, null);
  if (k.torchCompile === true) setKey(doc, row('torchCompile').name, { enable_fullgraph: true });
  if (k.dpAttention) setKey(doc, row('dpAttention').name, true);
  if (k.kvCacheDtype) {
    const kv = TRTLLM_TABLE.engineValue(row('kvCacheDtype'), k.kvCacheDtype, version);
    if (kv !== 'auto') setKey(doc, row('kvCacheDtype').name, kv);
  }
  if (k.prefixCaching !== undefined) setKey(doc, row('prefixCaching').name, k.prefixCaching);
  // A YAML kv_cache_config replaces the whole object trtllm-serve built from the flag, so the
  // fraction must travel inside it too (docs/engines.md, TensorRT-LLM `memFraction.yaml` row).
  const memKey = row('memFraction.yaml').name;
  if (k.memFraction !== undefined && doc[memKey.split('.')[0]!]) setKey(doc, memKey, k.memFraction);
  if (k.speculative) speculativeYaml(doc, k.speculative, version);
  if (opts.dummyWeights) doc[TRTLLM_DUMMY_YAML.key] = TRTLLM_DUMMY_YAML.value;
  return doc;
}

export function trtllmEngineArgv(
  variant: Variant,
  ctx: LaunchContext,
): { argv: string[]; env: Record<string, string>; yaml: string; yamlPath: string } {
  const k = variant.knobs;
  const yamlPath = path.join(ctx.runDir, TRTLLM_YAML_NAME);
  const version = resolveVersion('trtllm', variant.engineVersion).table;
  const row = (knob: string) => TRTLLM_TABLE.mustRow(knob, version);
  const argv = ['trtllm-serve', variant.model];
  flag(argv, '--host', engineHost(ctx));
  flag(argv, '--port', ctx.port);
  for (const knob of ['tp', 'pp', 'ep'] as const) if ((k[knob] ?? 1) > 1) flag(argv, row(knob).name, k[knob]);
  flag(argv, row('maxBatchedTokens').name, k.maxBatchedTokens);
  flag(argv, row('maxRunningSeqs').name, k.maxRunningSeqs);
  flag(argv, row('maxModelLen').name, k.maxModelLen);
  // A fraction of the memory left free after the weights, unlike vLLM's fraction of the total.
  flag(argv, row('memFraction').name, k.memFraction);
  flag(argv, row('plumbing.yaml').name, yamlPath);
  if (k.extraArgs?.length) argv.push(...k.extraArgs);
  return {
    argv,
    env: baseEnv(ctx, variant.knobs),
    yaml: YAML.stringify(trtllmYaml(variant, { dummyWeights: !!ctx.dummyWeights })),
    yamlPath,
  };
}

/**
 * `--extra_llm_api_options PATH` as it stands in a launched TensorRT-LLM command: what sim-serve
 * imitating TensorRT-LLM is given when the YAML holds a setting it models (load_format), so the
 * simulated server reads the same file the engine would.
 */
export function trtllmYamlArgs(spec: Pick<LaunchSpec, 'engineArgv'>): string[] {
  const name = TRTLLM_TABLE.mustRow('plumbing.yaml').name;
  const i = spec.engineArgv.indexOf(name);
  return i >= 0 && spec.engineArgv[i + 1] ? [name, spec.engineArgv[i + 1]!] : [];
}

/**
 * TRT-LLM's /metrics is a JSON list of iteration stats (emptied on read). Prometheus text is a
 * different endpoint, /prometheus/metrics, mounted only with `return_perf_metrics: true`
 * (openai_server.py@e7f7345e); the text branch reads it when pointed there.
 */
export function parseTrtllmMetrics(text: string): Partial<ServerMetricsSample> {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let data: unknown;
    try {
      data = JSON.parse(trimmed);
    } catch {
      return {};
    }
    const list = Array.isArray(data) ? data : [data];
    const last = list.at(-1) as Record<string, unknown> | undefined;
    if (!last || typeof last !== 'object') return {};
    const out: Partial<ServerMetricsSample> = {};
    if (typeof last.numActiveRequests === 'number') out.running = last.numActiveRequests;
    // The queue count is top-level; inflightBatchingStats has no numQueuedRequests (TensorRT-LLM
    // cpp/include/tensorrt_llm/executor/types.h: IterationStats vs InflightBatchingStats, 1.x).
    if (typeof last.numQueuedRequests === 'number') out.waiting = last.numQueuedRequests;
    const kv = last.kvCacheStats as Record<string, unknown> | undefined;
    if (kv && typeof kv.usedNumBlocks === 'number' && typeof kv.maxNumBlocks === 'number' && kv.maxNumBlocks > 0) {
      out.kvUsage = kv.usedNumBlocks / kv.maxNumBlocks;
    }
    return out;
  }
  return pickMetrics(text, {
    running: ['trtllm_num_requests_running'],
    waiting: ['trtllm_num_requests_waiting'],
    kvUsage: ['trtllm_kv_cache_utilization'],
    preemptions: [],
  });
}

/**
 * The files a recorded command reads, rebuilt from the variant: the YAML is a pure function of the
 * knobs, so a profile carries it and does not depend on a run folder.
 */
function trtllmCommandFiles(variant: Variant, argv: readonly string[]): { path: string; content: string }[] {
  const i = argv.indexOf('--extra_llm_api_options');
  const file = i >= 0 ? argv[i + 1] : undefined;
  return file ? [{ path: file, content: YAML.stringify(trtllmYaml(variant)) }] : [];
}

export const TRTLLM_SUPPORTS = TRTLLM_TABLE.supportedKnobs();

export const trtllm: EngineAdapter = {
  name: 'trtllm',
  supports: TRTLLM_SUPPORTS,
  attentionBackends: TRTLLM_TABLE.rowsAt().find((r) => r.knob === 'attentionBackend')!.candidates!,
  metricsPath: '/metrics',
  command(variant, ctx): LaunchSpec {
    const { argv, env, yaml, yamlPath } = trtllmEngineArgv(variant, ctx);
    return finishSpec('trtllm', argv, env, [{ path: yamlPath, content: yaml }], ctx, /Uvicorn running on/);
  },
  classifyFailure: (lines, exit, ctx) => classifyWith(SHARED_FAILURE_RULES, 'trtllm', lines, exit, ctx),
  parseMetrics: parseTrtllmMetrics,
  detect: (opts) => detectGpuEngine('trtllm', opts),
  label: ENGINE_LABEL.trtllm,
  defaultPort: 8000,
  modelFiles: 'checkpoint',
  image: 'nvcr.io/nvidia/tensorrt-llm/release',
  officialImage: (v) => `nvcr.io/nvidia/tensorrt-llm/release:${v ?? 'latest'}`,
  launches: (exe) => exe === 'trtllm-serve',
  dummyWeightsText: `\`${TRTLLM_DUMMY_YAML.key}: ${TRTLLM_DUMMY_YAML.value}\` in its --extra_llm_api_options YAML`,
  commandFiles: trtllmCommandFiles,
  yamlFlag: '--extra_llm_api_options',
  multiNodeRanks: (argv, _k, l) => trtllmRanks(argv, l),
  cacheStage: trtllmCacheStage,
  // CUDA only: no ROCm build exists. "TensorRT LLM supports the full spectrum of NVIDIA GPU
  // architectures" (nvidia.github.io/TensorRT-LLM/supported-hardware.html); its overview: "inference
  // performance ... on NVIDIA GPUs" (nvidia.github.io/TensorRT-LLM/overview.html).
  gpuVendors: { vendors: ['nvidia'], source: 'it is CUDA-only (nvidia.github.io/TensorRT-LLM/supported-hardware.html)' },
};
