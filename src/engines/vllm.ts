// vLLM 0.11 (`vllm serve`). Attention backend is an environment variable, not a flag.
import { UserError } from '../core/errors.js';
import type { KnobName, Variant } from '../core/variant.js';
import { baseEnv, engineHost, finishSpec, flag } from './argv.js';
import { classifyFromLog } from './failures.js';
import { pickMetrics } from './metrics.js';
import { detectEngine } from './detect.js';
import type { EngineAdapter, LaunchContext, LaunchSpec } from './types.js';

/** Neutral backend name -> VLLM_ATTENTION_BACKEND value (vllm/platforms/interface.py `_Backend`). */
export const VLLM_ATTENTION: Readonly<Record<string, string>> = {
  fa3: 'FLASH_ATTN',
  fa2: 'FLASH_ATTN',
  flash_attn: 'FLASH_ATTN',
  flashinfer: 'FLASHINFER',
  triton: 'TRITON_ATTN',
  flex: 'FLEX_ATTENTION',
  flex_attention: 'FLEX_ATTENTION',
  flashmla: 'FLASHMLA',
  cutlass_mla: 'CUTLASS_MLA',
  triton_mla: 'TRITON_MLA',
};

const KV_DTYPE: Readonly<Record<string, string>> = { bf16: 'bfloat16', fp8: 'fp8', fp8_e4m3: 'fp8_e4m3', fp8_e5m2: 'fp8_e5m2', auto: 'auto' };

/** --speculative-config JSON (vllm/config/speculative.py). */
function speculativeConfig(spec: NonNullable<Variant['knobs']['speculative']>): string {
  const method = { eagle: 'eagle', eagle3: 'eagle3', mtp: 'mtp', ngram: 'ngram', draft: 'draft_model' }[spec.method];
  const cfg: Record<string, unknown> = { method };
  if (spec.draftModel) cfg.model = spec.draftModel;
  const n = spec.numSteps ?? spec.draftTokens;
  if (n !== undefined) cfg.num_speculative_tokens = n;
  if (spec.method === 'ngram') {
    cfg.prompt_lookup_max = n ?? 4;
    cfg.prompt_lookup_min = 1;
  }
  return JSON.stringify(cfg);
}

export function vllmEngineArgv(variant: Variant, ctx: LaunchContext): { argv: string[]; env: Record<string, string> } {
  const k = variant.knobs;
  const argv = ['vllm', 'serve', variant.model];
  flag(argv, '--host', engineHost(ctx));
  flag(argv, '--port', ctx.port);
  if (k.tp && k.tp > 1) flag(argv, '--tensor-parallel-size', k.tp);
  if (k.pp && k.pp > 1) flag(argv, '--pipeline-parallel-size', k.pp);
  if (k.dp && k.dp > 1) flag(argv, '--data-parallel-size', k.dp);
  // vLLM has no EP size: EP = TP x DP when on.
  flag(argv, '--enable-expert-parallel', (k.ep ?? 1) > 1);
  flag(argv, '--quantization', k.quantization);
  if (k.kvCacheDtype && k.kvCacheDtype !== 'auto') {
    const kv = KV_DTYPE[k.kvCacheDtype];
    if (!kv) throw new UserError(`vLLM has no KV-cache dtype '${k.kvCacheDtype}' (use one of ${Object.keys(KV_DTYPE).join(', ')})`);
    flag(argv, '--kv-cache-dtype', kv);
  }
  flag(argv, '--max-num-batched-tokens', k.maxBatchedTokens);
  flag(argv, '--max-num-seqs', k.maxRunningSeqs);
  flag(argv, '--gpu-memory-utilization', k.memFraction);
  flag(argv, '--max-model-len', k.maxModelLen);
  // Compilation is on by default (level 3); eager turns off both compile and CUDA graphs.
  if (k.cudaGraph === false) flag(argv, '--enforce-eager', true);
  else if (k.torchCompile === false) flag(argv, '--compilation-config', '{"level":0}');
  if (k.speculative) flag(argv, '--speculative-config', speculativeConfig(k.speculative));
  if (k.extraArgs?.length) argv.push(...k.extraArgs);

  const env = baseEnv(ctx);
  if (k.attentionBackend) {
    const value = VLLM_ATTENTION[k.attentionBackend] ?? (Object.values(VLLM_ATTENTION).includes(k.attentionBackend) ? k.attentionBackend : undefined);
    if (!value) {
      throw new UserError(`vLLM has no attention backend '${k.attentionBackend}' (use one of ${Object.keys(VLLM_ATTENTION).join(', ')})`);
    }
    env.VLLM_ATTENTION_BACKEND = value;
  }
  return { argv, env };
}

export const VLLM_SUPPORTS: ReadonlySet<KnobName> = new Set<KnobName>([
  'quantization', 'kvCacheDtype', 'tp', 'pp', 'dp', 'ep', 'maxBatchedTokens', 'maxRunningSeqs', 'memFraction',
  'attentionBackend', 'torchCompile', 'cudaGraph', 'speculative', 'maxModelLen', 'extraArgs',
]);

export const vllm: EngineAdapter = {
  name: 'vllm',
  supports: VLLM_SUPPORTS,
  attentionBackends: ['flash_attn', 'flashinfer', 'triton', 'flex'],
  metricsPath: '/metrics',
  command(variant, ctx): LaunchSpec {
    const { argv, env } = vllmEngineArgv(variant, ctx);
    // "Starting vLLM API server ..." comes before the engine is up; uvicorn's line is the real one.
    return finishSpec('vllm', argv, env, [], ctx, /Application startup complete\./);
  },
  classifyFailure: (lines, exit, ctx) => classifyFromLog('vllm', lines, exit, ctx),
  parseMetrics: (text) =>
    pickMetrics(text, {
      running: ['vllm:num_requests_running'],
      waiting: ['vllm:num_requests_waiting'],
      kvUsage: ['vllm:kv_cache_usage_perc', 'vllm:gpu_cache_usage_perc'],
      preemptions: ['vllm:num_preemptions_total', 'vllm:num_preemptions'],
    }),
  detect: (opts) => detectEngine('vllm', opts),
};
