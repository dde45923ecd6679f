// One SSE message of a streamed completion applied to the request's output, and the outcome
// settled when the stream ends: timed the way vLLM's endpoint_request_func.py does (docs/bench.md).
import { nameEngineError } from './engine-errors.js';
import { cachedTokensOf } from './cache-report.js';
import type { RawOutput, StreamHooks } from './request-shapes.js';
import type { SseMessage } from './sse.js';

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

export interface StreamState {
  out: RawOutput;
  /** Stamp of the last choice event (latency ends there: vLLM main). */
  prev: number;
  hooks: StreamHooks;
  /** Where the server reports cached prompt tokens (ClientOptions.cacheFields). */
  cacheFields?: readonly string[];
}

/** Applies one SSE message to the output; returns an error text when the stream must stop. */
export function applyMessage(s: StreamState, m: SseMessage, ts: number): string | undefined {
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
  // Reported once, on the last message; a few key lookups on the others.
  const cached = cachedTokensOf(json, s.cacheFields);
  if (cached !== undefined) out.cachedTokens = cached;
  return undefined;
}

/** The request's outcome: the error, no choice event at all (vLLM's text), or success with its latency. */
export function settleOutput(s: StreamState, error: string | undefined): void {
  const out = s.out;
  out.success = error === undefined && out.chunks > 0;
  if (error !== undefined) out.error = error;
  else if (out.chunks === 0) out.error = 'Never received a valid chunk to calculate TTFT. This response will be marked as failed!';
  else out.latency = s.prev - out.st;
}
