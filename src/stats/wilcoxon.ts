/**
 * Wilcoxon signed-rank test (Wilcoxon 1945), one-sample or paired.
 *
 * Defaults reproduce R ≤ 4.5 `wilcox.test(x, y, paired = TRUE)` (stats/R/wilcox.test.R in R 4.2.2):
 * - differences d = (x − y) − mu; zero differences are dropped (`zeroMethod: 'wilcox'`);
 * - the reported statistic is V = R⁺, the sum of the ranks of |d| over positive d (average ranks for ties);
 * - the exact null distribution is used when `exact` is not given and n < 50 (n = non-zero differences),
 *   and only if there are no ties and no zeros; otherwise the normal approximation with the tie-corrected
 *   variance n(n+1)(2n+1)/24 − Σ(t³ − t)/48 and, by default, a continuity correction of 0.5 toward the mean.
 *   Asking for `exact: true` with ties or zeros falls back to the normal approximation with a warning, as R does.
 *
 * Other conventions (all normal approximation when zeros are present):
 * - `zeroMethod: 'pratt'` (Pratt 1959): rank the zeros with the other differences, then drop their ranks;
 *   mean and variance adjusted as in Cureton (1967) / scipy: E = [N(N+1) − z₀(z₀+1)]/4,
 *   Var = [N(N+1)(2N+1) − z₀(z₀+1)(2z₀+1)]/24 − Σ(t³ − t)/48 over non-zero tie groups.
 * - `zeroMethod: 'zsplit'`: rank the zeros too and give half of each zero's rank to R⁺ and half to R⁻
 *   (scmamp, scipy); with `dropOddZero: true` one zero is discarded first when their number is odd, as
 *   Demšar (2006, §3.1.3) prescribes.
 *
 * Floating-point ties: differences are compared exactly, as in R. Use `digitsRank` (R's `digits.rank`,
 * significant digits applied before ranking) or `tolerance` (|d| ≤ tolerance counts as zero) to control this.
 */

import { normalCdf, signRankCdf, signRankDistribution, signRankSf } from './distributions.js';
import { rankAverage } from './ranks.js';
import { StatsInputError, assertFiniteNumber, assertFiniteVector } from './validate.js';

export type Alternative = 'two.sided' | 'greater' | 'less';
type ZeroMethod = 'wilcox' | 'pratt' | 'zsplit';

export interface WilcoxonOptions {
  /** Alternative hypothesis on the location of d = x − y − mu. Default `'two.sided'`. */
  alternative?: Alternative;
  /** Treatment of zero differences. Default `'wilcox'` (drop them, as R). */
  zeroMethod?: ZeroMethod;
  /**
   * Exact null distribution. Default (undefined): exact when n < 50 and there are neither ties nor zeros
   * (R). `true` forces the exact distribution for any n (falls back, with a warning, under ties or zeros);
   * `false` always uses the normal approximation.
   */
  exact?: boolean;
  /** Continuity correction in the normal approximation. Default `true` (R). */
  correct?: boolean;
  /** Location shift under the null hypothesis. Default 0. */
  mu?: number;
  /** Differences with |d| ≤ tolerance are treated as zeros. Default 0 (exact zeros only, as R). */
  tolerance?: number;
  /**
   * Round the differences to this many significant digits before ranking (R's `digits.rank`). Default
   * `Infinity` (no rounding).
   */
  digitsRank?: number;
  /** With `zeroMethod: 'zsplit'`, discard one zero when their number is odd (Demšar 2006). Default `false`. */
  dropOddZero?: boolean;
  /**
   * Subtract Σ(t³ − t)/48 from the variance of the normal approximation. Default `true` (R, scipy); `false`
   * reproduces Demšar's (2006) z and scmamp `wilcoxonSignedTest`.
   */
  tieCorrection?: boolean;
}

interface WilcoxonSettings {
  alternative: Alternative;
  zeroMethod: ZeroMethod;
  /** `'auto'` when the exact/normal choice was left to the n < 50 rule. */
  exact: boolean | 'auto';
  correct: boolean;
  mu: number;
  tolerance: number;
  digitsRank: number;
  dropOddZero: boolean;
  tieCorrection: boolean;
  paired: boolean;
}

