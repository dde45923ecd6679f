// The simulator must not be the bottleneck: it measures its own event-loop delay for /sim/info.
// The histogram records whole timer intervals, so the sampling resolution is subtracted.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const LOOP_RES_MS = 2;

export interface LoopDelay {
  /** Wall ms: mean, p50, p99, max since the start or the last reset. */
  stats(): { mean: number; p50: number; p99: number; max: number };
  reset(): void;
  disable(): void;
}

export function watchLoopDelay(): LoopDelay {
  const h = monitorEventLoopDelay({ resolution: LOOP_RES_MS });
  h.enable();
  const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_RES_MS) * 100) / 100);
  return {
    stats: () => ({ mean: ms(h.mean), p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) }),
    reset: () => h.reset(),
    disable: () => h.disable(),
  };
}
