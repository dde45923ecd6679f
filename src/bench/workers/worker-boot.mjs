// Entry of the benchmark worker threads (src/bench/workers/isolated.ts, sharded.ts) when servelab runs from
// its TypeScript sources (tests, `node bin/servelab.js`); src/core/self.ts picks it. Loader hooks are
// per thread, so the worker registers tsx itself before importing the TypeScript worker.
// workerData.entry picks the worker (the shard worker of a sharded run); the default is the
// one-thread isolated run. The build does not use this file: it runs dist/bench/workers/*.js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const entry = workerData?.entry === './shard-worker.ts' ? './shard-worker.ts' : './worker.ts';
await import(entry);
