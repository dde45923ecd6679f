// The client-bound verdict: robust on short runs, still catching a blocked loop, and in a worker
// charging the client only with its own thread's CPU.
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ClientMonitor, LAG_LIMIT_MS, MIN_LATE_TICKS, lagVerdict } from '../../../src/bench/load/monitor.js';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* busy */
  }
};

describe('lagVerdict', () => {
  const healthy = () => Array.from({ length: 200 }, (_, i) => (i % 7) * 0.3); // a 2 s run: ~200 ticks, < 2 ms late
  it('a 2 s run with one GC pause and one connection burst is not flagged, though its p99 is over the limit', () => {
    const lags = healthy();
    lags[0] = 40; // the burst of connections, over two ticks
    lags[1] = 20;
    lags[120] = 25; // a GC pause
    const v = lagVerdict(lags);
    expect(v.p99).toBeGreaterThan(LAG_LIMIT_MS);
    expect(v.late).toBe(3);
    expect(v.flagged).toBe(false);
  });
  it('repeated stalls are flagged', () => {
    const lags = healthy();
    for (let i = 0; i < MIN_LATE_TICKS; i++) lags[i * 30] = 12;
    expect(lagVerdict(lags).flagged).toBe(true);
  });
  it('on a long run, p99 under the limit is never flagged however many late ticks', () => {
    const lags = Array.from({ length: 10_000 }, (_, i) => (i % 200 === 0 ? 30 : 1)); // 50 late, 0.5%
    const v = lagVerdict(lags);
    expect(v.late).toBe(50);
    expect(v.flagged).toBe(false);
  });
});

describe('ClientMonitor', () => {
  it('flags an event loop blocked 50 ms in every 100 ms', async () => {
    const m = new ClientMonitor();
    m.start();
    const t0 = performance.now();
    while (performance.now() - t0 < 1000) {
      busy(50);
      await new Promise((r) => setTimeout(r, 50));
    }
    const s = m.stop();
    expect(s.reasons.length).toBeGreaterThan(0);
    expect(s.eventLoopLagMaxMs).toBeGreaterThan(30);
  });

  /** A ClientMonitor in a worker thread over 600 ms, spinning `workerBusyMs` of them itself. */
  async function workerMonitor(workerBusyMs: number, onStarted: () => void): Promise<{ cpuPct: number }> {
    const tsx = pathToFileURL(fileURLToPath(import.meta.resolve('tsx/esm/api'))).href;
    const monitor = new URL('../../../src/bench/load/monitor.ts', import.meta.url).href;
    const code = `
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(tsx)}).then(async ({ register }) => {
        register();
        const { ClientMonitor } = await import(${JSON.stringify(monitor)});
        const m = new ClientMonitor();
        m.start();
        parentPort.postMessage('started');
        const until = performance.now() + ${workerBusyMs};
        while (performance.now() < until) {}
        setTimeout(() => parentPort.postMessage(m.stop()), ${600 - workerBusyMs});
      });`;
    const w = new Worker(code, { eval: true });
    try {
      return await new Promise<{ cpuPct: number }>((resolve, reject) => {
        w.on('message', (m) => (m === 'started' ? onStarted() : resolve(m as { cpuPct: number })));
        w.once('error', reject);
      });
    } finally {
      await w.terminate();
    }
  }

  it('in a worker thread, the main thread busy does not count as client CPU', async () => {
    const stats = await workerMonitor(0, () => busy(500));
    // process.cpuUsage() would report this thread's ~500 ms of spinning (> 50% of 600 ms).
    expect(stats.cpuPct).toBeLessThan(30);
  });

  it("in a worker thread, the worker's own CPU is counted", async () => {
    const stats = await workerMonitor(300, () => {});
    // 300 ms of spinning in 600 ms is ~50% of a core; less when other processes take the cores.
    expect(stats.cpuPct).toBeGreaterThan(5);
  });
});
