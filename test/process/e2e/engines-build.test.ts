// `servelab engines build llamacpp` as a user meets it: without the toolchain it says what is
// missing in one line (exit 2); nvcc on PATH picks CUDA, which needs a GPU to read the
// architecture from or --gpu-arch (exit 2 in one line otherwise); with an earlier build in the
// cache it reuses it, says its backend and prints the server's path as its last line. (The from-scratch build takes 8-15 minutes on 2 cores: it is
// run by .ci/run, not here.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { findLlamaCppBuild } from '../../../src/host/llamacpp-build.js';
import { BIN } from '../../helpers/e2e/cli.js';
import { skipNote } from '../../helpers/skip.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-engines-build-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'engines', ...args], { cwd: root, env, timeout: 60_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('servelab engines build', () => {
  it('without cmake, g++, git or npm on PATH: one line naming them, exit 2', async () => {
    const empty = path.join(root, 'empty-bin');
    fs.mkdirSync(empty);
    const r = await cli(['build', 'llamacpp'], { ...process.env, PATH: empty, XDG_CACHE_HOME: path.join(root, 'cache') });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'servelab: cannot build llama.cpp: cmake, g++, git, npm, tar not on PATH (on Debian: apt-get install cmake g++ git)',
    );
  });

  it('another engine or verb is bad input', async () => {
    const r = await cli(['build', 'vllm'], process.env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("servelab: engines build: only llamacpp can be built by servelab, got 'vllm'");
  });

  it('nvcc on PATH picks CUDA: without a GPU to read its architecture from, one line asking for --gpu-arch or --cpu', async () => {
    const bin = path.join(root, 'nvcc-bin');
    fs.mkdirSync(bin);
    // Only its presence on PATH is read: a stand-in that would fail if it were run.
    fs.writeFileSync(path.join(bin, 'nvcc'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const env = { ...process.env, PATH: bin, XDG_CACHE_HOME: path.join(root, 'cache') };
    const r = await cli(['build', 'llamacpp'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(
      /^servelab: nvcc is here but nvidia-smi shows no GPU to compile for: give --gpu-arch \(e\.g\. 90 for H100\/H200.*or --cpu$/,
    );
    // With an architecture it goes on to the toolchain (none here).
    const withArch = await cli(['build', 'llamacpp', '--gpu-arch', '90'], env);
    expect(withArch.stderr.trim()).toMatch(/^servelab: cannot build llama\.cpp: cmake, g\+\+, git, npm, tar not on PATH/);
  });

  it('--gpu-arch without nvcc or hipcc, and --cpu with --gpu-arch, are bad input', async () => {
    const none = path.join(root, 'no-compilers');
    fs.mkdirSync(none, { recursive: true });
    const env = { ...process.env, PATH: none, XDG_CACHE_HOME: path.join(root, 'cache') };
    const r = await cli(['build', 'llamacpp', '--gpu-arch', '90'], env);
    expect([r.code, r.stderr.trim()]).toEqual([
      2,
      'servelab: --gpu-arch needs nvcc (CUDA) or hipcc (HIP) on PATH, and neither is: install one, or build with --cpu',
    ]);
    const both = await cli(['build', 'llamacpp', '--cpu', '--gpu-arch', '90'], env);
    expect([both.code, both.stderr.trim()]).toEqual([2, 'servelab: engines build: --cpu and --gpu-arch exclude each other: give one']);
  });

  const title = `reuses the build in the cache and prints the server path last${skipNote(!findLlamaCppBuild() && 'no llama.cpp build in the cache yet')}`;
  it.skipIf(!findLlamaCppBuild())(title, async () => {
    const r = await cli(['build', 'llamacpp', '--cpu'], process.env);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(findLlamaCppBuild());
    expect(r.stderr).toContain('reusing the CPU build of llama.cpp 80fb11a');
    expect(r.stderr).toContain('servelab: backend: CPU');
  });
});
