// replay and serve end to end on the simulated host: real sim-serve processes, real HTTP, real
// files. Small workloads and a fast clock keep it to seconds; the verdict rules themselves are
// tested exactly in verdict.test.ts, so these checks leave the simulator room to be noisy.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qwen3Study, glm46Study } from '../../../scripts/studies.js';
import { serializeProfile } from '../../../src/profiles/store/store.js';
import type { Profile } from '../../../src/profiles/schema/profile.js';
import { testPort } from '../../helpers/ports.js';
import { BIN as bin } from '../../helpers/bin.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const children = new Set<ChildProcess>();

function start(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; done: Promise<Run>; stderrSoFar: () => string } {
  // Settings (and so the user's profile folder) live in the test's own folder, never the real one.
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SERVELAB_CONFIG_DIR: join(dir, 'config'), ...env },
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done, stderrSoFar: () => stderr };
}

const cli = (args: string[], env?: NodeJS.ProcessEnv) => start(args, env).done;

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

let dir: string;
// A moderate clock, and a prefill-heavy workload (few tokens streamed per request): at a fast
// clock with many small tokens the client, not the simulated GPU, is the bottleneck on a busy box.
const PORT_BASE = testPort();
const SIM = ['--sim', '--yes', '--auto', '--speed', '10', '--port', String(PORT_BASE)];

/** The Qwen3 study winner, measured on a small random workload instead of 1000 ShareGPT prompts. */
function smallProfile(): Profile {
  const p = qwen3Study();
  p.source = 'session';
  p.workload = {
    scenario: 'random-1024-8',
    label: 'random 1024/8',
    dataset: 'random',
    inputLen: 1024,
    outputLen: 8,
    numPrompts: 96,
    seed: 42,
    maxConcurrency: 16,
    requestRate: null,
  };
  return p;
}

function write(name: string, p: Profile): string {
  const f = join(dir, name);
  writeFileSync(f, serializeProfile(p));
  return f;
}

const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Profile;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-replay-'));
});
afterAll(async () => {
  // A run left over by a failed test: SIGTERM lets servelab stop its server's process group
  // first; SIGKILL only if it does not exit.
  await Promise.all(
    [...children].map(async (c) => {
      const closed = new Promise<void>((r) => c.once('close', () => r()));
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 15_000);
      await closed;
      clearTimeout(timer);
    }),
  );
  rmSync(dir, { recursive: true, force: true });
});