export interface WilcoxonResult {
  /** V = R⁺ (R's statistic). For `zsplit` it includes half of the zero ranks. */
  statistic: number;
  rPlus: number;
  rMinus: number;
  /** T = min(R⁺, R⁻), the statistic tabulated by Demšar (2006) and reported by scipy (two-sided). */
  T: number;
  p: number;
  /** Standardised statistic of the normal approximation (after continuity correction); null for exact. */
  z: number | null;
  /** `'exact'` or `'normal'`. */
  method: 'exact' | 'normal';
  /** R-style description, e.g. "Wilcoxon signed rank test with continuity correction". */
  methodDescription: string;
  /** Number of pairs (or observations) supplied. */
  nTotal: number;
  /** Number of non-zero differences. */
  n: number;
  /** Number of zero differences (before any odd-zero drop). */
  nZeros: number;
  /** Whether the absolute non-zero differences contain ties (R's condition for leaving the exact test). */
  hasTies: boolean;
  /** Non-fatal conditions, worded as R's warnings where R has one. */
  warnings: string[];
  settings: WilcoxonSettings;
}

const ALTERNATIVES: readonly Alternative[] = ['two.sided', 'greater', 'less'];
const ZERO_METHODS: readonly ZeroMethod[] = ['wilcox', 'pratt', 'zsplit'];

/** R `signif(x, digits)`. */
function signif(x: number, digits: number): number {
  if (!Number.isFinite(digits) || x === 0) return x;
  const d = Math.max(1, Math.min(100, Math.round(digits)));
  return Number(x.toPrecision(d));
}

/**
 * Wilcoxon signed-rank test. `wilcoxonSignedRank(x)` tests the location of x against `mu`;
 * `wilcoxonSignedRank(x, y)` is the paired test on x − y. NaN or infinite values are rejected.
 */
