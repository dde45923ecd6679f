// Entry of the benchmark worker thread (src/bench/isolated.ts) when servelab runs from its
// TypeScript sources (tests, `node bin/servelab.js`); src/core/self.ts picks it. Loader hooks are
// per thread, so the worker registers tsx itself before importing the TypeScript worker. The
// build does not use this file: it runs the bundled dist/bench/worker.js directly.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