describe('servelab replay --sim', () => {
  it('a claim measured just now holds; a doubled claim is a regression (exit 3); history grows, numbers stay', async () => {
    // 1. Measure: replay once and take the numbers it recorded in the history.
    const probe = write('probe.json', smallProfile());
    const first = await cli(['replay', probe, ...SIM, '--runs-dir', dir, '--json']);
    expect([0, 3], first.stderr).toContain(first.code);
    const measured = read(probe).replays[0]!.metrics!;
    expect(measured.total_token_throughput).toBeGreaterThan(0);
    expect(measured.completed).toBe(96);

    // 2. A profile claiming exactly that holds (within a tolerance wide enough for a busy CI box; the doubled claim below uses the default 5%).
    const honest = smallProfile();
    honest.metrics = measured;
    const honestFile = write('honest.json', honest);
    const ok = await cli(['replay', honestFile, ...SIM, '--runs-dir', dir, '--tolerance', '45']);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^metric\s+recorded\s+now\s+delta$/m);
    expect(ok.stdout).toMatch(/^total tok\/s\s+[\d.]+\s+[\d.]+\s+[+-][\d.]+%$/m);
    expect(ok.stdout).toMatch(/^verdict: (ok|faster) /m);

    // 3. The same profile hand-edited to claim double the throughput: regression, exit 3.
    const inflated = structuredClone(honest);
    inflated.metrics = { ...measured, total_token_throughput: measured.total_token_throughput * 2 };
    const inflatedFile = write('inflated.json', inflated);
    const bad = await cli(['replay', inflatedFile, ...SIM, '--runs-dir', dir]);
    expect(bad.code, bad.stdout + bad.stderr).toBe(3);
    expect(bad.stdout).toMatch(/^verdict: regression \(total throughput -\d+\.\d% \(tolerance 5%\)\)$/m);

    const after = read(inflatedFile);
    expect(after.metrics.total_token_throughput).toBe(measured.total_token_throughput * 2);
    expect(after.replays).toHaveLength(1);
    expect(after.replays[0]).toMatchObject({ verdict: 'regression', simulated: true, tolerancePct: 5 });
    expect(after.replays[0]!.host.gpuName).toMatch(/H100/);
  });

  it('the shipped Qwen3 profile replays and gives a verdict (acceptance command); the shipped files stay as they are', async () => {
    const shipped = ['Qwen3-14B-H100x1.json', 'Qwen3-14B-H100x1.md'].map((f) => join(repo, 'profiles', f));
    const before = shipped.map((f) => readFileSync(f, 'utf8'));
    const config = join(dir, 'config');
    // Exactly the acceptance command, from the repo root, with a relative path.
    const r = await cli([
      'replay',
      'profiles/Qwen3-14B-H100x1.json',
      '--sim',
      '--yes',
      '--auto',
      '--runs-dir',
      dir,
      '--port',
      String(PORT_BASE + 100),
    ]);
    expect([0, 3], r.stdout + r.stderr).toContain(r.code);
    expect(r.stdout).toMatch(/^total tok\/s\s+10426\.27\s+[\d.]+/m);
    expect(r.stdout).toMatch(new RegExp(`^verdict: ${r.code === 3 ? 'regression' : '(ok|faster)'} `, 'm'));
    expect(r.stderr).toContain('differs   host: simulated here');
    // The study is reference data: its files are untouched, the history went to the user's folder.
    expect(shipped.map((f) => readFileSync(f, 'utf8'))).toEqual(before);
    const copy = join(config, 'profiles', 'Qwen3-14B-H100x1.json');
    expect(r.stdout).toContain(
      `history: appended to ${copy} (a new copy of this study profile in your profile folder; profiles/Qwen3-14B-H100x1.json is reference data and stays as it is)`,
    );
    expect(read(copy).replays).toHaveLength(1);
    expect(read(copy).metrics.total_token_throughput).toBe(10426.27);
    expect(readdirSync(join(config, 'profiles')).sort()).toEqual(['Qwen3-14B-H100x1.json', 'Qwen3-14B-H100x1.md']);
    const git = spawnSync('git', ['status', '--porcelain', '--', 'profiles'], { cwd: repo, encoding: 'utf8' });
    if (git.status === 0) expect(git.stdout).toBe('');
  });

  it('a study profile copied elsewhere is still reference data: --json names the copy that got the record', async () => {
    // (A second replay appending to the same copy is covered in history.test.ts, without a server.)
    const study = smallProfile();
    study.source = 'study';
    const f = write('study.json', study);
    const original = readFileSync(f, 'utf8');
    const config = join(dir, 'config-study');
    const a = await cli(['replay', f, ...SIM, '--runs-dir', dir, '--json'], { SERVELAB_CONFIG_DIR: config });
    expect([0, 3], a.stderr).toContain(a.code);
    const copy = join(config, 'profiles', 'Qwen3-14B-H100x1.json');
    expect(JSON.parse(a.stdout)).toMatchObject({ history: copy, exitCode: a.code });
    expect(read(copy).replays).toHaveLength(1);
    expect(readFileSync(f, 'utf8')).toBe(original);
  });

  it('a server that cannot start: exit 1, the reason, and a failed record', async () => {
    // SGLang FP8 on A100: the simulator refuses it at start, as the engine does.
    const p = glm46Study();
    p.source = 'session';
    p.variant = { ...p.variant, id: 'sglang-fp8', engine: 'sglang', knobs: { tp: 8 } };
    p.engineArgv = ['python3', '-m', 'sglang.launch_server', '--model-path', 'zai-org/GLM-4.6-FP8', '--tp-size', '8'];
    p.workload = smallProfile().workload;
    const f = write('fails.json', p);
    const r = await cli(['replay', f, ...SIM, '--runs-dir', dir]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^verdict: failed to start: /m);
    expect(read(f).replays[0]).toMatchObject({ verdict: 'failed' });
  });

  it('refuses to run without --yes in --auto, before launching anything', async () => {
    const f = write('noyes.json', smallProfile());
    const r = await cli(['replay', f, '--sim', '--auto', '--runs-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/needs consent: pass --yes/);
    expect(read(f).replays).toHaveLength(0);
  });
});

describe('servelab serve --sim', () => {
  it('serves in the foreground, passes Ctrl-C to the server and leaves nothing behind', async () => {
    const f = write('serve.json', smallProfile());
    const port = PORT_BASE + 200;
    const s = start(['serve', f, '--sim', '--yes', '--speed', '10', '--port', String(port), '--runs-dir', dir]);
    await waitFor(() => /ready at http:\/\/127\.0\.0\.1:\d+/.test(s.stderrSoFar()), 30_000);
    const res = await fetch(`http://127.0.0.1:${port}/v1/models`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain('Qwen/Qwen3-14B-FP8');
    s.child.kill('SIGINT');
    const r = await s.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('SIGINT: passing it to the server');
    expect(await portOpen(port)).toBe(false);
  });
});
