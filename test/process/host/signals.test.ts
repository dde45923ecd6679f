// No orphans: SIGINT, SIGTERM and SIGHUP to a servelab process that launched servers stop every
// server (and worker) it started before it exits; an unrelated process is left alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/host/signals.js';
import { pidAlive } from '../../../src/host/procgroup.js';
import { allGone, LAUNCHER, waitFor } from '../../helpers/host/helpers.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'servelab-sig-'));
const started: ChildProcess[] = [];
const orphans: number[] = [];
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  // If a test failed, do not leave its servers running.
  for (const pid of orphans.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Start the launcher fixture; resolve with the PIDs it reports once its servers are ready. */
function startLauncher(
  kind: 'fake' | 'stubborn' | 'sim',
  extra: string[] = [],
): Promise<{ child: ChildProcess; pids: number[]; exit: Promise<{ code: number | null; signal: string | null }> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', LAUNCHER, mkdtempSync(path.join(root, 'r')), kind, '2', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        const { pids } = JSON.parse(line) as { pids: number[] };
        orphans.push(...pids);
        resolve({ child, pids, exit });
      }
    });
    void exit.then((e) => reject(new Error(`launcher exited early (${JSON.stringify(e)}): ${err}`)));
  });
}

describe('signals to servelab stop every server it started', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s with real sim engine servers', async (sig) => {
    const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    started.push(bystander);
    const { child, pids, exit } = await startLauncher('sim');
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.every(pidAlive)).toBe(true);
    child.kill(sig);
    const e = await exit;
    expect(e.code).toBe(exitCodeFor(sig));
    expect(await waitFor(() => allGone(pids), 10_000)).toBe(true);
    // Only what servelab started: a process it did not start is untouched.
    expect(pidAlive(bystander.pid!)).toBe(true);
  });

  it('servers with workers in their process group: the workers go too', async () => {
    const { child, pids, exit } = await startLauncher('fake');
    // Two servers, each with a worker in its group.
    expect(pids.length).toBeGreaterThanOrEqual(4);
    expect(pids.every(pidAlive)).toBe(true);
    child.kill('SIGTERM');
    expect((await exit).code).toBe(143);
    expect(await waitFor(() => allGone(pids), 10_000)).toBe(true);
  });

  it('a second Ctrl-C while stopping kills at once instead of waiting out the grace period', async () => {
    const { child, pids, exit } = await startLauncher('stubborn', ['--grace', '120000']);
    child.kill('SIGINT');
    // The first SIGINT starts a graceful stop that these servers ignore (their workers do not)...
    await new Promise((r) => setTimeout(r, 300));
    expect(pids.filter(pidAlive).length).toBeGreaterThanOrEqual(2);
    // ...the second one does not wait for the two-minute grace.
    child.kill('SIGINT');
    expect((await exit).code).toBe(130);
    expect(await waitFor(() => allGone(pids), 10_000)).toBe(true);
  });

  it('exit codes: 130 for SIGINT, 128+n otherwise', () => {
    expect(exitCodeFor('SIGINT')).toBe(130);
    expect(exitCodeFor('SIGTERM')).toBe(143);
    expect(exitCodeFor('SIGHUP')).toBe(129);
  });

  it('the exit hook kills the servers when servelab exits without a signal', async () => {
    const { pids, exit } = await startLauncher('fake', ['--exit-after-ready', '3']);
    expect((await exit).code).toBe(3);
    expect(await waitFor(() => allGone(pids), 10_000)).toBe(true);
  });
});
