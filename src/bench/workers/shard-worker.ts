// One thread of the sharded client (sharded.ts): sends its share of the requests on the whole
// run's arrival schedule, from the start instant the coordinator gives, under the run's shared
// concurrency cap, and returns its outputs by request index.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { setLogSink } from '../../core/logger.js';
import { runArrivals } from '../load/arrival-loop.js';
import { Semaphore } from '../load/async.js';
import { nowS } from '../http/client.js';
import { eventBatcher } from './event-batch.js';
import { LiveTracker } from '../metrics/live.js';
import { ClientMonitor } from '../load/monitor.js';
import { connectionsNeeded, inlineSender } from '../load/sender.js';
import { SharedGate } from './shared-gate.js';
import type { FromShard, ShardInput, ToShard } from './shard-protocol.js';
import { countWords } from '../datasets/tokenizer.js';
import { sendWarmups } from '../load/warmup.js';
import { workerError } from './worker-protocol.js';

const port = parentPort!;
const input = workerData as ShardInput;
const post = (m: FromShard) => port.postMessage(m);
setLogSink((level, message) => post({ type: 'log', level, message }));

const ac = new AbortController();
if (input.aborted) ac.abort();
let go: (startEpochMs: number | undefined) => void = () => {};
const started = new Promise<number | undefined>((r) => (go = r));
ac.signal.addEventListener('abort', () => go(undefined), { once: true });
port.on('message', (m: ToShard) => {
  if (m.type === 'abort') ac.abort();
  else go(m.startEpochMs);
});

const { onEvent, flush } = eventBatcher((events) => post({ type: 'events', events }));
const emit = input.wantEvents ? onEvent : undefined;

async function main(): Promise<void> {
  const { run } = input;
  const sender = inlineSender(run.base, run.timeoutMs);
  ac.signal.addEventListener('abort', () => sender.abort(), { once: true });
  const gate = input.gate ? new SharedGate(input.gate) : new Semaphore(Infinity);
  const mon = new ClientMonitor();
  let timer: NodeJS.Timeout | undefined;
  try {
    const first = input.requests[0]!;
    const warm =
      input.warmups > 0 && !ac.signal.aborted
        ? await sendWarmups(input.warmups, input.firstWarmupId, sender.send, gate, first, run.idPrefix, input.warmupRequests)
        : [];
    // This shard's connections are open before the shared start (its share, under the run's cap).
    if (!ac.signal.aborted) await sender.preconnect(connectionsNeeded(input.indices.length, run.maxConcurrency));
    post({ type: 'ready', warmups: warm.map((w) => ({ success: w.success, error: w.error })) });
    const startEpochMs = await started;
    if (startEpochMs === undefined) {
      mon.start(); // (stopped at once: empty stats rather than stats of an unstarted monitor)
      post({ type: 'done', report: { outputs: [], endEpochMs: 0, client: mon.stop() } });
      return;
    }
    // This thread's clock has its own origin: the shared start is an epoch instant.
    const benchStart = (startEpochMs - performance.timeOrigin) / 1000;
    const live = new LiveTracker(input.requests.length);
    mon.start();
    timer = emit
      ? setInterval(() => {
          const now = nowS();
          emit({ type: 'snapshot', snapshot: live.snapshot(now, now - benchStart, mon.window().clientBound) });
        }, input.snapshotIntervalMs)
      : undefined;
    const outputs = await runArrivals({
      requests: input.requests,
      indices: input.indices,
      delays: input.delays,
      benchStart,
      send: sender.send,
      gate,
      idPrefix: run.idPrefix,
      countOut: input.recount ? () => 0 : countWords,
      live,
      emit,
      signal: ac.signal,
    });
    const endEpochMs = performance.timeOrigin + nowS() * 1000;
    clearInterval(timer);
    flush();
    post({ type: 'done', report: { outputs: [...outputs.entries()], endEpochMs, client: mon.stop() } });
  } finally {
    clearInterval(timer);
    mon.stop();
    sender.close();
  }
}

try {
  await main();
} catch (e) {
  flush();
  post({ type: 'error', error: workerError(e) });
} finally {
  port.unref();
}
