// Incremental Server-Sent Events parser: bytes may be split anywhere (even inside a UTF-8
// character or between \r and \n). Comments (":...") are skipped; multi-line data is joined.
import { StringDecoder } from 'node:string_decoder';

export interface SseMessage {
  /** The `event:` field, '' when absent ("message"). */
  event: string;
  data: string;
}

export class SseParser {
  private decoder = new StringDecoder('utf8');
  private buf = '';
  private event = '';
  private readonly data: string[] = [];
  private sawData = false;
  private hasCr = false;

  /** Feed raw bytes; returns the messages completed by them. */
  push(chunk: Buffer | string): SseMessage[] {
    this.buf += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    this.hasCr = this.buf.includes('\r');
    const out: SseMessage[] = [];
    let start = 0;
    for (;;) {
      const nl = this.nextLineEnd(start);
      if (nl < 0) break;
      const line = this.buf.slice(start, nl);
      start = nl + (this.buf[nl] === '\r' && this.buf[nl + 1] === '\n' ? 2 : 1);
      this.line(line, out);
    }
    this.buf = this.buf.slice(start);
    return out;
  }

  /** End of stream: a last message without its blank line still counts (as vLLM's leftover rule). */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    this.buf += this.decoder.end();
    this.hasCr = this.buf.includes('\r');
    if (this.buf.length > 0) {
      this.line(this.buf, out);
      this.buf = '';
    }
    this.dispatch(out);
    return out;
  }

  private nextLineEnd(from: number): number {
    // Fast path: servers send \n line ends; only scan by hand when a \r is present.
    if (!this.hasCr) return this.buf.indexOf('\n', from);
    for (let i = from; i < this.buf.length; i++) {
      const c = this.buf.charCodeAt(i);
      if (c === 10) return i;
      if (c === 13) {
        // A lone \r at the very end may be the first half of \r\n: wait for more bytes.
        if (i + 1 >= this.buf.length) return -1;
        return i;
      }
    }
    return -1;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' */) return;
    // The usual line, `data: {...}`, without slicing the field name out first.
    if (line.startsWith('data: ')) {
      this.data.push(line.slice(6));
      this.sawData = true;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.sawData = true;
    } else if (field === 'event') {
      this.event = value;
    }
  }

  private dispatch(out: SseMessage[]): void {
    if (this.sawData) out.push({ event: this.event, data: this.data.length === 1 ? this.data[0]! : this.data.join('\n') });
    this.event = '';
    this.data.length = 0;
    this.sawData = false;
  }
}
