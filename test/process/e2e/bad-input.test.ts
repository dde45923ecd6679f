// Bad input to `servelab --auto` is one line on stderr and exit 2, before anything launches.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeDir, runCli, tempDir } from '../../helpers/e2e/cli.js';

const cwd = tempDir('e2e-bad');
afterAll(() => removeDir(cwd));

const base = ['--auto', '--sim', '--model', 'Qwen/Qwen3-14B'];
const broken = join(cwd, 'broken-run');
mkdirSync(broken, { recursive: true });
writeFileSync(join(broken, 'session.json'), '{"journal": 1, "status": "runn');

const CASES: { name: string; args: string[]; message: RegExp }[] = [
  { name: 'an unknown flag', args: [...base, '--turbo'], message: /Unknown option '--turbo'/ },
  { name: 'an unknown stage', args: [...base, '--stages', 'engine,magic'], message: /unknown stage 'magic': use engine, quantization/ },
  { name: 'a bad --slo', args: [...base, '--slo', 'ttft:p99>2000'], message: /bad --slo part 'ttft:p99>2000'/ },
  {
    name: 'a missing dataset',
    args: [...base, '--dataset-path', 'nowhere/ShareGPT.json'],
    message: /dataset nowhere\/ShareGPT.json: no such file/,
  },
  { name: 'a malformed run journal', args: ['--auto', '--resume', broken], message: /session.json is not valid JSON/ },
  { name: 'a run folder that is not one', args: ['--auto', '--resume', cwd], message: /not a servelab run folder/ },
  { name: 'a missing model', args: ['--auto', '--sim'], message: /--model is required/ },
  {
    name: 'a value for --dummy-weights',
    args: [...base, '--dummy-weights=yes'],
    message: /Option '--dummy-weights' does not take an argument/,
  },
];

