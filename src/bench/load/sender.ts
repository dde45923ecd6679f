// How a run sends its requests: one keep-alive connection pool and one abort switch for all of
// them (a per-request listener on the caller's AbortSignal would pile up at 1000 streams).
import { setMaxListeners } from 'node:events';
import { sendStreamingRequest } from '../http/client.js';
import type { ClientOptions, RawOutput, RequestSpec, StreamHooks } from '../http/request-shapes.js';
import { ConnPool } from '../http/conn-pool.js';

/** Client options without the per-request and per-pool parts. */
export type BaseClientOptions = Omit<ClientOptions, 'pool' | 'requestId' | 'url'> & { url: string };

/**
 * Connections opened ahead of a run at most (each is a file descriptor, here and in the server);
 * beyond this the rest open when first needed, inside the run, as vLLM's client opens all of them.
 */
export const MAX_PRECONNECT = 1024;

export interface Sender {
  send(spec: RequestSpec, requestId: string, hooks: StreamHooks): Promise<RawOutput>;
  /**
   * Before the clock starts: opens connections until `n` (at most MAX_PRECONNECT) are idle, so no
   * timed request pays a TCP handshake. Connection errors are left to the requests to report.
   */
  preconnect(n: number): Promise<void>;
  /** Stop every request in flight (they end as 'aborted'). */
  abort(): void;
  /** Release the connections. */
  close(): void;
}

/** How many connections a client (or one shard) may hold at once: its requests, under the cap. */
export function connectionsNeeded(requests: number, maxConcurrency: number | null): number {
  return Math.min(requests, maxConcurrency ?? Infinity, MAX_PRECONNECT);
}

export function inlineSender(base: BaseClientOptions, timeoutMs: number): Sender {
  const url = new URL(base.url);
  const pool = new ConnPool(url);
  const ac = new AbortController();
  // Every request in flight listens on this one signal; 1000 listeners is expected, not a leak.
  setMaxListeners(0, ac.signal);
  return {
    send: (spec, requestId, hooks) => sendStreamingRequest(spec, { ...base, url, pool, requestId }, hooks, ac.signal, timeoutMs),
    preconnect: (n) => pool.preconnect(Math.min(n, MAX_PRECONNECT)),
    abort: () => ac.abort(),
    close: () => pool.destroy(),
  };
}
