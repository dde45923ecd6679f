// The timed part of a run: requests leave on the arrival schedule (computed once for the whole
// run), each under the concurrency gate, and come back as RequestOutputs by request index. A
// sharded run calls this in every worker with that worker's share of the indices and the same
// schedule and start instant, so the arrival process is the one client's.
import { nowS } from '../http/client.js';
import type { RawOutput } from '../http/request-shapes.js';
import { sleep } from './async.js';
import type { LiveTracker } from '../metrics/live.js';
import type { Sender } from './sender.js';
import type { BenchEvent, RequestOutput, SampledRequest } from '../types.js';
import type { Gate } from './warmup.js';

export interface ArrivalContext {
  requests: readonly SampledRequest[];
  /** Request indices this loop sends, ascending (default: all). */
  indices?: readonly number[];
  /** Seconds after benchStart at which request i leaves (arrivalDelays, whole run). */
  delays: readonly number[];
  /** The run's start on this thread's nowS() clock. */
  benchStart: number;
  send: Sender['send'];
  gate: Gate;
  idPrefix: string;
  countOut: (text: string) => number;
  live: LiveTracker;
  emit?: ((e: BenchEvent) => void) | undefined;
  signal?: AbortSignal | undefined;
}

function toOutput(raw: RawOutput, req: SampledRequest, benchStart: number, countOut: (t: string) => number): RequestOutput {
  const promptLen = raw.success ? (raw.promptTokens ?? req.promptLen) : req.promptLen;
  // The possible reuse in the same count as promptLen (the server's when it reported one).
  const scaled = (n: number | undefined) =>
    n !== undefined && req.promptLen > 0 ? Math.round((n * promptLen) / req.promptLen) : undefined;
  const reusableLen = scaled(req.reusableLen);
  // What the run's own requests could have cached for it: any request in flight may have gone first.
  const ownCacheLen = scaled(req.sharedLen);
  return {
    success: raw.success,
    promptLen,
    outputLen: raw.success ? raw.completionTokens || countOut(raw.generatedText) : 0,
    ttft: raw.ttft,
    itl: raw.itl,
    latency: raw.latency,
    startTime: raw.st - benchStart,
    ...(raw.sentS !== undefined ? { sentTime: raw.sentS - benchStart } : {}),
    generatedText: raw.generatedText,
    error: raw.error,
    ...(raw.success && raw.promptTokens !== undefined && raw.completionTokens !== undefined ? { serverCounted: true } : {}),
    ...(raw.cachedTokens !== undefined ? { cachedTokens: raw.cachedTokens } : {}),
    ...(reusableLen !== undefined ? { reusableLen } : {}),
    ...(ownCacheLen !== undefined ? { ownCacheLen } : {}),
  };
}

async function runOne(c: ArrivalContext, i: number, outputs: Map<number, RequestOutput>): Promise<void> {
  const { gate, live, emit, signal, benchStart } = c;
  await gate.acquire();
  if (signal?.aborted) return;
  const req = c.requests[i]!;
  live.running++;
  let raw: RawOutput;
  try {
    if (emit) emit({ type: 'request-started', index: i, t: nowS() - benchStart });
    raw = await c.send(req, `${c.idPrefix}${i}`, {
      // Without a listener there is no live view to keep: no per-event work at all.
      ...(emit && {
        onFirst: (ts: number, ttft: number) => {
          live.firstToken(ts, ttft, req.promptLen);
          emit({ type: 'first-token', index: i, t: ts - benchStart, ttft });
        },
        onToken: (ts: number, gap: number) => {
          live.token(ts);
          live.itl(gap);
          emit({ type: 'token', index: i, t: ts - benchStart, gap });
        },
      }),
    });
  } finally {
    live.running--;
    gate.release();
  }
  // Stopped by our abort: neither finished nor failed; left out of the results.
  if (!raw.success && signal?.aborted) return;
  const out = toOutput(raw, req, benchStart, c.countOut);
  outputs.set(i, out);
  const t = nowS() - benchStart;
  if (out.success) {
    live.finished(out);
    if (emit) emit({ type: 'request-finished', index: i, t, output: out });
  } else {
    live.failed++;
    if (emit) emit({ type: 'request-failed', index: i, t, error: out.error });
  }
}

/** Sends the requests on schedule and waits for all of them; outputs by request index. */
export async function runArrivals(c: ArrivalContext): Promise<Map<number, RequestOutput>> {
  const outputs = new Map<number, RequestOutput>();
  const indices = c.indices ?? c.requests.map((_, i) => i);
  const onAbort = () => c.gate.drain();
  c.signal?.addEventListener('abort', onAbort, { once: true });
  const tasks: Promise<void>[] = [];
  // A trace session's entry leaves once the session's previous entry has finished (and its
  // think time passed), never before its own scheduled time; the loop does not wait for it.
  const byIndex = new Map<number, Promise<void>>();
  const start = (i: number): Promise<void> => {
    const req = c.requests[i]!;
    const prev = req.after !== undefined ? byIndex.get(req.after) : undefined;
    const task = prev
      ? prev.then(async () => {
          if (req.afterDelayS) await sleep(req.afterDelayS * 1000, c.signal);
          if (!c.signal?.aborted) await runOne(c, i, outputs);
        })
      : runOne(c, i, outputs);
    byIndex.set(i, task);
    return task;
  };
  try {
    for (let k = 0; k < indices.length; k++) {
      if (c.signal?.aborted) break;
      const i = indices[k]!;
      const wait = c.benchStart + c.delays[i]! - nowS();
      if (wait > 0) await sleep(wait * 1000, c.signal);
      else if ((k & 15) === 15) await new Promise<void>((r) => setImmediate(r));
      if (c.signal?.aborted) break;
      // (Launching a burst of 1000 requests takes ~0.3 s of CPU: yielding every 16 lets the
      // replies of the first ones be stamped when they arrive, not after the whole burst.)
      tasks.push(start(i));
    }
    await Promise.all(tasks);
  } finally {
    c.signal?.removeEventListener('abort', onAbort);
  }
  return outputs;
}
