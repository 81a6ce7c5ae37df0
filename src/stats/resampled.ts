/**
 * Paired tests of two classifiers on ONE dataset from their per-fold scores under repeated resampling.
 *
 * - Corrected resampled t-test (Nadeau & Bengio 2003, "Inference for the generalization error", Machine
 *   Learning 52; Bouckaert & Frank 2004), as Weka's Experimenter (`PairedCorrectedTTester`,
 *   `PairedStatsCorrected`): with d_i = a_i − b_i over the J = r·k paired folds,
 *     t = mean(d) / √((1/J + n_test/n_train) · s²_d),   df = J − 1,   two-sided p.
 *   The n_test/n_train term corrects the variance for the overlap of the training sets; the plain paired
 *   t-test on folds (ratio 0) is badly anti-conservative (Dietterich 1998). When s²_d = 0 the p-value is 1
 *   if every difference is 0 and 0 otherwise (Weka).
 * - Dietterich's (1998) 5×2cv paired t-test: with p_i^(j) the difference on fold j of replication i,
 *   p̄_i = (p_i^(1) + p_i^(2))/2 and s²_i = (p_i^(1) − p̄_i)² + (p_i^(2) − p̄_i)²,
 *     t = p_1^(1) / √(Σ_i s²_i / 5)  ~ t_5.
 * - Alpaydin's (1999) combined 5×2cv F-test: F = Σ_i Σ_j (p_i^(j))² / (2 Σ_i s²_i) ~ F(10, 5).
 */

import { fSf, studentTTwoSidedP } from './distributions.js';
import { StatsInputError, assertAlpha, assertPairedVectors } from './validate.js';
import { fsum } from './fsum.js';

interface CorrectedTTestResult {
  /** Number of paired folds J. */
  readonly n: number;
  /** mean(a − b). */
  readonly meanDifference: number;
  /** Sample variance of a − b (denominator J − 1). */
  readonly variance: number;
  readonly testTrainRatio: number;
  readonly t: number;
  readonly df: number;
  readonly p: number;
  /** +1: a significantly larger than b at alpha; −1: significantly smaller; 0: not significant. */
  readonly significance: -1 | 0 | 1;
  readonly alpha: number;
}

/**
 * Corrected resampled t-test of a against b over paired folds.
 * @param testTrainRatio n_test / n_train of one fold (1/(k − 1) for k-fold CV); 0 gives the uncorrected test.
 */
export function correctedResampledTTest(
  a: readonly number[],
  b: readonly number[],
  testTrainRatio: number,
  alpha = 0.05,
): CorrectedTTestResult {
  assertPairedVectors(a, b, 2);
  assertAlpha(alpha);
  if (!(testTrainRatio >= 0) || !Number.isFinite(testTrainRatio))
    throw new StatsInputError(`testTrainRatio must be a finite number >= 0, got ${testTrainRatio}`);
  const n = a.length;
  const d = a.map((x, i) => x - b[i]);
  const mean = fsum(d) / n;
  const variance = fsum(d.map((x) => (x - mean) ** 2)) / (n - 1);
  const df = n - 1;
  let t: number;
  let p: number;
  if (variance > 0) {
    t = mean / Math.sqrt((1 / n + testTrainRatio) * variance);
    p = studentTTwoSidedP(t, df);
  } else if (mean === 0) {
    t = NaN;
    p = 1;
  } else {
    t = mean > 0 ? Infinity : -Infinity;
    p = 0;
  }
  const significance: -1 | 0 | 1 = p < alpha ? (mean > 0 ? 1 : -1) : 0;
  return { n, meanDifference: mean, variance, testTrainRatio, t, df, p, significance, alpha };
}

interface FiveByTwoResult {
  /** Dietterich's t (df 5). */
  readonly t: number;
  readonly tP: number;
  /** Alpaydin's F (df 10, 5). */
  readonly f: number;
  readonly fP: number;
  /** Σ_i s²_i. */
  readonly sumVariance: number;
}

/**
 * Dietterich's 5×2cv t-test and Alpaydin's combined F-test.
 * @param a a[i][j]: score of the first classifier on fold j ∈ {0, 1} of replication i ∈ 0..4.
 */
export function fiveByTwoCvTests(
  a: readonly (readonly number[])[],
  b: readonly (readonly number[])[],
): FiveByTwoResult {
  if (a.length !== 5 || b.length !== 5 || [...a, ...b].some((r) => r.length !== 2)) {
    throw new StatsInputError('5×2cv tests need 5 replications of 2 folds for both classifiers');
  }
  a.forEach((r, i) => assertPairedVectors(r, b[i], 2));
  const p = a.map((r, i) => [r[0] - b[i][0], r[1] - b[i][1]] as const);
  let sumVariance = 0;
  let sumSquares = 0;
  for (const [p1, p2] of p) {
    const bar = (p1 + p2) / 2;
    sumVariance += (p1 - bar) ** 2 + (p2 - bar) ** 2;
    sumSquares += p1 * p1 + p2 * p2;
  }
  const p11 = p[0][0];
  let t: number;
  let tP: number;
  let f: number;
  let fP: number;
  if (sumVariance > 0) {
    t = p11 / Math.sqrt(sumVariance / 5);
    tP = studentTTwoSidedP(t, 5);
    f = sumSquares / (2 * sumVariance);
    fP = fSf(f, 10, 5);
  } else {
    // Every replication has equal differences on its two folds: no variance estimate.
    t = p11 === 0 ? NaN : p11 > 0 ? Infinity : -Infinity;
    tP = p11 === 0 ? 1 : 0;
    f = sumSquares === 0 ? NaN : Infinity;
    fP = sumSquares === 0 ? 1 : 0;
  }
  return { t, tP, f, fP, sumVariance };
}
