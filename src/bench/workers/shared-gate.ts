// The concurrency cap (--max-concurrency) of a sharded run: one count of requests in flight shared
// by every client thread through a SharedArrayBuffer, so the cap is the run's, not each shard's
// (splitting it per shard would leave slots idle in one shard while another queues).
// Within a thread waiters are served first come first served; across threads the next free slot
// goes to whichever thread wakes first, so the order in which queued requests start may differ
// from one client's (the set of requests and the cap do not).
import type { Gate } from '../load/warmup.js';

// Atomics.waitAsync is in Node >= 16 but in TypeScript's lib only from ES2024 (tsconfig has ES2023).
type WaitAsync = (a: Int32Array, i: number, v: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

const IN_FLIGHT = 0;
const CAP = 1;

/** The shared cells for a cap of `cap` requests in flight; pass it to every shard. */
export function sharedGateBuffer(cap: number): SharedArrayBuffer {
  if (!(Number.isInteger(cap) && cap > 0 && cap < 2 ** 31)) throw new RangeError(`a shared gate needs a positive int32 cap, got ${cap}`);
  const buf = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  Atomics.store(new Int32Array(buf), CAP, cap);
  return buf;
}

export class SharedGate implements Gate {
  private readonly cells: Int32Array;
  private readonly queue: (() => void)[] = [];
  private pumping = false;
  private drained = false;

  constructor(buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /** Requests in flight over all threads (for tests). */
  inFlight(): number {
    return Atomics.load(this.cells, IN_FLIGHT);
  }

  private tryTake(): boolean {
    const cap = Atomics.load(this.cells, CAP);
    for (;;) {
      const v = Atomics.load(this.cells, IN_FLIGHT);
      if (v >= cap) return false;
      if (Atomics.compareExchange(this.cells, IN_FLIGHT, v, v + 1) === v) return true;
    }
  }

  acquire(): Promise<void> {
    if (this.drained) return Promise.resolve();
    if (this.queue.length === 0 && this.tryTake()) return Promise.resolve();
    return new Promise((resolve) => {
      this.queue.push(resolve);
      void this.pump();
    });
  }

  // Only the head of this thread's queue contends for a slot; it sleeps (without blocking the
  // event loop) until the shared count changes, then tries again.
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.drained) {
        if (this.tryTake()) {
          this.queue.shift()!();
          continue;
        }
        const seen = Atomics.load(this.cells, IN_FLIGHT);
        if (seen < Atomics.load(this.cells, CAP)) continue;
        const w = waitAsync(this.cells, IN_FLIGHT, seen);
        if (w.async) await w.value;
      }
    } finally {
      this.pumping = false;
    }
  }

  release(): void {
    if (this.drained) return;
    Atomics.sub(this.cells, IN_FLIGHT, 1);
    Atomics.notify(this.cells, IN_FLIGHT);
  }

  /** Abort: wake this thread's waiters (they re-check the signal and leave); slots no longer count. */
  drain(): void {
    this.drained = true;
    for (const w of this.queue.splice(0)) w();
    // Wake this thread's pump if it sleeps on the count.
    Atomics.notify(this.cells, IN_FLIGHT);
  }
}
