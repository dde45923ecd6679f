// Launch and tear down one server process. API (the tuning core, `serve` and replay call this):
//
//   launchServer(spec: LaunchSpec, opts: LaunchOptions) -> Promise<ServerHandle>
//     Writes spec.files, checks the port is free (PortInUseError otherwise), starts argv without a
//     shell in its own process group behind the parent-death wrapper and recorded in the ledger
//     (spawn-guarded.ts: it dies with servelab, even by SIGKILL), logs stdout+stderr to <runDir>/<logName> and keeps a
//     bounded tail; throws UserError when the executable cannot be started.
//   handle.waitReady(timeoutMs, signal?) -> Promise<ReadyResult>
//     Polls spec.healthPath until 200. A server that exits, or is not ready at the time-out, or
//     whose signal aborts, is stopped and reported ({ready: false, failure}), never waited on.
//   handle.stop({ graceMs? }) -> Promise<ExitInfo>
//     SIGTERM to the group, SIGKILL after the grace period, then waits until the port is closed
//     and (opts.gpuHost) until our PIDs hold no GPU memory. Idempotent.
//   handle.tail(n?) -> string[]; handle.exited: Promise<ExitInfo>; handle.exit (once exited)
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import type { Failure } from '../core/events.js';
import { log } from '../core/logger.js';
import { asStorageError } from '../core/storage.js';
import type { LaunchSpec } from '../engines/types.js';
import { assertImageExists } from '../engines/detect.js';
import { classifyFromLog, type ExitInfo } from '../engines/failures.js';
import { waitGpuReleased } from './gpu-procs.js';
import { assertPortFree, waitPortClosed } from './ports.js';
import { groupAlive, groupMembers, signalGroup } from './procgroup.js';
import { clearLaunch } from './ledger.js';
import { register, unregister } from './registry.js';
import { spawnGuarded } from './spawn-guarded.js';

export type { ExitInfo };

export interface LaunchOptions {
  /** Folder for the log and the spec's files; created if missing. */
  runDir: string;
  /** Log file name inside runDir; default 'server.log'. */
  logName?: string;
  /** Every complete output line, as it arrives. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Aborting stops the server. */
  signal?: AbortSignal;
  /** Lines kept in memory; default 400. */
  tailLines?: number;
  /** Check the port is free before launch; default true. */
  checkPort?: boolean;
  /** A real GPU host: stop() also waits until our PIDs hold no GPU memory. */
  gpuHost?: boolean;
  /** Default SIGTERM -> SIGKILL grace; default 15 s (engines flush and free NCCL on SIGTERM). */
  graceMs?: number;
  /** Classifies failures; default: the generic rules for all engines. Pass adapter.classifyFailure. */
  classify?: (lines: string[], exit: ExitInfo) => Failure;
  /**
   * A start-up log line that proves a failure (OOM, unsupported, ...) while the process lives on
   * (TRT-LLM can hang after a rank fails): stop it this long after the line; default 30 s.
   */
  fatalGraceMs?: number;
}

export type ReadyResult =
  | { ready: true; startupS: number }
  | { ready: false; failure: Failure; exit: ExitInfo; startupS: number };

