// When nothing can be served: every failure is a recorded result with its reason, the run ends
// with exit 1 and no profile, and no server is left behind.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchedPorts, leftBehind, removeDir, runCli, survivors, tempDir } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-fail');
const ports: number[] = [];
afterAll(() => {
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

describe('servelab --auto when no variant succeeds', () => {
  it('exits 1 without a profile when every engine is pruned on this GPU', async () => {
    const r = await runCli(
      [
        '--auto',
        '--sim',
        '--gpu',
        'A100',
        '--gpus',
        '8',
        '--model',
        'zai-org/GLM-4.6',
        '--engines',
        'sglang,trtllm',
        '--json',
        '--run-dir',
        join(cwd, 'pruned'),
      ],
      cwd,
    );
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'variant-launching')).toEqual([]);
    const finished = r.events
      .filter((e) => e.type === 'variant-finished')
      .map((e) => (e as { result: { status: string; failure?: { kind: string } } }).result);
    expect(finished.map((x) => [x.status, x.failure?.kind])).toEqual([
      ['pruned', 'unsupported'],
      ['pruned', 'unsupported'],
    ]);
    expect(r.events.at(-1)).toMatchObject({ type: 'session-finished', exitCode: 1, profilePath: null });
    expect(existsSync(join(cwd, 'profiles'))).toBe(false);
    expect(JSON.parse(readFileSync(join(cwd, 'pruned', 'session.json'), 'utf8')).status).toBe('failed');
  });

  it('stops a server that is not ready in time and records the start-up time-out', async () => {
    const port = String(testPort());
    const runDir = join(cwd, 'timeout');
    const r = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'vllm',
        '--stages',
        'engine',
        '--ready-timeout',
        '0.05',
        '--port',
        port,
        '--json',
        '--run-dir',
        runDir,
      ],
      cwd,
    );
    ports.push(...launchedPorts(r.events));
    expect(r.code).toBe(1);
    const [file] = readdirSync(join(runDir, 'results'));
    const { result } = JSON.parse(readFileSync(join(runDir, 'results', file!), 'utf8'));
    expect(result).toMatchObject({ variantId: 'vllm', status: 'failed', failure: { kind: 'startup-timeout' } });
    expect(await leftBehind(r.events)).toEqual([]);
    expect(survivors(launchedPorts(r.events))).toEqual([]);
  });
});
