// The sharded benchmark client: the requests of one run dealt over N worker threads, so a host
// with spare cores can drive an 8-GPU server at event rates one thread cannot stamp in time.
// The arrival schedule is computed once here (same seed, same process as one client) and every
// shard sends its share at the same instants from one shared start; the concurrency cap is one
// cap over all threads (shared-gate.ts); the outputs are merged by request index and measured with
// the one-client definitions (merge.ts, load/assemble.ts): percentiles over all requests, durations
// from the global start to the last end.
import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { log } from '../../core/logger.js';
import { scheduleDelays } from '../load/arrivals.js';
import { assembleResult } from '../load/assemble.js';
import { dealCount, dealRequests, mergeShards, type ShardReport } from './merge.js';
import { checkReachable } from '../load/ready.js';
import { checkRun, safeEmitter, type CheckedRun, type RunOptions } from '../load/run-options.js';
import { inlineSender } from '../load/sender.js';
import { sharedGateBuffer } from './shared-gate.js';
import { ShardedLive } from './sharded-live.js';
import type { FromShard, ShardInput, ToShard } from './shard-protocol.js';
import type { BenchResult } from '../types.js';
import { checkWarmups, readyIfAsked } from '../load/warmup.js';
import { startBenchWorker } from './worker-count.js';
import { rebuildError } from './worker-protocol.js';

/** Time from the go message to the first arrival, so every shard has the start before it is due. */
const START_LEAD_MS = 20;

/**
 * runBenchmark's options. countOutputTokens cannot cross to a thread: the shards count a response
 * with no usage report as 0 tokens and this thread recounts those with it (vLLM's rule: a falsy
 * usage count is recounted), so only the live view's TPOT misses them.
 */
type Opts = RunOptions;

interface ShardHandle {
  worker: Worker;
  exited: Promise<void>;
  ready: Promise<{ success: boolean; error: string }[]>;
  done: Promise<ShardReport>;
}

function startShard(input: ShardInput, onEvent: (m: Extract<FromShard, { type: 'events' }>) => void): ShardHandle {
  const { worker, exited } = startBenchWorker(input);
  let readyOk!: (w: { success: boolean; error: string }[]) => void;
  let doneOk!: (r: ShardReport) => void;
  let fail!: (e: Error) => void;
  const ready = new Promise<{ success: boolean; error: string }[]>((res, rej) => {
    readyOk = res;
    fail = rej;
  });
  const done = new Promise<ShardReport>((res, rej) => {
    doneOk = res;
    const before = fail;
    fail = (e) => {
      before(e);
      rej(e);
    };
  });
  // Whoever does not await one of them must not see an unhandled rejection.
  ready.catch(() => {});
  done.catch(() => {});
  worker.on('message', (m: FromShard) => {
    if (m.type === 'ready') readyOk(m.warmups);
    else if (m.type === 'events') onEvent(m);
    else if (m.type === 'log') log[m.level](m.message);
    else if (m.type === 'done') doneOk(m.report);
    else fail(rebuildError(m.error));
  });
  worker.once('error', (e) => fail(e));
  worker.once('exit', (code) => fail(new Error(`a benchmark client thread stopped (exit code ${code}) before returning its result`)));
  return { worker, exited, ready, done };
}

function shardInputs(opts: Opts, run: CheckedRun, threads: number, aborted: boolean): ShardInput[] {
  const delays = scheduleDelays(opts.requests, run.requestRate, run.burstiness, opts.seed ?? 0);
  const deal = dealRequests(opts.requests.length, threads);
  const warm = dealCount(opts.numWarmups ?? 0, deal.length);
  const gate = run.maxConcurrency === null ? undefined : sharedGateBuffer(run.maxConcurrency);
  return deal.map((indices, k) => ({
    entry: './shard-worker.ts',
    run,
    requests: opts.requests,
    indices,
    delays,
    warmups: warm[k]![0],
    firstWarmupId: warm[k]![1],
    ...(opts.warmupRequests?.length ? { warmupRequests: opts.warmupRequests } : {}),
    ...(gate ? { gate } : {}),
    wantEvents: !!opts.onEvent,
    recount: !!opts.countOutputTokens,
    snapshotIntervalMs: opts.snapshotIntervalMs ?? 1000,
    aborted,
  }));
}

/** The vLLM ready check, from this thread (nothing is timed yet). */
async function readyCheckInline(opts: Opts, run: CheckedRun): Promise<void> {
  if (!((opts.readyCheckTimeoutSec ?? 0) > 0)) return;
  const sender = inlineSender(run.base, run.timeoutMs);
  try {
    await readyIfAsked(opts.readyCheckTimeoutSec, sender.send, opts.requests[0]!, run.idPrefix, opts.signal);
  } finally {
    sender.close();
  }
}

/** runBenchmarkIsolated over `threads` client threads (see the file comment). */
export async function runBenchmarkSharded(opts: Opts, threads: number): Promise<BenchResult> {
  if (!(Number.isInteger(threads) && threads >= 1)) throw new RangeError(`client threads must be a positive integer, got ${threads}`);
  const run = checkRun(opts);
  const { signal } = opts;
  const emit = safeEmitter(opts.onEvent);
  const startedAt = new Date();
  await checkReachable(new URL(run.url));
  await readyCheckInline(opts, run);
  const inputs = shardInputs(opts, run, threads, signal?.aborted ?? false);
  const live = new ShardedLive(opts.requests, inputs.length);
  const shards = inputs.map((input, k) =>
    startShard(input, (m) => {
      for (const e of m.events) {
        const fwd = live.take(k, e);
        if (fwd && emit) emit(fwd);
      }
    }),
  );
  const post = (m: ToShard) => shards.forEach((s) => s.worker.postMessage(m));
  const onAbort = () => post({ type: 'abort' });
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const warm = (await Promise.all(shards.map((s) => s.ready))).flat();
    checkWarmups(warm, opts.numWarmups ?? 0, signal?.aborted ?? false);
    const startEpochMs = performance.timeOrigin + performance.now() + START_LEAD_MS;
    post({ type: 'go', startEpochMs });
    const elapsed = () => (performance.timeOrigin + performance.now() - startEpochMs) / 1000;
    if (emit) timer = setInterval(() => emit({ type: 'snapshot', snapshot: live.snapshot(elapsed()) }), opts.snapshotIntervalMs ?? 1000);
    const merged = mergeShards(await Promise.all(shards.map((s) => s.done)), startEpochMs);
    clearInterval(timer);
    if (emit)
      emit({
        type: 'snapshot',
        snapshot: { ...live.snapshot(merged.duration, merged.client.reasons.length > 0), elapsedS: merged.duration },
      });
    const count = opts.countOutputTokens;
    const outputs = count
      ? merged.outputs.map((o) => (o.success && o.outputLen === 0 ? { ...o, outputLen: count(o.generatedText) } : o))
      : merged.outputs;
    return assembleResult(opts, run, {
      outputs,
      duration: merged.duration,
      client: merged.client,
      aborted: signal?.aborted ?? false,
      startedAt,
      clockOriginMs: startEpochMs,
    });
  } catch (e) {
    onAbort();
    throw e;
  } finally {
    clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(
      shards.map(async (s) => {
        await s.worker.terminate();
        await s.exited;
      }),
    );
  }
}
