// How a run sends its requests: one keep-alive connection pool and one abort switch for all of
// them (a per-request listener on the caller's AbortSignal would pile up at 1000 streams).
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { sendStreamingRequest, type ClientOptions, type RawOutput, type RequestSpec, type StreamHooks } from './client.js';

/** Client options without the per-request and per-pool parts. */
export type BaseClientOptions = Omit<ClientOptions, 'agent' | 'requestId' | 'url'> & { url: string };

export interface Sender {
  send(spec: RequestSpec, requestId: string, hooks: StreamHooks): Promise<RawOutput>;
  /** Stop every request in flight (they end as 'aborted'). */
  abort(): void;
  /** Release the connections. */
  close(): void;
}

function agentFor(url: string, maxSockets: number): http.Agent {
  // Keep every connection the run opens (the default keeps only 256 idle ones), so a warm-up of
  // N streams leaves N warm connections and the timed run does not pay TCP handshakes.
  const Ctor = url.startsWith('https:') ? https.Agent : http.Agent;
  return new Ctor({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

export function inlineSender(base: BaseClientOptions, maxSockets: number, timeoutMs: number): Sender {
  const agent = agentFor(base.url, maxSockets);
  const url = new URL(base.url);
  const ac = new AbortController();
  // Every request in flight listens on this one signal; 1000 listeners is expected, not a leak.
  setMaxListeners(0, ac.signal);
  return {
    send: (spec, requestId, hooks) => sendStreamingRequest(spec, { ...base, url, agent, requestId }, hooks, ac.signal, timeoutMs),
    abort: () => ac.abort(),
    close: () => agent.destroy(),
  };
}
