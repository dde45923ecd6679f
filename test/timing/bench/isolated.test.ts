// runBenchmarkIsolated: the same benchmark on a worker thread, so a busy main thread (the TUI)
// neither delays the measurement nor makes it client-bound.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { runBenchmarkIsolated } from '../../../src/bench/workers/isolated.js';
import { liveBenchWorkers } from '../../../src/bench/workers/worker-count.js';
import { runBenchmark } from '../../../src/bench/load/run.js';
import type { BenchEvent, BenchResult } from '../../../src/bench/types.js';
import { spawnScriptedServer, type ChildServer } from '../../fixtures/bench/spawn-server.js';
import { mean, requests } from '../../helpers/bench/helpers.js';

const TTFT_MS = 30;
const GAP_MS = 8;
const OUT = 12;
const N = 32;

// The server runs in its own process (as an engine would): blocking this thread must not slow it.
let srv: ChildServer;
beforeAll(async () => {
  srv = await spawnScriptedServer({ ttftMs: TTFT_MS, gapMs: GAP_MS });
});
afterAll(async () => {
  await srv.stop();
});
beforeEach(async () => {
  await srv.reset();
});

const workload = () => ({
  baseUrl: srv.url,
  model: 'org/scripted-model',
  requests: requests(N, OUT),
  requestRate: 40,
  maxConcurrency: 4,
  numWarmups: 4,
});

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the run to fail');
}

describe('runBenchmarkIsolated', () => {
  it('gives the same metrics shape, token totals and config as the in-process run; events come back without per-token messages', async () => {
    const inproc = await runBenchmark(workload());
    await srv.reset();
    const events: BenchEvent[] = [];
    const iso = await runBenchmarkIsolated({ ...workload(), onEvent: (e) => events.push(e), snapshotIntervalMs: 100 });
    expect(Object.keys(iso.metrics).sort()).toEqual(Object.keys(inproc.metrics).sort());
    expect(Object.keys(iso).sort()).toEqual(Object.keys(inproc).sort());
    expect(Object.keys(iso.client).sort()).toEqual(Object.keys(inproc.client).sort());
    for (const r of [inproc, iso]) {
      expect(r.metrics.completed).toBe(N);
      expect(r.metrics.failed).toBe(0);
      expect(r.metrics.total_output_tokens).toBe(N * OUT);
      expect(r.metrics.total_input_tokens).toBe(N * 8);
      expect(r.outputs).toHaveLength(N);
      expect(r.aborted).toBe(false);
    }
    expect(iso.config).toEqual(inproc.config);
    expect(iso.outputs[0]!.itl).toHaveLength(OUT - 1);
    const count = (t: BenchEvent['type']) => events.filter((e) => e.type === t).length;
    expect(count('request-started')).toBe(N);
    expect(count('request-finished')).toBe(N);
    expect(count('token')).toBe(0);
    const snaps = events.flatMap((e) => (e.type === 'snapshot' ? [e.snapshot] : []));
    expect(snaps.length).toBeGreaterThanOrEqual(2);
    expect(snaps.at(-1)).toMatchObject({ total: N, completed: N, failed: 0, running: 0 });
    expect(snaps.at(-1)!.meanTtftMs).toBeCloseTo(iso.metrics.mean_ttft_ms, 6);
    // The run's epoch origin lines up with this process's clock (the worker has its own timeOrigin).
    expect(Math.abs(iso.clockOriginMs! - Date.now())).toBeLessThan(10_000);
    expect(liveBenchWorkers()).toBe(0);
  });

  it('abort returns the partial metrics of what finished', async () => {
    const ac = new AbortController();
    let finished = 0;
    const r = await runBenchmarkIsolated({
      baseUrl: srv.url,
      model: 'm',
      requests: requests(200, 10),
      maxConcurrency: 2,
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type === 'request-finished' && ++finished === 3) ac.abort();
      },
    });
    expect(r.aborted).toBe(true);
    expect(r.metrics.completed).toBeGreaterThanOrEqual(3);
    expect(r.metrics.completed).toBeLessThan(200);
    expect(r.metrics.failed).toBe(0);
    expect(r.metrics.total_output_tokens).toBe(r.metrics.completed * 10);
    expect(r.notes.join()).toMatch(/aborted: \d+ of 200 requests finished/);
    expect(liveBenchWorkers()).toBe(0);
  });

  it('an already-aborted signal returns at once with nothing measured', async () => {
    const r = await runBenchmarkIsolated({ baseUrl: srv.url, model: 'm', requests: requests(5, 5), signal: AbortSignal.abort() });
    expect(r.aborted).toBe(true);
    expect(r.metrics.completed).toBe(0);
    expect(liveBenchWorkers()).toBe(0);
  });

  it('errors come back as the same kind, message and exit code', async () => {
    const unreachable = { baseUrl: 'http://127.0.0.1:1', model: 'm', requests: requests(2, 2) };
    const a = await errorOf(runBenchmark(unreachable));
    const b = await errorOf(runBenchmarkIsolated(unreachable));
    expect(b).toBeInstanceOf(UserError);
    expect((b as UserError).message).toBe((a as UserError).message);
    expect((b as UserError).message).toMatch(/^cannot reach the server at http:\/\/127\.0\.0\.1:1: /);
    expect((b as UserError).message).not.toContain('\n');
    expect((b as UserError).code).toBe(1);
    const bad = { baseUrl: srv.url, model: 'm', requests: requests(2, 2), maxConcurrency: 0 };
    const c = await errorOf(runBenchmarkIsolated(bad));
    expect(c).toBeInstanceOf(UserError);
    expect((c as UserError).message).toBe(((await errorOf(runBenchmark(bad))) as Error).message);
    expect((c as UserError).code).toBe(2);
    expect(liveBenchWorkers()).toBe(0);
  });

  it('under plain node with tsx registered (as bin/servelab.js), the process ends by itself afterwards', async () => {
    const child = fileURLToPath(new URL('../../helpers/bench/isolated-child.mjs', import.meta.url));
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      // A leaked worker would keep the process alive until this kills it (code null).
      const p = execFile(process.execPath, [child, srv.url], { timeout: 30_000, killSignal: 'SIGKILL' }, (err, out) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout: out }),
      );
      p.stdin?.end();
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ completed: 4, out: 20 });
  });
});

