import { readFileSync } from 'node:fs';
import { packageRoot } from './util/paths.js';

/** The package version, read once from package.json. */
export const BNCLAB_VERSION: string = (
  JSON.parse(readFileSync(`${packageRoot()}/package.json`, 'utf8')) as { version: string }
).version;

/**
 * Enters every job key. Bump it when a change alters the numbers a job produces (a bug fix in a learner,
 * a new default), so stored results from before are not mistaken for current ones.
 */
export const RESULTS_VERSION = 1;
