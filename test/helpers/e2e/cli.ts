// Helpers for end-to-end runs of `servelab --auto` as a real child process: collect its JSON
// events, send it signals at a chosen event, and find any server it left behind (by port).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../src/core/events.js';
import { BIN } from '../bin.js';

export { BIN };

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  events: TuneEvent[];
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `servelab-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Run the CLI in `cwd` (settings isolated there). `onEvent` sees each JSON event as it arrives
 * (with --json) and may signal the child; `env` adds to its environment (a PATH of stand-ins).
 */
export function runCli(
  args: string[],
  cwd: string,
  onEvent?: (e: TuneEvent, child: ChildProcess) => void,
  timeoutMs = 120_000,
  env: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, SERVELAB_CONFIG_DIR: join(cwd, '.config'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    const events: TuneEvent[] = [];
    child.stdout!.setEncoding('utf8');
    child.stderr!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        let e: TuneEvent;
        try {
          e = JSON.parse(line) as TuneEvent;
        } catch {
          continue;
        }
        events.push(e);
        onEvent?.(e, child);
      }
    });
    child.stderr!.on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`servelab ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, events });
    });
  });
}

/** Ports the run launched servers on (from its variant-launching events). */
export function launchedPorts(events: readonly TuneEvent[]): number[] {
  return events.flatMap((e) => (e.type === 'variant-launching' ? [e.port] : []));
}

export function launchedIds(events: readonly TuneEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'variant-launching' ? [e.variantId] : []));
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    const done = (v: boolean) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(500, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** Ports of this run still answering: a server left behind. */
export async function leftBehind(events: readonly TuneEvent[]): Promise<number[]> {
  const out: number[] = [];
  for (const p of launchedPorts(events)) if (await isListening(p)) out.push(p);
  return out;
}

/**
 * PIDs of sim-serve processes still alive that serve one of these ports (read from /proc, so
 * a server that closed its socket but did not exit is caught too). `isServer` picks another
 * engine's processes by their argv (test/helpers/llamacpp/helpers.ts: llama-server).
 */
export function survivors(
  ports: readonly number[],
  isServer: (argv: string[]) => boolean = (argv) => argv.includes('sim-serve'),
): number[] {
  if (!ports.length) return [];
  const want = new Set(ports.map(String));
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const i = argv.indexOf('--port');
    if (isServer(argv) && i >= 0 && want.has(argv[i + 1] ?? '')) out.push(Number(name));
  }
  return out;
}

/** SIGKILL every server a run's stderr says it launched ("launching on port N") that still listens: an afterAll's cleanup. */
export function killLeftServers(stderr: string | undefined): void {
  const ports = [...(stderr ?? '').matchAll(/launching on port (\d+)/g)].map((m) => Number(m[1]));
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
}
