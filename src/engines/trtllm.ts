// TensorRT-LLM 1.x (`trtllm-serve`). Attention, CUDA graphs, torch.compile, attention-DP,
// KV dtype and speculative settings have no flags: they go into the --extra_llm_api_options
// YAML that this adapter writes into the run folder. Unknown YAML keys fail (extra="forbid"),
// so only keys from llm_args.py are written.
import path from 'node:path';
import YAML from 'yaml';
import { UserError } from '../core/errors.js';
import type { ServerMetricsSample } from '../core/events.js';
import type { KnobName, Variant } from '../core/variant.js';
import { baseEnv, engineHost, finishSpec, flag } from './argv.js';
import { classifyFromLog } from './failures.js';
import { pickMetrics } from './metrics.js';
import { detectEngine } from './detect.js';
import type { EngineAdapter, LaunchContext, LaunchSpec } from './types.js';

/** Neutral backend name -> YAML attn_backend. TRT-LLM silently falls back on unknown names, so we refuse them. */
export const TRTLLM_ATTENTION: Readonly<Record<string, string>> = {
  trtllm: 'TRTLLM',
  flashinfer: 'FLASHINFER',
  vanilla: 'VANILLA',
  flashinfer_star: 'FLASHINFER_STAR_ATTENTION',
};

const SPEC_TYPE = { mtp: 'MTP', eagle3: 'Eagle3', eagle: 'Eagle', ngram: 'NGram', draft: 'DraftTarget' } as const;

export const TRTLLM_YAML_NAME = 'extra_llm_api_options.yaml';

/** The YAML document for a variant (plain object; tests compare it). */
export function trtllmYaml(variant: Variant): Record<string, unknown> {
  const k = variant.knobs;
  // enable_iter_perf_stats feeds the JSON /metrics endpoint that servelab polls.
  const doc: Record<string, unknown> = { enable_iter_perf_stats: true };
  if (k.attentionBackend) {
    const b = TRTLLM_ATTENTION[k.attentionBackend];
    if (!b) throw new UserError(`TensorRT-LLM has no attention backend '${k.attentionBackend}' (use one of ${Object.keys(TRTLLM_ATTENTION).join(', ')})`);
    doc.attn_backend = b;
  }
  if (k.cudaGraph === false) doc.cuda_graph_config = null;
  if (k.torchCompile === true) doc.torch_compile_config = { enable_fullgraph: true };
  if (k.dpAttention) doc.enable_attention_dp = true;
  if (k.kvCacheDtype && k.kvCacheDtype !== 'auto') {
    if (!/^fp8/.test(k.kvCacheDtype) && k.kvCacheDtype !== 'bf16') {
      throw new UserError(`TensorRT-LLM has no KV-cache dtype '${k.kvCacheDtype}' (use fp8 or auto)`);
    }
    if (k.kvCacheDtype !== 'bf16') doc.kv_cache_config = { dtype: 'fp8' };
  }
  if (k.speculative) {
    const s = k.speculative;
    const spec: Record<string, unknown> = { decoding_type: SPEC_TYPE[s.method] };
    const n = s.numSteps ?? s.draftTokens;
    if (s.method === 'mtp') spec.num_nextn_predict_layers = n ?? 1;
    else if (n !== undefined) spec.max_draft_len = n;
    if (s.method === 'ngram') spec.max_matching_ngram_size = 2;
    if (s.draftModel) spec.speculative_model_dir = s.draftModel;
    doc.speculative_config = spec;
  }
  return doc;
}

export function trtllmEngineArgv(variant: Variant, ctx: LaunchContext): { argv: string[]; env: Record<string, string>; yaml: string; yamlPath: string } {
  const k = variant.knobs;
  const yamlPath = path.join(ctx.runDir, TRTLLM_YAML_NAME);
  const argv = ['trtllm-serve', variant.model];
  flag(argv, '--host', engineHost(ctx));
  flag(argv, '--port', ctx.port);
  if (k.tp && k.tp > 1) flag(argv, '--tp_size', k.tp);
  if (k.pp && k.pp > 1) flag(argv, '--pp_size', k.pp);
  if (k.ep && k.ep > 1) flag(argv, '--ep_size', k.ep);
  flag(argv, '--max_num_tokens', k.maxBatchedTokens);
  flag(argv, '--max_batch_size', k.maxRunningSeqs);
  flag(argv, '--max_seq_len', k.maxModelLen);
  // A fraction of the memory left free after the weights, unlike vLLM's fraction of the total.
  flag(argv, '--kv_cache_free_gpu_memory_fraction', k.memFraction);
  flag(argv, '--extra_llm_api_options', yamlPath);
  if (k.extraArgs?.length) argv.push(...k.extraArgs);
  return { argv, env: baseEnv(ctx), yaml: YAML.stringify(trtllmYaml(variant)), yamlPath };
}

/** TRT-LLM's /metrics is a JSON list of iteration stats (emptied on read); Prometheus text in newer releases. */
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
    const queued = last.numQueuedRequests ?? (last.inflightBatchingStats as Record<string, unknown> | undefined)?.numQueuedRequests;
    if (typeof queued === 'number') out.waiting = queued;
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

export const TRTLLM_SUPPORTS: ReadonlySet<KnobName> = new Set<KnobName>([
  'kvCacheDtype', 'tp', 'pp', 'ep', 'dpAttention', 'maxBatchedTokens', 'maxRunningSeqs', 'memFraction',
  'attentionBackend', 'torchCompile', 'cudaGraph', 'speculative', 'maxModelLen', 'extraArgs',
]);

export const trtllm: EngineAdapter = {
  name: 'trtllm',
  supports: TRTLLM_SUPPORTS,
  attentionBackends: ['trtllm', 'flashinfer'],
  metricsPath: '/metrics',
  command(variant, ctx): LaunchSpec {
    const { argv, env, yaml, yamlPath } = trtllmEngineArgv(variant, ctx);
    return finishSpec('trtllm', argv, env, [{ path: yamlPath, content: yaml }], ctx, /Uvicorn running on/);
  },
  classifyFailure: (lines, exit, ctx) => classifyFromLog('trtllm', lines, exit, ctx),
  parseMetrics: parseTrtllmMetrics,
  detect: (opts) => detectEngine('trtllm', opts),
};
