// `servelab engines build llamacpp` as a user meets it: without the toolchain it says what is
// missing in one line (exit 2); with an earlier build in the cache it reuses it and prints the
// server's path as its last line. (The from-scratch build takes 8-15 minutes on 2 cores: it is
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

  const title = `reuses the build in the cache and prints the server path last${skipNote(!findLlamaCppBuild() && 'no llama.cpp build in the cache yet')}`;
  it.skipIf(!findLlamaCppBuild())(title, async () => {
    const r = await cli(['build', 'llamacpp'], process.env);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(findLlamaCppBuild());
    expect(r.stderr).toContain('reusing the build of llama.cpp 80fb11a');
  });
});
