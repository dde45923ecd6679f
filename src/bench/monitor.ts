// Watches the client itself while it measures. A Node (or Python) client that saturates its
// core reports its own delays as the server's, so the result must say when that happened.
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.js';
import type { ClientStats } from './types.js';

export const LAG_LIMIT_MS = 5;
export const CPU_LIMIT_PCT = 80;
const TICK_MS = 10;

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
  private cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };
  private wT = 0;
  private wCpu: NodeJS.CpuUsage = { user: 0, system: 0 };
  private peakCpu = 0;
  private stopped: ClientStats | undefined;

  start(): void {
    this.t0 = performance.now();
    this.cpu0 = process.cpuUsage();
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
    const cpu = process.cpuUsage();
    const wall = now - this.wT;
    const cpuPct = wall > 0 ? ((cpu.user - this.wCpu.user + cpu.system - this.wCpu.system) / 1000 / wall) * 100 : 0;
    // A window shorter than half a second says little about CPU; do not let it set the peak.
    if (wall >= 500) this.peakCpu = Math.max(this.peakCpu, cpuPct);
    const lagP99Ms = percentile(this.windowLags, 99);
    this.windowLags = [];
    this.wT = now;
    this.wCpu = cpu;
    return { lagP99Ms, cpuPct, clientBound: lagP99Ms > LAG_LIMIT_MS || cpuPct > CPU_LIMIT_PCT };
  }

  stop(): ClientStats {
    if (this.stopped) return this.stopped;
    clearTimeout(this.timer);
    const now = performance.now();
    const cpu = process.cpuUsage();
    const wall = now - this.t0;
    const cpuPct = wall > 0 ? ((cpu.user - this.cpu0.user + cpu.system - this.cpu0.system) / 1000 / wall) * 100 : 0;
    const lagP99 = percentile(this.lags, 99);
    const lagMax = this.lags.reduce((a, b) => Math.max(a, b), 0);
    const lagMean = this.lags.length ? this.lags.reduce((a, b) => a + b, 0) / this.lags.length : 0;
    const reasons: string[] = [];
    if (lagP99 > LAG_LIMIT_MS) reasons.push(`event-loop lag p99 ${lagP99.toFixed(1)} ms > ${LAG_LIMIT_MS} ms`);
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
