// The ledger and its leftovers, on real processes: a server whose servelab is gone is stopped;
// a PID whose start time or command does not match is never signalled; a live owner's server is
// not a leftover.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gpuHolders } from '../../../src/host/gpu-holders.js';
import { afterEach, describe, expect, it } from 'vitest';
import { identityOf, selfIdentity } from '../../../src/host/proc-identity.js';
import { readLedger, recordLaunch, recordPid, clearLaunch } from '../../../src/host/ledger.js';
import { findLeftovers, stopLeftover } from '../../../src/host/leftovers.js';
import { pidAlive } from '../../../src/host/procgroup.js';

const kids: ChildProcess[] = [];
afterEach(() => {
  for (const k of kids.splice(0)) if (k.pid && pidAlive(k.pid)) process.kill(-k.pid, 'SIGKILL');
  for (const e of readLedger()) clearLaunch(e);
});

function sleeper(): ChildProcess {
  const k = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  kids.push(k);
  return k;
}

/** An entry as a dead servelab would have left it (owner PID 1 with a start time it never had). */
function orphanEntry(pid: number, argv: string[]) {
  const e = recordLaunch({ argv, launchArgv: argv, wrapper: 'none', runDir: '/nonexistent/run', port: 1 })!;
  recordPid(e, pid);
  const body = { ...e, owner: { pid: 1, startTime: 'not-its-start-time' } };
  writeFileSync(e.file, JSON.stringify(body));
  return e;
}

describe('server ledger', () => {
  it('records the owner and the server identity, and clears', () => {
    const k = sleeper();
    const e = recordLaunch({ argv: ['sleep', '30'], launchArgv: ['sleep', '30'], wrapper: 'none', runDir: '/r', port: 5, gpus: '0,1' })!;
    recordPid(e, k.pid!);
    const [read] = readLedger();
    expect(read).toMatchObject({ owner: selfIdentity(), server: identityOf(k.pid!), gpus: '0,1', port: 5 });
    // Our own server: its owner (this process) lives, so it is no leftover.
    expect(findLeftovers()).toEqual([]);
    clearLaunch(e);
    expect(readLedger()).toEqual([]);
  });

  it('stops a server whose servelab is gone', async () => {
    const k = sleeper();
    orphanEntry(k.pid!, ['sleep', '30']);
    const [l] = findLeftovers();
    expect(l!.state).toBe('running');
    expect(await stopLeftover(l!, 2000)).toMatch(/stopped leftover server/);
    await new Promise((r) => setTimeout(r, 100));
    expect(pidAlive(k.pid!)).toBe(false);
    expect(readLedger()).toEqual([]);
  });

  it('never signals a PID running another command', async () => {
    const k = sleeper();
    orphanEntry(k.pid!, ['vllm', 'serve', 'some/model']);
    const [l] = findLeftovers();
    expect(l!.state).toBe('mismatch');
    expect(await stopLeftover(l!, 500)).toMatch(/left alone/);
    expect(pidAlive(k.pid!)).toBe(true);
  });

  it('never signals a PID with another start time (reused PID)', async () => {
    const k = sleeper();
    const e = orphanEntry(k.pid!, ['sleep', '30']);
    const body = JSON.parse(JSON.stringify({ ...e, owner: { pid: 1, startTime: 'x' }, server: { pid: k.pid, startTime: '1' } }));
    writeFileSync(e.file, JSON.stringify(body));
    const [l] = findLeftovers();
    expect(l!.state).toBe('mismatch');
    await stopLeftover(l!, 500);
    expect(pidAlive(k.pid!)).toBe(true);
  });
});

describe('what holds the GPUs (servelab gpus)', () => {
  const FIX = fileURLToPath(new URL('../../fixtures/nvidia-smi/compute-apps', import.meta.url));
  const ORIGINAL = { PATH: process.env.PATH, APPS: process.env.FAKE_SMI_APPS };
  afterEach(() => {
    process.env.PATH = ORIGINAL.PATH;
    if (ORIGINAL.APPS === undefined) delete process.env.FAKE_SMI_APPS;
    else process.env.FAKE_SMI_APPS = ORIGINAL.APPS;
  });

  it("names nvidia-smi's compute apps, and which is a server of a servelab that is gone", async () => {
    const k = sleeper();
    orphanEntry(k.pid!, ['sleep', '30']);
    const dir = mkdtempSync(join(tmpdir(), 'servelab-holders-'));
    process.env.PATH = `${FIX}:${ORIGINAL.PATH}`;
    process.env.FAKE_SMI_APPS = join(dir, 'apps.csv');
    writeFileSync(process.env.FAKE_SMI_APPS, `${k.pid}, 70000, GPU-5b0c2f8e-8d3a-4c1e-9f1a-0d4f2b6c7e11\n1, 500, GPU-other\n`);
    const gpus = [{ index: 0, uuid: 'GPU-5b0c2f8e-8d3a-4c1e-9f1a-0d4f2b6c7e11', name: 'H100', memTotalMiB: 81559 }];
    const holders = await gpuHolders(false, gpus, readLedger());
    expect(holders[0]).toMatchObject({
      gpu: 0,
      pid: k.pid,
      usedMiB: 70000,
      command: 'sleep 30',
      servelab: { ownerPid: 1, ownerAlive: false },
    });
    expect(holders[1]).toMatchObject({ gpu: 'GPU-other', pid: 1 });
    expect(holders[1]!.servelab).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('every start checks the ledger', () => {
  it('headless tuning stops a leftover at once and says so on stderr', async () => {
    const k = sleeper();
    orphanEntry(k.pid!, ['sleep', '30']);
    const { checkLeftoversAtStart } = await import('../../../src/commands/leftovers-at-start.js');
    const said: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => (said.push(String(s)), true)) as typeof process.stderr.write;
    try {
      await checkLeftoversAtStart({ auto: true, yes: false });
    } finally {
      process.stderr.write = write;
    }
    expect(said.join('')).toMatch(
      /1 server\(s\) left running by a servelab that is gone:\n {2}running +pid \d+ port 1 .*sleep 30[\s\S]*stopped leftover server pid/,
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(pidAlive(k.pid!)).toBe(false);
    expect(readLedger()).toEqual([]);
  });
});
