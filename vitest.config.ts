import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // End-to-end tests spawn the CLI with worker threads; two cores are shared, so keep files sequential-ish.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
