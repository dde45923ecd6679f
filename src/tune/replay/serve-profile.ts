// What `servelab serve` runs: the recorded engine argv exactly (on a real host), or the same
// variant through the sim adapter and the runner's launch path (on the simulated host). Pure:
// builds the LaunchSpec only.
import { getAdapter } from '../../engines/index.js';
import { launchContext, prepareLaunch } from '../launch/launch.js';
import { dockerArgv } from '../../profiles/export/docker.js';
import { serverPort } from '../../profiles/export/common.js';
import { simGpuFor } from '../../profiles/sim-gpu.js';
import type { Profile } from '../../profiles/schema/profile.js';
import { relocateFiles } from '../../profiles/store/files.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

function withPort(argv: readonly string[], port: number): string[] {
  const out = [...argv];
  const i = out.findIndex((a) => a === '--port' || a.startsWith('--port='));
  if (i < 0) out.push('--port', String(port));
  else if (out[i] === '--port') out[i + 1] = String(port);
  else out[i] = `--port=${port}`;
  return out;
}

function bindHost(argv: readonly string[]): string {
  const i = argv.findIndex((a) => a === '--host' || a.startsWith('--host='));
  if (i < 0) return '127.0.0.1';
  const h = argv[i] === '--host' ? argv[i + 1] : argv[i]!.slice('--host='.length);
  // 'localhost' can resolve to ::1 first while the engine listens on 127.0.0.1; wildcard binds
  // are dialled on loopback downstream (core/dial.ts).
  return !h || h === 'localhost' ? '127.0.0.1' : h;
}

/** The engine's own "ready" log line, from its adapter (the recorded argv is run as it is). */
function engineReadyLine(profile: Profile): RegExp {
  return getAdapter(profile.engine.name).command(profile.variant, { host: '127.0.0.1', port: 0, runDir: '.', runtime: { kind: 'native' } })
    .readyLogLine;
}

export interface ServeOptions {
  sim: boolean;
  /** Override the port (replaces or adds --port). */
  port?: number;
  speed: number;
  runDir: string;
}

export function serveSpec(profile: Profile, opts: ServeOptions): LaunchSpec {
  if (opts.sim) {
    const port = opts.port ?? serverPort(profile);
    const sim = { gpu: simGpuFor(profile), gpus: profile.host.gpuCount, speed: opts.speed, seed: 0 };
    const ctx = launchContext({ bindHost: '127.0.0.1', runtime: { kind: 'native' }, sim }, { port, runDir: opts.runDir });
    return prepareLaunch(profile.variant, ctx, { modelledLoad: true }).spec;
  }
  const ported = opts.port !== undefined ? withPort(profile.engineArgv, opts.port) : [...profile.engineArgv];
  // Recorded files (TRT-LLM's YAML) are written into this run's folder, and the argv follows;
  // in a container that folder is mounted where the exported docker line expects the files.
  const { argv: engineArgv, files } = relocateFiles(ported, profile.files, opts.runDir);
  const port = opts.port ?? serverPort(profile);
  const docker = profile.engine.runtime.kind === 'docker';
  const argv = docker
    ? dockerArgv({ ...profile, engineArgv: ported }, opts.runDir).map((a) => a.replace('${HOME}', process.env.HOME ?? '~'))
    : engineArgv;
  return {
    argv,
    env: docker ? {} : { ...profile.env },
    files,
    host: docker ? '127.0.0.1' : bindHost(engineArgv),
    port,
    healthPath: '/health',
    readyLogLine: engineReadyLine(profile),
    speed: 1,
    engineArgv,
    engine: profile.engine.name,
  };
}
