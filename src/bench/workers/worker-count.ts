// Counts benchmark worker threads still alive (isolated and sharded runs), so tests can check
// that every run terminates its threads.
import { Worker } from 'node:worker_threads';
import { BENCH_SHARD_WORKER_ENTRY, BENCH_WORKER_ENTRY } from '../../core/self.js';

let live = 0;

/** Benchmark worker threads still running (0 once every run has settled). */
export function liveBenchWorkers(): number {
  return live;
}

/** Starts a benchmark worker; `exited` resolves when its thread is gone. */
export function startBenchWorker(workerData: unknown): { worker: Worker; exited: Promise<void> } {
  const shard = (workerData as { entry?: string } | null)?.entry === './shard-worker.ts';
  const worker = new Worker(shard ? BENCH_SHARD_WORKER_ENTRY : BENCH_WORKER_ENTRY, { workerData });
  live++;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => live--);
  return { worker, exited };
}
