// The benchmark client's keep-alive connections: plain TCP (or TLS) sockets that carry one
// request at a time and go back to the pool when the response ended cleanly. The pool can open
// connections ahead (preconnect), so a run's TCP handshakes happen before its clock starts:
// vLLM's older benchmarks/backend_request_func.py (e.g. commit 0118413) opened
// `aiohttp.ClientSession` inside every request, after `st = time.perf_counter()`, so each TTFT
// held a connect; vLLM main (vllm/benchmarks/lib/endpoint_request_func.py, commit 02cfb53)
// shares one session, whose connections still open lazily during the timed run.
import net from 'node:net';
import tls from 'node:tls';
import { ReadBatch, type ReadTarget } from './read-batch.js';

/** One connection. A request owns it between take()/open() and release()/discard(). */
export interface Conn {
  readonly sock: net.Socket;
  /** The owner's handlers: every read with its stamp (read-batch.ts), and the end of the connection (an error text or none). */
  onData: ((b: Buffer, ts: number) => void) | undefined;
  onGone: ((error: string | undefined) => void) | undefined;
}

interface ConnState extends Conn, ReadTarget {
  error: string | undefined;
  gone: boolean;
}

/** `${code}: ${message}` of a socket error, as Node's http client reported them. */
export function socketErrorText(e: NodeJS.ErrnoException): string {
  return `${e.code ?? 'request error'}: ${e.message}`;
}

export class ConnPool {
  private readonly idle: ConnState[] = [];
  private readonly all = new Set<ConnState>();
  private readonly host: string;
  private readonly port: number;
  private readonly tls: boolean;
  private closed = false;
  /** Every plain connection's reads land here, one at a time (onread); TLS sockets use 'data'. */
  private readonly readBuffer = Buffer.allocUnsafe(64 * 1024);
  private readonly reads = new ReadBatch();

  constructor(url: URL) {
    this.tls = url.protocol === 'https:';
    this.host = url.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(url.port) || (this.tls ? 443 : 80);
  }

  /** Connections open now (idle or in use). */
  get size(): number {
    return this.all.size;
  }

  get idleCount(): number {
    return this.idle.length;
  }

  /** An idle connection, or undefined (then open() one). */
  take(): Conn | undefined {
    for (;;) {
      const c = this.idle.pop();
      if (!c || !c.gone) return c;
    }
  }

  /** A new connection, resolved once it can carry a request; rejects with the socket error. */
  open(): Promise<Conn> {
    if (this.closed) return Promise.reject(new Error('the connection pool is closed'));
    return new Promise((resolve, reject) => {
      // Set below, before any byte can arrive (the socket is not connected yet).
      let c!: ConnState;
      const onBytes = (b: Buffer) => this.reads.add(c, b);
      // Plain TCP reads into the pool's one buffer through `onread`: no Buffer and no stream
      // 'data' event per read (the owner uses the bytes before the callback returns).
      const sock = this.tls
        ? tls.connect({
            host: this.host,
            port: this.port,
            ALPNProtocols: ['http/1.1'],
            ...(net.isIP(this.host) ? {} : { servername: this.host }),
          })
        : net.connect({
            host: this.host,
            port: this.port,
            onread: { buffer: this.readBuffer, callback: (n: number, buf: Uint8Array) => (onBytes((buf as Buffer).subarray(0, n)), true) },
          });
      sock.setNoDelay(true);
      c = {
        sock,
        onData: undefined,
        onGone: undefined,
        error: undefined,
        gone: false,
        deliver: (b, ts) => {
          if (c.onData) c.onData(b, ts);
          else sock.destroy(); // bytes nobody asked for: this connection cannot be trusted
        },
      };
      this.all.add(c);
      let connected = false;
      if (this.tls) sock.on('data', onBytes);
      sock.on('error', (e: NodeJS.ErrnoException) => {
        c.error ??= socketErrorText(e);
        if (!connected) reject(e);
      });
      sock.on('close', () => {
        // Reads taken before the close are the owner's first (a stream may end with its last bytes).
        if (this.reads.pending) this.reads.flush();
        c.gone = true;
        this.all.delete(c);
        const gone = c.onGone;
        c.onData = c.onGone = undefined;
        gone?.(c.error);
      });
      sock.once(this.tls ? 'secureConnect' : 'connect', () => {
        connected = true;
        if (!this.closed) return resolve(c);
        sock.destroy();
        reject(new Error('the connection pool is closed'));
      });
    });
  }

  /** Opens connections until `n` are idle (stops at the first failure: the run reports it). */
  async preconnect(n: number): Promise<void> {
    const want = Math.max(0, Math.floor(n) - this.idle.length);
    const opened = await Promise.allSettled(Array.from({ length: want }, () => this.open()));
    for (const r of opened) if (r.status === 'fulfilled') this.release(r.value);
  }

  /** The owner is done and the response ended cleanly: the connection can carry another request. */
  release(conn: Conn): void {
    const c = conn as ConnState;
    c.onData = c.onGone = undefined;
    if (c.gone || this.closed) {
      c.sock.destroy();
      return;
    }
    this.idle.push(c);
  }

  /** The owner stops mid-response (error, abort, timeout): the connection is closed. */
  discard(conn: Conn): void {
    conn.onData = conn.onGone = undefined;
    conn.sock.destroy();
  }

  destroy(): void {
    this.closed = true;
    for (const c of this.all) c.sock.destroy();
    this.idle.length = 0;
  }
}
