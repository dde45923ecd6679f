// Entry of the benchmark worker thread (src/bench/isolated.ts). Loader hooks are per thread, so
// the worker registers tsx itself before importing the TypeScript worker, whether the parent runs
// under `node bin/servelab.js`, `tsx` or vitest.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
