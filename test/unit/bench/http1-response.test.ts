import { describe, expect, it } from 'vitest';
import { Http1Response, parseHead } from '../../../src/bench/http/http1-response.js';

/** Feeds `raw` in pieces of `every` bytes; returns the body, the head and whether it ended. */
function feed(raw: string, every: number): { body: string; res: Http1Response } {
  const parts: Buffer[] = [];
  const res = new Http1Response((b) => parts.push(Buffer.from(b)));
  const bytes = Buffer.from(raw);
  for (let i = 0; i < bytes.length; i += every) res.push(bytes.subarray(i, i + every));
  return { body: Buffer.concat(parts).toString('utf8'), res };
}

const SSE = 'data: {"choices":[{"delta":{"content":"héllo 🌍"}}]}\n\ndata: [DONE]\n\n';
const hex = (s: string) => Buffer.byteLength(s).toString(16);
const CHUNKED =
  'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n' +
  `${hex(SSE.slice(0, 30))}\r\n${SSE.slice(0, 30)}\r\n` +
  `${hex(SSE.slice(30)).toUpperCase()};ext=1\r\n${SSE.slice(30)}\r\n` +
  '0\r\nx-trailer: 1\r\n\r\n';

describe('HTTP/1.1 response parser', () => {
  it('chunked: the same body and end whatever the read boundaries (also inside CRLF and UTF-8)', () => {
    for (const every of [1, 2, 3, 7, 64, CHUNKED.length]) {
      const { body, res } = feed(CHUNKED, every);
      expect(body, `pieces of ${every}`).toBe(SSE);
      expect(res.done).toBe(true);
      expect(res.keepAlive).toBe(true);
      expect(res.head).toMatchObject({ status: 200, statusText: 'OK', headers: { 'content-type': 'text/event-stream' } });
    }
  });

  it('not done before the last chunk and its blank line', () => {
    const { res } = feed(CHUNKED.slice(0, -2), 5);
    expect(res.done).toBe(false);
  });

  it('Content-Length: the body ends after that many bytes', () => {
    const { body, res } = feed(
      `HTTP/1.1 500 Internal Server Error\r\nContent-Length: ${Buffer.byteLength('{"error":"é"}')}\r\n\r\n{"error":"é"}`,
      4,
    );
    expect(res.head?.status).toBe(500);
    expect(body).toBe('{"error":"é"}');
    expect(res.done).toBe(true);
  });

  it('no length and not chunked: read until close, and the connection is not reused', () => {
    const { body, res } = feed(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n${SSE}`, 9);
    expect(body).toBe(SSE);
    expect(res.done).toBe(false);
    expect(res.untilClose).toBe(true);
    expect(res.keepAlive).toBe(false);
  });

  it('1xx answers before the real one are skipped; Connection: close and HTTP/1.0 are not reused', () => {
    const { res } = feed('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n', 3);
    expect(res.head?.status).toBe(204);
    expect(res.done).toBe(true);
    expect(res.keepAlive).toBe(false);
    expect(feed('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n', 100).res.keepAlive).toBe(false);
    expect(feed('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n', 100).res.keepAlive).toBe(true);
  });

  it('malformed responses throw one line saying what is wrong', () => {
    const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
    expect(() => feed(`${head}zz\r\n`, 100)).toThrow(/bad chunk size line 'zz'/);
    expect(() => feed(`${head}3\r\nabcX\r\n`, 100)).toThrow(/not followed by CRLF/);
    expect(() => feed('SSH-2.0-OpenSSH\r\n\r\n', 100)).toThrow(/not an HTTP\/1.x response/);
    expect(() => feed('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', 100)).toThrow(/bad Content-Length/);
  });

  it('repeated headers are joined, names lower-cased', () => {
    expect(parseHead('HTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2').headers['x-a']).toBe('1, 2');
  });
});
