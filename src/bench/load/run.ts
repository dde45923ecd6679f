// runBenchmark: the load loop of `vllm bench serve` (arrivals, concurrency cap, warm-ups, ready
// check), with live events, client self-monitoring and clean abort. The pieces live in
// run-options.ts (validation), warmup.ts, arrival-loop.ts and assemble.ts; the sharded client
// (workers/sharded.ts) runs the same pieces on several threads.
import { performance } from 'node:perf_hooks';
import { scheduleDelays } from './arrivals.js';
import { Semaphore } from './async.js';
import { checkReachable } from './ready.js';
import { nowS } from '../http/client.js';
import { connectionsNeeded, inlineSender, type Sender } from './sender.js';
import { LiveTracker } from '../metrics/live.js';
import { ClientMonitor } from './monitor.js';
import { countWords } from '../datasets/tokenizer.js';
import { runArrivals } from './arrival-loop.js';
import { assembleResult, inIndexOrder } from './assemble.js';
import { checkRun, safeEmitter, type RunOptions } from './run-options.js';
import { checkWarmups, readyIfAsked, sendWarmups } from './warmup.js';
import type { BenchResult } from '../types.js';

export async function runBenchmark(opts: RunOptions): Promise<BenchResult> {
  const run = checkRun(opts);
  const { signal } = opts;
  const emit = safeEmitter(opts.onEvent);
  const startedAt = new Date();
  let snapTimer: NodeJS.Timeout | undefined;
  let monitor: ClientMonitor | undefined;
  let sender: Sender | undefined;
  const stopSending = () => sender?.abort();
  signal?.addEventListener('abort', stopSending, { once: true });
  try {
    await checkReachable(new URL(run.url));
    sender = inlineSender(run.base, run.timeoutMs);
    if (signal?.aborted) sender.abort();
    const first = opts.requests[0]!;
    await readyIfAsked(opts.readyCheckTimeoutSec, sender.send, first, run.idPrefix, signal);
    const gate = new Semaphore(run.maxConcurrency ?? Infinity);
    const warmups = opts.numWarmups ?? 0;
    if (warmups > 0 && !signal?.aborted) {
      checkWarmups(
        await sendWarmups(warmups, 0, sender.send, gate, first, run.idPrefix, opts.warmupRequests),
        warmups,
        signal?.aborted ?? false,
      );
    }
    // Every connection the run can hold at once is open before its clock starts (sender.ts).
    if (!signal?.aborted) await sender.preconnect(connectionsNeeded(opts.requests.length, run.maxConcurrency));

    const delays = scheduleDelays(opts.requests, run.requestRate, run.burstiness, opts.seed ?? 0);
    const live = new LiveTracker(opts.requests.length);
    const mon = (monitor = new ClientMonitor());
    mon.start();
    const benchStart = nowS();
    snapTimer = emit
      ? setInterval(() => {
          const now = nowS();
          emit({ type: 'snapshot', snapshot: live.snapshot(now, now - benchStart, mon.window().clientBound) });
        }, opts.snapshotIntervalMs ?? 1000)
      : undefined;
    const outputs = await runArrivals({
      requests: opts.requests,
      delays,
      benchStart,
      send: sender.send,
      gate,
      idPrefix: run.idPrefix,
      countOut: opts.countOutputTokens ?? countWords,
      live,
      emit,
      signal,
    });
    const duration = nowS() - benchStart;
    clearInterval(snapTimer);
    const client = mon.stop();
    if (emit) emit({ type: 'snapshot', snapshot: live.snapshot(nowS(), duration, client.reasons.length > 0) });
    return assembleResult(opts, run, {
      outputs: inIndexOrder(outputs),
      duration,
      client,
      aborted: signal?.aborted ?? false,
      startedAt,
      clockOriginMs: performance.timeOrigin + benchStart * 1000,
    });
  } finally {
    signal?.removeEventListener('abort', stopSending);
    clearInterval(snapTimer);
    monitor?.stop();
    sender?.close();
  }
}
