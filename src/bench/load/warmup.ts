// Before the timed run: vLLM's ready check (send the first request until it succeeds) and the
// warm-up requests (vLLM main --num-warmups: copies of the first request under the same cap; a
// tuning session may hand its own, tune/run/warmup-requests.ts).
import { UserError } from '../../core/errors.js';
import { readyCheck } from './ready.js';
import type { RawOutput } from '../http/request-shapes.js';
import type { Sender } from './sender.js';
import type { SampledRequest } from '../types.js';

/** A concurrency cap: the in-process Semaphore or the shared one of a sharded run. */
export interface Gate {
  acquire(): Promise<void>;
  release(): void;
  /** Wake every waiter (abort): they re-check the signal and leave. */
  drain(): void;
}

export async function readyIfAsked(
  timeoutSec: number | undefined,
  send: Sender['send'],
  first: SampledRequest,
  idPrefix: string,
  signal?: AbortSignal,
): Promise<void> {
  if ((timeoutSec ?? 0) > 0) await readyCheck(timeoutSec!, () => send(first, `${idPrefix}ready`, {}), signal);
}

/**
 * Sends `count` warm-ups under the gate; ids `${idPrefix}warmup-${firstId + i}`. Warm-up k is
 * pool[k mod its length], or a copy of `first` without a pool. Returns the outputs.
 */
export async function sendWarmups(
  count: number,
  firstId: number,
  send: Sender['send'],
  gate: Gate,
  first: SampledRequest,
  idPrefix: string,
  pool?: readonly SampledRequest[],
): Promise<RawOutput[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      await gate.acquire();
      try {
        const req = pool?.length ? pool[(firstId + i) % pool.length]! : first;
        return await send(req, `${idPrefix}warmup-${firstId + i}`, {});
      } finally {
        gate.release();
      }
    }),
  );
}

/** All warm-ups failing means the server cannot serve: stop before measuring anything. */
export function checkWarmups(outputs: readonly Pick<RawOutput, 'success' | 'error'>[], total: number, aborted: boolean): void {
  const bad = outputs.filter((w) => !w.success);
  if (total > 0 && bad.length === total && !aborted) {
    throw new UserError(`all ${total} warm-up requests failed: ${bad[0]!.error}`, 1);
  }
}
