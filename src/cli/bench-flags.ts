// `servelab bench`'s flags (vLLM's names) and what they turn into: the run options, the workload
// and the base URL. Shared by `servelab bench` and `servelab capacity --base-url`, which takes the
// same workload flags.
import type { FlagSpec } from './flags.js';
import { loadWorkload } from '../bench/datasets/datasets.js';
import { parseGoodput, parseMetricPercentiles, parsePercentileMetrics } from '../bench/metrics/goodput.js';
import type { RunOptions } from '../bench/load/run-options.js';
import type { Workload } from '../bench/types.js';
import { UserError } from '../core/errors.js';
import { DATASETS, type DatasetName } from '../core/dataset-names.js';
import { checkPrefixRepetition } from '../bench/datasets/prefix-repetition.js';
import { MULTI_TURN_FLAGS, multiTurnSpec } from './multi-turn-flags.js';

export const BENCH_FLAGS: Record<string, FlagSpec> = {
  'base-url': { kind: 'string', help: 'server URL, e.g. http://127.0.0.1:8000 (overrides --host/--port)', metavar: 'URL' },
  host: { kind: 'string', help: 'server host', default: '127.0.0.1' },
  port: { kind: 'number', help: 'server port', default: '8000' },
  endpoint: { kind: 'string', help: 'API path', metavar: 'PATH', default: '/v1/chat/completions (openai-chat), /v1/completions (openai)' },
  backend: { kind: 'string', help: 'openai-chat, or openai (vllm) for /v1/completions', default: 'openai-chat' },
  model: { kind: 'string', help: 'model id (default: the first of GET /v1/models)', metavar: 'ID' },
  'served-model-name': { kind: 'string', help: 'name sent as "model" when it differs from --model', metavar: 'NAME' },
  tokenizer: {
    kind: 'string',
    help: 'tokenizer.json, a folder with one, or a model id in the HF cache (default: --model)',
    metavar: 'PATH|ID',
  },
  'dataset-name': {
    kind: 'string',
    help: 'sharegpt, random, custom (a JSONL of {"prompt", "output_tokens"}), prefix_repetition, mooncake_trace (a JSONL trace), or multi_turn',
    default: 'random',
  },
  'dataset-path': {
    kind: 'string',
    help: "ShareGPT JSON file, the custom .jsonl, the Mooncake-format trace .jsonl, or vLLM's multi-turn input JSON",
    metavar: 'FILE',
  },
  'num-prompts': { kind: 'number', help: 'requests to send', default: '1000' },
  'request-rate': { kind: 'number', help: 'requests per second, or inf to send all at once', default: 'inf' },
  burstiness: { kind: 'number', help: 'gamma shape of arrivals (1 = Poisson, lower = burstier)', default: '1.0' },
  'max-concurrency': { kind: 'number', help: 'cap on requests in flight (multi_turn: concurrent users, default 8)' },
  'num-warmups': { kind: 'number', help: 'warm-up requests before measuring', default: '0' },
  'ready-check-timeout-sec': { kind: 'number', help: 'retry a test request until the server answers, up to N s (0 = skip)', default: '0' },
  'request-timeout': { kind: 'number', help: 'fail a request that takes longer than N s', default: '21600 (6 h, as vLLM)' },
  'ignore-eos': { kind: 'boolean', help: 'send ignore_eos: true (always on for the random dataset, as in vLLM main)' },
  temperature: { kind: 'number', help: 'sampling temperature (not sent unless given)' },
  'extra-body': { kind: 'string', help: 'JSON object merged into each request body', metavar: 'JSON' },
  header: { kind: 'list', help: 'extra HTTP headers', metavar: 'KEY=VALUE...' },
  seed: { kind: 'number', help: 'seed for sampling and arrivals', default: '0' },
  'random-input-len': { kind: 'number', help: 'random dataset: input tokens', default: '1024' },
  'random-output-len': { kind: 'number', help: 'random dataset: output tokens', default: '128' },
  'random-range-ratio': { kind: 'number', help: 'random dataset: lengths vary within [1-r, 1+r]', default: '0.0' },
  'random-prefix-len': { kind: 'number', help: 'random dataset: shared prefix tokens', default: '0' },
  'sharegpt-output-len': { kind: 'number', help: 'ShareGPT: fixed output length instead of the reference reply' },
  'custom-output-len': {
    kind: 'number',
    help: "custom dataset: output tokens per request; -1 = each line's output_tokens",
    default: '256',
  },
  'skip-chat-template': {
    kind: 'boolean',
    help: 'custom dataset: count the prompt as written (servelab never applies a chat template client-side)',
  },
  'no-oversample': { kind: 'boolean', help: 'ShareGPT: do not repeat samples when too few pass the filter' },
  // vLLM's prefix_repetition flags and defaults: vllm/benchmarks/datasets/arg_utils.py (vllm-project/vllm@237145ea).
  'prefix-repetition-prefix-len': { kind: 'number', help: 'prefix_repetition: tokens of each shared prefix', default: '256' },
  'prefix-repetition-suffix-len': { kind: 'number', help: 'prefix_repetition: tokens after the prefix, new per request', default: '256' },
  'prefix-repetition-num-prefixes': {
    kind: 'number',
    help: 'prefix_repetition: distinct prefixes (num-prompts // this share each)',
    default: '10',
  },
  'prefix-repetition-output-len': { kind: 'number', help: 'prefix_repetition: output tokens per request', default: '128' },
  'disable-shuffle': { kind: 'boolean', help: 'prefix_repetition: keep the requests of one prefix together (vLLM)' },
  'trace-block-size': { kind: 'number', help: 'mooncake_trace: tokens per hash id (equal ids = equal token blocks)', default: '512' },
  'trace-speedup': {
    kind: 'number',
    help: 'mooncake_trace: replay N times faster than the recorded timestamps (--request-rate is unused)',
    default: '1',
  },
  ...MULTI_TURN_FLAGS,
  goodput: { kind: 'list', help: 'SLOs for goodput in ms', metavar: 'KEY:MS...' },
  'percentile-metrics': { kind: 'string', help: 'metrics with percentiles, from ttft,tpot,itl,e2el', default: 'ttft,tpot,itl' },
  'metric-percentiles': { kind: 'string', help: 'percentiles to report, comma-separated', default: '99' },
  'save-result': { kind: 'boolean', help: 'write the result JSON (vLLM key names and file naming)' },
  'save-detailed': { kind: 'boolean', help: 'add per-request arrays to the result JSON' },
  'append-result': { kind: 'boolean', help: 'append to the result file instead of replacing it' },
  'result-dir': { kind: 'string', help: 'folder for the result file', metavar: 'DIR' },
  'result-filename': { kind: 'string', help: 'result file name', metavar: 'NAME' },
  label: { kind: 'string', help: 'prefix of the result file name (default: the backend)' },
  metadata: { kind: 'list', help: 'extra KEY=VALUE pairs stored in the result JSON', metavar: 'KEY=VALUE...' },
  'client-threads': {
    kind: 'string',
    help: 'client worker threads to shard the requests over (auto = one per core); 1 = one client, on this thread',
    metavar: 'N|auto',
    default: '1',
  },
  'disable-tqdm': { kind: 'boolean', help: 'no progress bar' },
  json: { kind: 'boolean', help: 'print the result JSON to stdout instead of the block' },
  'wall-clock': { kind: 'boolean', help: 'against a servelab simulator: keep wall-clock figures (default: convert to simulated GPU time)' },
  'trust-remote-code': { kind: 'boolean', help: 'accepted for compatibility; ignored' },
  help: { kind: 'boolean', help: 'show this help' },
};

