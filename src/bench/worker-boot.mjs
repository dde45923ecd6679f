// Entry of the benchmark worker threads (src/bench/isolated.ts, sharded.ts). Loader hooks are per
// thread, so the worker registers tsx itself before importing the TypeScript worker, whether the
// parent runs under `node bin/servelab.js`, `tsx` or vitest. workerData.entry picks the worker
// (the shard worker of a sharded run); the default is the one-thread isolated run.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const entry = workerData?.entry === './shard-worker.ts' ? './shard-worker.ts' : './worker.ts';
await import(entry);
