// Shared helpers for the lifecycle tests: fake-server specs, wait-for-condition, PID checks.
import { fileURLToPath } from 'node:url';
import { pidAlive } from '../../src/host/procgroup.js';
import type { LaunchSpec } from '../../src/host/launch-spec.js';

export const FAKE_SERVER = fileURLToPath(new URL('../fixtures/procs/fake-server.mjs', import.meta.url));
export const LAUNCHER = fileURLToPath(new URL('../fixtures/procs/launcher.ts', import.meta.url));

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
