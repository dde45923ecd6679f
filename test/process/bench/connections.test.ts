// The client's own connections (conn-pool.ts, client.ts): opened before the clock starts, reused
// while the server keeps them alive, and streams that are not chunked read to their end.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runBenchmarkIsolated } from '../../../src/bench/workers/isolated.js';
import { runBenchmark } from '../../../src/bench/load/run.js';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/bench/scripted-server.js';
import { requests } from '../../helpers/bench/helpers.js';

let srv: ScriptedServer | undefined;
let raw: net.Server | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  await new Promise<void>((r) => (raw ? raw.close(() => r()) : r()));
  raw = undefined;
});

describe('benchmark connections', () => {
  it('every connection the run can hold is open before its first request, and kept for the next ones', async () => {
    srv = await startScriptedServer({ ttftMs: 5, gapMs: 2, tokens: 3 });
    // One request every 60 ms, at most 3 at a time, no warm-ups: a client that connects lazily
    // would accept its second and third connection after the first request arrived.
    const r = await runBenchmark({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(6, 3),
      maxConcurrency: 3,
      requestRate: 1 / 0.06,
      burstiness: Infinity,
    });
    expect(r.metrics.completed).toBe(6);
    const firstArrival = Math.min(...srv.served.map((s) => s.receivedAt));
    expect(srv.connections.length).toBe(1 + 3); // checkReachable's probe, then the run's 3
    for (const c of srv.connections) expect(c).toBeLessThan(firstArrival);
  });

  it('a sharded run: every client thread opens its share of connections before the shared start', async () => {
    srv = await startScriptedServer({ ttftMs: 5, gapMs: 2, tokens: 3 });
    const r = await runBenchmarkIsolated({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(8, 3),
      maxConcurrency: 4,
      requestRate: 1 / 0.05,
      burstiness: Infinity,
      clientThreads: 2,
    });
    expect(r.metrics.completed).toBe(8);
    const firstArrival = Math.min(...srv.served.map((s) => s.receivedAt));
    // The coordinator's probe, then per thread min(its 4 requests, the cap of 4).
    expect(srv.connections.length).toBe(1 + 2 * 4);
    for (const c of srv.connections) expect(c).toBeLessThan(firstArrival);
  });

  it('each output says when its request was handed to the OS: after its start, before its first token', async () => {
    srv = await startScriptedServer({ ttftMs: 20, gapMs: 2, tokens: 3 });
    const r = await runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(4, 3), maxConcurrency: 2 });
    for (const o of r.outputs) {
      expect(o.sentTime).toBeGreaterThanOrEqual(o.startTime);
      expect(o.sentTime!).toBeLessThan(o.startTime + o.ttft);
    }
  });

  it('a stream without chunked encoding or length is read until the server closes it; the connection is not reused', async () => {
    let accepted = 0;
    raw = net.createServer((sock) => {
      accepted++;
      sock.once('data', () => {
        const ev = (t: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: t } }] })}\n\n`;
        sock.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n');
        sock.write(ev('a '));
        setTimeout(() => sock.end(ev('b ') + 'data: [DONE]\n\n'), 10);
      });
    });
    await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
    const port = (raw.address() as net.AddressInfo).port;
    const r = await runBenchmark({ baseUrl: `http://127.0.0.1:${port}`, model: 'm', requests: requests(3, 2), maxConcurrency: 1 });
    expect(r.metrics.completed).toBe(3);
    expect(r.outputs.map((o) => o.generatedText)).toEqual(['a b ', 'a b ', 'a b ']);
    expect(r.outputs.every((o) => o.itl.length === 1)).toBe(true);
    // checkReachable's probe, the one preconnected socket, then a new one for each later request.
    expect(accepted).toBe(1 + 3);
  });

  it('a kept-alive connection the server closes while idle is dropped, not reused: the next request opens another', async () => {
    let accepted = 0;
    raw = net.createServer((sock) => {
      accepted++;
      let idle: NodeJS.Timeout | undefined;
      sock.on('data', () => {
        clearTimeout(idle);
        const ev = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x ' } }] })}\n\n`;
        const body = ev + 'data: [DONE]\n\n';
        sock.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        // Like uvicorn's keep-alive timeout: an idle connection is closed after a while.
        idle = setTimeout(() => sock.end(), 20);
      });
      sock.on('close', () => clearTimeout(idle));
    });
    await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
    const port = (raw.address() as net.AddressInfo).port;
    const r = await runBenchmark({
      baseUrl: `http://127.0.0.1:${port}`,
      model: 'm',
      requests: requests(3, 1),
      maxConcurrency: 1,
      requestRate: 1 / 0.1,
      burstiness: Infinity,
    });
    expect(r.outputs.map((o) => o.error)).toEqual(['', '', '']);
    // The probe, then one connection per request: each was closed by the server before the next.
    expect(accepted).toBe(1 + 3);
  });
});