export function pairs(values: string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UserError(`invalid --${flag} '${v}': use KEY=VALUE`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

export type Flags = Record<string, unknown>;

/** Other names of a backend: vLLM's client calls its completions backend `vllm`. */
const BACKEND_ALIAS: Readonly<Record<string, string>> = { vllm: 'openai' };

/** The run's options from the flags (everything but the workload, model and live hooks). */
export function runFlags(flags: Flags): Omit<RunOptions, 'baseUrl' | 'model' | 'requests'> & { dataset: DatasetName } {
  // vLLM's `--backend vllm` is its completions client; accept it as the same thing.
  const backendFlag = (flags.backend as string | undefined) ?? 'openai-chat';
  const backend = BACKEND_ALIAS[backendFlag] ?? backendFlag;
  if (backend !== 'openai-chat' && backend !== 'openai')
    throw new UserError(`bench: --backend must be openai-chat, openai or vllm, got '${backendFlag}'`);
  const dataset = ((flags['dataset-name'] as string | undefined) ?? 'random').replace(/-/g, '_') as DatasetName;
  if (!DATASETS.includes(dataset))
    throw new UserError(`bench: --dataset-name must be one of ${DATASETS.join(', ')}, got '${flags['dataset-name'] as string}'`);
  if (dataset === 'mooncake_trace' && flags['dataset-path'] === undefined)
    throw new UserError(
      'bench: --dataset-name mooncake_trace needs --dataset-path FILE (a Mooncake-format JSONL trace; `servelab trace-gen` writes one)',
    );
  if (dataset === 'prefix_repetition') checkPrefixRepetition(prefixRepetitionSpec(flags));
  if (dataset === 'multi_turn') multiTurnSpec(flags);
  let extraBody: Record<string, unknown> | undefined;
  if (flags['extra-body'] !== undefined) {
    try {
      extraBody = JSON.parse(flags['extra-body'] as string) as Record<string, unknown>;
    } catch {
      throw new UserError('bench: --extra-body must be a JSON object, e.g. \'{"top_p": 0.9}\'');
    }
  }
  const goodput = flags.goodput ? parseGoodput(flags.goodput as string[]) : undefined;
  return {
    dataset,
    ...(flags.endpoint !== undefined ? { endpoint: flags.endpoint as string } : {}),
    backend,
    ...(flags['served-model-name'] !== undefined ? { servedModelName: flags['served-model-name'] as string } : {}),
    requestRate: (flags['request-rate'] as number | undefined) ?? Infinity,
    burstiness: (flags.burstiness as number | undefined) ?? 1,
    seed: (flags.seed as number | undefined) ?? 0,
    maxConcurrency: (flags['max-concurrency'] as number | undefined) ?? null,
    numWarmups: (flags['num-warmups'] as number | undefined) ?? 0,
    // vLLM main (PR #28227) forces ignore_eos for random prompts: their outputs must have the asked length.
    ignoreEos: Boolean(flags['ignore-eos']) || dataset === 'random',
    ...(flags.temperature !== undefined ? { temperature: flags.temperature as number } : {}),
    headers: pairs(flags.header as string[] | undefined, 'header'),
    ...(extraBody ? { extraBody } : {}),
    ...(goodput ? { goodput } : {}),
    percentileMetrics: parsePercentileMetrics((flags['percentile-metrics'] as string | undefined) ?? 'ttft,tpot,itl'),
    metricPercentiles: parseMetricPercentiles((flags['metric-percentiles'] as string | undefined) ?? '99'),
    ...(flags['request-timeout'] !== undefined ? { requestTimeoutSec: flags['request-timeout'] as number } : {}),
    readyCheckTimeoutSec: (flags['ready-check-timeout-sec'] as number | undefined) ?? 0,
    ...(flags.label !== undefined ? { label: flags.label as string } : {}),
  };
}

export async function loadBenchWorkload(flags: Flags, dataset: DatasetName, model: string): Promise<Workload> {
  const tokenizer = flags.tokenizer as string | undefined;
  return loadWorkload({
    dataset,
    ...(flags['dataset-path'] !== undefined ? { path: flags['dataset-path'] as string } : {}),
    numPrompts: (flags['num-prompts'] as number | undefined) ?? 1000,
    ...(flags['random-input-len'] !== undefined ? { randomInputLen: flags['random-input-len'] as number } : {}),
    ...(flags['random-output-len'] !== undefined ? { randomOutputLen: flags['random-output-len'] as number } : {}),
    ...(flags['random-range-ratio'] !== undefined ? { randomRangeRatio: flags['random-range-ratio'] as number } : {}),
    ...(flags['random-prefix-len'] !== undefined ? { randomPrefixLen: flags['random-prefix-len'] as number } : {}),
    ...(flags['sharegpt-output-len'] !== undefined ? { sharegptOutputLen: flags['sharegpt-output-len'] as number } : {}),
    // vLLM's default --custom-output-len is 256 (benchmarks/datasets.py); -1 uses each line's output_tokens.
    ...(dataset === 'custom' ? { customOutputLen: (flags['custom-output-len'] as number | undefined) ?? 256 } : {}),
    seed: (flags.seed as number | undefined) ?? 0,
    ...(tokenizer ? { tokenizer } : {}),
    model,
    noOversample: Boolean(flags['no-oversample']),
    ...(flags['prefix-repetition-prefix-len'] !== undefined
      ? { prefixRepetitionPrefixLen: flags['prefix-repetition-prefix-len'] as number }
      : {}),
    ...(flags['prefix-repetition-suffix-len'] !== undefined
      ? { prefixRepetitionSuffixLen: flags['prefix-repetition-suffix-len'] as number }
      : {}),
    ...(flags['prefix-repetition-num-prefixes'] !== undefined
      ? { prefixRepetitionNumPrefixes: flags['prefix-repetition-num-prefixes'] as number }
      : {}),
    ...(flags['prefix-repetition-output-len'] !== undefined
      ? { prefixRepetitionOutputLen: flags['prefix-repetition-output-len'] as number }
      : {}),
    ...(flags['disable-shuffle'] ? { disableShuffle: true } : {}),
    ...(flags['trace-block-size'] !== undefined ? { traceBlockSize: flags['trace-block-size'] as number } : {}),
    ...(flags['trace-speedup'] !== undefined ? { traceSpeedup: flags['trace-speedup'] as number } : {}),
  });
}

/** The prefix_repetition flags as the dataset's spec. */
function prefixRepetitionSpec(flags: Flags) {
  return {
    numPrompts: (flags['num-prompts'] as number | undefined) ?? 1000,
    prefixLen: flags['prefix-repetition-prefix-len'] as number | undefined,
    suffixLen: flags['prefix-repetition-suffix-len'] as number | undefined,
    numPrefixes: flags['prefix-repetition-num-prefixes'] as number | undefined,
    outputLen: flags['prefix-repetition-output-len'] as number | undefined,
  };
}

function prefixRepetitionWorkload(p: ReturnType<typeof prefixRepetitionSpec>) {
  return {
    ...(p.prefixLen !== undefined ? { prefixRepetitionPrefixLen: p.prefixLen } : {}),
    ...(p.suffixLen !== undefined ? { prefixRepetitionSuffixLen: p.suffixLen } : {}),
    ...(p.numPrefixes !== undefined ? { prefixRepetitionNumPrefixes: p.numPrefixes } : {}),
    ...(p.outputLen !== undefined ? { prefixRepetitionOutputLen: p.outputLen } : {}),
  };
}

/** A base URL the client can send to: a typo is bad input (one line), not an internal error from `new URL`. */
export function checkBaseUrl(url: string): string {
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new UserError(`bench: --base-url must be an http:// or https:// URL, e.g. http://127.0.0.1:8000, got '${url}'`);
  return url;
}
