/**
 * Statistical comparison of classifiers over multiple datasets: p-value adjustment, ranks, Friedman /
 * Iman–Davenport, mean-rank post-hoc tests, critical differences, Wilcoxon signed-rank, pairwise Wilcoxon
 * and the sign test. Every result object carries the settings it was computed with.
 */

export { StatsInputError, roundDecimals } from './validate.js';
export * from './distributions.js';
export * from './tukey.js';
export * from './padjust.js';
export * from './ranks.js';
export * from './friedman.js';
export * from './cd.js';
export * from './posthoc.js';
export * from './wilcoxon.js';
export * from './pairwise.js';
export * from './signtest.js';
export * from './allpairs.js';
export * from './resampled.js';
export * from './bayesian.js';
export * from './effectsize.js';
export * from './friedman-exact.js';
