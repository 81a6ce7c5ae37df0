import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// Mutation testing (stryker.config.json) mutates src/ in a sandbox; tests that spawn the built CLI run
// dist/, which holds no mutant, so they cannot kill one and only cost time. BNCLAB_MUTATE_TESTS (comma-
// separated globs) narrows the suite to the tests of the mutated modules on a busy machine; the score is
// then a lower bound (a test left out might have killed a survivor).
const only = process.env['BNCLAB_MUTATE_TESTS']?.split(',').filter((g) => g !== '');
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Replaced, not merged: mergeConfig would append to the base include list.
    include: only ?? base.test?.include ?? ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'test/check/**', 'test/report/report-e2e.test.ts', 'node_modules/**'],
  },
});
