import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every file's temporary folders (test/helpers/cli.ts tempDir) are removed when it ends.
    setupFiles: ['test/helpers/cleanup.ts'],
    // No test may depend on the machine's speed: these limits only catch a hang. A loaded machine (the
    // suite beside four busy loops on two cores) runs a test 5–20× slower than an idle one, so they are
    // far above any test's idle time; expensive set-up lives in beforeAll and is billed to the hook.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // End-to-end tests spawn the CLI with worker threads; two cores are shared, so keep files sequential-ish.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
