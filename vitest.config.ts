import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores on CI: more workers only fight over them and skew timing-sensitive tests.
    maxWorkers: 2,
  },
});