describe('servelab --auto bad input', () => {
  it.each(CASES)('$name: one line, exit 2', async ({ args, message }) => {
    const r = await runCli(args, cwd);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^servelab: /);
    expect(lines[0]).toMatch(message);
    expect(r.stdout).toBe('');
    expect(existsSync(join(cwd, 'servelab-runs'))).toBe(false);
  });

  it('--dry-run prints the plan with exact commands and pruned variants, and launches nothing', async () => {
    const r = await runCli(['--auto', '--sim', '--gpu', 'A100', '--gpus', '8', '--model', 'zai-org/GLM-4.6', '--dry-run'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ vllm serve zai-org/GLM-4.6-FP8 --host 127.0.0.1 --port 8100 --tensor-parallel-size 8');
    expect(r.stdout).toMatch(/\[pruned\] sglang-fp8ckpt-tp8 .*FP8 is not supported on this GPU/);
    expect(r.stdout).toContain('local optimum');
    expect(r.stdout).toMatch(/Nothing was launched \(--dry-run\)/);
    expect(existsSync(join(cwd, 'servelab-runs'))).toBe(false);
  });
});

// Hostile or broken input to the other commands, and profiles crafted by someone else: one line,
// exit 2, nothing launched, the profile file untouched, no run folder made.
const SHIPPED = fileURLToPath(new URL('../../../profiles/Qwen3-14B-H100x1.json', import.meta.url));
const hostile = join(cwd, 'hostile');
mkdirSync(hostile, { recursive: true });
const base2 = JSON.parse(readFileSync(SHIPPED, 'utf8')) as Record<string, unknown>;
function crafted(name: string, change: (p: Record<string, any>) => void): string {
  const p = structuredClone(base2);
  change(p);
  const file = join(hostile, name);
  writeFileSync(file, JSON.stringify(p));
  return file;
}
const P = {
  preload: crafted('preload.json', (p) => (p.env = { LD_PRELOAD: '/tmp/x.so' })),
  pypath: crafted('pypath.json', (p) => (p.env = { PYTHONPATH: '/tmp/evil' })),
  path: crafted('path.json', (p) => (p.env = { PATH: '/tmp/evil:/usr/bin' })),
  ldlib: crafted('ldlib.json', (p) => (p.env = { LD_LIBRARY_PATH: '/tmp/evil' })),
  two: crafted('two.json', (p) => (p.env = { LD_PRELOAD: '/x.so', NODE_OPTIONS: '--require /tmp/x.js' })),
  badKey: crafted('badkey.json', (p) => (p.env = { 'A;rm -rf ~': '1' })),
  dotdot: crafted('dotdot.json', (p) => (p.files = [{ path: '../..', content: 'x' }])),
  newline: crafted('newline.json', (p) => (p.files = [{ path: '/x/a\nb.yaml', content: 'x' }])),
  bash: crafted('bash.json', (p) => (p.engineArgv = ['bash', '-c', 'rm -rf ~'])),
  docker: crafted('docker.json', (p) => (p.engineArgv = ['docker', 'run', 'evil/image'])),
  future: crafted('future.json', (p) => (p.schema = 99)),
};
const aFile = join(cwd, 'a-file');
writeFileSync(aFile, 'not a folder');
const garbled = join(cwd, 'garbled-run');
mkdirSync(garbled, { recursive: true });
writeFileSync(join(garbled, 'events.jsonl'), '{bad\nnot json either\n');

const MORE: { name: string; args: string[]; message: RegExp }[] = [
  {
    name: 'replay of a profile setting LD_PRELOAD',
    args: ['replay', P.preload, '--sim', '--yes'],
    message: /refusing to run with env LD_PRELOAD \(LD_PRELOAD loads a library into every process.*--allow-env LD_PRELOAD/,
  },
  {
    name: 'serve of a profile setting PYTHONPATH',
    args: ['serve', P.pypath, '--sim', '--yes'],
    message: /refusing to run with env PYTHONPATH .*--allow-env PYTHONPATH/,
  },
  {
    name: 'export of a profile setting PATH',
    args: ['export', P.path, '--format', 'shell'],
    message: /refusing to run with env PATH \(PATH changes which executable/,
  },
  {
    name: 'replay of a profile setting LD_LIBRARY_PATH',
    args: ['replay', P.ldlib, '--sim', '--yes'],
    message: /env LD_LIBRARY_PATH .*--allow-env LD_LIBRARY_PATH/,
  },
  {
    name: '--allow-env allows only the names given',
    args: ['replay', P.two, '--sim', '--yes', '--allow-env', 'LD_PRELOAD'],
    message: /refusing to run with env NODE_OPTIONS /,
  },
  {
    name: 'an env name that is shell code',
    args: ['export', P.badKey, '--format', 'shell'],
    message: /env: "A;rm -rf ~" is not an environment variable name/,
  },
  {
    name: 'a file path that leaves the run folder',
    args: ['replay', P.dotdot, '--sim', '--yes'],
    message: /files\[0\]\.path: "\.\.\/\.\." does not end in a plain file name/,
  },
  {
    name: 'a file path with a newline',
    args: ['serve', P.newline, '--sim', '--yes'],
    message: /files\[0\]\.path: .* does not end in a plain file name/,
  },
  {
    name: 'a profile whose command is a shell',
    args: ['replay', P.bash, '--sim', '--yes'],
    message: /refusing to run 'bash -c .*not a known engine launcher/,
  },
  {
    name: 'a docker command with an unofficial image',
    args: ['export', P.docker, '--format', 'docker'],
    message: /refusing to run 'docker run evil\/image'/,
  },
  { name: 'a profile from a newer servelab', args: ['replay', P.future, '--sim', '--yes'], message: /written for profile schema 99/ },
  {
    name: 'a profile that does not exist',
    args: ['serve', join(hostile, 'missing.json'), '--sim', '--yes'],
    message: /missing.json: no such file/,
  },
  { name: 'an unknown export format', args: ['export', SHIPPED, '--format', 'pdf'], message: /unknown --format 'pdf'/ },
  { name: 'gpus with a bad --gpus', args: ['gpus', '--sim', '--gpus', 'abc'], message: /--gpus must be a whole number >= 0, got 'abc'/ },
  {
    name: "--out at servelab's own clone",
    args: [...base, '--out', dirname(dirname(SHIPPED))],
    message: /holds servelab's shipped study profiles; give another folder/,
  },
  {
    name: 'a run folder under a file',
    args: [...base, '--run-dir', join(aFile, 'run')],
    message: /cannot write the run folder .*a-file\/run: a part of the path is a file, not a folder \(ENOTDIR\)/,
  },
  { name: 'a port below 1024', args: [...base, '--port', '80'], message: /--port must be a whole number >= 1024/ },
  {
    name: 'a negative count given as the next word',
    args: [...base, '--gpus', '-1'],
    message: /^servelab: --gpus needs a value; to give one that starts with '-', write --gpus=VALUE; run 'servelab --auto --help'/,
  },
  {
    name: 'a flag where a value belongs (gpus)',
    args: ['gpus', '--gpus', '--sim'],
    message: /^servelab: --gpus needs a value; to give one that starts with '-', write --gpus=VALUE; usage: servelab gpus/,
  },
  {
    name: 'view of a journal with no readable event',
    args: ['view', garbled],
    message:
      /garbled-run\/events\.jsonl holds no readable event \(line 1 is not JSON\): not a servelab run journal, or one cut before its first event/,
  },
  {
    name: 'an unknown flag to view',
    args: ['view', '--bogus'],
    message: /^servelab: view: Unknown option '--bogus'\. Run 'servelab view --help'\.$/,
  },
  {
    name: 'serve on a port that cannot exist',
    args: ['serve', SHIPPED, '--sim', '--yes', '--port', '99999'],
    message: /--port must be a whole number >= 1 and <= 65535, got '99999'/,
  },
];

describe('bad and hostile input to every command', () => {
  it.each(MORE)('$name: one line, exit 2, nothing run or lost', async ({ args, message }) => {
    const files = Object.values(P).map((f) => [f, readFileSync(f, 'utf8')] as const);
    const r = await runCli(args, cwd);
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^servelab: /);
    expect(lines[0]).toMatch(message);
    expect(r.stdout).toBe('');
    for (const [f, text] of files) expect(readFileSync(f, 'utf8')).toBe(text);
    expect(existsSync(join(process.env.XDG_DATA_HOME!, 'servelab', 'runs'))).toBe(false);
    expect(readFileSync(aFile, 'utf8')).toBe('not a folder');
  });
});

describe('--runtime slurm where Slurm answers with an error', () => {
  it('is one line naming what Slurm said and what to do, exit 2 (not an internal error)', async () => {
    // Slurm's clients on PATH, but no cluster: sinfo fails as it does without a slurm.conf.
    const bin = join(cwd, 'fake-slurm-bin');
    mkdirSync(bin, { recursive: true });
    for (const c of ['sbatch', 'scontrol', 'scancel', 'sinfo']) {
      writeFileSync(join(bin, c), '#!/bin/sh\necho "$0: fatal: Could not establish a configuration source" >&2\nexit 1\n', { mode: 0o755 });
    }
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const r = await runCli([...base, '--runtime', 'slurm', '--dry-run'], cwd);
      expect(r.code, r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^servelab: --runtime slurm: Slurm cannot describe the cluster \(sinfo .*Could not establish a configuration source\): /,
      );
    } finally {
      process.env.PATH = path;
    }
  });
});
