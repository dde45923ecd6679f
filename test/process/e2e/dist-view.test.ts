// The shipped bundle, not the sources: `servelab view RUN_DIR` in a terminal mounts the Results
// screen. The tests run src/ through tsx, where a dynamic import('react') has createElement on the
// module namespace; in the esbuild bundle (what `npx servelab` runs) it is only on the default
// export, and the command died with "internal error: React.createElement is not a function".
// So this test bundles src/cli.tsx as scripts/build.mjs does (into a temporary folder) and runs the
// bundle's `view` on a recorded journal under a pseudo-terminal (util-linux `script`).
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../../../scripts/esbuild-node.mjs';
import { skipNote } from '../../helpers/skip.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;
const NO_SCRIPT = 'no `script` command for a pseudo-terminal';
const dir = mkdtempSync(join(tmpdir(), 'servelab-dist-view-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasScript)(`the bundled servelab view in a terminal${skipNote(!hasScript && NO_SCRIPT)}`, () => {
  it('shows the Results screen of a recorded run and quits on q', async () => {
    const out = join(dir, 'dist');
    await build({
      ...NODE_BUNDLE,
      absWorkingDir: root,
      entryPoints: ['src/cli.tsx'],
      outdir: out,
      chunkNames: 'chunks/[name]-[hash]',
      logLevel: 'error',
    });
    // The bundle finds its package folder by the package.json above it, as the installed package has.
    copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
    const run = join(dir, 'run');
    mkdirSync(run);
    copyFileSync(join(root, 'test/fixtures/events/parallel-sim.jsonl'), join(run, 'events.jsonl'));
    const log = join(dir, 'screen.txt');
    const child = spawn('script', ['-qec', `stty cols 100 rows 30; node ${join(out, 'cli.js')} view ${run}`, log], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    // The screen needs a moment to mount before it reads keys.
    const quit = setTimeout(() => child.stdin.write('q'), 3000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(quit);
    const screen = readFileSync(log, 'utf8');
    expect(screen).not.toContain('internal error');
    expect(screen).toContain('5/6 Results');
    expect(code).toBe(0);
  }, 60_000);
});
