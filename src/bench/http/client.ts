// One streamed request to an OpenAI-compatible server, timed the way vLLM's
// endpoint_request_func.py times it (vLLM main semantics; see docs/bench.md).
import { performance } from 'node:perf_hooks';
import { socketErrorText, type Conn } from './conn-pool.js';
import type { ClientOptions, RawOutput, RequestSpec, StreamHooks } from './request-shapes.js';
import { buildBody, requestText } from './request-text.js';
import { ResponseReader } from './response-reader.js';
import { applyMessage, settleOutput, type StreamState } from './stream-message.js';

export function nowS(): number {
  return performance.now() / 1000;
}

/**
 * One request in flight: its connection, the response reader and the one-time settle. A class so
 * that the connection callbacks share the request's state without one long closure.
 */
class StreamingRequest {
  readonly s: StreamState;
  private settled = false;
  private conn: Conn | undefined;
  private retried = false;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private readonly reader: ResponseReader;
  private readonly onAbort = () => this.finish('aborted');

  constructor(
    private readonly o: ClientOptions,
    hooks: StreamHooks,
    private readonly resolve: (out: RawOutput) => void,
    private readonly signal?: AbortSignal,
  ) {
    this.s = {
      out: { success: false, st: 0, ttft: 0, itl: [], latency: 0, generatedText: '', error: '', chunks: 0 },
      prev: 0,
      hooks,
      ...(o.cacheFields ? { cacheFields: o.cacheFields } : {}),
    };
    this.reader = new ResponseReader((msgs, ts) => {
      for (const m of msgs) {
        if (this.settled) return;
        const err = applyMessage(this.s, m, ts);
        if (err !== undefined) return this.finish(err);
      }
    });
  }

  finish(error?: string, reusable = false): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    this.signal?.removeEventListener('abort', this.onAbort);
    if (this.conn) reusable && error === undefined ? this.o.pool.release(this.conn) : this.o.pool.discard(this.conn);
    settleOutput(this.s, error);
    this.resolve(this.s.out);
  }

  run(spec: RequestSpec, timeoutMs: number | undefined): void {
    const out = this.s.out;
    // A plain timer per request: cheaper than AbortSignal.timeout + AbortSignal.any at 1000s of streams.
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs))
      this.deadline = setTimeout(() => this.finish(`request timed out after ${timeoutMs / 1000} s (--request-timeout)`), timeoutMs);
    let text: string;
    try {
      text = requestText(JSON.stringify(buildBody(spec, this.o)), this.o);
    } catch (e) {
      out.st = nowS();
      return this.finish((e as Error).message);
    }
    if (this.signal?.aborted) queueMicrotask(this.onAbort);
    else this.signal?.addEventListener('abort', this.onAbort, { once: true });
    out.st = nowS();
    this.s.prev = out.st;
    const idle = this.o.pool.take();
    if (idle) this.start(idle, true, text);
    else this.openFresh(text);
  }

  private openFresh(text: string): void {
    this.o.pool.open().then(
      (c) => this.start(c, false, text),
      (e: NodeJS.ErrnoException) => this.finish(socketErrorText(e)),
    );
  }

  private start(c: Conn, reused: boolean, text: string): void {
    if (this.settled) return this.o.pool.release(c); // aborted while connecting: the connection is still clean
    const out = this.s.out;
    this.conn = c;
    // One timestamp per network read, taken when it is read, before any parsing (read-batch.ts;
    // vLLM stamps each message after its read too); messages that arrive together share it.
    c.onData = (b, ts) => {
      let done: boolean;
      try {
        done = this.reader.push(b, ts);
      } catch (e) {
        return this.finish(`malformed HTTP response: ${(e as Error).message}`);
      }
      if (done) this.finish(this.reader.statusError(), this.reader.reusable);
    };
    c.onGone = (error) => this.gone(error, reused, text);
    // Handed to the OS now when the write went through at once (nothing left queued); else
    // when the queued rest is flushed (the callback runs a tick late: an upper bound).
    c.sock.write(text, () => (out.sentS ??= nowS()));
    if (c.sock.writableLength === 0) out.sentS = nowS();
  }

  // A kept-alive connection the server closes before answering (llama-server closes each one
  // after a streamed response, though its head says Keep-Alive) never carried the request: it
  // is sent again, once, on a fresh connection, so no request fails for a close it did not cause.
  private gone(error: string | undefined, reused: boolean, text: string): void {
    this.conn = undefined;
    if (reused && !this.retried && !this.reader.started && !this.settled) {
      this.retried = true;
      this.s.out.sentS = undefined;
      return this.openFresh(text);
    }
    const err = this.reader.closed(error, nowS());
    this.finish(err ?? this.reader.statusError());
  }
}

/** `timeoutMs`: fail the request when it has not ended by then (vLLM's session timeout is 6 h). */
export function sendStreamingRequest(
  spec: RequestSpec,
  o: ClientOptions,
  hooks: StreamHooks,
  signal?: AbortSignal,
  timeoutMs?: number,
): Promise<RawOutput> {
  return new Promise<RawOutput>((resolve) => new StreamingRequest(o, hooks, resolve, signal).run(spec, timeoutMs));
}
