// `servelab serve PROFILE [--sim] [--yes] [--port N]`: run a profile's winning server in the
// foreground. Its output goes to the terminal; Ctrl-C, SIGTERM and SIGHUP are passed to the
// server's process group (through installSignalHandlers), which is killed if it has not stopped
// within the grace period.
import { defaultRunsDir } from '../host/xdg.js';
import { join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { optionalNumberArg } from '../core/number-arg.js';
import { exitCodeFor, installSignalHandlers } from '../host/signals.js';
import { launchServer } from '../host/process.js';
import { engineLaunchHooks } from '../engines/launch-hooks.js';
import { signalGroup } from '../host/procgroup.js';
import { checkRunnable } from '../profiles/safety/command.js';
import { formatCommand } from '../core/shell-quote.js';
import { hardwareLine } from '../profiles/report/lines.js';
import { serveSpec } from '../tune/replay/serve-profile.js';
import { loadProfile } from '../profiles/store/store.js';
import { baseUrl } from '../tune/launch/launch.js';
import { askConsent } from './consent.js';
import { parseServeArgs, SERVE_USAGE } from '../cli/serve-args.js';

/** --port, --speed and --grace, checked. */
function numbers(v: { port?: string; speed?: string; grace?: string }): { port?: number; speed: number; graceMs: number } {
  const port = optionalNumberArg('--port', v.port, { integer: true, min: 1, max: 65535 });
  const speed = optionalNumberArg('--speed', v.speed, { min: 0, exclusiveMin: true }) ?? 1;
  const graceMs = (optionalNumberArg('--grace', v.grace, { min: 0, unit: 'seconds' }) ?? 30) * 1000;
  return { ...(port !== undefined ? { port } : {}), speed, graceMs };
}

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseServeArgs(argv);
  if (!parsed) return 0;
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) throw new UserError(`serve needs one PROFILE file; ${SERVE_USAGE}`);
  const { port, speed, graceMs } = numbers(v);
  const file = positionals[0]!;
  const profile = loadProfile(file);
  const allowAny = v['allow-any-command'] === true;
  checkRunnable(profile.engineArgv, profile.env, file, allowAny, v['allow-env'] ?? []);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const runDir = join(resolve(v['runs-dir'] ?? defaultRunsDir()), `serve-${stamp}-${profile.variant.id}`);
  const spec = serveSpec(profile, { sim: v.sim === true, ...(port !== undefined ? { port } : {}), speed, runDir });
  checkRunnable(spec.argv, spec.env, file, allowAny, v['allow-env'] ?? []);

  process.stderr.write(
    [
      `profile   ${file}: ${profile.model} on ${hardwareLine(profile)}, ${profile.engine.name} ${profile.engine.version}`,
      `recorded  ${profile.metrics.total_token_throughput.toFixed(2)} total tok/s`,
      ...(v.sim
        ? [`engine    ${formatCommand(spec.engineArgv, profile.env)}`, 'host      simulated (a performance model, not a GPU)']
        : []),
      `will run  ${formatCommand(spec.argv, spec.env)}`,
      '',
    ].join('\n'),
  );
  if (!(await askConsent({ yes: v.yes === true, auto: v.auto === true, what: `serve ${file}` }))) {
    process.stderr.write('servelab: not run\n');
    return 1;
  }

  const handle = await launchServer(spec, {
    runDir,
    logName: 'server.log',
    onLine: (line, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(line + '\n'),
    gpuHost: !v.sim,
    graceMs,
    ...engineLaunchHooks(),
  });
  let received: NodeJS.Signals | undefined;
  // The host's handler (as for tuning and replay): the first signal goes to the server, which
  // stops itself; one that ignores it is stopped the hard way after the grace period, and the
  // command exits 128+n. A second signal kills the server at once.
  const uninstall = installSignalHandlers({
    graceMs,
    onSignal: async (signal) => {
      received = signal;
      process.stderr.write(`servelab: ${signal}: passing it to the server (pid ${handle.pid}); again to kill it\n`);
      signalGroup(handle.pid, signal);
      await Promise.race([handle.exited, new Promise((r) => setTimeout(r, graceMs).unref())]);
    },
  });
  try {
    void handle.waitReady(24 * 3600 * 1000).then((r) => {
      if (r.ready) process.stderr.write(`servelab: ready at ${baseUrl(spec)} after ${r.startupS.toFixed(1)} s (Ctrl-C stops it)\n`);
    });
    const exit = await handle.exited;
    await handle.stop({ graceMs: 2000 });
    if (received) return exitCodeFor(received);
    if (exit.signal) return exitCodeFor(exit.signal as NodeJS.Signals);
    return exit.code ?? 1;
  } finally {
    if (!received) uninstall();
  }
}
