// One running server process and its small life cycle: running -> stopping -> stopped. A stop is
// either requested (caller, abort signal, time-out, a proven hang) or our own cleanup after the
// server died; waitReady reports the first as 'aborted' and the second as the classified failure.
// The stop is SIGTERM to the process group, SIGKILL after the grace, then the log, the engine's
// cleanup command, the port and (GPU host) the GPU memory; it runs once, whoever asks.
import { execa } from 'execa';
import { log } from '../core/logger.js';
import { waitGpuReleased } from './gpu-procs.js';
import { clearLaunch } from './ledger.js';
import type { ExitInfo, LaunchSpec } from './launch-spec.js';
import { waitPortClosed } from './ports.js';
import { groupAlive, groupMembers, signalGroup } from './procgroup.js';
import { healthUrl, probeHealth, readyStep, type ReadyStep } from './readiness.js';
import { unregister } from './registry.js';
import type { LaunchOptions, ReadyResult, ServerHandle } from './server-handle.js';
import type { ServerOutput } from './server-output.js';
import type { GuardedChild } from './spawn-guarded.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitUntil(cond: () => boolean, timeoutMs: number, pollMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
  return true;
}

export class ServerProcess implements ServerHandle {
  readonly pid: number;
  readonly host: string;
  readonly port: number;
  readonly logPath: string;
  readonly startedAt = Date.now();
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  /** The one stop in progress or done; set by the first stop of either kind. */
  private stopping: Promise<ExitInfo> | undefined;
  private stopRequested = false;
  /** Every PID seen in the group: the GPU-memory wait covers workers that died first. */
  private readonly knownPids: Set<number>;

  constructor(
    readonly spec: LaunchSpec,
    private readonly guarded: GuardedChild,
    private readonly output: ServerOutput,
    private readonly opts: LaunchOptions,
  ) {
    this.pid = guarded.pid;
    this.host = spec.host;
    this.port = spec.port;
    this.logPath = output.logPath;
    this.knownPids = new Set([guarded.pid]);
    output.attach(guarded.child);
    // Errors surface through the exit event; keep execa's promise from going unhandled.
    guarded.child.catch(() => {});
    this.exited = new Promise<ExitInfo>((resolve) => {
      guarded.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
    // A server that dies on its own may leave workers in its group: stop them too.
    void this.exited.then(() => {
      if (!this.stopping) void this.cleanup({ graceMs: 2000 });
    });
    const signal = opts.signal;
    if (signal) {
      if (signal.aborted) void this.stop();
      else signal.addEventListener('abort', () => void this.stop(), { once: true });
    }
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  tail = (n?: number): string[] => this.output.tail(n);

  stop = (stopOpts: { graceMs?: number } = {}): Promise<ExitInfo> => {
    this.stopRequested = true;
    return this.cleanup(stopOpts);
  };

  killNow = (): void => {
    signalGroup(this.pid, 'SIGKILL');
    clearLaunch(this.guarded.ledger);
  };

  private cleanup(stopOpts: { graceMs?: number } = {}): Promise<ExitInfo> {
    this.stopping ??= this.teardown(stopOpts.graceMs ?? this.opts.graceMs ?? 15_000);
    return this.stopping;
  }

  private noteMembers(): void {
    for (const m of groupMembers(this.pid) ?? []) this.knownPids.add(m);
  }

  private async teardown(graceMs: number): Promise<ExitInfo> {
    const { pid, spec } = this;
    this.noteMembers();
    signalGroup(pid, 'SIGTERM');
    const gone = await waitUntil(() => this.exitInfo !== undefined && !groupAlive(pid), graceMs);
    if (!gone) {
      this.noteMembers();
      signalGroup(pid, 'SIGKILL');
      await waitUntil(() => !groupAlive(pid), 10_000);
    }
    const exit = await this.exited;
    await this.output.close();
    if (spec.cleanupArgv?.length) {
      const [c, ...a] = spec.cleanupArgv;
      await execa(c!, a, { reject: false, timeout: 30_000 });
    }
    if (!(await waitPortClosed(spec.port, spec.host, 10_000))) {
      log.warn(`port ${spec.port} still answers after the server (pid ${pid}) stopped`);
    }
    if (this.opts.gpuHost && !(await waitGpuReleased(this.knownPids, 60_000))) {
      log.warn(`GPU memory of server pid ${pid} was not released within 60 s`);
    }
    unregister(this);
    clearLaunch(this.guarded.ledger);
    return exit;
  }

  /** Polls /health until 200; a death, fatal hang, stop or time-out stops the server and says why. */
  waitReady = async (timeoutMs: number, signal?: AbortSignal): Promise<ReadyResult> => {
    const deadline = this.startedAt + timeoutMs;
    const fatalGraceMs = this.opts.fatalGraceMs ?? 30_000;
    const url = healthUrl(this.spec);
    let delay = 100;
    for (;;) {
      const { fatalAt } = this.output;
      const aborted = !!(signal?.aborted || this.opts.signal?.aborted);
      const now = Date.now();
      const step = readyStep({ now, deadline, fatalAt, fatalGraceMs, exited: !!this.exitInfo, stopRequested: this.stopRequested, aborted });
      if (step !== 'probe') return this.notReady(step);
      if (await probeHealth(url)) {
        this.output.stopWatchingFatal();
        return { ready: true, startupS: this.elapsedS() };
      }
      const untilFatal = fatalAt === undefined ? Infinity : fatalAt + fatalGraceMs - Date.now();
      await Promise.race([sleep(Math.max(0, Math.min(delay, deadline - Date.now(), untilFatal))), this.exited]);
      delay = Math.min(delay * 1.5, 1000);
    }
  };

  private elapsedS(): number {
    return (Date.now() - this.startedAt) / 1000;
  }

  private async notReady(step: Exclude<ReadyStep, 'probe'>): Promise<ReadyResult> {
    const classify = this.opts.classify;
    if (step === 'died') {
      const exit = this.exitInfo!;
      await this.cleanup();
      return { ready: false, failure: classify(this.tail(), exit), exit, startupS: this.elapsedS() };
    }
    if (step === 'timed-out') {
      const t = this.elapsedS();
      const exit = { ...(await this.stop()), timedOut: true };
      return { ready: false, failure: classify(this.tail(), exit), exit, startupS: t };
    }
    // 'aborted' and 'fatal-hang' stop the server first; a hang is classified from the line that proved it.
    const exit = await this.stop();
    if (step === 'aborted')
      return { ready: false, failure: { kind: 'aborted', reason: 'stopped before it was ready' }, exit, startupS: this.elapsedS() };
    return { ready: false, failure: classify(this.tail(), exit), exit, startupS: this.elapsedS() };
  }
}
