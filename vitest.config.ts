import { defineConfig } from 'vitest/config';

// The tier of a test is its folder (docs/develop.md, "Tests"):
// - test/unit: nothing started, runs in seconds (`npm run test:unit`);
// - test/process: processes, servers, workers, terminals (`npm run test:process`);
// - test/timing: every wall-clock bound and every comparison of measured times with known delays.
//   They run in a second pass (`SERVELAB_TIMING_TESTS=1 vitest run`, part of `npm test`), one file
//   at a time, after the rest: with the other files' servers and workers on the same two cores
//   they measured the load instead.
const timingPass = !!process.env.SERVELAB_TIMING_TESTS;
const tier = (name: string) => ({ extends: true as const, test: { name, include: [`test/${name}/**/*.test.{ts,tsx}`] } });

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    // The bundle the process tests start, built once from the current sources (test/helpers/bin.ts).
    globalSetup: ['test/build-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores on CI: more workers only fight over them and skew timing-sensitive tests.
    maxWorkers: 2,
    ...(timingPass
      ? { include: ['test/timing/**/*.test.{ts,tsx}'], fileParallelism: false }
      : { projects: [tier('unit'), tier('process')] }),
  },
});