export interface ServerHandle {
  pid: number;
  host: string;
  port: number;
  logPath: string;
  spec: LaunchSpec;
  startedAt: number;
  tail(n?: number): string[];
  exited: Promise<ExitInfo>;
  /** Set once the process has exited. */
  readonly exit: ExitInfo | undefined;
  waitReady(timeoutMs: number, signal?: AbortSignal): Promise<ReadyResult>;
  stop(opts?: { graceMs?: number }): Promise<ExitInfo>;
  /** SIGKILL the group now (exit hooks). */
  killNow(): void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitUntil(cond: () => boolean, timeoutMs: number, pollMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
  return true;
}

function probeHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function launchServer(spec: LaunchSpec, opts: LaunchOptions): Promise<ServerHandle> {
  mkdirSync(opts.runDir, { recursive: true });
  for (const f of spec.files) {
    mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
  }
  if (opts.checkPort !== false) {
    await assertPortFree(spec.port, spec.host);
    for (const p of spec.extraPorts ?? []) await assertPortFree(p, spec.host);
  }
  if (spec.image) await assertImageExists(spec.image);

  const logPath = path.join(opts.runDir, opts.logName ?? 'server.log');
  const logFile = createWriteStream(logPath, { flags: 'a' });
  // A full or read-only disk must not crash servelab with an unhandled stream error: said once, the
  // server goes on (its output stays in the in-memory tail) and the journal's own write reports it.
  let logBroken = false;
  logFile.on('error', (e) => {
    if (!logBroken) log.warn(asStorageError(e, logPath, 'the server log')?.message ?? `server log ${logPath}: ${e.message}`);
    logBroken = true;
  });
  const maxTail = opts.tailLines ?? 400;
  const tailBuf: string[] = [];
  const classify = opts.classify ?? ((lines: string[], exit: ExitInfo) => classifyFromLog(undefined, lines, exit));

  let guarded: Awaited<ReturnType<typeof spawnGuarded>>;
  try {
    guarded = await spawnGuarded(spec, opts.runDir);
  } catch (e) {
    logFile.end();
    throw e;
  }
  const { child, pid, ledger } = guarded;
  const startedAt = Date.now();
  const knownPids = new Set<number>([pid]);

  // Set by the first line that alone proves a failure, while waiting for readiness.
  let fatalAt: number | undefined;
  let watchFatal = true;
  const pushLine = (line: string, stream: 'stdout' | 'stderr') => {
    const l = line.length > 4000 ? line.slice(0, 4000) + '…' : line;
    tailBuf.push(l);
    if (watchFatal && fatalAt === undefined && !['crash', 'startup-timeout'].includes(classify([l], { code: null, signal: null }).kind)) {
      fatalAt = Date.now();
    }
    if (tailBuf.length > maxTail) tailBuf.splice(0, tailBuf.length - maxTail);
    try {
      opts.onLine?.(l, stream);
    } catch (e) {
      log.warn(`server line callback failed: ${(e as Error).message}`);
    }
  };
  const ends: Promise<void>[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    let partial = '';
    const s = child[stream]!;
    ends.push(new Promise<void>((r) => s.once('close', () => r())));
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => {
      if (!logBroken) logFile.write(chunk);
      const parts = (partial + chunk).split(/\r?\n|\r/);
      partial = parts.pop() ?? '';
      for (const p of parts) pushLine(p, stream);
    });
    s.on('end', () => {
      if (partial) pushLine(partial, stream);
      partial = '';
    });
  }
  // Errors surface through the exit event; keep execa's promise from going unhandled.
  child.catch(() => {});

