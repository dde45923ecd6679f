// Acceptance, for real, on the llama-server binary and a random-weight GGUF (speeds are never
// asserted): a profile tuned here replays without --sim to a verdict on a new measurement and
// sweeps to a real frontier; SIGINT mid-benchmark exits 130 with the journal kept and no server
// left, and --resume finishes without re-running what was measured; SIGKILL of servelab leaves no
// llama-server running; a truncated GGUF is a start failure classified by name.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchedIds, removeDir, runCli, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { freshPort, leftServers, llamaSurvivors, LLAMA_SKIP, SMALL, testGguf } from '../../helpers/llamacpp/helpers.js';
import { skipNote } from '../../helpers/skip.js';

const cwd = tempDir('llama-life');
const runs: CliRun[] = [];
const ports: number[] = [];
afterAll(() => {
  for (const r of runs) for (const pid of leftServers(r.events, r.stderr)) process.kill(pid, 'SIGKILL');
  for (const pid of llamaSurvivors(ports)) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

async function cli(args: string[], onEvent?: Parameters<typeof runCli>[2]): Promise<CliRun> {
  const r = await runCli(args, cwd, onEvent, 180_000);
  runs.push(r);
  return r;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const title0 = `a llama.cpp session from start to replay (real llama-server)${skipNote(LLAMA_SKIP)}`;
describe.skipIf(LLAMA_SKIP !== undefined)(title0, { timeout: 180_000 }, () => {
  let profilePath = '';

  it('tunes one stage and saves a profile', async () => {
    const r = await cli([
      '--auto',
      '--engines',
      'llamacpp',
      '--model',
      testGguf(),
      ...SMALL,
      '--stages',
      'engine',
      '--out',
      cwd,
      '--run-dir',
      join(cwd, 'tuned'),
      '--port',
      freshPort(),
      '--json',
    ]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    profilePath = (r.events.find((e) => e.type === 'session-finished') as { profilePath: string }).profilePath;
    expect(existsSync(profilePath)).toBe(true);
  });

  it('replay without --sim re-measures on the real server and gives a verdict', async () => {
    const r = await cli(['replay', profilePath, '--yes', '--auto', '--port', freshPort()]);
    // 0 (ok or faster) or 3 (regression): a measurement was compared; 1 would be "not run".
    expect([0, 3], r.stderr.slice(-2000) + r.stdout.slice(-2000)).toContain(r.code);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/will run\s+\S*llama-server -m /);
    expect(out).toMatch(/^verdict: (ok|faster|regression)/m);
    expect(out).toMatch(/here\s+0 x CPU, llamacpp 0\.4\.0-dev/);
    const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as {
      replays?: { simulated: boolean; host: { gpuCount: number }; metrics?: { completed?: number } }[];
    };
    expect(profile.replays?.at(-1)).toMatchObject({ simulated: false, host: { gpuCount: 0 }, metrics: { completed: 6 } });
  });

  it('sweep measures each load on the real server and prints the frontier', async () => {
    const copy = join(cwd, 'sweep-me.json');
    copyFileSync(profilePath, copy);
    const r = await cli([
      'sweep',
      copy,
      '--sweep',
      'concurrency:1,4',
      '--prompts',
      '6',
      '--yes',
      '--auto',
      '--port',
      freshPort(),
      '--out',
      join(cwd, 'swept'),
      '--run-dir',
      join(cwd, 'sweep-run'),
    ]);
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stdout).toMatch(/^\s+1\s+\d+\s+[\d.]+\s+\d+\/\d+/m);
    expect(r.stdout).toMatch(/^\s+4\s+\d+\s+[\d.]+\s+\d+\/\d+/m);
    expect(r.stdout).toMatch(/^choice: llamacpp defaults: \d+ tok\/s\/GPU at [14] concurrent/m);
    expect(existsSync(join(cwd, 'swept', 'sweep-me.json')) || /profile: \S+/.test(r.stdout)).toBe(true);
  });
});

const title1 = `stopping a llama.cpp session (real llama-server)${skipNote(LLAMA_SKIP)}`;
describe.skipIf(LLAMA_SKIP !== undefined)(title1, { timeout: 240_000 }, () => {
  const base = () => [
    '--auto',
    '--engines',
    'llamacpp',
    '--model',
    testGguf(),
    ...SMALL,
    '--stages',
    'engine,threads',
    '--no-early-stop',
    // No adaptive repeats: on a loaded machine a tie would rerun the carried 'llamacpp' after
    // --resume, a new run rather than a re-run of what was measured, which the resume check below cannot tell apart.
    '--repeats-max',
    '1',
    '--out',
    cwd,
    '--json',
  ];

  it('SIGINT mid-benchmark: exit 130, no server left; --resume finishes without re-running', async () => {
    const runDir = join(cwd, 'int');
    let sent = false;
    const first = await cli([...base(), '--run-dir', runDir, '--port', freshPort()], (e, child) => {
      if (!sent && e.type === 'bench-started' && e.variantId !== 'llamacpp') {
        sent = true;
        child.kill('SIGINT');
      }
    });
    expect(first.code, first.stderr.slice(-2000)).toBe(130);
    expect(leftServers(first.events, first.stderr)).toEqual([]);
    const done = launchedIds(first.events).slice(0, -1);
    expect(done).toContain('llamacpp');
    const second = await cli(['--auto', '--resume', runDir, '--json']);
    expect(second.code, second.stderr.slice(-2000)).toBe(0);
    for (const id of done) expect(launchedIds(second.events)).not.toContain(id);
    expect(leftServers(second.events, second.stderr)).toEqual([]);
  });

  it('SIGKILL of servelab leaves no llama-server running', async () => {
    let killedPort = 0;
    const r = await cli([...base(), '--run-dir', join(cwd, 'kill'), '--port', freshPort()], (e, child) => {
      if (e.type === 'variant-launching') killedPort = e.port;
      if (e.type === 'bench-started' && killedPort) child.kill('SIGKILL');
    });
    expect(r.signal).toBe('SIGKILL');
    ports.push(killedPort);
    // The parent-death signal (src/host/deathsig.ts) reaches the server as SIGTERM, and llama-server
    // then shuts down gracefully: under the full suite's load that took over 10 s once, so it gets 30.
    for (let i = 0; i < 120 && llamaSurvivors([killedPort]).length; i++) await sleep(250);
    expect(llamaSurvivors([killedPort])).toEqual([]);
  });

  it('a truncated GGUF fails to start, classified by name with the evidence', async () => {
    const bad = join(cwd, 'truncated.gguf');
    writeFileSync(bad, readFileSync(testGguf()).subarray(0, 20_000_000));
    const r = await cli([
      '--auto',
      '--engines',
      'llamacpp',
      '--model',
      bad,
      ...SMALL,
      '--stages',
      'engine',
      '--out',
      cwd,
      '--run-dir',
      join(cwd, 'bad'),
      '--port',
      freshPort(),
      '--json',
    ]);
    expect(r.code).toBe(1);
    const fin = r.events.find((e) => e.type === 'variant-finished') as {
      result: { status: string; failure: { kind: string; reason: string; evidence?: string[] } };
    };
    expect(fin.result.status).toBe('failed');
    expect(fin.result.failure).toMatchObject({
      kind: 'model-not-found',
      reason: expect.stringMatching(/^the GGUF file is truncated or corrupt \(tensor \S+ lies past its end\)$/),
    });
    expect(fin.result.failure.evidence?.join('\n')).toMatch(/data is not within the file bounds/);
    expect(leftServers(r.events, r.stderr)).toEqual([]);
  });
});
