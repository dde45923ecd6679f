// Live events, abort, and client-bound detection.
import { afterEach, describe, expect, it } from 'vitest';
import { formatResult } from '../../../src/bench/output/format.js';
import { runBenchmark } from '../../../src/bench/load/run.js';
import { resultJson } from '../../../src/bench/output/save.js';
import type { BenchEvent } from '../../../src/bench/types.js';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/bench/scripted-server.js';
import { requests } from '../../helpers/bench/helpers.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('live events', () => {
  it('reports every request, token and a rolling snapshot', async () => {
    srv = await startScriptedServer({ ttftMs: 5, gapMs: 5 });
    const events: BenchEvent[] = [];
    const r = await runBenchmark({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(6, 8),
      maxConcurrency: 2,
      onEvent: (e) => events.push(e),
      snapshotIntervalMs: 50,
    });
    const count = (t: BenchEvent['type']) => events.filter((e) => e.type === t).length;
    expect(count('request-started')).toBe(6);
    expect(count('first-token')).toBe(6);
    expect(count('token')).toBe(6 * 7);
    expect(count('request-finished')).toBe(6);
    expect(count('request-failed')).toBe(0);
    const snaps = events.flatMap((e) => (e.type === 'snapshot' ? [e.snapshot] : []));
    expect(snaps.length).toBeGreaterThanOrEqual(2);
    const last = snaps.at(-1)!;
    expect(last).toMatchObject({ total: 6, completed: 6, failed: 0, running: 0 });
    expect(last.meanTtftMs).toBeCloseTo(r.metrics.mean_ttft_ms, 6);
    expect(last.meanTpotMs).toBeCloseTo(r.metrics.mean_tpot_ms, 6);
    expect(snaps.some((s) => s.running > 0 && s.running <= 2 && s.outputTokPerS > 0)).toBe(true);
    const fin = events.find((e) => e.type === 'request-finished');
    expect(fin && fin.type === 'request-finished' && fin.output.outputLen).toBe(8);
  });
});

describe('a listener that throws', () => {
  it('does not break the run; it is reported once', async () => {
    srv = await startScriptedServer({ ttftMs: 2, gapMs: 2 });
    const { setLogSink } = await import('../../../src/core/logger.js');
    const warnings: string[] = [];
    setLogSink((level, m) => level === 'warn' && warnings.push(m));
    try {
      const r = await runBenchmark({
        baseUrl: srv.url,
        model: 'm',
        requests: requests(3, 4),
        onEvent: () => {
          throw new Error('listener bug');
        },
      });
      expect(r.metrics.completed).toBe(3);
      expect(warnings.filter((w) => w.includes('listener bug'))).toHaveLength(1);
    } finally {
      setLogSink(() => {});
    }
  });
});

describe('AbortSignal', () => {
  it('many streams under one signal: no listener-leak warning', async () => {
    srv = await startScriptedServer({ ttftMs: 20, gapMs: 5, tokens: 3 });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const r = await runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(40, 3), signal: new AbortController().signal });
      expect(r.metrics.completed).toBe(40);
      await new Promise((res) => setImmediate(res)); // warnings are emitted on the next tick
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an already-aborted signal returns at once with nothing measured', async () => {
    srv = await startScriptedServer({ ttftMs: 5, gapMs: 5 });
    const r = await runBenchmark({ baseUrl: srv.url, model: 'm', requests: requests(5, 5), signal: AbortSignal.abort() });
    expect(r.aborted).toBe(true);
    expect(r.metrics.completed).toBe(0);
    expect(r.metrics.request_throughput).toBe(0);
  });
});

describe('client-bound detection', () => {
  it('marks the result when the event loop is blocked (printed block, JSON, live events)', async () => {
    srv = await startScriptedServer({ ttftMs: 10, gapMs: 10 });
    const snaps: boolean[] = [];
    const r = await runBenchmark({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(8, 15),
      maxConcurrency: 2,
      snapshotIntervalMs: 100,
      onEvent: (e) => {
        if (e.type === 'snapshot') snaps.push(e.snapshot.clientBound);
        // A listener that hogs the loop: every token event burns 12 ms of CPU.
        if (e.type === 'token') {
          const until = performance.now() + 12;
          while (performance.now() < until) {
            /* busy */
          }
        }
      },
    });
    expect(r.clientBound).toBe(true);
    expect(r.client.reasons.join()).toMatch(/event-loop lag p99 \d+\.\d ms > 5 ms|client CPU \d+% of a core > 80%/);
    expect(r.client.eventLoopLagMaxMs).toBeGreaterThan(5);
    expect(formatResult(r)).toMatch(/^Client-bound \(latencies inflated\): +yes: /m);
    expect(resultJson(r)).toMatchObject({ client_bound: true, client_stats: { reasons: expect.arrayContaining([expect.any(String)]) } });
    expect(snaps).toContain(true);
    expect(r.notes.join()).toMatch(/client-bound/);
  });
});
