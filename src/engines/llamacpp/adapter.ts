// llama.cpp (`llama-server`). Every spelling comes from the knob table (llamacpp/knobs.ts);
// this file only says when a knob is given. The model is a GGUF file (-m); the served name (-a)
// is the variant's model, so clients send the name they were given. /metrics needs --metrics,
// which is always on; readiness is /health, which answers 503 {"error":{"message":"Loading
// model"}} until the model is loaded and 200 {"status":"ok"} after (tools/server/server-http.cpp).
import { llamacppCacheStage } from './cache-stage.js';
import { UserError } from '../../core/errors.js';
import { ENGINE_LABEL, type Variant } from '../../core/variant.js';
import { baseEnv, engineHost, finishSpec, flag } from '../kit/argv.js';
import { LLAMACPP_TABLE } from './knobs.js';

import { resolveVersion } from '../data/versions.js';
import { amxRepackCrash, LLAMACPP_RULES } from './failure-rules.js';
import { SHARED_FAILURE_RULES } from '../kit/failure-rules.js';
import { buildLlamaCpp } from '../../host/llamacpp-build.js';
import { classifyWith } from '../kit/classify.js';
import { detectLlamaCpp, findLlamaServer } from './detect.js';
import { parsePrometheus, pickMetrics } from '../kit/metrics.js';
import { LLAMACPP_PLANNING } from './planning.js';
import type { EngineAdapter, LaunchContext } from '../kit/types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

/** Knobs whose value passes through as `flag value` (or maps through the row's values). */
const PLAIN = [
  'maxRunningSeqs',
  'ctxPerSlot',
  'maxBatchedTokens',
  'ubatch',
  'flashAttn',
  'threads',
  'threadsBatch',
  'cacheReuse',
  'cacheRamMiB',
  'gpuLayers',
  'splitMode',
  'tensorSplit',
  'slotPromptSimilarity',
] as const;
/** Boolean knobs spelled as one of two flags (`-kvu` / `-no-kvu`). */
const SWITCHES = ['kvUnified', 'contBatching', 'repack', 'prefixCaching'] as const;

/** -c: ctxSize as given, else slots x maxModelLen (llama-server has no per-request length). */
function contextFlag(k: Variant['knobs']): number | undefined {
  if (k.ctxSize !== undefined) return k.ctxSize;
  if (k.maxModelLen === undefined) return undefined;
  return k.maxModelLen * (k.maxRunningSeqs ?? 1);
}

function speculativeArgs(spec: NonNullable<Variant['knobs']['speculative']>, version: string): string[] {
  const row = (knob: string) => LLAMACPP_TABLE.mustRow(knob, version);
  const method = row('speculative.method');
  if (!method.values![spec.method]) {
    throw new UserError(
      `llama.cpp ${version} cannot decode speculatively with '${spec.method}' (use one of ${Object.keys(method.values!).join(', ')})`,
    );
  }
  // mtp drafts with the model's own MTP head (its nextn tensors) and ngram with the prompt: only
  // a separate drafter needs -md (knobs.ts, speculative.method).
  if ((spec.method === 'draft' || spec.method === 'eagle3') && !spec.draftModel)
    throw new UserError(`llama.cpp speculative '${spec.method}' needs a draft model (-md FILE.gguf)`);
  const out = [method.name, method.values![spec.method]!];
  if (spec.draftModel) out.push(row('speculative.draftModel').name, spec.draftModel);
  const n = spec.draftTokens ?? spec.numSteps;
  if (n !== undefined) out.push(row('speculative.draftTokens').name, String(n));
  return out;
}

export function llamacppArgv(variant: Variant, ctx: LaunchContext): string[] {
  const k = variant.knobs;
  const version = resolveVersion('llamacpp', variant.engineVersion).table;
  const row = (knob: string) => LLAMACPP_TABLE.mustRow(knob, version);
  const argv = ['llama-server', row('plumbing.model').name, variant.model, row('plumbing.alias').name, variant.model];
  flag(argv, '--host', engineHost(ctx));
  flag(argv, '--port', ctx.port);
  flag(argv, row('plumbing.metrics').name, true);
  flag(argv, row('ctxSize').name, contextFlag(k));
  for (const knob of PLAIN) {
    const v = k[knob];
    if (v !== undefined) flag(argv, row(knob).name, typeof v === 'string' ? LLAMACPP_TABLE.engineValue(row(knob), v, version) : v);
  }
  for (const knob of SWITCHES) if (k[knob] !== undefined) argv.push(row(knob).values![String(k[knob])]!);
  if (k.kvCacheDtype && k.kvCacheDtype !== 'auto')
    flag(argv, row('kvCacheDtype').name, LLAMACPP_TABLE.engineValue(row('kvCacheDtype'), k.kvCacheDtype, version));
  const v = k.vCacheDtype ?? (k.kvCacheDtype !== 'auto' ? k.kvCacheDtype : undefined);
  if (v) flag(argv, row('vCacheDtype').name, LLAMACPP_TABLE.engineValue(row('vCacheDtype'), v, version));
  if (k.fit !== undefined) flag(argv, row('fit').name, row('fit').values![String(k.fit)]);
  if (k.speculative) argv.push(...speculativeArgs(k.speculative, version));
  if (k.extraArgs?.length) argv.push(...k.extraArgs);
  return argv;
}

