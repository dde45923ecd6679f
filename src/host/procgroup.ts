// Process-group helpers. Every server servelab starts leads its own group (detached), so one
// signal to -pgid reaches the engine and all its workers, and nothing else.
import { readdirSync, readFileSync } from 'node:fs';

/** PIDs whose process group is `pgid` (Linux /proc); undefined where /proc is not available. */
export function groupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const out: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      // Fields after the ")" that closes the command name: state ppid pgrp ...
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) === pgid && rest[0] !== 'Z') out.push(Number(e));
    } catch {
      // The process went away while we looked.
    }
  }
  return out;
}

/** Is anything of group `pgid` still alive (zombies excluded)? */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  if (members) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signal the whole group; false when it is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Is a single PID alive (not a zombie)? */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    }
    return false;
  }
}
