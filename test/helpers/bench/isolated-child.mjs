// Run by isolated.test.ts as a plain `node` process, loading the sources the way bin/servelab.js
// does (tsx's register()): one isolated benchmark, then nothing. The process must end by itself,
// which it cannot while a worker thread is left running.
import { register } from 'tsx/esm/api';

register();
const { runBenchmarkIsolated } = await import('../../../src/bench/workers/isolated.ts');
const url = process.argv[2];
const requests = Array.from({ length: 4 }, (_, i) => ({ prompt: `hello world ${i}`, promptLen: 3, expectedOutputLen: 5 }));
const r = await runBenchmarkIsolated({ baseUrl: url, model: 'm', requests, onEvent: () => {} });
process.stdout.write(JSON.stringify({ completed: r.metrics.completed, out: r.metrics.total_output_tokens }) + '\n');
