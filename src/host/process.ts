// Launch and tear down one server process. API (the tuning core, `serve` and replay call this):
//
//   launchServer(spec: LaunchSpec, opts: LaunchOptions) -> Promise<ServerHandle>
//     Writes spec.files, checks the port is free (PortInUseError otherwise) and the image exists
//     (opts.checkImage), starts argv without a shell in its own process group behind the
//     parent-death wrapper and recorded in the ledger (spawn-guarded.ts: it dies with servelab, even
//     by SIGKILL), logs stdout+stderr to <runDir>/<logName> and keeps a bounded tail
//     (server-output.ts); throws UserError when the executable cannot be started.
//   handle.waitReady(timeoutMs, signal?) -> Promise<ReadyResult>
//     Polls spec.healthPath until 200 (readiness.ts). A server that exits, or logs a line that
//     proves a failure and hangs, or is not ready at the time-out, or whose signal aborts, is
//     stopped and reported ({ready: false, failure}), never waited on.
//   handle.stop({ graceMs? }) -> Promise<ExitInfo>
//     SIGTERM to the group, SIGKILL after the grace period, then waits until the port is closed
//     and (opts.gpuHost) until our PIDs hold no GPU memory. Idempotent (server-process.ts).
//   handle.tail(n?) -> string[]; handle.exited: Promise<ExitInfo>; handle.exit (once exited)
//
// Failures are classified by opts.classify, the caller's engine rules: host never imports engines.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LaunchSpec } from './launch-spec.js';
import { assertPortFree } from './ports.js';
import { register } from './registry.js';
import type { LaunchOptions, ServerHandle } from './server-handle.js';
import { ServerOutput } from './server-output.js';
import { ServerProcess } from './server-process.js';
import { spawnGuarded, type GuardedChild } from './spawn-guarded.js';

/** Everything checked and written before the spawn: the spec's files, free ports, the image. */
async function prepare(spec: LaunchSpec, opts: LaunchOptions): Promise<void> {
  mkdirSync(opts.runDir, { recursive: true });
  for (const f of spec.files) {
    mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
  }
  if (opts.checkPort !== false) {
    await assertPortFree(spec.port, spec.host);
    for (const p of spec.extraPorts ?? []) await assertPortFree(p, spec.host);
  }
  if (spec.image) {
    if (!opts.checkImage) throw new Error(`launchServer: spec.image ${spec.image} needs opts.checkImage`);
    await opts.checkImage(spec.image);
  }
}

export async function launchServer(spec: LaunchSpec, opts: LaunchOptions): Promise<ServerHandle> {
  await prepare(spec, opts);
  const logPath = path.join(opts.runDir, opts.logName ?? 'server.log');
  const output = new ServerOutput(logPath, {
    maxTail: opts.tailLines ?? 400,
    classify: opts.classify,
    ...(opts.onLine ? { onLine: opts.onLine } : {}),
  });
  let guarded: GuardedChild;
  try {
    guarded = await spawnGuarded(spec, opts.runDir);
  } catch (e) {
    output.abandon();
    throw e;
  }
  const handle = new ServerProcess(spec, guarded, output, opts);
  register(handle);
  return handle;
}
