// `npm run build` (also run by `prepare` on `npm install` in a clone, and by `npm pack`): bundle
// servelab and its dependencies into dist/ with esbuild, so the installed command loads a few
// files of plain JS instead of TypeScript through tsx. Entries: dist/cli.js (the `servelab`
// command, also what each `sim-serve` launch runs) and dist/bench/workers/worker.js (the benchmark
// worker thread); code they share and each lazily loaded command go to dist/chunks/.
// Why a bundle and not tsc's one file per module: Ink and React are ~150 small modules, and
// resolving and reading them is most of the time to the first TUI frame (perf/startup.bench.ts).
// Type checking stays with `tsc --noEmit` in `npm test`; esbuild only strips types.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from './esbuild-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist`, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.tsx', 'src/bench/workers/worker.ts', 'src/bench/workers/shard-worker.ts', 'src/host/supervise.mjs'],
  outbase: 'src',
  outdir: 'dist',
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  ...NODE_BUNDLE,
  legalComments: 'eof',
  logLevel: 'warning',
});
