// runBenchmark's options and their validation: shared by the in-process run (run.ts) and the
// sharded client (workers/sharded.ts), so both refuse the same bad input with the same one-line errors.
import { UserError } from '../../core/errors.js';
import { log } from '../../core/logger.js';
import type { Backend } from '../http/request-shapes.js';
import type { BaseClientOptions } from './sender.js';
import type { BenchEvent, SampledRequest, TokenCountMode } from '../types.js';
import type { GoodputSlo, LatencyMetric } from '../../core/metrics.js';

export interface RunOptions {
  /** e.g. http://127.0.0.1:8000 (vLLM --base-url; or build it from --host/--port). */
  baseUrl: string;
  /** Default /v1/chat/completions for openai-chat, /v1/completions for openai. */
  endpoint?: string;
  backend?: Backend;
  /** Model id: sent as `model` unless servedModelName is given; names the result file. */
  model: string;
  servedModelName?: string;
  tokenizerId?: string;
  requests: SampledRequest[];
  /** How the requests' promptLen were counted (Workload.tokenCounts). Default 'approximate'. */
  tokenCounts?: TokenCountMode;
  /** Output tokens of a response with no usage report (default: one word = one token). */
  countOutputTokens?: (text: string) => number;
  /** Requests per second; Infinity (default) starts them all at once. */
  requestRate?: number;
  burstiness?: number;
  seed?: number;
  maxConcurrency?: number | null;
  numWarmups?: number;
  /** Warm-ups to send in place of copies of the first request (cycled); none: vLLM's copies. */
  warmupRequests?: SampledRequest[];
  ignoreEos?: boolean;
  /** Not sent when undefined (vLLM main). */
  temperature?: number;
  headers?: Record<string, string>;
  /** Default process.env.OPENAI_API_KEY; no Authorization header when unset (vLLM main). */
  apiKey?: string;
  extraBody?: Record<string, unknown>;
  goodput?: GoodputSlo;
  percentileMetrics?: LatencyMetric[];
  metricPercentiles?: number[];
  /** > 0: send the first request until it succeeds, up to this many seconds (vLLM's ready check). */
  readyCheckTimeoutSec?: number;
  /** Per-request limit; vLLM's session timeout is 6 h. */
  requestTimeoutSec?: number;
  label?: string;
  signal?: AbortSignal;
  onEvent?: (e: BenchEvent) => void;
  /** Live snapshot period (default 1000 ms). */
  snapshotIntervalMs?: number;
  /** Where responses report cached prompt tokens (the engines' cacheReport fields; default the OpenAI usage field). */
  cacheFields?: readonly string[];
}

/** The options after validation and defaults: plain data (it crosses to shard workers). */
export interface CheckedRun {
  backend: Backend;
  url: string;
  requestRate: number;
  burstiness: number;
  maxConcurrency: number | null;
  percentileMetrics: LatencyMetric[];
  metricPercentiles: number[];
  base: BaseClientOptions;
  timeoutMs: number;
  /** x-request-id prefix: one per run, shared by every shard. */
  idPrefix: string;
}

export function resolveUrl(baseUrl: string, endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl.replace(/\/+$/, '') + (endpoint.startsWith('/') ? endpoint : `/${endpoint}`));
  } catch {
    throw new UserError(`invalid --base-url '${baseUrl}': expected something like http://127.0.0.1:8000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(`--base-url must be http:// or https://, got '${baseUrl}'`);
  return url;
}

function checkEndpoint(backend: Backend, endpoint: string): void {
  if (backend === 'openai-chat' && !endpoint.replace(/\/+$/, '').endsWith('chat/completions')) {
    throw new UserError(`the openai-chat backend needs an endpoint ending in 'chat/completions', got '${endpoint}'`);
  }
  if (backend === 'openai' && !/completions\/?$/.test(endpoint)) {
    throw new UserError(`the openai backend needs an endpoint ending in 'completions', got '${endpoint}'`);
  }
}

/** Validates the options (UserError on bad input) and fills the defaults. */
export function checkRun(opts: Omit<RunOptions, 'signal' | 'onEvent' | 'countOutputTokens'>): CheckedRun {
  const checked = checkRunOptions(opts);
  if (opts.requests.length === 0) throw new UserError('no requests to send (the workload is empty)');
  return checked;
}

/** checkRun less the workload: what a command checks before it loads prompts or prints anything. */
export function checkRunOptions(opts: Omit<RunOptions, 'signal' | 'onEvent' | 'countOutputTokens' | 'requests'>): CheckedRun {
  const backend: Backend = opts.backend ?? 'openai-chat';
  const endpoint = opts.endpoint ?? (backend === 'openai-chat' ? '/v1/chat/completions' : '/v1/completions');
  checkEndpoint(backend, endpoint);
  const url = resolveUrl(opts.baseUrl, endpoint);
  const requestRate = opts.requestRate ?? Infinity;
  if (!(requestRate > 0)) throw new UserError(`--request-rate must be > 0 or inf, got ${requestRate}`);
  const burstiness = opts.burstiness ?? 1;
  if (!(burstiness > 0)) throw new UserError(`--burstiness must be > 0, got ${burstiness}`);
  const maxConcurrency = opts.maxConcurrency ?? null;
  if (maxConcurrency !== null && !(Number.isInteger(maxConcurrency) && maxConcurrency > 0)) {
    throw new UserError(`--max-concurrency must be a positive integer, got ${maxConcurrency}`);
  }
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) || /[\r\n\0]/.test(String(v)))
      throw new UserError(`--header ${JSON.stringify(k)}: not a valid HTTP header name or value (a token name, no line breaks)`);
  }
  const apiKey = opts.apiKey ?? process.env.OPENAI_API_KEY;
  const base: BaseClientOptions = {
    url: url.href,
    backend,
    model: opts.servedModelName ?? opts.model,
    ignoreEos: opts.ignoreEos ?? false,
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    headers: opts.headers ?? {},
    ...(apiKey ? { apiKey } : {}),
    ...(opts.extraBody ? { extraBody: opts.extraBody } : {}),
    ...(opts.cacheFields ? { cacheFields: [...opts.cacheFields] } : {}),
  };
  return {
    backend,
    url: url.href,
    requestRate,
    burstiness,
    maxConcurrency,
    percentileMetrics: opts.percentileMetrics ?? ['ttft', 'tpot', 'itl'],
    metricPercentiles: opts.metricPercentiles ?? [99],
    base,
    timeoutMs: (opts.requestTimeoutSec ?? 6 * 3600) * 1000,
    idPrefix: `bench-${Math.random().toString(16).slice(2, 10)}-`,
  };
}

/** The listener wrapped so that one that throws cannot kill the run (it would throw inside socket callbacks). */
export function safeEmitter(onEvent: ((e: BenchEvent) => void) | undefined): ((e: BenchEvent) => void) | undefined {
  if (!onEvent) return undefined;
  let failed = false;
  return (e) => {
    try {
      onEvent(e);
    } catch (err) {
      if (!failed) log.warn(`bench event listener failed (further failures not shown): ${(err as Error).message}`);
      failed = true;
    }
  };
}
