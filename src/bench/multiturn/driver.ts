// The closed-loop multi-turn driver: `users` conversations run at once; each user sends turn k,
// waits for the whole reply, thinks, and sends turn k+1 with that reply in its history (so the
// load follows the server: a slow server gets fewer requests), then starts the next conversation
// still to run. Requests go through the bench's own client (sender.ts) and come back as
// RequestOutputs tagged with their conversation and turn, each with the prefix a cache could
// serve (reusableLen: the tokens of the user's previous turn, or a system prompt another finished
// request already sent), so the run's result, live view and cache accounting are the same as a
// single-turn run's.
import { performance } from 'node:perf_hooks';
import { nowS } from '../http/client.js';
import type { RawOutput, RequestSpec } from '../http/request-shapes.js';
import { Semaphore, sleep } from '../load/async.js';
import { assembleResult, inIndexOrder } from '../load/assemble.js';
import { ClientMonitor } from '../load/monitor.js';
import { checkReachable } from '../load/ready.js';
import { checkRunOptions, safeEmitter, type CheckedRun, type RunOptions } from '../load/run-options.js';
import { inlineSender, type Sender } from '../load/sender.js';
import { checkWarmups, readyIfAsked, sendWarmups } from '../load/warmup.js';
import { LiveTracker } from '../metrics/live.js';
import type { TokenCounter } from '../datasets/tokenizer.js';
import type { BenchEvent, BenchResult, RequestOutput, SampledRequest, TurnTag } from '../types.js';
import type { Conversation, MultiTurnWorkload } from './conversations.js';
import { turnRequest } from './prompt.js';
import { primeSystems } from './prime.js';

export type MultiTurnOptions = Omit<RunOptions, 'requests' | 'requestRate' | 'burstiness' | 'maxConcurrency' | 'tokenCounts'> & {
  workload: MultiTurnWorkload;
  /** Conversations in flight at once. */
  users: number;
  counter: TokenCounter;
  /** Before the clock starts, put each shared system prompt in the server's cache (prime.ts): a capacity probe's steady state. */
  primeSystems?: boolean;
};

/**
 * Ready checks and warm-ups send this, never a conversation's first turn: that would put the
 * system prompt in the server's cache before the clock starts.
 */
const PROBE: SampledRequest = { prompt: 'Say hello.', promptLen: 3, expectedOutputLen: 1 };

interface Ctx {
  o: MultiTurnOptions;
  run: CheckedRun;
  send: Sender['send'];
  live: LiveTracker;
  emit: ((e: BenchEvent) => void) | undefined;
  benchStart: number;
  outputs: Map<number, RequestOutput>;
  /** Index of each conversation's first request (request indices follow conversation order). */
  offsets: number[];
  /** Next conversation to start, conversations that ran every turn, system prompts a finished request sent. */
  next: number;
  completed: number;
  warmSystems: Set<string>;
  /** System prompts more than one conversation of the run carries. */
  sharedSystems: Set<string>;
}

/** What a turn could find cached: what the run sent before it (reusable), and what its own requests could have left (own). */
type TurnReuse = { reusable: number; own: number };

function toOutput(c: Ctx, raw: RawOutput, spec: RequestSpec, reuse: TurnReuse, turn: TurnTag): RequestOutput {
  const promptLen = raw.success ? (raw.promptTokens ?? spec.promptLen) : spec.promptLen;
  return {
    success: raw.success,
    promptLen,
    outputLen: raw.success ? raw.completionTokens || c.o.counter.count(raw.generatedText, false) : 0,
    ttft: raw.ttft,
    itl: raw.itl,
    latency: raw.latency,
    startTime: raw.st - c.benchStart,
    ...(raw.sentS !== undefined ? { sentTime: raw.sentS - c.benchStart } : {}),
    generatedText: raw.generatedText,
    error: raw.error,
    ...(raw.success && raw.promptTokens !== undefined && raw.completionTokens !== undefined ? { serverCounted: true } : {}),
    ...(raw.cachedTokens !== undefined ? { cachedTokens: raw.cachedTokens } : {}),
    reusableLen: Math.min(reuse.reusable, promptLen),
    ownCacheLen: Math.min(Math.max(reuse.own, reuse.reusable), promptLen),
    turn,
  };
}

