import { defineConfig } from 'vitest/config';
import { processTierFiles } from './test/tiers.js';

// Tests that compare measured times with known delays (the benchmark client's stamping, a busy
// main thread, the worker's own CPU, arrival slots across threads). They run in a second pass
// (`SERVELAB_TIMING_TESTS=1 vitest run`, part of `npm test`), one file at a time, after the rest:
// with the other files' servers and workers on the same two cores they measured the load instead.
// Every wall-clock bound lives in these files (a `-timing` file holds the bounds cut from its neighbour).
const TIMING = [
  'test/bench/accuracy.test.ts',
  'test/bench/isolated.test.ts',
  'test/bench/monitor.test.ts',
  'test/bench/sharded.test.ts',
  'test/bench/cli-timing.test.ts',
  'test/bench/failures-timing.test.ts',
  'test/bench/live-timing.test.ts',
  'test/host/process-timing.test.ts',
  'test/sim/failures-timing.test.ts',
  'test/sim/server-timing.test.ts',
];
const timingPass = !!process.env.SERVELAB_TIMING_TESTS;
// Two tiers (test/tiers.ts): 'unit' runs in-process and fast (`npm run test:unit`); 'process'
// starts servers, workers and terminals. `npm test` runs both.
const PROCESS = processTierFiles(process.cwd()).filter((f) => !TIMING.includes(f));

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores on CI: more workers only fight over them and skew timing-sensitive tests.
    maxWorkers: 2,
    ...(timingPass
      ? { include: TIMING, fileParallelism: false }
      : {
          projects: [
            {
              extends: true,
              test: { name: 'unit', include: ['test/**/*.test.{ts,tsx}'], exclude: [...TIMING, ...PROCESS, '**/node_modules/**'] },
            },
            { extends: true, test: { name: 'process', include: PROCESS } },
          ],
        }),
  },
});