describe('a busy main thread', () => {
  /** Burn 50 ms of every 100 ms on this thread, as a heavy UI would. */
  function blockMainThread(): () => void {
    const timer = setInterval(() => {
      const until = performance.now() + 50;
      while (performance.now() < until) {
        /* busy */
      }
    }, 100);
    return () => clearInterval(timer);
  }
  const ttftError = async (r: BenchResult) => {
    const timed = (await srv.timings()).slice(4); // after the warm-ups
    return Math.abs(r.metrics.mean_ttft_ms - mean(timed.map((s) => s.ttftMs)));
  };

  it('does not make the isolated run client-bound or inflate its TTFT; the in-process run is flagged', async () => {
    const stop = blockMainThread();
    try {
      const inproc = await runBenchmark(workload());
      expect(inproc.clientBound).toBe(true);
      expect(inproc.client.reasons.join()).toMatch(/event-loop lag p99/);
      expect(await ttftError(inproc)).toBeGreaterThan(2);
      // On a shared 2-core machine the worker may still be starved by other processes; a run
      // that says so is measured again, up to 3 times. A worker sharing this loop never passes.
      const seen: string[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        await srv.reset();
        let snaps = 0;
        const iso = await runBenchmarkIsolated({ ...workload(), onEvent: (e) => e.type === 'snapshot' && snaps++ });
        expect(iso.metrics.completed).toBe(N);
        expect(snaps).toBeGreaterThan(0);
        const err = await ttftError(iso);
        if (!iso.clientBound && err < 2) return;
        seen.push(`client-bound ${iso.clientBound} (${iso.client.reasons.join('; ')}), TTFT error ${err.toFixed(2)} ms`);
      }
      throw new Error(`the isolated run was affected by the busy main thread on 3 attempts: ${seen.join(' | ')}`);
    } finally {
      stop();
    }
  });
});
