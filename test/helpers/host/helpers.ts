// Shared helpers for the lifecycle tests: fake-server specs, a launcher that remembers what it
// started, wait-for-condition, PID checks.
import { fileURLToPath } from 'node:url';
import { engineLaunchHooks } from '../../../src/engines/launch-hooks.js';
import { launchServer } from '../../../src/host/process.js';
import type { LaunchSpec } from '../../../src/host/launch-spec.js';
import { pidAlive } from '../../../src/host/procgroup.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';

export const FAKE_SERVER = fileURLToPath(new URL('../../fixtures/procs/fake-server.mjs', import.meta.url));
export const LAUNCHER = fileURLToPath(new URL('../../fixtures/procs/launcher.ts', import.meta.url));

export function fakeSpec(port: number, extra: string[] = []): LaunchSpec {
  return {
    argv: [process.execPath, FAKE_SERVER, '--port', String(port), ...extra],
    env: {},
    files: [],
    host: '127.0.0.1',
    port,
    healthPath: '/health',
    readyLogLine: /Application startup complete/,
    speed: 1,
    engineArgv: ['vllm', 'serve', 'fake'],
  };
}

/** launchServer with the engine hooks and a fresh run folder from `runDir`; `stopAll` (for afterEach) stops what it started. */
export function serverLauncher(runDir: () => string) {
  const handles: ServerHandle[] = [];
  const launch = async (spec: LaunchSpec, opts: Partial<Parameters<typeof launchServer>[1]> = {}) => {
    const h = await launchServer(spec, { runDir: runDir(), graceMs: 3000, ...engineLaunchHooks(), ...opts });
    handles.push(h);
    return h;
  };
  const stopAll = async () => {
    await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 500 })));
  };
  return { launch, stopAll };
}

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000, pollMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export const allGone = (pids: number[]) => pids.every((p) => !pidAlive(p));

export function workerPid(lines: string[]): number {
  const line = lines.find((l) => l.startsWith('worker pid='));
  if (!line) throw new Error('no worker line');
  return Number(line.slice('worker pid='.length));
}
