// The benchmark worker thread: runs runBenchmark on its own event loop, so the measurement does
// not share a loop (and its lag) with the TUI. See isolated.ts for the caller's side.
import { parentPort, workerData } from 'node:worker_threads';
import { isUserError } from '../core/errors.js';
import { setLogSink } from '../core/logger.js';
import { runBenchmark } from './run.js';
import type { BenchEvent } from './types.js';
import type { FromWorker, ToWorker, WorkerInput } from './worker-protocol.js';

/** Events are sent in batches at most this often (a message per event costs the UI thread). */
const FLUSH_MS = 50;

const port = parentPort!;
const input = workerData as WorkerInput;
const post = (m: FromWorker) => port.postMessage(m);

setLogSink((level, message) => post({ type: 'log', level, message }));

const ac = new AbortController();
if (input.aborted) ac.abort();
port.on('message', (m: ToWorker) => {
  if (m.type === 'abort') ac.abort();
});

let pending: BenchEvent[] = [];
let flushTimer: NodeJS.Timeout | undefined;
const flush = () => {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (pending.length === 0) return;
  post({ type: 'events', events: pending });
  pending = [];
};
// Per-token events are dropped: nobody outside the run needs one message per token (the live
// view is built here, and its snapshots carry ITL and throughput). The rest go in batches.
const onEvent = (e: BenchEvent) => {
  if (e.type === 'token') return;
  pending.push(e);
  if (e.type === 'snapshot') flush();
  else flushTimer ??= setTimeout(flush, FLUSH_MS);
};

try {
  const result = await runBenchmark({ ...input.opts, signal: ac.signal, ...(input.wantEvents ? { onEvent } : {}) });
  flush();
  post({ type: 'result', result });
} catch (e) {
  flush();
  const err = e instanceof Error ? e : new Error(String(e));
  post({ type: 'error', error: { name: err.name, message: err.message, ...(isUserError(err) ? { code: err.code } : {}), ...(err.stack ? { stack: err.stack } : {}) } });
} finally {
  port.unref(); // let the thread end once the result is sent (the caller terminates it anyway)
}
