// Spawn one server so that it cannot outlive servelab: recorded in the ledger before the spawn,
// run behind the parent-death wrapper (deathsig.ts), in its own process group. The argv shown to
// the user and recorded as the command is the engine's; the wrapper only goes into the ledger.
import { pinnedDevices } from './device-env.js';
import { execa, type ResultPromise } from 'execa';
import { UserError } from '../core/errors.js';
import type { LaunchSpec } from './launch-spec.js';
import { deathWrapper, wrapArgv } from './deathsig.js';
import { clearLaunch, recordLaunch, recordPid, type LedgerEntry } from './ledger.js';
import { findOnPath } from '../core/which.js';

export interface GuardedChild {
  child: ResultPromise<{ detached: true; cleanup: false; stdin: 'ignore'; stdout: 'pipe'; stderr: 'pipe'; buffer: false; reject: false }>;
  pid: number;
  ledger: LedgerEntry | undefined;
}

/** The docker container name in a `docker run ... --name NAME` argv. */
function containerOf(argv: readonly string[]): string | undefined {
  if (argv[0] !== 'docker') return undefined;
  const i = argv.indexOf('--name');
  return i > 0 ? argv[i + 1] : undefined;
}

export async function spawnGuarded(spec: LaunchSpec, runDir: string): Promise<GuardedChild> {
  const [file, ...args] = spec.argv;
  if (!file) throw new UserError('empty command: the engine adapter produced no argv');
  const wrapper = deathWrapper();
  // Behind a wrapper a missing engine would be the wrapper's exit 127: say it the usual way.
  if (wrapper !== 'none' && !findOnPath(file, spec.env.PATH ?? process.env.PATH)) {
    throw new UserError(`cannot start '${file}': not found (is the engine installed and on PATH?)`);
  }
  const launchArgv = wrapArgv(spec.argv, wrapper);
  const container = containerOf(spec.argv);
  const ledger = recordLaunch({
    argv: spec.argv,
    launchArgv,
    wrapper,
    runDir,
    port: spec.port,
    ...(pinnedDevices(spec.env) !== undefined ? { gpus: pinnedDevices(spec.env) } : {}),
    ...(container ? { container } : {}),
  });
  const [exe, ...exeArgs] = launchArgv;
  const child = execa(exe!, exeArgs, {
    env: spec.env,
    detached: true, // own process group: one signal reaches the engine and all its workers
    cleanup: false,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
  });
  if (child.pid === undefined) {
    const r = await child;
    clearLaunch(ledger);
    const enoent = (r as { code?: string }).code === 'ENOENT';
    throw new UserError(
      enoent
        ? `cannot start '${file}': not found (is the engine installed and on PATH?)`
        : `cannot start '${file}': ${r.shortMessage ?? r.message}`,
    );
  }
  recordPid(ledger, child.pid);
  return { child, pid: child.pid, ledger };
}
