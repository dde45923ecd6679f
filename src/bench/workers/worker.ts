// The benchmark worker thread: runs runBenchmark on its own event loop, so the measurement does
// not share a loop (and its lag) with the TUI. See isolated.ts for the caller's side.
import { parentPort, workerData } from 'node:worker_threads';
import { setLogSink } from '../../core/logger.js';
import { eventBatcher } from './event-batch.js';
import { runBenchmark } from '../load/run.js';
import { workerError, type FromWorker, type ToWorker, type WorkerInput } from './worker-protocol.js';

const port = parentPort!;
const input = workerData as WorkerInput;
const post = (m: FromWorker) => port.postMessage(m);

setLogSink((level, message) => post({ type: 'log', level, message }));

const ac = new AbortController();
if (input.aborted) ac.abort();
port.on('message', (m: ToWorker) => {
  if (m.type === 'abort') ac.abort();
});

const { onEvent, flush } = eventBatcher((events) => post({ type: 'events', events }));

try {
  const result = await runBenchmark({ ...input.opts, signal: ac.signal, ...(input.wantEvents ? { onEvent } : {}) });
  flush();
  post({ type: 'result', result });
} catch (e) {
  flush();
  post({ type: 'error', error: workerError(e) });
} finally {
  port.unref(); // let the thread end once the result is sent (the caller terminates it anyway)
}
