// Watches the client itself while it measures. A Node (or Python) client that saturates its
// core reports its own delays as the server's, so the result must say when that happened.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { percentile } from '../../core/stats.js';
import type { ClientStats } from '../types.js';

export const LAG_LIMIT_MS = 5;
export const CPU_LIMIT_PCT = 80;
const TICK_MS = 10;
/**
 * A lag p99 over the limit flags the client only when at least this many ticks were late.
 * p99 alone is fragile on short runs: a 2 s benchmark has ~200 ticks, so its p99 lies between the
 * 3rd- and 2nd-worst tick (a 1 s live window's is nearly the worst), and a GC pause plus the
 * initial burst of connections would mark a healthy client as the bottleneck. Five separate stalls is real evidence; on long runs (1% of the ticks
 * is already more than five) the rule changes nothing. A loop that is really blocked shows many
 * late ticks (blocking 50 ms in every 100 ms makes one late tick in six), so it is still caught.
 */
export const MIN_LATE_TICKS = 5;

/** p99 of the lags and whether they show the client stalling (see MIN_LATE_TICKS). */
export function lagVerdict(lags: readonly number[]): { p99: number; late: number; flagged: boolean } {
  const p99 = percentile(lags, 99);
  let late = 0;
  for (const l of lags) if (l > LAG_LIMIT_MS) late++;
  return { p99, late, flagged: p99 > LAG_LIMIT_MS && late >= MIN_LATE_TICKS };
}

/** This OS thread's user + system CPU from Linux's /proc (10 ms ticks), µs; undefined elsewhere. */
function procThreadCpu(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    return Number.isFinite(ticks) ? ticks * 10_000 : undefined; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/**
 * CPU time of the thread that measures, in microseconds. process.cpuUsage() counts the whole
 * process: in a worker (src/bench/workers/isolated.ts) it would charge the client with the UI's CPU. A
 * worker reads its own thread's CPU (threadCpuUsage on Node >= 23.9, else Linux's per-thread
 * stat), and only where neither exists its event loop's active time, which also counts the time
 * the OS had the thread waiting for a core.
 */
function busyClock(): () => number {
  if (isMainThread) {
    return () => {
      const c = process.cpuUsage();
      return c.user + c.system;
    };
  }
  const thread = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (typeof thread === 'function') {
    return () => {
      const c = thread.call(process);
      return c.user + c.system;
    };
  }
  if (procThreadCpu() !== undefined) return () => procThreadCpu() ?? 0;
  return () => performance.eventLoopUtilization().active * 1000;
}

export interface WindowStats {
  lagP99Ms: number;
  cpuPct: number;
  clientBound: boolean;
}

export class ClientMonitor {
  private lags: number[] = [];
  private windowLags: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private expected = 0;
  private t0 = 0;
  private readonly busy = busyClock();
  private cpu0 = 0;
  private wT = 0;
  private wCpu = 0;
  private peakCpu = 0;
  private stopped: ClientStats | undefined;

  start(): void {
    this.t0 = performance.now();
    this.cpu0 = this.busy();
    this.wT = this.t0;
    this.wCpu = this.cpu0;
    this.expected = this.t0 + TICK_MS;
    const tick = () => {
      const now = performance.now();
      // How late this timer fired is how late any socket event would have been handled.
      const lag = Math.max(0, now - this.expected);
      this.lags.push(lag);
      this.windowLags.push(lag);
      this.expected = now + TICK_MS;
      this.timer = setTimeout(tick, TICK_MS);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, TICK_MS);
    this.timer.unref();
  }

  /** Stats since the previous call (about once a second, for live snapshots). */
  window(): WindowStats {
    const now = performance.now();
    const cpu = this.busy();
    const wall = now - this.wT;
    const cpuPct = wall > 0 ? ((cpu - this.wCpu) / 1000 / wall) * 100 : 0;
    // A window shorter than half a second says little about CPU; do not let it set the peak.
    if (wall >= 500) this.peakCpu = Math.max(this.peakCpu, cpuPct);
    const lag = lagVerdict(this.windowLags);
    this.windowLags = [];
    this.wT = now;
    this.wCpu = cpu;
    return { lagP99Ms: lag.p99, cpuPct, clientBound: lag.flagged || cpuPct > CPU_LIMIT_PCT };
  }

  stop(): ClientStats {
    if (this.stopped) return this.stopped;
    clearTimeout(this.timer);
    const now = performance.now();
    const cpu = this.busy();
    const wall = now - this.t0;
    const cpuPct = wall > 0 ? ((cpu - this.cpu0) / 1000 / wall) * 100 : 0;
    const lag = lagVerdict(this.lags);
    const lagP99 = lag.p99;
    const lagMax = this.lags.reduce((a, b) => Math.max(a, b), 0);
    const lagMean = this.lags.length ? this.lags.reduce((a, b) => a + b, 0) / this.lags.length : 0;
    const reasons: string[] = [];
    if (lag.flagged)
      reasons.push(`event-loop lag p99 ${lagP99.toFixed(1)} ms > ${LAG_LIMIT_MS} ms (${lag.late} of ${this.lags.length} ticks late)`);
    if (cpuPct > CPU_LIMIT_PCT) reasons.push(`client CPU ${cpuPct.toFixed(0)}% of a core > ${CPU_LIMIT_PCT}%`);
    this.stopped = {
      eventLoopLagP99Ms: lagP99,
      eventLoopLagMaxMs: lagMax,
      eventLoopLagMeanMs: lagMean,
      cpuPct,
      peakCpuPct: Math.max(this.peakCpu, cpuPct),
      reasons,
    };
    return this.stopped;
  }
}
