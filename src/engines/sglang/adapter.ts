// SGLang (`python3 -m sglang.launch_server`). Every spelling comes from the knob table
// (sglang/knobs.ts) at the variant's engine version; this file says when a knob is given.
import { SGLANG_ROCM } from './rocm-stage.js';
import { sglangCacheStage } from './cache-stage.js';
import { UserError } from '../../core/errors.js';
import { ENGINE_LABEL, type SpeculativeKnob, type Variant } from '../../core/variant.js';
import { baseEnv, engineHost, finishSpec, flag } from '../kit/argv.js';
import { SGLANG_TABLE } from './knobs.js';
import { sglangRanks } from '../../host/slurm/index.js';
import { resolveVersion } from '../data/versions.js';
import { classifyWith } from '../kit/classify.js';
import { SHARED_FAILURE_RULES } from '../kit/failure-rules.js';
import { pickMetrics } from '../kit/metrics.js';
import { detectGpuEngine } from '../kit/detect.js';
import type { EngineAdapter, LaunchContext } from '../kit/types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

/** Backends SGLang runs only for prefill (given as --prefill-attention-backend). */
const PREFILL_ONLY: Readonly<Record<string, string>> = SGLANG_TABLE.mustRow('attentionBackend.prefill').values!;

/**
 * DP-attention: the ports SGLang binds above the server port (PortArgs.init_new: ZMQ_TCP_PORT_DELTA
 * 233 ... +238), the DataParallelController's handshake REP socket at port + 13 (bound even on one
 * node: DP_ATTENTION_HANDSHAKE_PORT_DELTA, data_parallel_controller.py _broadcast_ports_as_server;
 * 0.5.5-era stored copies, ids 8356329 and 299760671; the same on one node at the v0.5.13 tag,
 * server_args.py@28b095c0), and the NCCL port servelab gives.
 */
export const SGLANG_DP_ATTENTION_PORTS = { first: 233, last: 238, handshake: 13, nccl: 239 } as const;

/** DP-attention ports above the server port that must be free before a launch on one host. */
export function sglangDpAttentionPorts(port: number): number[] {
  const { first, last, handshake, nccl } = SGLANG_DP_ATTENTION_PORTS;
  return [port + handshake, ...Array.from({ length: last - first + 1 }, (_, i) => port + first + i), port + nccl];
}

/**
 * Under `--dist-init-addr HEAD:P` (several nodes) the head binds P ... P+5 and the handshake at
 * P + 13 instead of port + 233 ... (same sources): the set to keep free on the head node. From
 * v0.5.13 on it also waits for the load collector at P + 6 when nnodes > 1 (PortArgs.init_new,
 * `load_collector_port = port_base + 5`, server_args.py@28b095c0); kept free for every release.
 */
export function sglangDistInitPorts(distPort: number): number[] {
  return [...Array.from({ length: 7 }, (_, i) => distPort + i), distPort + SGLANG_DP_ATTENTION_PORTS.handshake];
}

/**
 * EAGLE, EAGLE3 and STANDALONE take steps, topk and draft tokens all together or none at all: a
 * partial set crashes SGLang 0.5.5 in _handle_speculative_decoding (topk or draft tokens without
 * steps: a bare AssertionError; steps without topk: a TypeError from `speculative_eagle_topk > 1`
 * on None; server_args.py, 0.5.5-era stored copy, id 8356329; the same at v0.5.13 in
 * arg_groups/speculative_hook.py@28b095c0 _handle_eagle_family). A partial set is completed the
 * way SGLang itself ties them for topk = 1 (draft tokens = steps + 1).
 */
export function sglangSpecNumbers(s: SpeculativeKnob): { numSteps?: number; topk?: number; draftTokens?: number } {
  if (s.method === 'ngram') return { numSteps: s.numSteps, topk: s.topk, draftTokens: s.draftTokens };
  const given = [s.numSteps, s.topk, s.draftTokens].filter((x) => x !== undefined).length;
  if (given === 0 || given === 3) return { numSteps: s.numSteps, topk: s.topk, draftTokens: s.draftTokens };
  const topk = s.topk ?? 1;
  if (topk === 1) {
    const numSteps = s.numSteps ?? (s.draftTokens !== undefined ? s.draftTokens - 1 : undefined);
    const draftTokens = s.draftTokens ?? (numSteps !== undefined ? numSteps + 1 : undefined);
    if (numSteps !== undefined && numSteps >= 1 && draftTokens !== undefined) return { numSteps, topk, draftTokens };
  }
  throw new UserError(
    `SGLang needs --speculative-num-steps, --speculative-eagle-topk and --speculative-num-draft-tokens together for ${s.method} (got steps=${s.numSteps ?? '-'} topk=${s.topk ?? '-'} draft-tokens=${s.draftTokens ?? '-'}); give all three or none`,
  );
}

function attentionFlags(argv: string[], backend: string, version: string): void {
  if (PREFILL_ONLY[backend]) {
    flag(argv, SGLANG_TABLE.mustRow('attentionBackend.prefill', version).name, PREFILL_ONLY[backend]);
    return;
  }
  const r = SGLANG_TABLE.mustRow('attentionBackend', version);
  flag(argv, r.name, SGLANG_TABLE.engineValue(r, backend, version));
}

const PLAIN = ['quantization', 'maxBatchedTokens', 'maxRunningSeqs', 'memFraction'] as const;

