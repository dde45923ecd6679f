// One response read off a benchmark connection (client.ts): the HTTP/1.1 framing
// (http1-response.ts), then SSE messages from a 200, or the text of any other status.
import { nameEngineError } from './engine-errors.js';
import { Http1Response } from './http1-response.js';
import { SseParser, type SseMessage } from './sse.js';

/** Reads one response off its connection: the head, then SSE from a 200 or the text of an error. */
export class ResponseReader {
  private readonly res = new Http1Response((body) => this.body(body));
  private readonly sse = new SseParser();
  private errorBody = '';
  /** Stamp of the read being parsed. */
  private ts = 0;

  constructor(private readonly handle: (msgs: SseMessage[], ts: number) => void) {}

  private body(b: Buffer): void {
    if (this.ok) this.handle(this.sse.push(b), this.ts);
    else if (this.errorBody.length < 2000) this.errorBody += b.toString('utf8');
  }

  get ok(): boolean {
    return this.res.head?.status === 200;
  }

  /** Whether any byte of the response has arrived. */
  started = false;

  /** Feeds one read; returns true when the response is complete. Throws on a malformed response. */
  push(b: Buffer, ts: number): boolean {
    this.started = true;
    this.ts = ts;
    this.res.push(b);
    if (this.res.done && this.ok) this.handle(this.sse.end(), ts);
    return this.res.done;
  }

  /** The connection closed: a body read until the close ends here; undefined when that was fine. */
  closed(error: string | undefined, ts: number): string | undefined {
    if (!this.res.head) return error ?? 'socket hang up: the server closed the connection before answering';
    if (error === undefined && this.res.untilClose) {
      if (this.ok) this.handle(this.sse.end(), ts);
      return undefined;
    }
    return error !== undefined ? `response stream error: ${error}` : 'server closed the stream before it ended';
  }

  /** The request's error text, when the server answered with another status than 200. */
  statusError(): string | undefined {
    const h = this.res.head;
    if (!h || h.status === 200) return undefined;
    return `HTTP ${h.status} ${h.statusText}: ${nameEngineError(this.errorBody.trim().slice(0, 500))}`.trim();
  }

  get reusable(): boolean {
    return this.res.done && this.res.keepAlive;
  }
}
