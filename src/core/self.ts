// How servelab re-invokes itself: each simulated engine is a `servelab sim-serve` process and each
// benchmark runs on a worker thread. Built (dist/, what npm installs) that is plain JS; from the
// sources (tests, `node bin/servelab.js` in a clone) it goes through tsx. This module's own file
// name says which one is running, so a build never starts a source process or the other way round.
import { fileURLToPath } from 'node:url';

/** True when this file was compiled to dist/ (it is `self.js` there, `self.ts` in src/). */
export const RUNNING_BUILT = import.meta.url.endsWith('.js');

/**
 * The script that starts servelab: dist/cli.js when built, else bin/servelab.js (which registers
 * tsx and loads src/cli.tsx). Run as `node SELF_SCRIPT <command> ...`.
 */
export const SELF_SCRIPT = fileURLToPath(new URL(RUNNING_BUILT ? '../cli.js' : '../../bin/servelab.js', import.meta.url));

/**
 * Entry of the benchmark worker thread: the compiled worker when built, else worker-boot.mjs,
 * which registers tsx in the thread (loader hooks are per thread) before loading worker.ts.
 */
export const BENCH_WORKER_ENTRY = new URL(RUNNING_BUILT ? '../bench/worker.js' : '../bench/worker-boot.mjs', import.meta.url);
