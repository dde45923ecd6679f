// Events from a benchmark worker thread to its parent, in batches (a message per event costs
// the receiving thread). Per-token events are dropped: nobody outside the run needs one message
// per token (the live view is built in the worker, and its snapshots carry ITL and throughput).
import type { BenchEvent } from '../types.js';

/** Events are sent in batches at most this often. */
const FLUSH_MS = 50;

export function eventBatcher(post: (events: BenchEvent[]) => void): { onEvent: (e: BenchEvent) => void; flush: () => void } {
  let pending: BenchEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    post(pending);
    pending = [];
  };
  const onEvent = (e: BenchEvent) => {
    if (e.type === 'token') return;
    pending.push(e);
    if (e.type === 'snapshot') flush();
    else timer ??= setTimeout(flush, FLUSH_MS);
  };
  return { onEvent, flush };
}