/** The engine's own throughput gauges (tools/server/server-task.cpp to_metrics at 80fb11a). */
export function llamacppRates(text: string): { promptTokPerS?: number; genTokPerS?: number } {
  const t = parsePrometheus(text);
  const prompt = t.get('llamacpp:prompt_tokens_seconds')?.sum;
  const gen = t.get('llamacpp:predicted_tokens_seconds')?.sum;
  return { ...(prompt !== undefined ? { promptTokPerS: prompt } : {}), ...(gen !== undefined ? { genTokPerS: gen } : {}) };
}

/** llama.cpp's own texts first (no other engine prints them), then the shared rules. */
const LLAMACPP_FAILURE_RULES = [...LLAMACPP_RULES, ...SHARED_FAILURE_RULES];

export const LLAMACPP_SUPPORTS = LLAMACPP_TABLE.supportedKnobs();

export const llamacpp: EngineAdapter = {
  name: 'llamacpp',
  supports: LLAMACPP_SUPPORTS,
  metricsPath: '/metrics',
  // Captured from llama-server 80fb11a (test/fixtures/bench/llamacpp-80fb11a-cached-chunk.txt): the
  // last streamed message carries timings.cache_n and usage.prompt_tokens_details.cached_tokens.
  cacheReport: {
    fields: ['timings.cache_n', 'usage.prompt_tokens_details.cached_tokens'],
    source: 'llama-server 80fb11a, captured (test/fixtures/bench/llamacpp-80fb11a-cached-chunk.txt)',
  },
  command(variant, ctx): LaunchSpec {
    if (ctx.runtime.kind === 'docker')
      throw new UserError('llama.cpp runs natively in servelab (give --llama-server PATH or run `servelab engines build llamacpp`)');
    // The server logs "llama_server: listening on http://HOST:PORT" once the socket is bound; the
    // model may still be loading then, so /health decides readiness.
    // argv[0] is the llama-server found (SERVELAB_LLAMA_SERVER, PATH, servelab's build) unless the
    // caller names one; the recorded engine argv keeps the plain `llama-server`.
    const executable = ctx.runtime.executable ?? findLlamaServer()?.path;
    const run = executable ? { ...ctx, runtime: { kind: 'native' as const, executable } } : ctx;
    return finishSpec(
      'llamacpp',
      llamacppArgv(variant, ctx),
      // GPUs pinned like any engine's (a parallel wave gives each variant its own); none on the CPU.
      baseEnv(ctx, variant.knobs),
      [],
      run,
      /llama_server: listening on http/,
    );
  },
  // A log text names the cause first; a bare SIGSEGV or SIGILL on an AMX repack launch is llama.cpp#20824.
  classifyFailure: (lines, exit, ctx = {}) => {
    const f = classifyWith(LLAMACPP_FAILURE_RULES, 'llamacpp', lines, exit, ctx);
    return f.kind === 'crash' ? (amxRepackCrash(lines, exit, ctx) ?? f) : f;
  },
  // No KV-usage gauge at 80fb11a (to_metrics lists none); running = slots processing, waiting = deferred.
  parseMetrics: (text) => ({
    ...pickMetrics(text, {
      running: ['llamacpp:requests_processing'],
      waiting: ['llamacpp:requests_deferred'],
      kvUsage: [],
      preemptions: [],
    }),
    ...llamacppRates(text),
  }),
  detect: (opts) => detectLlamaCpp(opts),
  label: ENGINE_LABEL.llamacpp,
  // llama-server: `--port PORT ... (default: 8080)`, tools/server/README.md at 80fb11a.
  defaultPort: 8080,
  modelFiles: 'gguf',
  // tools/server/README.md (llama.cpp 80fb11a): `ghcr.io/ggml-org/llama.cpp:server` (CPU), `:server-cuda`.
  image: 'ghcr.io/ggml-org/llama.cpp',
  // tagged by build number (b1234), not by 0.4.0-dev: `server` is the newest CPU image
  officialImage: () => 'ghcr.io/ggml-org/llama.cpp:server',
  launches: (exe) => exe === 'llama-server',
  oneNode: 'llama-server runs on one node',
  findExecutable: (given) => findLlamaServer(given)?.path,
  build: buildLlamaCpp,
  planning: LLAMACPP_PLANNING,
  cacheStage: llamacppCacheStage,
};
