// The ledger of servers servelab started, in the user's state folder (one small JSON file per
// server, so concurrent servelab processes never rewrite each other's lines). Written before the
// launch, completed with the PID and its start time once spawned, removed after the stop. A file
// left behind means its servelab died without stopping the server (SIGKILL, OOM killer, a torn
// down SSH session); the next servelab start finds it here (see leftovers.ts).
//
//   recordLaunch(info) -> LedgerEntry | undefined   (undefined: the state folder is unwritable; warned)
//   recordPid(entry, pid); clearLaunch(entry); readLedger() -> LedgerEntry[]
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { log } from '../core/logger.js';
import { identityOf, selfIdentity, type ProcIdentity } from './proc-identity.js';
import { stateDir } from './xdg.js';

export interface LedgerEntry {
  /** The file that holds this entry. */
  file: string;
  /** The servelab process that launched it. */
  owner: ProcIdentity;
  /** The engine command the user consented to. */
  argv: string[];
  /** What was actually executed: argv behind the parent-death wrapper (see deathsig.ts). */
  launchArgv: string[];
  /** How the server learns that servelab died: 'setpriv', 'supervisor' or 'none'. */
  wrapper: string;
  server?: ProcIdentity;
  gpus?: string;
  runDir: string;
  container?: string;
  port: number;
  /** `--runtime slurm`: the variant is this Slurm job (no local PID); a leftover is scancelled. */
  slurmJob?: { id: string; env?: Record<string, string> };
  createdAt: string;
}

export type LaunchInfo = Omit<LedgerEntry, 'file' | 'owner' | 'server' | 'createdAt'>;

export function ledgerDir(): string {
  return join(stateDir(), 'servers');
}

let seq = 0;

function write(entry: LedgerEntry): void {
  const { file: _file, ...body } = entry;
  writeFileAtomic(entry.file, JSON.stringify(body, null, 1) + '\n');
}

/** Record a launch about to happen. Never throws: a ledger that cannot be written must not stop a run. */
export function recordLaunch(info: LaunchInfo): LedgerEntry | undefined {
  const owner = selfIdentity();
  if (!owner) return undefined; // no /proc: nothing could later prove who a PID is
  try {
    mkdirSync(ledgerDir(), { recursive: true });
    const file = join(ledgerDir(), `${owner.pid}-${owner.startTime}-${++seq}.json`);
    const entry: LedgerEntry = { file, owner, ...info, createdAt: new Date().toISOString() };
    write(entry);
    return entry;
  } catch (e) {
    log.warn(`cannot write the server ledger in ${ledgerDir()}: ${(e as Error).message}`);
    return undefined;
  }
}

export function recordPid(entry: LedgerEntry | undefined, pid: number): void {
  if (!entry) return;
  const server = identityOf(pid);
  if (!server) return;
  entry.server = server;
  try {
    write(entry);
  } catch (e) {
    log.warn(`cannot update the server ledger ${entry.file}: ${(e as Error).message}`);
  }
}

export function clearLaunch(entry: LedgerEntry | undefined): void {
  if (entry) rmSync(entry.file, { force: true });
}

/** Every entry; unreadable files are skipped (a half-written .tmp is never an entry). */
export function readLedger(): LedgerEntry[] {
  let names: string[];
  try {
    names = readdirSync(ledgerDir());
  } catch {
    return [];
  }
  const out: LedgerEntry[] = [];
  for (const n of names.filter((x) => x.endsWith('.json')).sort()) {
    const file = join(ledgerDir(), n);
    try {
      const body = JSON.parse(readFileSync(file, 'utf8')) as Omit<LedgerEntry, 'file'>;
      if (!body.owner || !Array.isArray(body.argv)) continue;
      out.push({ ...body, file });
    } catch {
      // Not ours or damaged: left alone.
    }
  }
  return out;
}
