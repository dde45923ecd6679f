// One streamed request to an OpenAI-compatible server, timed the way vLLM's
// endpoint_request_func.py times it (vLLM main semantics; see docs/bench.md).
import { performance } from 'node:perf_hooks';
import { socketErrorText, type Conn, type ConnPool } from './conn-pool.js';
import { nameEngineError } from './engine-errors.js';
import { ResponseReader } from './response-reader.js';
import type { SseMessage } from './sse.js';

export type Backend = 'openai-chat' | 'openai';

export interface RequestSpec {
  prompt: string;
  promptLen: number;
  expectedOutputLen: number;
}

export interface ClientOptions {
  url: URL;
  backend: Backend;
  model: string;
  ignoreEos: boolean;
  /** undefined: not sent (vLLM main); a number: sent as `temperature`. */
  temperature?: number;
  headers: Record<string, string>;
  apiKey?: string;
  /** Keep-alive connections (conn-pool.ts). */
  pool: ConnPool;
  /** Extra body fields merged last (vLLM --extra-body). */
  extraBody?: Record<string, unknown>;
  requestId: string;
}

/** Per-request callbacks, in seconds of performance.now()/1000. */
export interface StreamHooks {
  onFirst?(ts: number, ttft: number): void;
  onToken?(ts: number, gap: number): void;
}

export interface RawOutput {
  success: boolean;
  /** performance.now()/1000 when the request was sent. */
  st: number;
  ttft: number;
  itl: number[];
  latency: number;
  generatedText: string;
  error: string;
  /** usage.completion_tokens / usage.prompt_tokens when the server reported them. */
  completionTokens?: number;
  promptTokens?: number;
  /** Number of choice events (vLLM's peak-throughput unit). */
  chunks: number;
  /**
   * performance.now()/1000 when the request's bytes were handed to the OS (a diagnostic, not a
   * vLLM field): sentS - st is the client's own send delay, which TTFT includes.
   */
  sentS?: number;
}

export function nowS(): number {
  return performance.now() / 1000;
}

export function buildBody(
  spec: RequestSpec,
  o: Pick<ClientOptions, 'backend' | 'model' | 'ignoreEos' | 'temperature' | 'extraBody'>,
): Record<string, unknown> {
  const body: Record<string, unknown> =
    o.backend === 'openai-chat'
      ? {
          model: o.model,
          messages: [{ role: 'user', content: spec.prompt }],
          max_completion_tokens: spec.expectedOutputLen,
          stream: true,
          stream_options: { include_usage: true },
        }
      : {
          model: o.model,
          prompt: spec.prompt,
          repetition_penalty: 1.0,
          max_tokens: spec.expectedOutputLen,
          logprobs: null,
          stream: true,
          stream_options: { include_usage: true },
        };
  if (o.temperature !== undefined) body.temperature = o.temperature;
  if (o.ignoreEos) body.ignore_eos = true;
  if (o.extraBody) Object.assign(body, o.extraBody);
  return body;
}

/** Text of a choice event: chat delta content (and reasoning), or completions text. */
function choiceText(choice: unknown): string {
  if (!choice || typeof choice !== 'object') return '';
  const c0 = choice as Record<string, unknown>;
  const delta = c0.delta as Record<string, unknown> | null | undefined;
  if (delta && typeof delta === 'object') {
    const c = delta.content;
    const r = delta.reasoning_content ?? delta.reasoning;
    return (typeof c === 'string' ? c : '') + (typeof r === 'string' ? r : '');
  }
  return typeof c0.text === 'string' ? c0.text : '';
}

function errorText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const m = (v as { message?: unknown }).message;
    if (typeof m === 'string') return m;
  }
  return JSON.stringify(v);
}

interface StreamState {
  out: RawOutput;
  /** Stamp of the last choice event (latency ends there: vLLM main). */
  prev: number;
  hooks: StreamHooks;
}

/** Applies one SSE message to the output; returns an error text when the stream must stop. */
function applyMessage(s: StreamState, m: SseMessage, ts: number): string | undefined {
  const data = m.data.trim();
  if (data === '[DONE]') return undefined;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(data) as Record<string, unknown>;
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error('not an object');
  } catch {
    return `malformed SSE data (not a JSON object): ${data.slice(0, 200)}`;
  }
  if (m.event === 'error' || json.error !== undefined || json.object === 'error') {
    return `server error event: ${nameEngineError(errorText(json.error ?? json.message ?? json))}`;
  }
  const out = s.out;
  const choices = json.choices;
  if (Array.isArray(choices) && choices.length > 0) {
    if (out.chunks === 0) {
      out.ttft = ts - out.st;
      s.hooks.onFirst?.(ts, out.ttft);
    } else {
      const gap = ts - s.prev;
      out.itl.push(gap);
      s.hooks.onToken?.(ts, gap);
    }
    out.chunks++;
    s.prev = ts;
    out.generatedText += choiceText(choices[0]);
  }
  const usage = json.usage as { completion_tokens?: unknown; prompt_tokens?: unknown } | null | undefined;
  if (usage) {
    if (typeof usage.completion_tokens === 'number') out.completionTokens = usage.completion_tokens;
    if (typeof usage.prompt_tokens === 'number') out.promptTokens = usage.prompt_tokens;
  }
  return undefined;
}