  let exitInfo: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });

  let stopping: Promise<ExitInfo> | undefined;
  // Set when someone asked for the stop (caller, abort signal, time-out), not by our own cleanup
  // after the server died: waitReady reports the first as 'aborted', the second as a failure.
  let stopRequested = false;
  const stop = (stopOpts: { graceMs?: number } = {}): Promise<ExitInfo> => {
    stopRequested = true;
    return cleanup(stopOpts);
  };
  const cleanup = (stopOpts: { graceMs?: number } = {}): Promise<ExitInfo> => {
    if (stopping) return stopping;
    stopping = (async () => {
      const grace = stopOpts.graceMs ?? opts.graceMs ?? 15_000;
      for (const m of groupMembers(pid) ?? []) knownPids.add(m);
      signalGroup(pid, 'SIGTERM');
      const gone = await waitUntil(() => exitInfo !== undefined && !groupAlive(pid), grace);
      if (!gone) {
        for (const m of groupMembers(pid) ?? []) knownPids.add(m);
        signalGroup(pid, 'SIGKILL');
        await waitUntil(() => !groupAlive(pid), 10_000);
      }
      const exit = await exited;
      // Output written just before the exit may still be in the pipes: the classifier needs it.
      // A process that left our group could hold them open, hence the bound.
      await Promise.race([Promise.all(ends), sleep(2000)]);
      await Promise.race([new Promise<void>((r) => logFile.end(r)), sleep(1000)]); // a broken log may never call back
      if (spec.cleanupArgv?.length) {
        const [c, ...a] = spec.cleanupArgv;
        await execa(c!, a, { reject: false, timeout: 30_000 });
      }
      if (!(await waitPortClosed(spec.port, spec.host, 10_000))) {
        log.warn(`port ${spec.port} still answers after the server (pid ${pid}) stopped`);
      }
      if (opts.gpuHost && !(await waitGpuReleased(knownPids, 60_000))) {
        log.warn(`GPU memory of server pid ${pid} was not released within 60 s`);
      }
      unregister(handle);
      clearLaunch(ledger);
      return exit;
    })();
    return stopping;
  };

  // A server that dies on its own may leave workers in its group: stop them too.
  void exited.then(() => {
    if (!stopping) void cleanup({ graceMs: 2000 });
  });
  if (opts.signal) {
    if (opts.signal.aborted) void stop();
    else opts.signal.addEventListener('abort', () => void stop(), { once: true });
  }

  const healthUrl = `http://${probeHost(spec.host)}:${spec.port}${spec.healthPath}`;
  const probe = async (): Promise<boolean> => {
    try {
      const res = await fetch(healthUrl, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer().catch(() => undefined);
      return res.status === 200;
    } catch {
      return false;
    }
  };

  const waitReady = async (timeoutMs: number, signal?: AbortSignal): Promise<ReadyResult> => {
    const deadline = startedAt + timeoutMs;
    const elapsed = () => (Date.now() - startedAt) / 1000;
    const fatalGrace = opts.fatalGraceMs ?? 30_000;
    let delay = 100;
    for (;;) {
      if (fatalAt !== undefined && !exitInfo && Date.now() - fatalAt >= fatalGrace) {
        // The log already proves the failure and the process has not died on its own: a hang.
        const exit = await stop();
        return { ready: false, failure: classify(tailBuf.slice(), exit), exit, startupS: elapsed() };
      }
      if (exitInfo && !stopRequested) {
        const exit = exitInfo;
        await cleanup();
        return { ready: false, failure: classify(tailBuf.slice(), exit), exit, startupS: elapsed() };
      }
      if (signal?.aborted || opts.signal?.aborted || stopRequested) {
        const exit = await stop();
        return { ready: false, failure: { kind: 'aborted', reason: 'stopped before it was ready' }, exit, startupS: elapsed() };
      }
      if (Date.now() >= deadline) {
        const t = elapsed();
        const exit = await stop();
        return { ready: false, failure: classify(tailBuf.slice(), { ...exit, timedOut: true }), exit: { ...exit, timedOut: true }, startupS: t };
      }
      if (await probe()) {
        watchFatal = false;
        return { ready: true, startupS: elapsed() };
      }
      const untilFatal = fatalAt === undefined ? Infinity : fatalAt + fatalGrace - Date.now();
      await Promise.race([sleep(Math.max(0, Math.min(delay, deadline - Date.now(), untilFatal))), exited]);
      delay = Math.min(delay * 1.5, 1000);
    }
  };

  const handle: ServerHandle = {
    pid,
    host: spec.host,
    port: spec.port,
    logPath,
    spec,
    startedAt,
    tail: (n?: number) => (n === undefined ? tailBuf.slice() : tailBuf.slice(-n)),
    exited,
    get exit() {
      return exitInfo;
    },
    waitReady,
    stop,
    killNow: () => {
      signalGroup(pid, 'SIGKILL');
      clearLaunch(ledger);
    },
  };
  register(handle);
  return handle;
}
