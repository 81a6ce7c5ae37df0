import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// Mutation testing (stryker.config.json) mutates src/ in a sandbox; tests that spawn the built CLI run
// dist/, which holds no mutant, so they cannot kill one and only cost time.
export default mergeConfig(
  base,
  defineConfig({ test: { exclude: ['test/e2e/**', 'test/report/report-e2e.test.ts', 'node_modules/**'] } }),
);
