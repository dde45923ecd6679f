// Who a PID is, precisely enough not to signal the wrong process: a PID is reused after its
// process exits, but (PID, start time in clock ticks since boot) is not. Linux /proc only;
// elsewhere nothing can be proven and callers must not act on a PID alone.
import { readFileSync } from 'node:fs';

export interface ProcIdentity {
  pid: number;
  /** Field 22 of /proc/PID/stat (clock ticks after boot). */
  startTime: string;
}

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the ")" that closes the command name (which may hold spaces): state is field 3.
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .trim()
      .split(' ');
  } catch {
    return undefined;
  }
}

/** The process's start time, or undefined when it is gone, a zombie, or /proc is missing. */
export function procStartTime(pid: number): string | undefined {
  const f = statFields(pid);
  if (!f || f[0] === 'Z') return undefined;
  return f[19];
}

/** Process group of `pid`, or undefined. */
export function procGroup(pid: number): number | undefined {
  const f = statFields(pid);
  return f ? Number(f[2]) : undefined;
}

/** The process's argv (/proc/PID/cmdline), or undefined. */
export function procCmdline(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').slice(0, raw.endsWith('\0') ? -1 : undefined);
  } catch {
    return undefined;
  }
}

export function identityOf(pid: number): ProcIdentity | undefined {
  const startTime = procStartTime(pid);
  return startTime === undefined ? undefined : { pid, startTime };
}

/** Is this exact process (same PID and start time) still running? */
export function stillRunning(id: ProcIdentity): boolean {
  return procStartTime(id.pid) === id.startTime;
}

/** This servelab process. */
export function selfIdentity(): ProcIdentity | undefined {
  return identityOf(process.pid);
}
