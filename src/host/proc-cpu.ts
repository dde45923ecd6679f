// CPU time a process has used, from /proc/PID/stat (utime + stime, fields 14 and 15, in clock
// ticks; proc(5)). For a server that computes on the CPU (llama.cpp) it is what a variant cost,
// as GPU-hours are for the GPU engines. Linux only: undefined elsewhere or once the process is gone.
import { readFileSync } from 'node:fs';

/** Clock ticks per second (sysconf(_SC_CLK_TCK)): 100 on every Linux servelab runs on. */
const CLK_TCK = 100;

export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    return Number.isFinite(ticks) ? ticks / CLK_TCK : undefined;
  } catch {
    return undefined;
  }
}
