// An HTTP/1.1 response parser for the benchmark client's own connections (conn-pool.ts): the
// status line, the headers, then the body as chunked, Content-Length or read-until-close. It
// hands the body out as slices of the bytes read (no copy) so one SSE event costs one socket read
// and a few index scans, instead of Node's http machinery (llhttp callbacks into JS, an
// IncomingMessage stream, a nextTick per read): that machinery was most of the client's CPU per
// event (docs/bench.md, "Client performance"). Bytes may be split anywhere. Pure: tested on its own
// (test/unit/bench/http1-response.test.ts).

export interface ResponseHead {
  status: number;
  statusText: string;
  /** Header names in lower case; repeated headers joined with ', '. */
  headers: Record<string, string>;
}

type Mode = 'head' | 'size' | 'data' | 'data-crlf' | 'trailers' | 'length' | 'close' | 'done';

const HEAD_END = Buffer.from('\r\n\r\n');
/** A response head larger than this is refused (Node's default limit is 16 KiB). */
const MAX_HEAD = 64 * 1024;

export class Http1Response {
  head: ResponseHead | undefined;
  /** The connection may carry another request once the body is done. */
  keepAlive = true;
  private mode: Mode = 'head';
  private pending: Buffer | undefined;
  private left = 0;

  /** `onBody` gets each body slice (a view of the bytes read: use it before the next push). */
  constructor(private readonly onBody: (b: Buffer) => void) {}

  /** True once the whole body was read. */
  get done(): boolean {
    return this.mode === 'done';
  }

  /** The body is read until the server closes the connection (no length, not chunked). */
  get untilClose(): boolean {
    return this.mode === 'close';
  }

  /** Feeds bytes read from the socket. Throws an Error with a one-line reason on a malformed response. */
  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    while (at < buf.length && this.mode !== 'done') {
      const next = this.step(buf, at);
      if (next < 0) {
        // Incomplete line: keep (a copy of) the rest for the next read; the read buffer is reused.
        this.pending = Buffer.from(buf.subarray(at));
        if (this.pending.length > MAX_HEAD)
          throw new Error(`response ${this.mode === 'head' ? 'head' : 'chunk line'} over ${MAX_HEAD} bytes`);
        return;
      }
      at = next;
    }
  }

  /** One parsing step from `at`; returns where the next starts, or -1 when more bytes are needed. */
  private step(buf: Buffer, at: number): number {
    switch (this.mode) {
      case 'head': {
        const end = buf.indexOf(HEAD_END, at);
        if (end < 0) return -1;
        const head = parseHead(buf.toString('latin1', at, end));
        // 1xx answers (100 Continue, 103 Early Hints) come before the real one.
        if (head.status >= 100 && head.status < 200) return end + 4;
        this.begin(head);
        return end + 4;
      }
      case 'size': {
        const nl = crlfAt(buf, at);
        if (nl < 0) return -1;
        const size = chunkSize(buf, at, nl);
        if (size < 0) throw new Error(`bad chunk size line '${buf.toString('latin1', at, Math.min(nl, at + 40))}'`);
        this.mode = size === 0 ? 'trailers' : 'data';
        this.left = size;
        return nl + 2;
      }
      case 'data':
      case 'length': {
        const n = Math.min(this.left, buf.length - at);
        if (n > 0) this.onBody(buf.subarray(at, at + n));
        this.left -= n;
        if (this.left === 0) this.mode = this.mode === 'data' ? 'data-crlf' : 'done';
        return at + n;
      }
      case 'data-crlf': {
        if (buf.length - at < 2) return -1;
        if (buf[at] !== 13 || buf[at + 1] !== 10) throw new Error('chunk data not followed by CRLF');
        this.mode = 'size';
        return at + 2;
      }
      case 'trailers': {
        // Trailer lines until an empty one; their content is not used.
        const nl = crlfAt(buf, at);
        if (nl < 0) return -1;
        if (nl === at) this.mode = 'done';
        return nl + 2;
      }
      case 'close':
        this.onBody(buf.subarray(at));
        return buf.length;
      default:
        return buf.length;
    }
  }

  private begin(head: ResponseHead): void {
    this.head = head;
    const conn = (head.headers.connection ?? '').toLowerCase();
    if (conn.includes('close')) this.keepAlive = false;
    const te = (head.headers['transfer-encoding'] ?? '').toLowerCase();
    const cl = head.headers['content-length'];
    if (head.status === 204 || head.status === 304) this.mode = 'done';
    else if (te.includes('chunked')) this.mode = 'size';
    else if (cl !== undefined) {
      const n = Number(cl);
      if (!(Number.isSafeInteger(n) && n >= 0)) throw new Error(`bad Content-Length '${cl}'`);
      this.left = n;
      this.mode = n === 0 ? 'done' : 'length';
    } else {
      this.mode = 'close';
      this.keepAlive = false;
    }
  }
}

/** Index of the next CRLF from `from`, or -1 (a byte search: cheaper than a Buffer needle per event). */
function crlfAt(buf: Buffer, from: number): number {
  for (let i = buf.indexOf(13, from); i >= 0; i = buf.indexOf(13, i + 1)) {
    if (i + 1 >= buf.length) return -1;
    if (buf[i + 1] === 10) return i;
  }
  return -1;
}

/** The hex size of a chunk line read from the bytes (no string per event); -1 when malformed. */
function chunkSize(buf: Buffer, from: number, to: number): number {
  let size = 0;
  let digits = 0;
  let i = from;
  for (; i < to; i++) {
    const c = buf[i]!;
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) break;
    size = size * 16 + d;
    digits++;
  }
  // After the digits: optional spaces or tabs, then nothing or a ';' extension (ignored).
  while (i < to && (buf[i] === 32 || buf[i] === 9)) i++;
  if (digits === 0 || digits > 12 || (i < to && buf[i] !== 59)) return -1;
  return size;
}

/** Status line and headers of one response head (without its final blank line). */
export function parseHead(text: string): ResponseHead {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
  if (!m) throw new Error(`not an HTTP/1.x response: '${(lines[0] ?? '').slice(0, 60)}'`);
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`malformed response header line '${line.slice(0, 60)}'`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  // HTTP/1.0 closes after the response unless it says keep-alive.
  if (m[1] === '0' && !(headers.connection ?? '').toLowerCase().includes('keep-alive')) headers.connection = 'close';
  return { status: Number(m[2]), statusText: m[3] ?? '', headers };
}
