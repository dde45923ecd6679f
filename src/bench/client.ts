// One streamed request to an OpenAI-compatible server, timed the way vLLM's
// endpoint_request_func.py times it (vLLM main semantics; see docs/bench.md).
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { SseParser } from './sse.js';

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
  agent: http.Agent;
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
}

export function nowS(): number {
  return performance.now() / 1000;
}

export function buildBody(spec: RequestSpec, o: Pick<ClientOptions, 'backend' | 'model' | 'ignoreEos' | 'temperature' | 'extraBody'>): Record<string, unknown> {
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

type SseMessage = ReturnType<SseParser['push']>[number];

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
    return `server error event: ${errorText(json.error ?? json.message ?? json)}`;
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

function requestHeaders(body: string, o: ClientOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'x-request-id': o.requestId,
    ...o.headers,
  };
  if (o.apiKey) headers.Authorization = `Bearer ${o.apiKey}`;
  return headers;
}

/** Wires a response: an error status reads (part of) the body; a stream feeds the parser. */
function onResponse(res: http.IncomingMessage, parser: SseParser, handle: (msgs: SseMessage[], ts: number) => void, finish: (error?: string) => void): void {
  if (res.statusCode !== 200) {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      if (text.length < 2000) text += d;
    });
    res.on('end', () => finish(`HTTP ${res.statusCode} ${res.statusMessage ?? ''}: ${text.trim().slice(0, 500)}`.trim()));
    res.on('error', (e) => finish(`HTTP ${res.statusCode}: ${e.message}`));
    return;
  }
  // One timestamp per network read, taken before any parsing (vLLM stamps each message after
  // its read too); messages that arrive together share it.
  res.on('data', (chunk: Buffer) => {
    const ts = nowS();
    handle(parser.push(chunk), ts);
  });
  res.on('end', () => {
    handle(parser.end(), nowS());
    finish();
  });
  res.on('error', (e) => finish(`response stream error: ${e.message}`));
  // 'close' after 'end' is a no-op (already settled); before it, the stream was cut.
  res.on('close', () => finish('server closed the stream before it ended'));
}

/** `timeoutMs`: fail the request when it has not ended by then (vLLM's session timeout is 6 h). */
export function sendStreamingRequest(spec: RequestSpec, o: ClientOptions, hooks: StreamHooks, signal?: AbortSignal, timeoutMs?: number): Promise<RawOutput> {
  const body = JSON.stringify(buildBody(spec, o));
  const headers = requestHeaders(body, o);
  const mod = o.url.protocol === 'https:' ? https : http;

  return new Promise<RawOutput>((resolve) => {
    const s: StreamState = { out: { success: false, st: 0, ttft: 0, itl: [], latency: 0, generatedText: '', error: '', chunks: 0 }, prev: 0, hooks };
    const out = s.out;
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      if (error !== undefined) {
        out.success = false;
        out.error = error;
      } else if (out.chunks === 0) {
        out.success = false;
        out.error = 'Never received a valid chunk to calculate TTFT. This response will be marked as failed!';
      } else {
        out.success = true;
        out.latency = s.prev - out.st;
      }
      resolve(out);
    };
    const onAbort = () => {
      req.destroy();
      finish('aborted');
    };
    // A plain timer per request: cheaper than AbortSignal.timeout + AbortSignal.any at 1000s of streams.
    const deadline =
      timeoutMs !== undefined && Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            req.destroy();
            finish(`request timed out after ${timeoutMs / 1000} s (--request-timeout)`);
          }, timeoutMs)
        : undefined;
    const parser = new SseParser();
    const handle = (msgs: SseMessage[], ts: number) => {
      for (const m of msgs) {
        if (settled) return;
        const err = applyMessage(s, m, ts);
        if (err !== undefined) {
          req.destroy();
          finish(err);
          return;
        }
      }
    };
    const req = mod.request(o.url, { method: 'POST', headers, agent: o.agent as http.Agent }, (res) => onResponse(res, parser, handle, finish));
    req.on('error', (e: NodeJS.ErrnoException) => finish(`${e.code ?? 'request error'}: ${e.message}`));
    if (signal) {
      if (signal.aborted) {
        queueMicrotask(onAbort);
      } else signal.addEventListener('abort', onAbort, { once: true });
    }
    out.st = nowS();
    s.prev = out.st;
    req.end(body);
  });
}