/** The request's outcome: the error, no choice event at all (vLLM's text), or success with its latency. */
function settleOutput(s: StreamState, error: string | undefined): void {
  const out = s.out;
  out.success = error === undefined && out.chunks > 0;
  if (error !== undefined) out.error = error;
  else if (out.chunks === 0) out.error = 'Never received a valid chunk to calculate TTFT. This response will be marked as failed!';
  else out.latency = s.prev - out.st;
}

/** The request head and body as one string: one write, so one segment on the wire. */
function requestText(body: string, o: ClientOptions): string {
  const headers: Record<string, string> = {
    Host: o.url.host,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'x-request-id': o.requestId,
  };
  // A given header replaces a default of the same name in any case (as Node's setHeader did).
  const set = (k: string, v: string) => {
    for (const d of Object.keys(headers)) if (d.toLowerCase() === k.toLowerCase()) delete headers[d];
    headers[k] = v;
  };
  for (const [k, v] of Object.entries(o.headers)) set(k, v);
  if (o.apiKey) set('Authorization', `Bearer ${o.apiKey}`);
  let head = `POST ${o.url.pathname}${o.url.search} HTTP/1.1\r\n`;
  for (const [k, v] of Object.entries(headers)) {
    // Node's http client refused these too (ERR_INVALID_CHAR): a CR or LF would end the head early.
    if (/[\r\n]/.test(k) || /[\r\n]/.test(v))
      throw new Error(`invalid header ${JSON.stringify(k)}: names and values cannot hold line breaks`);
    head += `${k}: ${v}\r\n`;
  }
  return `${head}\r\n${body}`;
}

/** `timeoutMs`: fail the request when it has not ended by then (vLLM's session timeout is 6 h). */
export function sendStreamingRequest(
  spec: RequestSpec,
  o: ClientOptions,
  hooks: StreamHooks,
  signal?: AbortSignal,
  timeoutMs?: number,
): Promise<RawOutput> {
  return new Promise<RawOutput>((resolve) => {
    const s: StreamState = {
      out: { success: false, st: 0, ttft: 0, itl: [], latency: 0, generatedText: '', error: '', chunks: 0 },
      prev: 0,
      hooks,
    };
    const out = s.out;
    let settled = false;
    let conn: Conn | undefined;
    const finish = (error?: string, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      if (conn) reusable && error === undefined ? o.pool.release(conn) : o.pool.discard(conn);
      settleOutput(s, error);
      resolve(out);
    };
    const onAbort = () => finish('aborted');
    // A plain timer per request: cheaper than AbortSignal.timeout + AbortSignal.any at 1000s of streams.
    const deadline =
      timeoutMs !== undefined && Number.isFinite(timeoutMs)
        ? setTimeout(() => finish(`request timed out after ${timeoutMs / 1000} s (--request-timeout)`), timeoutMs)
        : undefined;
    const reader = new ResponseReader((msgs, ts) => {
      for (const m of msgs) {
        if (settled) return;
        const err = applyMessage(s, m, ts);
        if (err !== undefined) return finish(err);
      }
    });
    let text: string;
    try {
      text = requestText(JSON.stringify(buildBody(spec, o)), o);
    } catch (e) {
      out.st = nowS();
      return finish((e as Error).message);
    }
    // A kept-alive connection the server closes before answering (llama-server closes each one
    // after a streamed response, though its head says Keep-Alive) never carried the request: it
    // is sent again, once, on a fresh connection, so no request fails for a close it did not cause.
    let retried = false;
    const start = (c: Conn, reused: boolean) => {
      if (settled) return o.pool.release(c); // aborted while connecting: the connection is still clean
      conn = c;
      // One timestamp per network read, taken when it is read, before any parsing (read-batch.ts;
      // vLLM stamps each message after its read too); messages that arrive together share it.
      c.onData = (b, ts) => {
        let done: boolean;
        try {
          done = reader.push(b, ts);
        } catch (e) {
          return finish(`malformed HTTP response: ${(e as Error).message}`);
        }
        if (done) finish(reader.statusError(), reader.reusable);
      };
      c.onGone = (error) => {
        conn = undefined;
        if (reused && !retried && !reader.started && !settled) {
          retried = true;
          out.sentS = undefined;
          o.pool.open().then(
            (fresh) => start(fresh, false),
            (e: NodeJS.ErrnoException) => finish(socketErrorText(e)),
          );
          return;
        }
        const err = reader.closed(error, nowS());
        finish(err ?? reader.statusError());
      };
      // Handed to the OS now when the write went through at once (nothing left queued); else
      // when the queued rest is flushed (the callback runs a tick late: an upper bound).
      c.sock.write(text, () => (out.sentS ??= nowS()));
      if (c.sock.writableLength === 0) out.sentS = nowS();
    };
    if (signal?.aborted) queueMicrotask(onAbort);
    else signal?.addEventListener('abort', onAbort, { once: true });
    out.st = nowS();
    s.prev = out.st;
    const idle = o.pool.take();
    if (idle) start(idle, true);
    else
      o.pool.open().then(
        (c) => start(c, false),
        (e: NodeJS.ErrnoException) => finish(socketErrorText(e)),
      );
  });
}
