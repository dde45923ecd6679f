// The profile commands as a user runs them: real process, real files, exit codes.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { BIN as bin } from '../../helpers/bin.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const QWEN = join(repo, 'profiles', 'Qwen3-14B-H100x1.json');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: opts.cwd ?? repo,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-cli-'));
  writeFileSync(file('broken.json'), '{ "schema": 1, ');
  const p = JSON.parse(readFileSync(QWEN, 'utf8'));
  writeFileSync(file('future.json'), JSON.stringify({ ...p, schema: 7 }));
  writeFileSync(file('wrong.json'), JSON.stringify({ ...p, host: { ...p.host, gpuCount: 'eight' } }));
  writeFileSync(file('evil.json'), JSON.stringify({ ...p, engineArgv: ['bash', '-c', 'touch pwned'] }));
  copyFileSync(QWEN, file('good.json'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function oneLineError(r: Run, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('bad profiles: one line, exit 2', () => {
  it('malformed JSON', async () => {
    oneLineError(
      await cli(['export', file('broken.json'), '--format', 'shell']),
      /^servelab: profile .*broken\.json: malformed JSON at line 1, column \d+/,
    );
  });
  it('a newer schema', async () => {
    oneLineError(await cli(['export', file('future.json'), '--format', 'k8s']), /written for profile schema 7; .*reads schema 1/);
  });
  it('a wrong field', async () => {
    oneLineError(await cli(['export', file('wrong.json'), '--format', 'docker']), /host\.gpuCount: expected number, received string$/);
  });
  it('an unknown executable', async () => {
    oneLineError(await cli(['export', file('evil.json'), '--format', 'shell']), /refusing to run 'bash -c .*--allow-any-command/);
    const allowed = await cli(['export', file('evil.json'), '--format', 'shell', '--allow-any-command']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("exec bash -c 'touch pwned'");
  });
  it('a missing file and an unknown format', async () => {
    oneLineError(await cli(['export', file('nope.json'), '--format', 'shell']), /nope\.json: no such file/);
    oneLineError(await cli(['export', file('good.json'), '--format', 'helm']), /unknown --format 'helm': use shell, docker, systemd, k8s/);
    oneLineError(
      await cli(['export', file('good.json'), '--format', 'shell', '--out', file('no-such-dir/x.sh')]),
      /--out .*x\.sh: cannot write \(ENOENT\): create its folder first/,
    );
  });
});

describe('servelab export', () => {
  it('k8s output parses and writes to --out', async () => {
    const out = file('q.yaml');
    const r = await cli(['export', file('good.json'), '--format', 'k8s', '--out', out]);
    expect(r.code).toBe(0);
    const docs = parseAllDocuments(readFileSync(out, 'utf8')) as unknown as { toJS(): { kind: string } }[];
    expect(docs.map((d) => d.toJS().kind)).toEqual(['Deployment', 'Service']);
  });
});

describe('servelab profiles', () => {
  it('lists the shipped profiles', async () => {
    const r = await cli(['profiles', '--json'], { env: { SERVELAB_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { file: string; ok: boolean; totalTokPerS: number; engine: string }[];
    expect(rows.map((x) => [x.file, x.engine, x.totalTokPerS])).toEqual([
      ['profiles/DeepSeek-R1-0528-H200x8.json', 'sglang', 7143.3],
      ['profiles/GLM-4.6-A100x8.json', 'vllm', 2824.82],
      ['profiles/Qwen3-14B-H100x1.json', 'sglang', 10426.27],
    ]);
  });

  it('lists bad files with their error instead of failing', async () => {
    const r = await cli(['profiles', '--dir', dir], { cwd: dir, env: { SERVELAB_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/good\.json\s+Qwen\/Qwen3-14B-FP8\s+1 x NVIDIA H100 80GB HBM3\s+sglang 0\.5\.5\.post1\s+10426\.26?7?/);
    expect(r.stdout).toMatch(/broken\.json: invalid: profile .*malformed JSON/);
    expect(r.stdout).toMatch(/future\.json: invalid: .*schema 7/);
  });
});

describe("servelab profiles reads the user's folders from the settings", () => {
  it('lists profiles-dir and <out>/profiles', async () => {
    const conf = join(dir, 'conf');
    const mine = join(dir, 'mine');
    const out = join(dir, 'out');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(mine, { recursive: true });
    mkdirSync(join(out, 'profiles'), { recursive: true });
    copyFileSync(QWEN, join(mine, 'a.json'));
    copyFileSync(join(repo, 'profiles', 'GLM-4.6-A100x8.json'), join(out, 'profiles', 'b.json'));
    const env = { SERVELAB_CONFIG_DIR: conf };
    expect((await cli(['config', 'set', 'profiles-dir', mine], { env })).code).toBe(0);
    expect((await cli(['config', 'set', 'out', out], { env })).code).toBe(0);
    const r = await cli(['profiles', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { file: string; engine: string }[];
    expect(rows.map((x) => [x.file, x.engine])).toEqual([
      ['mine/a.json', 'sglang'],
      ['out/profiles/b.json', 'vllm'],
    ]);
  });

  it('lists profiles/ beside the settings file (where replays of study profiles are recorded) when profiles-dir is unset', async () => {
    const conf = join(dir, 'conf-history');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(conf, 'profiles'), { recursive: true });
    copyFileSync(QWEN, join(conf, 'profiles', 'Qwen3-14B-H100x1.json'));
    const r = await cli(['profiles', '--json'], { cwd: dir, env: { SERVELAB_CONFIG_DIR: conf } });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { file: string }[];
    expect(rows.map((x) => x.file)).toEqual(['conf-history/profiles/Qwen3-14B-H100x1.json']);
  });
});
