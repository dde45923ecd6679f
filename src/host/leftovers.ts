// Servers left running by a servelab that died without stopping them (its ledger entry is still
// there and its own process is gone). Each entry is checked before anything is signalled: the
// PID must still be the process servelab started (same start time) running the recorded command;
// a PID reused by something else is never touched, only its stale entry is dropped.
//
//   findLeftovers() -> Leftover[]          entries whose owner is gone, with what is true now
//   stopLeftover(l, graceMs?) -> Promise<string>   stops a 'running' one, removes the entry; says what it did
import { execa } from 'execa';
import { clearLaunch, readLedger, type LedgerEntry } from './ledger.js';
import { procCmdline, procGroup, procStartTime, stillRunning } from './proc-identity.js';
import { groupAlive, signalGroup } from './procgroup.js';
import { findOnPath } from '../core/which.js';
import { cancelJobSync } from './slurm/index.js';

export type LeftoverState =
  /** Still running, and provably the server servelab started. */
  | 'running'
  /** Its process has exited (only the entry, or a docker container, is left). */
  | 'gone'
  /** The PID now belongs to another process (start time or command differ): never signalled. */
  | 'mismatch';

export interface Leftover {
  entry: LedgerEntry;
  state: LeftoverState;
}

const same = (a: readonly string[] | undefined, b: readonly string[]) => !!a && a.length === b.length && a.every((x, i) => x === b[i]);

function stateOf(e: LedgerEntry): LeftoverState {
  // Spawned but its PID never recorded: servelab died in between; the wrapper took the server down.
  if (!e.server) return 'gone';
  if (!stillRunning(e.server)) {
    // Another process now has the PID: not ours. No process has it, but its group lives on: the
    // engine's workers (the kernel does not hand out a PID still used as a process group id).
    if (procStartTime(e.server.pid) !== undefined) return 'mismatch';
    return groupAlive(e.server.pid) ? 'running' : 'gone';
  }
  const cmd = procCmdline(e.server.pid);
  // After setpriv's exec the cmdline is the engine's own; before it (or with the supervisor), the wrapper's.
  if (!same(cmd, e.argv) && !same(cmd, e.launchArgv)) return 'mismatch';
  if (procGroup(e.server.pid) !== e.server.pid) return 'mismatch';
  return 'running';
}

/** Ledger entries whose servelab is gone. Entries of a live servelab (this one or another) are not leftovers. */
export function findLeftovers(): Leftover[] {
  return readLedger()
    .filter((e) => !stillRunning(e.owner))
    .map((entry) => ({ entry, state: stateOf(entry) }));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function removeContainer(name: string): Promise<boolean> {
  if (!findOnPath('docker')) return false;
  const r = await execa('docker', ['rm', '-f', name], { reject: false, timeout: 30_000 });
  return r.exitCode === 0;
}

/** Stop one leftover (SIGTERM to its group, SIGKILL after the grace) and drop its entry. */
export async function stopLeftover(l: Leftover, graceMs = 10_000): Promise<string> {
  const e = l.entry;
  if (e.slurmJob) {
    // A Slurm job of a dead servelab: scancel by its recorded ID (idempotent, harmless once over).
    const ok = cancelJobSync({ ...(e.slurmJob.env ? { env: e.slurmJob.env } : {}) }, e.slurmJob.id);
    clearLaunch(e);
    return ok
      ? `cancelled leftover Slurm job ${e.slurmJob.id} (port ${e.port}, run folder ${e.runDir})`
      : `scancel ${e.slurmJob.id} failed; check squeue`;
  }
  const what = `pid ${e.server?.pid ?? '?'} (${e.argv.slice(0, 3).join(' ')}…, port ${e.port})`;
  let said: string;
  if (l.state === 'running' && e.server) {
    // Checked again right before the signal: the process may have exited since the listing.
    if (stateOf(e) !== 'running') return stopLeftover({ entry: e, state: stateOf(e) }, graceMs);
    const pgid = e.server.pid;
    signalGroup(pgid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
    if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
    said = `stopped leftover server ${what}`;
  } else if (l.state === 'mismatch') {
    said = `dropped a stale entry for ${what}: that PID is now another process, left alone`;
  } else {
    said = `dropped the entry of exited server ${what}`;
  }
  if (e.container && (await removeContainer(e.container))) said += `; removed container ${e.container}`;
  clearLaunch(e);
  return said;
}

/** One line per leftover, for `servelab gpus` and start-up warnings. */
export function describeLeftover(l: Leftover): string {
  const e = l.entry;
  const gpus = e.gpus !== undefined ? ` GPUs ${e.gpus}` : '';
  return `${l.state.padEnd(8)} pid ${e.server?.pid ?? '?'} port ${e.port}${gpus} started ${e.createdAt} by servelab pid ${e.owner.pid}: ${e.argv.join(' ')} (run folder ${e.runDir})`;
}
