// Other processes' share of this host's CPU while a run is measured, from /proc: the host's busy
// jiffies (/proc/stat, the aggregate "cpu" line) minus the CPU time of the processes the run owns
// (the server and servelab itself: /proc/PID/stat utime + stime, fields 14-15, and of their
// finished children, 16-17), over the host's total jiffies, and the 1-minute load average
// (/proc/loadavg). Both are in clock ticks (USER_HZ, 100 on Linux; proc(5)). Linux only: elsewhere
// there is nothing to read and no figure is given.
import { readdirSync, readFileSync } from 'node:fs';
import { BUSY_HOST_PCT, type HostLoad } from '../core/host-load.js';
import { statTimes } from './cpu.js';

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** utime + stime + cutime + cstime of /proc/PID/stat text, in ticks (the name in field 2 may hold spaces). */
export function ownTicks(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const t = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  return Number.isFinite(t) ? t : 0;
}

export interface HostTicks {
  busy: number;
  total: number;
  own: number;
}

/** The host's jiffies and those of `pids` now; undefined without /proc. */
export function hostTicks(pids: readonly number[]): HostTicks | undefined {
  const stat = read('/proc/stat');
  if (!stat) return undefined;
  const { busy, total } = statTimes(stat);
  const own = pids.reduce((a, pid) => a + ownTicks(read(`/proc/${pid}/stat`) ?? ''), 0);
  return { busy, total, own };
}

/** The 1-minute load average of /proc/loadavg text. */
export function loadAvg1(text = read('/proc/loadavg') ?? ''): number {
  const v = Number(text.split(' ')[0]);
  return Number.isFinite(v) ? v : 0;
}

/**
 * Other processes' share of the host between two readings, % of all cores. A process of the run
 * that exited between them takes its ticks along, so the own share never goes negative.
 */
export function othersCpuPct(a: HostTicks, b: HostTicks): number {
  const total = b.total - a.total;
  if (total <= 0) return 0;
  const others = b.busy - a.busy - Math.max(0, b.own - a.own);
  return Math.max(0, Math.min(100, (others / total) * 100));
}

/** The HostLoad of a run from its first and last readings and the highest load average seen. */
export function hostLoadOf(a: HostTicks, b: HostTicks, maxLoadAvg1: number, cores: number, pinned?: string): HostLoad {
  const pct = Math.round(othersCpuPct(a, b) * 10) / 10;
  return {
    othersCpuPct: pct,
    loadAvg1: Math.round(maxLoadAvg1 * 100) / 100,
    cores,
    ...(pct >= BUSY_HOST_PCT ? { busy: true } : {}),
    ...(pinned ? { pinned } : {}),
  };
}

/** `pids` and every process descending from them (a supervisor's server, a server's helpers), from /proc. */
export function withDescendants(pids: readonly number[]): number[] {
  const parent = new Map<number, number>();
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const stat = read(`/proc/${name}/stat`);
      if (!stat) continue;
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    }
  } catch {
    return [...pids];
  }
  const out = new Set(pids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) if (!out.has(pid) && out.has(ppid)) (out.add(pid), (grew = true));
  }
  return [...out];
}
