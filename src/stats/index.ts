/**
 * Statistical comparison of classifiers over multiple datasets: p-value adjustment, ranks, Friedman /
 * Iman–Davenport, mean-rank post-hoc tests, critical differences, Wilcoxon signed-rank, pairwise Wilcoxon
 * and the sign test; all-pairs matrices (Shaffer, Bergmann–Hommel), the exact Friedman test, per-dataset
 * corrected resampled and 5×2cv tests, Bayesian signed-rank and correlated t-tests, and effect sizes. Every
 * result object carries the settings it was computed with.
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
