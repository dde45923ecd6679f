// Servers die with servelab: SIGKILL of servelab (no handler can run) still takes its engine
// server down, through setpriv's parent-death signal or the node supervisor; the ledger entry
// left behind is dropped by the next `servelab gpus`.
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerDir } from '../../../src/host/ledger.js';
import { isListening, launchedPorts, removeDir, runCli, survivors, tempDir } from '../../helpers/e2e/cli.js';
import { wrapArgv } from '../../../src/host/deathsig.js';
import { testPort } from '../../helpers/ports.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function waitGone(ports: number[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!survivors(ports).length && !(await Promise.all(ports.map(isListening))).some(Boolean)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('servers die with servelab', () => {
  it('the wrapper is not part of the command shown', () => {
    expect(wrapArgv(['vllm', 'serve', 'm'], 'setpriv')).toEqual(['setpriv', '--pdeathsig', 'SIGTERM', '--', 'vllm', 'serve', 'm']);
    expect(wrapArgv(['vllm', 'serve', 'm'], 'none')).toEqual(['vllm', 'serve', 'm']);
  });

  it.each(['setpriv', 'supervisor', 'none'] as const)('SIGKILL of servelab with wrapper %s', async (wrapper) => {
    const cwd = tempDir(`deathsig-${wrapper}`);
    dirs.push(cwd);
    const port = String(testPort());
    process.env.SERVELAB_DEATHSIG = wrapper;
    let argv: string[] = [];
    const run = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--stages',
        'engine',
        '--engines',
        'vllm',
        '--scale',
        '0.02',
        '--run-dir',
        join(cwd, 'run'),
        '--port',
        port,
        '--json',
      ],
      cwd,
      (e, child) => {
        if (e.type === 'variant-launching') argv = e.argv;
        if (e.type === 'server-ready') child.kill('SIGKILL');
      },
    ).finally(() => delete process.env.SERVELAB_DEATHSIG);
    expect(run.signal).toBe('SIGKILL');
    // The consent/display command is the engine's, never the wrapper.
    expect(argv).toContain('sim-serve');
    expect(argv[0]).not.toBe('setpriv');
    const ports = launchedPorts(run.events);
    expect(ports).toHaveLength(1);
    // The entry was written and is still there: its servelab had no chance to clear it.
    expect(readdirSync(ledgerDir()).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0);
    if (wrapper === 'none') {
      // Without a wrapper the server outlives servelab: exactly what the ledger is for.
      expect(survivors(ports)).toHaveLength(1);
      const listed = await runCli(['gpus', '--sim'], cwd);
      expect(listed.stdout).toMatch(/1 server\(s\) left running by a servelab that is gone/);
      expect(listed.stdout).toContain(`port ${ports[0]}`);
      const stopped = await runCli(['gpus', '--sim', '--yes'], cwd);
      expect(stopped.stdout).toMatch(/stopped leftover server pid \d+/);
    }
    expect(await waitGone(ports, 8000)).toBe(true);
    const after = await runCli(['gpus', '--sim'], cwd);
    expect(after.stdout).toContain('no servers left running by servelab');
    expect(readdirSync(ledgerDir()).filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});
