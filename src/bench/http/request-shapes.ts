// The shapes of one benchmark request: what is sent (RequestSpec, ClientOptions), the hooks a
// stream calls, and what comes back (RawOutput, vLLM's RequestFuncOutput). Below client.ts so that
// the stream parser and the request writer share them without a circle.
import type { ConnPool } from './conn-pool.js';

export type Backend = 'openai-chat' | 'openai';

export interface RequestSpec {
  prompt: string;
  promptLen: number;
  expectedOutputLen: number;
  /** A conversation to send as chat messages instead of `prompt` (multi-turn; the chat backend only). */
  messages?: readonly ChatMessage[];
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
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
  /** Dotted paths of a response's cached prompt tokens, first present wins (cache-report.ts). */
  cacheFields?: readonly string[];
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
  /** Prompt tokens the server says it served from cache (cache-report.ts). */
  cachedTokens?: number;
}
