// SGLang 0.5.x (`python3 -m sglang.launch_server`). Full flag names only: `--tp 2` works through
// argparse prefix matching, which a future flag can break.
import { UserError } from '../core/errors.js';
import type { KnobName, Variant } from '../core/variant.js';
import { baseEnv, engineHost, finishSpec, flag } from './argv.js';
import { classifyFromLog } from './failures.js';
import { pickMetrics } from './metrics.js';
import { detectEngine } from './detect.js';
import type { EngineAdapter, LaunchContext, LaunchSpec } from './types.js';

/** Neutral backend name -> --attention-backend value. */
export const SGLANG_ATTENTION: Readonly<Record<string, string>> = {
  fa3: 'fa3',
  flash_attn: 'fa3',
  fa4: 'fa4',
  flashinfer: 'flashinfer',
  triton: 'triton',
  torch_native: 'torch_native',
  flex: 'flex_attention',
  flex_attention: 'flex_attention',
  flashmla: 'flashmla',
  cutlass_mla: 'cutlass_mla',
  trtllm_mla: 'trtllm_mla',
  trtllm: 'trtllm_mha',
  trtllm_mha: 'trtllm_mha',
};

const KV_DTYPE: Readonly<Record<string, string>> = { fp8: 'fp8_e4m3', fp8_e4m3: 'fp8_e4m3', fp8_e5m2: 'fp8_e5m2', bf16: 'bf16', auto: 'auto' };

/** DeepSeek-style MTP runs through the EAGLE path in SGLang (NEXTN is an alias of EAGLE). */
const SPEC_ALGO = { eagle: 'EAGLE', eagle3: 'EAGLE3', mtp: 'EAGLE', ngram: 'NGRAM', draft: 'STANDALONE' } as const;

export function sglangEngineArgv(variant: Variant, ctx: LaunchContext): { argv: string[]; env: Record<string, string> } {
  const k = variant.knobs;
  const argv = ['python3', '-m', 'sglang.launch_server', '--model-path', variant.model];
  flag(argv, '--host', engineHost(ctx));
  flag(argv, '--port', ctx.port);
  if (k.tp && k.tp > 1) flag(argv, '--tp-size', k.tp);
  if (k.pp && k.pp > 1) flag(argv, '--pp-size', k.pp);
  if (k.dp && k.dp > 1) flag(argv, '--dp-size', k.dp);
  if (k.ep && k.ep > 1) flag(argv, '--ep-size', k.ep);
  flag(argv, '--enable-dp-attention', k.dpAttention === true);
  flag(argv, '--quantization', k.quantization);
  if (k.kvCacheDtype && k.kvCacheDtype !== 'auto') {
    const kv = KV_DTYPE[k.kvCacheDtype];
    if (!kv) throw new UserError(`SGLang has no KV-cache dtype '${k.kvCacheDtype}' (use one of ${Object.keys(KV_DTYPE).join(', ')})`);
    flag(argv, '--kv-cache-dtype', kv);
  }
  flag(argv, '--chunked-prefill-size', k.maxBatchedTokens);
  flag(argv, '--max-running-requests', k.maxRunningSeqs);
  flag(argv, '--mem-fraction-static', k.memFraction);
  if (k.attentionBackend) {
    const b = SGLANG_ATTENTION[k.attentionBackend];
    if (!b) throw new UserError(`SGLang has no attention backend '${k.attentionBackend}' (use one of ${Object.keys(SGLANG_ATTENTION).join(', ')})`);
    flag(argv, '--attention-backend', b);
  }
  flag(argv, '--enable-torch-compile', k.torchCompile === true);
  flag(argv, '--disable-cuda-graph', k.cudaGraph === false);
  if (k.speculative) {
    const s = k.speculative;
    flag(argv, '--speculative-algorithm', SPEC_ALGO[s.method]);
    flag(argv, '--speculative-draft-model-path', s.draftModel);
    flag(argv, '--speculative-num-steps', s.numSteps);
    flag(argv, '--speculative-eagle-topk', s.topk);
    flag(argv, '--speculative-num-draft-tokens', s.draftTokens);
  }
  flag(argv, '--context-length', k.maxModelLen);
  // /metrics exists only with --enable-metrics; servelab reads it while benchmarking.
  flag(argv, '--enable-metrics', true);
  if (k.extraArgs?.length) argv.push(...k.extraArgs);
  return { argv, env: baseEnv(ctx) };
}

export const SGLANG_SUPPORTS: ReadonlySet<KnobName> = new Set<KnobName>([
  'quantization', 'kvCacheDtype', 'tp', 'pp', 'dp', 'ep', 'dpAttention', 'maxBatchedTokens', 'maxRunningSeqs',
  'memFraction', 'attentionBackend', 'torchCompile', 'cudaGraph', 'speculative', 'maxModelLen', 'extraArgs',
]);

export const sglang: EngineAdapter = {
  name: 'sglang',
  supports: SGLANG_SUPPORTS,
  attentionBackends: ['fa3', 'flashinfer', 'triton'],
  metricsPath: '/metrics',
  command(variant, ctx): LaunchSpec {
    const { argv, env } = sglangEngineArgv(variant, ctx);
    const spec = finishSpec('sglang', argv, env, [], ctx, /The server is fired up and ready to roll!/);
    const dp = variant.knobs.dp ?? 1;
    // With DP-attention SGLang's ZMQ/dist-init ports start at port + 233 (PortArgs.init_new), one per DP rank.
    if (variant.knobs.dpAttention && dp > 1) spec.extraPorts = Array.from({ length: dp + 2 }, (_, i) => ctx.port + 233 + i);
    return spec;
  },
  classifyFailure: (lines, exit, ctx) => classifyFromLog('sglang', lines, exit, ctx),
  parseMetrics: (text) =>
    pickMetrics(text, {
      running: ['sglang:num_running_reqs'],
      waiting: ['sglang:num_queue_reqs'],
      kvUsage: ['sglang:token_usage'],
      preemptions: ['sglang:num_retracted_reqs_total', 'sglang:num_retracted_reqs'],
    }),
  detect: (opts) => detectEngine('sglang', opts),
};
