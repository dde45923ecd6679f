// runBenchmarkIsolated: runBenchmark on a worker thread. In the TUI the benchmark client shares
// the main event loop with Ink's rendering and the session; every frame then delays the stamping
// of tokens, so TTFT/ITL included UI work and the client was flagged client-bound at a few
// thousand events a second. On its own thread the measurement does not depend on the front end.
import type { Worker } from 'node:worker_threads';
import { startBenchWorker } from './worker-count.js';
import { log } from '../../core/logger.js';
import type { RunOptions } from '../load/run-options.js';
import type { BenchEvent, BenchResult } from '../types.js';
import { rebuildError, type FromWorker, type IsolatedRunData, type ToWorker, type WorkerInput } from './worker-protocol.js';
import { runBenchmarkSharded } from './sharded.js';

/**
 * runBenchmark's options, less countOutputTokens (a function cannot cross to the worker; the
 * default word count applies; runs with a tokenizer count stay in-process, as `servelab bench`).
 */
export type IsolatedRunOptions = Omit<RunOptions, 'countOutputTokens'> & {
  /** Client threads (default 1): over 1, the requests are sharded over that many workers (sharded.ts). */
  clientThreads?: number;
};

let chaosUsed = false;

/**
 * Fault injection for perf/chaos.bench.ts only: SERVELAB_CHAOS_WORKER_MS=N terminates the first
 * benchmark worker of this process N ms after it starts, as if the thread had died.
 */
function chaosWorkerKill(worker: Worker): void {
  const ms = Number(process.env.SERVELAB_CHAOS_WORKER_MS);
  if (chaosUsed || !Number.isFinite(ms) || ms <= 0) return;
  chaosUsed = true;
  setTimeout(() => void worker.terminate(), ms).unref();
}

/**
 * Same options and result as runBenchmark, measured on a worker thread. Events come back in
 * batches: snapshots, request-started / first-token / finished / failed; 'token' events are not
 * forwarded. Aborting the signal stops the worker's run, which still returns the partial result.
 * The worker is terminated on every path.
 */
export async function runBenchmarkIsolated(opts: IsolatedRunOptions): Promise<BenchResult> {
  if ((opts.clientThreads ?? 1) > 1) return runBenchmarkSharded(opts, opts.clientThreads!);
  const { signal, onEvent, clientThreads: _threads, ...rest } = opts as RunOptions & { clientThreads?: number };
  if (rest.countOutputTokens)
    throw new TypeError('runBenchmarkIsolated cannot take countOutputTokens (a function cannot cross to the worker)');
  const data: IsolatedRunData = rest;
  const input: WorkerInput = { opts: data, wantEvents: !!onEvent, aborted: signal?.aborted ?? false };
  const { worker, exited } = startBenchWorker(input);
  chaosWorkerKill(worker);
  const onAbort = () => worker.postMessage({ type: 'abort' } satisfies ToWorker);
  signal?.addEventListener('abort', onAbort, { once: true });
  // A listener that throws must not lose the result (runBenchmark's own rule).
  let listenerFailed = false;
  const deliver = (events: BenchEvent[]) => {
    for (const e of events) {
      try {
        onEvent!(e);
      } catch (err) {
        if (!listenerFailed) log.warn(`bench event listener failed (further failures not shown): ${(err as Error).message}`);
        listenerFailed = true;
      }
    }
  };
  try {
    return await new Promise<BenchResult>((resolve, reject) => {
      worker.on('message', (m: FromWorker) => {
        if (m.type === 'events') deliver(m.events);
        else if (m.type === 'log') log[m.level](m.message);
        else if (m.type === 'result') resolve(m.result);
        else reject(rebuildError(m.error));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the benchmark worker stopped (exit code ${code}) before returning a result`)));
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
    await exited;
  }
}
