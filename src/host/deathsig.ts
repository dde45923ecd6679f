// Servers die with servelab. Every engine command is run behind a wrapper that makes it get
// SIGTERM when servelab's process dies, however it dies (SIGKILL and the OOM killer included):
//   - util-linux `setpriv --pdeathsig SIGTERM -- CMD`: sets the kernel's parent-death signal
//     (PR_SET_PDEATHSIG) and execs CMD, so the PID, the process group and /proc cmdline are CMD's.
//     The signal fires when the parent *thread* dies: servers are spawned from node's main thread,
//     which lives as long as servelab does.
//   - else a small node supervisor (supervise.mjs) that leads the group, runs CMD in it and, when
//     its parent goes away, signals the whole group.
// The user is shown and asked about CMD only; the wrapper is recorded in the ledger.
import { SUPERVISOR_SCRIPT } from '../core/self.js';
import { findOnPath } from '../core/which.js';

export type Wrapper = 'setpriv' | 'supervisor' | 'none';

const SUPERVISOR = SUPERVISOR_SCRIPT;

let cached: Wrapper | undefined;

/** The wrapper this host supports; SERVELAB_DEATHSIG=supervisor|none forces one (tests). */
export function deathWrapper(): Wrapper {
  const forced = process.env.SERVELAB_DEATHSIG;
  if (forced === 'setpriv' || forced === 'supervisor' || forced === 'none') return forced;
  if (cached) return cached;
  cached = process.platform === 'linux' && findOnPath('setpriv') ? 'setpriv' : process.platform === 'win32' ? 'none' : 'supervisor';
  return cached;
}

/** argv as executed: the engine argv behind the wrapper. */
export function wrapArgv(argv: readonly string[], wrapper: Wrapper = deathWrapper()): string[] {
  if (wrapper === 'setpriv') return ['setpriv', '--pdeathsig', 'SIGTERM', '--', ...argv];
  if (wrapper === 'supervisor') return [process.execPath, SUPERVISOR, ...argv];
  return [...argv];
}