export function sglangEngineArgv(variant: Variant, ctx: LaunchContext): { argv: string[]; env: Record<string, string> } {
  const k = variant.knobs;
  const version = resolveVersion('sglang', variant.engineVersion).table;
  const row = (knob: string) => SGLANG_TABLE.mustRow(knob, version);
  const argv = ['python3', '-m', 'sglang.launch_server', '--model-path', variant.model];
  flag(argv, '--host', engineHost(ctx));
  flag(argv, '--port', ctx.port);
  for (const knob of ['tp', 'pp', 'dp', 'ep'] as const) if ((k[knob] ?? 1) > 1) flag(argv, row(knob).name, k[knob]);
  flag(argv, row('dpAttention').name, k.dpAttention === true);
  if (k.kvCacheDtype && k.kvCacheDtype !== 'auto')
    flag(argv, row('kvCacheDtype').name, SGLANG_TABLE.engineValue(row('kvCacheDtype'), k.kvCacheDtype, version));
  for (const knob of PLAIN) flag(argv, row(knob).name, k[knob]);
  if (k.attentionBackend) attentionFlags(argv, k.attentionBackend, version);
  flag(argv, row('torchCompile').name, k.torchCompile === true);
  flag(argv, row('cudaGraph').name, k.cudaGraph === false);
  if (k.speculative) {
    const s = k.speculative;
    const n = sglangSpecNumbers(s);
    flag(argv, row('speculative.method').name, SGLANG_TABLE.engineValue(row('speculative.method'), s.method, version));
    flag(argv, row('speculative.draftModel').name, s.draftModel);
    flag(argv, row('speculative.numSteps').name, n.numSteps);
    flag(argv, row('speculative.topk').name, n.topk);
    flag(argv, row('speculative.draftTokens').name, n.draftTokens);
  }
  flag(argv, row('maxModelLen').name, k.maxModelLen);
  // /metrics exists only with --enable-metrics; servelab reads it while benchmarking.
  flag(argv, row('plumbing.metrics').name, true);
  if (k.dpAttention && (k.dp ?? 1) > 1) flag(argv, row('plumbing.ncclPort').name, ctx.port + SGLANG_DP_ATTENTION_PORTS.nccl);
  argv.push(...sglangCacheArgs(k, version));
  if (k.extraArgs?.length) argv.push(...k.extraArgs);
  return { argv, env: baseEnv(ctx, variant.knobs) };
}

/** The radix cache's flags (the cache stage): off, the admission order, the hierarchical (host-memory) tier. */
function sglangCacheArgs(k: Variant['knobs'], version: string): string[] {
  const row = (knob: string) => SGLANG_TABLE.mustRow(knob, version);
  const out: string[] = [];
  flag(out, row('prefixCaching').name, k.prefixCaching === false);
  if (k.schedulePolicy !== undefined)
    flag(out, row('schedulePolicy').name, SGLANG_TABLE.engineValue(row('schedulePolicy'), k.schedulePolicy, version));
  if (k.kvOffloadGiB !== undefined && k.kvOffloadGiB > 0)
    out.push(row('kvOffloadGiB.enable').name, row('kvOffloadGiB').name, String(Math.ceil(k.kvOffloadGiB)));
  return out;
}

export const SGLANG_SUPPORTS = SGLANG_TABLE.supportedKnobs();

export const sglang: EngineAdapter = {
  name: 'sglang',
  supports: SGLANG_SUPPORTS,
  attentionBackends: SGLANG_TABLE.rowsAt().find((r) => r.knob === 'attentionBackend')!.candidates!,
  metricsPath: '/metrics',
  // python/sglang/srt/entrypoints/openai/usage_processor.py (sgl-project/sglang@056c7ec2):
  // usage.prompt_tokens_details.cached_tokens from meta_info.cached_tokens, only under
  // --enable-cache-report (server_args enable_cache_report=False), and left out when it is 0.
  cacheReport: {
    fields: ['usage.prompt_tokens_details.cached_tokens', 'meta_info.cached_tokens'],
    enableFlag: '--enable-cache-report',
    source: 'python/sglang/srt/entrypoints/openai/usage_processor.py (calculate_streaming_usage, enable_cache_report)',
  },
  command(variant, ctx): LaunchSpec {
    const { argv, env } = sglangEngineArgv(variant, ctx);
    const spec = finishSpec('sglang', argv, env, [], ctx, /The server is fired up and ready to roll!/);
    // With DP-attention SGLang binds port+13 and port+233 ... port+238, plus the NCCL port, which
    // servelab fixes with --nccl-port so all of them can be checked before launch.
    if (variant.knobs.dpAttention && (variant.knobs.dp ?? 1) > 1) spec.extraPorts = sglangDpAttentionPorts(ctx.port);
    return spec;
  },
  classifyFailure: (lines, exit, ctx) => classifyWith(SHARED_FAILURE_RULES, 'sglang', lines, exit, ctx),
  parseMetrics: (text) =>
    pickMetrics(text, {
      running: ['sglang:num_running_reqs'],
      waiting: ['sglang:num_queue_reqs'],
      kvUsage: ['sglang:token_usage'],
      // A cumulative counter in newer releases (srt/metrics/collector.py). `sglang:num_retracted_reqs`
      // is a per-step gauge, not a total, so it is not read as one.
      preemptions: ['sglang:num_retracted_requests_total'],
    }),
  detect: (opts) => detectGpuEngine('sglang', opts),
  label: ENGINE_LABEL.sglang,
  defaultPort: 30000,
  modelFiles: 'checkpoint',
  image: 'lmsysorg/sglang',
  officialImage: (v) => `lmsysorg/sglang:${v ? `v${v}` : 'latest'}`,
  launches: (exe, a1, a2) => PYTHON.test(exe) && a1 === '-m' && a2 === 'sglang.launch_server',
  distInitPorts: sglangDistInitPorts,
  multiNodeRanks: (argv, _k, l) => sglangRanks(argv, l),
  leaderWorkerSet: true,
  cacheStage: sglangCacheStage,
  rocm: SGLANG_ROCM,
};

const PYTHON = /^python(3(\.\d+)?)?$/;
