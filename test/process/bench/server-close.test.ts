// A server that behaves as llama-server 0.4.0-dev does (seen on the real binary): it answers
// `Keep-Alive: timeout=5, max=100` yet closes the connection after every streamed response, and
// a completion it aborts ends with an SSE error event and a close, without the last chunk. The
// request with the error event fails alone, with the server's message; the requests sent next
// on the connections it closed are sent again on fresh ones and succeed.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendStreamingRequest } from '../../../src/bench/http/client.js';
import { ConnPool } from '../../../src/bench/http/conn-pool.js';

const ABORT = 'The model produced output that does not match the expected Content-only format';
const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
const event = (o: unknown) => chunk(`data: ${JSON.stringify(o)}\n\n`);
let server: net.Server;
let port = 0;
let connections = 0;

function answer(sock: net.Socket, body: string): void {
  sock.write('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n');
  sock.write(event({ choices: [{ text: 'a', index: 0 }] }));
  if (body.includes('abort')) {
    sock.write(event({ error: { code: 500, message: ABORT, type: 'server_error' } }));
    sock.end();
    return;
  }
  sock.write(
    event({ choices: [{ text: 'b', index: 0 }] }) +
      event({ choices: [], usage: { completion_tokens: 2, prompt_tokens: 3 } }) +
      chunk('data: [DONE]\n\n') +
      '0\r\n\r\n',
  );
  setTimeout(() => sock.end(), 2); // the close comes just after the response, as llama-server's does
}

beforeAll(async () => {
  server = net.createServer((sock) => {
    connections++;
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString();
      const head = buf.indexOf('\r\n\r\n');
      const len = Number(/Content-Length: (\d+)/i.exec(buf)?.[1] ?? -1);
      if (head < 0 || buf.length < head + 4 + len) return;
      answer(sock, buf.slice(head + 4));
      buf = '';
    });
    sock.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('a server that closes connections after its responses', () => {
  it('fails only the request whose stream carried an error event, with the server message', async () => {
    const url = new URL(`http://127.0.0.1:${port}/v1/completions`);
    const pool = new ConnPool(url);
    await pool.preconnect(3);
    const results: { i: number; success: boolean; error: string; completionTokens?: number }[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < 15; i = next++) {
        const prompt = i === 4 ? 'please abort' : `request ${i}`;
        const r = await sendStreamingRequest(
          { prompt, promptLen: 2, expectedOutputLen: 2 },
          { url, backend: 'openai', model: 'm', ignoreEos: true, headers: {}, pool, requestId: String(i) },
          {},
        );
        results.push({
          i,
          success: r.success,
          error: r.error,
          ...(r.completionTokens !== undefined ? { completionTokens: r.completionTokens } : {}),
        });
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    pool.destroy();
    const failed = results.filter((r) => !r.success);
    expect(failed).toEqual([
      { i: 4, success: false, error: expect.stringMatching(new RegExp(`^server error event: ${ABORT} \\(llama\\.cpp: .*UTF-8 character`)) },
    ]);
    expect(results.filter((r) => r.success).every((r) => r.completionTokens === 2)).toBe(true);
    expect(connections).toBeGreaterThan(3); // the closed connections were replaced
  });
});
