// runBenchmark: the load loop of `vllm bench serve` (arrivals, concurrency cap, warm-ups, ready
// check), with live events, client self-monitoring and clean abort.
import { performance } from 'node:perf_hooks';
import { UserError } from '../core/errors.js';
import { log } from '../core/logger.js';
import { arrivalDelays } from './arrivals.js';
import { Semaphore, sleep } from './async.js';
import { checkReachable, readyCheck } from './ready.js';
import { nowS, type Backend, type RawOutput } from './client.js';
import { inlineSender, type BaseClientOptions, type Sender } from './sender.js';
import { LiveTracker } from './live.js';
import { calculateMetrics } from './metrics.js';
import { ClientMonitor } from './monitor.js';
import { countWords } from './tokenizer.js';
import type {
  BenchEvent,
  BenchResult,
  GoodputSlo,
  LatencyMetric,
  RequestOutput,
  SampledRequest,
  TokenCountMode,
} from './types.js';

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
}

export function resolveUrl(baseUrl: string, endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl.replace(/\/+$/, '') + (endpoint.startsWith('/') ? endpoint : `/${endpoint}`));
  } catch {
    throw new UserError(`invalid --base-url '${baseUrl}': expected something like http://127.0.0.1:8000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(`--base-url must be http:// or https://, got '${baseUrl}'`);
  return url;
}

export async function runBenchmark(opts: RunOptions): Promise<BenchResult> {
  const backend: Backend = opts.backend ?? 'openai-chat';
  const endpoint = opts.endpoint ?? (backend === 'openai-chat' ? '/v1/chat/completions' : '/v1/completions');
  if (backend === 'openai-chat' && !endpoint.replace(/\/+$/, '').endsWith('chat/completions')) {
    throw new UserError(`the openai-chat backend needs an endpoint ending in 'chat/completions', got '${endpoint}'`);
  }
  if (backend === 'openai' && !/completions\/?$/.test(endpoint)) {
    throw new UserError(`the openai backend needs an endpoint ending in 'completions', got '${endpoint}'`);
  }
  const url = resolveUrl(opts.baseUrl, endpoint);
  const requests = opts.requests;
  if (requests.length === 0) throw new UserError('no requests to send (the workload is empty)');
  const requestRate = opts.requestRate ?? Infinity;
  if (!(requestRate > 0)) throw new UserError(`--request-rate must be > 0 or inf, got ${requestRate}`);
  const burstiness = opts.burstiness ?? 1;
  if (!(burstiness > 0)) throw new UserError(`--burstiness must be > 0, got ${burstiness}`);
  const maxConcurrency = opts.maxConcurrency ?? null;
  if (maxConcurrency !== null && !(Number.isInteger(maxConcurrency) && maxConcurrency > 0)) {
    throw new UserError(`--max-concurrency must be a positive integer, got ${maxConcurrency}`);
  }
  const percentileMetrics = opts.percentileMetrics ?? ['ttft', 'tpot', 'itl'];
  const metricPercentiles = opts.metricPercentiles ?? [99];
  const signal = opts.signal;
  // A listener that throws must not kill the run (it would throw inside socket callbacks).
  let listenerFailed = false;
  const emit = opts.onEvent
    ? (e: BenchEvent) => {
        try {
          opts.onEvent!(e);
        } catch (err) {
          if (!listenerFailed) log.warn(`bench event listener failed (further failures not shown): ${(err as Error).message}`);
          listenerFailed = true;
        }
      }
    : undefined;
  const countOut = opts.countOutputTokens ?? countWords;
  const startedAt = new Date();

  const idPrefix = `bench-${Math.random().toString(16).slice(2, 10)}-`;
  const base: BaseClientOptions = {
    url: url.href,
    backend,
    model: opts.servedModelName ?? opts.model,
    ignoreEos: opts.ignoreEos ?? false,
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    headers: opts.headers ?? {},
    ...((opts.apiKey ?? process.env.OPENAI_API_KEY) ? { apiKey: opts.apiKey ?? process.env.OPENAI_API_KEY } : {}),
    ...(opts.extraBody ? { extraBody: opts.extraBody } : {}),
  };
  const timeoutMs = (opts.requestTimeoutSec ?? 6 * 3600) * 1000;

  let snapTimer: NodeJS.Timeout | undefined;
  let monitor: ClientMonitor | undefined;
  let sender: Sender | undefined;
  const stopSending = () => sender?.abort();
  signal?.addEventListener('abort', stopSending, { once: true });
  try {
    await checkReachable(url);
    sender = inlineSender(base, maxConcurrency ?? Infinity, timeoutMs);
    const send = sender.send;
    if (signal?.aborted) sender.abort();
    const first = requests[0]!;
    if ((opts.readyCheckTimeoutSec ?? 0) > 0) await readyCheck(opts.readyCheckTimeoutSec!, () => send(first, `${idPrefix}ready`, {}), signal);

    const sem = new Semaphore(maxConcurrency ?? Infinity);
    const warmups = opts.numWarmups ?? 0;
    if (warmups > 0 && !signal?.aborted) {
      const ws = await Promise.all(
        Array.from({ length: warmups }, async (_, i) => {
          await sem.acquire();
          try {
            return await send(first, `${idPrefix}warmup-${i}`, {});
          } finally {
            sem.release();
          }
        }),
      );
      const bad = ws.filter((w) => !w.success);
      if (bad.length === warmups && !signal?.aborted) {
        throw new UserError(`all ${warmups} warm-up requests failed: ${bad[0]!.error}`, 1);
      }
    }

    const delays = arrivalDelays(requests.length, requestRate, burstiness, opts.seed ?? 0);
    const outputs: (RequestOutput | undefined)[] = new Array(requests.length);
    const live = new LiveTracker(requests.length);
    monitor = new ClientMonitor();
    monitor.start();
    const mon = monitor;
    const benchStart = nowS();
    const onAbort = () => sem.drain();
    signal?.addEventListener('abort', onAbort, { once: true });
    snapTimer = emit
      ? setInterval(() => {
          const w = mon.window();
          const now = nowS();
          emit({ type: 'snapshot', snapshot: live.snapshot(now, now - benchStart, w.clientBound) });
        }, opts.snapshotIntervalMs ?? 1000)
      : undefined;

    const runOne = async (i: number) => {
      await sem.acquire();
      if (signal?.aborted) return;
      const req = requests[i]!;
      live.running++;
      let raw: RawOutput;
      try {
        if (emit) emit({ type: 'request-started', index: i, t: nowS() - benchStart });
        raw = await send(
          req,
          `${idPrefix}${i}`,
          {
            // Without a listener there is no live view to keep: no per-event work at all.
            ...(emit && {
              onFirst: (ts: number, ttft: number) => {
                live.firstToken(ts, ttft, req.promptLen);
                emit({ type: 'first-token', index: i, t: ts - benchStart, ttft });
              },
              onToken: (ts: number, gap: number) => {
                live.token(ts);
                live.itl(gap);
                emit({ type: 'token', index: i, t: ts - benchStart, gap });
              },
            }),
          },
        );
      } finally {
        live.running--;
        sem.release();
      }
      // Stopped by our abort: neither finished nor failed; left out of the results.
      if (!raw.success && signal?.aborted) return;
      const out: RequestOutput = {
        success: raw.success,
        promptLen: raw.success ? (raw.promptTokens ?? req.promptLen) : req.promptLen,
        outputLen: raw.success ? raw.completionTokens || countOut(raw.generatedText) : 0,
        ttft: raw.ttft,
        itl: raw.itl,
        latency: raw.latency,
        startTime: raw.st - benchStart,
        generatedText: raw.generatedText,
        error: raw.error,
      };
      outputs[i] = out;
      const t = nowS() - benchStart;
      if (out.success) {
        live.finished(out.ttft, out.latency, out.outputLen);
        if (emit) emit({ type: 'request-finished', index: i, t, output: out });
      } else {
        live.failed++;
        if (emit) emit({ type: 'request-failed', index: i, t, error: out.error });
      }
    };

    const tasks: Promise<void>[] = [];
    for (let i = 0; i < requests.length; i++) {
      if (signal?.aborted) break;
      const wait = benchStart + delays[i]! - nowS();
      if (wait > 0) await sleep(wait * 1000, signal);
      else if ((i & 15) === 15) await new Promise<void>((r) => setImmediate(r));
      if (signal?.aborted) break;
      // (Launching a burst of 1000 requests takes ~0.3 s of CPU: yielding every 16 lets the
      // replies of the first ones be stamped when they arrive, not after the whole burst.)
      tasks.push(runOne(i));
    }
    await Promise.all(tasks);
    const duration = nowS() - benchStart;
    clearInterval(snapTimer);
    signal?.removeEventListener('abort', onAbort);
    const clientStats = mon.stop();
    const done = outputs.filter((o): o is RequestOutput => o !== undefined);
    const aborted = signal?.aborted ?? false;
    const clientBound = clientStats.reasons.length > 0;
    if (emit) {
      const snap = live.snapshot(nowS(), duration, clientBound);
      emit({ type: 'snapshot', snapshot: snap });
    }
    const metrics = calculateMetrics(done, duration, { percentileMetrics, metricPercentiles, ...(opts.goodput ? { goodput: opts.goodput } : {}) });
    const tokenCounts = opts.tokenCounts ?? 'approximate';
    const notes: string[] = [];
    if (tokenCounts === 'approximate') notes.push('token counts are approximate (no tokenizer): one word = one token; totals use the server usage reports when given');
    if (clientBound) notes.push(`client-bound: ${clientStats.reasons.join('; ')}; latencies include the client's own delay`);
    if (aborted) notes.push(`aborted: ${done.length} of ${requests.length} requests finished`);
    return {
      metrics,
      outputs: done,
      config: {
        backend,
        endpointType: backend,
        ...(opts.label ? { label: opts.label } : {}),
        modelId: opts.model,
        ...(opts.tokenizerId ? { tokenizerId: opts.tokenizerId } : {}),
        numPrompts: requests.length,
        requestRate,
        burstiness,
        maxConcurrency,
        percentileMetrics,
        metricPercentiles,
        ...(opts.goodput ? { goodput: opts.goodput } : {}),
      },
      clientBound,
      client: clientStats,
      tokenCounts,
      aborted,
      notes,
      startedAt: startedAt.toISOString(),
      clockOriginMs: performance.timeOrigin + benchStart * 1000,
    };
  } finally {
    signal?.removeEventListener('abort', stopSending);
    clearInterval(snapTimer);
    monitor?.stop();
    sender?.close();
  }
}

