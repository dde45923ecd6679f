// How servelab finds itself: its package folder (package.json, the shipped profiles/) and how to
// re-invoke itself (each simulated engine is a `servelab sim-serve` process, each benchmark runs on
// a worker thread). Built (dist/, one esbuild bundle: what npm installs) that is plain JS; from the
// sources (tests, `node bin/servelab.js` in a clone) it goes through tsx. This module's own file
// name says which one is running, so a build never starts a source process or the other way round.
// Paths come from the package root, not from this file's depth: in the bundle this code sits in a
// chunk whose folder is not src/core's.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** True when running the build (a .js file under dist/), false from the .ts sources. */
const RUNNING_BUILT = import.meta.url.endsWith('.js');

function findPackageRoot(start: string): string {
  for (let dir = dirname(start); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'servelab') return dir;
    if (dirname(dir) === dir) throw new Error(`servelab: no servelab package.json above ${start}`);
  }
}

/** The folder holding servelab's package.json: the clone, or the installed package. */
export const PACKAGE_ROOT = findPackageRoot(fileURLToPath(import.meta.url));

/**
 * The script that starts servelab: dist/cli.js when built, else bin/servelab.js (which registers
 * tsx and loads src/cli.tsx). Run as `node SELF_SCRIPT <command> ...`.
 */
export const SELF_SCRIPT = join(PACKAGE_ROOT, RUNNING_BUILT ? 'dist/cli.js' : 'bin/servelab.js');

/**
 * Entry of the benchmark worker thread: the bundled worker when built, else worker-boot.mjs, which
 * registers tsx in the thread (loader hooks are per thread) before loading worker.ts.
 */
export const BENCH_WORKER_ENTRY = pathToFileURL(
  join(PACKAGE_ROOT, RUNNING_BUILT ? 'dist/bench/workers/worker.js' : 'src/bench/workers/worker-boot.mjs'),
);

/** The shard worker of a sharded run (src/bench/workers/sharded.ts): from source, worker-boot.mjs picks it by workerData.entry. */
export const BENCH_SHARD_WORKER_ENTRY = pathToFileURL(
  join(PACKAGE_ROOT, RUNNING_BUILT ? 'dist/bench/workers/shard-worker.js' : 'src/bench/workers/worker-boot.mjs'),
);

/**
 * The parent-death supervisor (src/host/deathsig.ts): a plain-JS script run as its own process,
 * bundled beside the CLI when built.
 */
export const SUPERVISOR_SCRIPT = join(PACKAGE_ROOT, RUNNING_BUILT ? 'dist/host/supervise.js' : 'src/host/supervise.mjs');
