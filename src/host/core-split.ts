// On a CPU host (llama.cpp computes on the CPU), the server and the benchmark client compete for
// the same cores unless they are kept apart. With cores to spare, the server gets all but one of
// the cores this process may use and the client (servelab itself, its worker threads included)
// the last one, set with util-linux `taskset -a -p -c LIST PID` (every thread of a running
// process). With fewer than 3 cores there is none to spare: both share them, and the caller says so.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** "0-2,5" -> [0, 1, 2, 5] (the cpu list format of taskset and /proc/self/status). */
export function parseCpuList(list: string): number[] {
  const out: number[] = [];
  for (const part of list.trim().split(',').filter(Boolean)) {
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a)) continue;
    for (let c = a!; c <= (Number.isInteger(b) ? b! : a!); c++) out.push(c);
  }
  return out;
}

/** [0, 1, 2, 5] -> "0-2,5". */
export function cpuListText(cpus: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < cpus.length;) {
    let j = i;
    while (j + 1 < cpus.length && cpus[j + 1] === cpus[j]! + 1) j++;
    parts.push(j > i ? `${cpus[i]}-${cpus[j]}` : String(cpus[i]));
    i = j + 1;
  }
  return parts.join(',');
}

/** The cores this process may run on (Cpus_allowed_list of /proc/self/status); empty without /proc. */
export function allowedCpus(): number[] {
  try {
    const m = /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? parseCpuList(m[1]!) : [];
  } catch {
    return [];
  }
}

export type CoreSplit = { server: number[]; client: number[] } | { none: string };

/** Disjoint cores for the server and the client, or why there are none to spare. */
export function splitCores(cpus: readonly number[]): CoreSplit {
  if (cpus.length < 3)
    return {
      none: `${cpus.length} core${cpus.length === 1 ? '' : 's'}, none to spare: the server and the benchmark client share them`,
    };
  return { server: cpus.slice(0, -1), client: cpus.slice(-1) };
}

/** Pin every thread of a running process to `cpus`; the error text when taskset is missing or refuses. */
export function pinProcess(pid: number, cpus: readonly number[]): string | undefined {
  // `taskset -a -p` exits 0 for a process that is gone (it walks an empty /proc/PID/task).
  if (!existsSync(`/proc/${pid}`)) return `no process ${pid}`;
  const r = spawnSync('taskset', ['-a', '-p', '-c', cpuListText(cpus), String(pid)], { encoding: 'utf8' });
  if (r.error) return `taskset: ${r.error.message}`;
  return r.status === 0 ? undefined : (r.stderr.trim().split('\n')[0] ?? `taskset exited with ${r.status}`);
}