/** Sends one turn; its output, or undefined when the run was aborted under it. */
async function sendTurn(c: Ctx, i: number, spec: RequestSpec, reuse: TurnReuse, turn: TurnTag): Promise<RequestOutput | undefined> {
  const { live, emit, benchStart } = c;
  live.running++;
  let raw: RawOutput;
  try {
    emit?.({ type: 'request-started', index: i, t: nowS() - benchStart });
    raw = await c.send(spec, `${c.run.idPrefix}${i}`, {
      ...(emit && {
        onFirst: (ts: number, ttft: number) => {
          live.firstToken(ts, ttft, spec.promptLen);
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
  }
  if (!raw.success && c.o.signal?.aborted) return undefined;
  const out = toOutput(c, raw, spec, reuse, turn);
  c.outputs.set(i, out);
  const t = nowS() - benchStart;
  if (out.success) {
    live.finished(out);
    emit?.({ type: 'request-finished', index: i, t, output: out });
  } else {
    live.failed++;
    emit?.({ type: 'request-failed', index: i, t, error: out.error });
  }
  return out;
}

/** One conversation, turn by turn; it ends early when a turn fails (later turns need its reply). */
async function converse(c: Ctx, ci: number, conv: Conversation): Promise<void> {
  const replies: string[] = [];
  let prevPrompt = 0;
  let prevReply = 0;
  const signal = c.o.signal;
  for (let k = 0; k < conv.turns.length; k++) {
    const think = conv.turns[k]!.thinkS;
    if (k > 0 && think > 0) await sleep(think * 1000, signal);
    if (signal?.aborted) return;
    const spec = turnRequest(conv, replies, k, c.run.backend, c.o.counter);
    const system = conv.system ? conv.systemLen + c.o.counter.numSpecial : 0;
    const shared = conv.system && c.warmSystems.has(conv.system) ? system : 0;
    // Users start at once, and the server, not the client, picks which first turn it prefills
    // first: any conversation's can find a system prompt it shares with another in the cache.
    const offered = conv.system && c.sharedSystems.has(conv.system) ? system : 0;
    const reuse = k > 0 ? { reusable: prevPrompt, own: prevPrompt + prevReply } : { reusable: shared, own: offered };
    const out = await sendTurn(c, c.offsets[ci]! + k, spec, reuse, { conversation: ci, index: k + 1, of: conv.turns.length });
    if (!out?.success) return;
    replies.push(out.generatedText);
    prevPrompt = out.promptLen;
    prevReply = out.outputLen;
    if (conv.system) c.warmSystems.add(conv.system);
  }
  c.completed++;
}

function sharedSystems(convs: readonly Conversation[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const { system } of convs) if (system) (seen.has(system) ? shared : seen).add(system);
  return shared;
}

async function user(c: Ctx): Promise<void> {
  const convs = c.o.workload.conversations;
  while (!c.o.signal?.aborted && c.next < convs.length) {
    const ci = c.next++;
    await converse(c, ci, convs[ci]!);
  }
}

export async function runMultiTurn(o: MultiTurnOptions): Promise<BenchResult> {
  const run = checkRunOptions({ ...o, maxConcurrency: o.users });
  const convs = o.workload.conversations;
  const offsets: number[] = [];
  let total = 0;
  for (const conv of convs) (offsets.push(total), (total += conv.turns.length));
  const emit = safeEmitter(o.onEvent);
  const startedAt = new Date();
  const sender = inlineSender(run.base, run.timeoutMs);
  const stop = () => sender.abort();
  o.signal?.addEventListener('abort', stop, { once: true });
  const monitor = new ClientMonitor();
  let snapTimer: NodeJS.Timeout | undefined;
  try {
    await checkReachable(new URL(run.url));
    await readyIfAsked(o.readyCheckTimeoutSec, sender.send, PROBE, run.idPrefix, o.signal);
    const warmups = o.numWarmups ?? 0;
    if (warmups > 0) checkWarmups(await sendWarmups(warmups, 0, sender.send, new Semaphore(o.users), PROBE, run.idPrefix), warmups, false);
    if (o.primeSystems) {
      const aborted = () => o.signal?.aborted ?? false;
      await primeSystems(convs, { send: sender.send, backend: run.backend, counter: o.counter, idPrefix: run.idPrefix, aborted });
    }
    const users = Math.min(o.users, convs.length);
    await sender.preconnect(users);
    const live = new LiveTracker(total);
    monitor.start();
    const benchStart = nowS();
    const c: Ctx = {
      o,
      run,
      send: sender.send,
      live,
      emit,
      benchStart,
      outputs: new Map(),
      offsets,
      next: 0,
      completed: 0,
      warmSystems: new Set(),
      sharedSystems: sharedSystems(convs),
    };
    if (emit) {
      snapTimer = setInterval(() => {
        const now = nowS();
        emit({ type: 'snapshot', snapshot: live.snapshot(now, now - benchStart, monitor.window().clientBound) });
      }, o.snapshotIntervalMs ?? 1000);
    }
    await Promise.all(Array.from({ length: users }, () => user(c)));
    const duration = nowS() - benchStart;
    clearInterval(snapTimer);
    const client = monitor.stop();
    emit?.({ type: 'snapshot', snapshot: live.snapshot(nowS(), duration, client.reasons.length > 0) });
    const planned = convs.flatMap((conv) =>
      conv.turns.map((t) => ({ prompt: t.user, promptLen: t.userLen, expectedOutputLen: t.outputLen })),
    );
    const result = assembleResult({ ...o, requests: planned, tokenCounts: o.workload.tokenCounts }, run, {
      outputs: inIndexOrder(c.outputs),
      duration,
      client,
      aborted: o.signal?.aborted ?? false,
      startedAt,
      clockOriginMs: performance.timeOrigin + benchStart * 1000,
    });
    return { ...result, conversations: { total: convs.length, completed: c.completed, users: o.users } };
  } finally {
    o.signal?.removeEventListener('abort', stop);
    clearInterval(snapTimer);
    monitor.stop();
    sender.close();
  }
}