export function wilcoxonSignedRank(
  x: readonly number[],
  y?: readonly number[],
  options: WilcoxonOptions = {},
): WilcoxonResult {
  const alternative = options.alternative ?? 'two.sided';
  const zeroMethod = options.zeroMethod ?? 'wilcox';
  const correct = options.correct ?? true;
  const mu = options.mu ?? 0;
  const tolerance = options.tolerance ?? 0;
  const digitsRank = options.digitsRank ?? Infinity;
  const dropOddZero = options.dropOddZero ?? false;
  const tieCorrection = options.tieCorrection ?? true;
  if (!ALTERNATIVES.includes(alternative)) {
    throw new StatsInputError(`alternative must be one of ${ALTERNATIVES.join(', ')}, got '${String(alternative)}'`);
  }
  if (!ZERO_METHODS.includes(zeroMethod)) {
    throw new StatsInputError(`zeroMethod must be one of ${ZERO_METHODS.join(', ')}, got '${String(zeroMethod)}'`);
  }
  assertFiniteNumber(mu, 'mu');
  assertFiniteNumber(tolerance, 'tolerance');
  if (tolerance < 0) throw new StatsInputError(`tolerance must be >= 0, got ${tolerance}`);
  if (!(digitsRank === Infinity || (Number.isInteger(digitsRank) && digitsRank >= 1))) {
    throw new StatsInputError(`digitsRank must be a positive integer or Infinity, got ${String(digitsRank)}`);
  }
  assertFiniteVector(x, 'x', 1);
  const paired = y !== undefined;
  if (paired) {
    assertFiniteVector(y, 'y', 1);
    if (y.length !== x.length) {
      throw new StatsInputError(
        `x and y must have the same length for a paired test (got ${x.length} and ${y.length})`,
      );
    }
  }
  const settings: WilcoxonSettings = {
    alternative,
    zeroMethod,
    exact: options.exact ?? 'auto',
    correct,
    mu,
    tolerance,
    digitsRank,
    dropOddZero,
    tieCorrection,
    paired,
  };

  const warnings: string[] = [];
  // Same operation order as R: x <- x - y; x <- x - mu.
  const d = x.map((xi, i) => {
    const v = (paired ? xi - (y as readonly number[])[i] : xi) - mu;
    return Math.abs(v) <= tolerance ? 0 : v;
  });
  const nTotal = d.length;
  const nonZero = d.filter((v) => v !== 0);
  const n = nonZero.length;
  const nZeros = nTotal - n;

  // Differences that enter the ranking.
  let ranked: number[];
  if (zeroMethod === 'wilcox') {
    ranked = nonZero;
  } else {
    ranked = d.slice();
    if (zeroMethod === 'zsplit' && dropOddZero && nZeros % 2 === 1) {
      ranked.splice(ranked.indexOf(0), 1);
    }
  }
  const { ranks, tieSizes: allTieSizes } = rankAverage(ranked.map((v) => Math.abs(signif(v, digitsRank))));
  const zerosRanked = ranked.length - n;
  let rPlus = 0;
  let rMinus = 0;
  let rZero = 0;
  for (let i = 0; i < ranked.length; i++) {
    if (ranked[i] > 0) rPlus += ranks[i];
    else if (ranked[i] < 0) rMinus += ranks[i];
    else rZero += ranks[i];
  }
  if (zeroMethod === 'zsplit') {
    rPlus += rZero / 2;
    rMinus += rZero / 2;
  }
  // Tie groups among the non-zero differences only: R's condition for the exact test, and Pratt's variance
  // (which excludes the group of zeros).
  const nonZeroTies =
    zerosRanked === 0 ? allTieSizes : rankAverage(nonZero.map((v) => Math.abs(signif(v, digitsRank)))).tieSizes;
  const hasTies = nonZeroTies.length > 0;

  const wantExact = options.exact ?? n < 50;
  let method: 'exact' | 'normal' = 'normal';
  let p: number;
  let z: number | null = null;
  if (wantExact && !hasTies && nZeros === 0) {
    method = 'exact';
    const V = rPlus;
    if (alternative === 'two.sided') {
      const half = V > (n * (n + 1)) / 4 ? signRankSf(V - 1, n) : signRankCdf(V, n);
      p = Math.min(1, 2 * half);
    } else if (alternative === 'greater') {
      p = signRankSf(V - 1, n);
    } else {
      p = signRankCdf(V, n);
    }
  } else {
    if (wantExact && hasTies) warnings.push('cannot compute exact p-value with ties');
    if (wantExact && nZeros > 0) warnings.push('cannot compute exact p-value with zeroes');
    const N = ranked.length;
    let mean = (N * (N + 1)) / 4;
    let variance = (N * (N + 1) * (2 * N + 1)) / 24;
    let tieTerm = 0;
    if (zeroMethod === 'pratt') {
      const z0 = zerosRanked;
      mean -= (z0 * (z0 + 1)) / 4;
      variance -= (z0 * (z0 + 1) * (2 * z0 + 1)) / 24;
      for (const t of nonZeroTies) tieTerm += t ** 3 - t;
    } else {
      for (const t of allTieSizes) tieTerm += t ** 3 - t;
    }
    if (tieCorrection) variance -= tieTerm / 48;
    const num = rPlus - mean;
    let cc = 0;
    if (correct) cc = alternative === 'two.sided' ? Math.sign(num) * 0.5 : alternative === 'greater' ? 0.5 : -0.5;
    const sigma = variance > 0 ? Math.sqrt(variance) : 0;
    z = (num - cc) / sigma;
    if (sigma === 0) z = NaN;
    if (alternative === 'less') p = normalCdf(z);
    else if (alternative === 'greater') p = normalCdf(z, false);
    else p = Number.isNaN(z) ? NaN : Math.min(1, 2 * Math.min(normalCdf(z), normalCdf(z, false)));
    if (Number.isNaN(p)) {
      warnings.push(
        n === 0 ? 'all differences are zero: the p-value is undefined' : 'zero variance: the p-value is undefined',
      );
    }
  }

  let methodDescription = 'Wilcoxon signed rank ' + (method === 'exact' ? 'exact test' : 'test');
  if (method === 'normal' && correct) methodDescription += ' with continuity correction';
  if (zeroMethod !== 'wilcox' && nZeros > 0) {
    methodDescription += ` (zero method: ${zeroMethod}${zeroMethod === 'zsplit' && dropOddZero && nZeros % 2 === 1 ? ', odd zero dropped' : ''})`;
  }

  return {
    statistic: rPlus,
    rPlus,
    rMinus,
    T: Math.min(rPlus, rMinus),
    p,
    z,
    method,
    methodDescription,
    nTotal,
    n,
    nZeros,
    hasTies,
    warnings,
    settings,
  };
}

/**
 * Largest value of T = min(R⁺, R⁻) that is significant in the exact two-sided test at level `alpha` for `n`
 * non-zero, untied differences (R `qsignrank(alpha/2, n) - 1`; Demšar 2006 Table 2 for alpha = 0.05);
 * `null` when no value is significant (n too small).
 */
export function wilcoxonCriticalT(n: number, alpha = 0.05): number | null {
  if (!Number.isInteger(n) || n < 1) throw new StatsInputError(`n must be a positive integer, got ${String(n)}`);
  if (!(alpha > 0 && alpha < 1)) throw new StatsInputError(`alpha must be in (0, 1), got ${String(alpha)}`);
  const f = signRankDistribution(n);
  let cum = 0;
  let t = -1;
  for (let s = 0; s < f.length; s++) {
    cum += f[s];
    // qsignrank(alpha/2) is the smallest s with P(V <= s) >= alpha/2 (R's fuzz 1e-7 relative).
    if (cum >= (alpha / 2) * (1 - 64 * Number.EPSILON)) break;
    t = s;
  }
  return t < 0 ? null : t;
}
