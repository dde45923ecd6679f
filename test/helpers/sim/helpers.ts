// Spawn `servelab sim-serve` as a real process in its own process group, and always reap it.
import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from '../bin.js';

export { BIN };

export interface SimProc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit once the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Wait until the combined log matches; rejects if the process exits first. */
  waitFor: (re: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  kill: () => void;
}

const live = new Set<SimProc>();

export function spawnSim(args: string[], env?: Record<string, string>): SimProc {
  const child = spawn(process.execPath, [BIN, 'sim-serve', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (d) => {
    out += d;
    for (const l of listeners) l();
  });
  child.stderr!.on('data', (d) => {
    err += d;
    for (const l of listeners) l();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(proc);
      for (const l of listeners) l();
      resolve({ code, signal });
    }),
  );
  let done = false;
  void exited.then(() => (done = true));
  const proc: SimProc = {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (re, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = (out + err).match(re);
          if (m) {
            cleanup();
            resolve(m);
          } else if (done) {
            cleanup();
            reject(new Error(`process exited before ${re}: ${out}\n${err}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${re}: ${out}\n${err}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    },
  };
  live.add(proc);
  return proc;
}

/** Kill every sim process a test started (afterEach). */
export async function reapAll(): Promise<void> {
  const procs = [...live];
  for (const p of procs) p.kill();
  await Promise.all(procs.map((p) => p.exited));
}

/** Start a sim server on a free port and wait for its ready line; returns its base URL. */
export async function startReady(args: string[], env?: Record<string, string>): Promise<{ proc: SimProc; url: string }> {
  const proc = spawnSim(['--port', '0', '--load-time', '0.3', ...args], env);
  const m = await proc.waitFor(/(?:Starting vLLM API server 0 on|Uvicorn running on) (http:\/\/[\d.]+:\d+)/);
  await proc.waitFor(/Application startup complete\.|The server is fired up and ready to roll!|Uvicorn running on/);
  if (args.includes('sglang')) await proc.waitFor(/The server is fired up and ready to roll!/);
  return { proc, url: m[1]! };
}
