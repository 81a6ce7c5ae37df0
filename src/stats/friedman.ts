/**
 * Friedman test and the Iman–Davenport correction.
 *
 * Friedman (1937, 1940), in Demšar's (2006, eq. on p. 11) form:
 *   χ²_F = 12N/(k(k+1)) · [ Σ_j R_j² − k(k+1)²/4 ],  df = k − 1,
 * where R_j is the mean rank of method j over N datasets. With `tieCorrection` the statistic is divided by
 *   C = 1 − Σ(t³ − t) / (N·k·(k² − 1))
 * over all within-dataset tie groups, which is what R `friedman.test` (and scipy / autorank) report;
 * Demšar, García & Herrera and scmamp use the uncorrected statistic.
 *
 * Iman & Davenport (1980): F_F = (N − 1)·χ²_F / (N(k − 1) − χ²_F) ~ F(k − 1, (k − 1)(N − 1)).
 */

import { averageRanks } from './ranks.js';
import { chiSquareSf, fSf } from './distributions.js';
import { StatsInputError, assertFiniteVector, assertInteger } from './validate.js';

interface FriedmanOptions {
  /** `true` (default): larger scores are better (rank 1 = largest). */
  higherIsBetter?: boolean;
  /**
   * Divide χ² by the tie-correction factor. Default `true`, as R `friedman.test`. Set `false` to reproduce
   * Demšar (2006), García & Herrera (2008) and scmamp `friedmanTest`.
   */
  tieCorrection?: boolean;
  /** Round scores to this many decimals before ranking (default: no rounding). */
  digits?: number;
}

interface ImanDavenportResult {
  /**
   * F_F statistic. NaN when it is undefined: N = 1 (df2 = 0), or every dataset ranks the methods identically
   * (χ² = N(k − 1), so the denominator N(k − 1) − χ² is 0: F_F has no finite value and no F distribution
   * gives it a p-value); `undefinedReason` says which.
   */
  F: number;
  df1: number;
  df2: number;
  p: number;
  undefinedReason?: string;
}

export interface FriedmanResult {
  /** Friedman χ² (tie-corrected when settings.tieCorrection). NaN when every dataset ties all methods and the tie correction is on. */
  chi2: number;
  df: number;
  /** Upper-tail chi-square p-value. */
  p: number;
  imanDavenport: ImanDavenportResult;
  meanRanks: number[];
  nDatasets: number;
  nMethods: number;
  /** Tie-correction factor C (1 when there are no ties); the uncorrected statistic is chi2·C. */
  tieCorrectionFactor: number;
  /** `higherIsBetter` is null when the result was computed from published mean ranks. */
  settings: { higherIsBetter: boolean | null; tieCorrection: boolean; digits: number | null };
}

function imanDavenport(chi2: number, N: number, k: number): ImanDavenportResult {
  const df1 = k - 1;
  const df2 = (k - 1) * (N - 1);
  if (df2 === 0)
    return {
      F: NaN,
      df1,
      df2,
      p: NaN,
      undefinedReason: 'one dataset: the F distribution has 0 denominator degrees of freedom',
    };
  if (Number.isNaN(chi2)) return { F: NaN, df1, df2, p: NaN, undefinedReason: 'the Friedman χ² is undefined' };
  const denom = N * (k - 1) - chi2;
  if (denom <= 0)
    return {
      F: NaN,
      df1,
      df2,
      p: NaN,
      undefinedReason: `every dataset ranks the methods identically (χ² = N(k − 1) = ${N * (k - 1)}), so its denominator N(k − 1) − χ² is 0`,
    };
  const F = ((N - 1) * chi2) / denom;
  return { F, df1, df2, p: fSf(F, df1, df2) };
}

function finish(
  chi2: number,
  meanRanks: number[],
  N: number,
  k: number,
  C: number,
  settings: FriedmanResult['settings'],
): FriedmanResult {
  const df = k - 1;
  return {
    chi2,
    df,
    p: Number.isNaN(chi2) ? NaN : chiSquareSf(chi2, df),
    imanDavenport: imanDavenport(chi2, N, k),
    meanRanks,
    nDatasets: N,
    nMethods: k,
    tieCorrectionFactor: C,
    settings,
  };
}

/**
 * Friedman test on a datasets × methods score matrix, with the Iman–Davenport F statistic.
 * Requires at least 2 methods and 1 dataset; NaN scores are rejected.
 */
export function friedman(matrix: readonly (readonly number[])[], options: FriedmanOptions = {}): FriedmanResult {
  const tieCorrection = options.tieCorrection ?? true;
  const ar = averageRanks(matrix, { higherIsBetter: options.higherIsBetter, digits: options.digits });
  const N = ar.nDatasets;
  const k = ar.nMethods;
  if (k < 2) throw new StatsInputError(`the Friedman test needs at least 2 methods, got ${k}`);
  let ss = 0;
  for (const s of ar.rankSums) ss += (s - (N * (k + 1)) / 2) ** 2;
  let ties = 0;
  for (const row of ar.tieSizes) for (const t of row) ties += t ** 3 - t;
  const chi2Raw = (12 * ss) / (N * k * (k + 1));
  const C = 1 - ties / (N * k * (k * k - 1));
  // R friedman.test: 12·Σ(S_j − N(k+1)/2)² / (N k (k+1) − Σ(t³ − t)/(k − 1)); 0/0 → NaN when all tied.
  const chi2 = tieCorrection ? (12 * ss) / (N * k * (k + 1) - ties / (k - 1)) : chi2Raw;
  return finish(chi2, ar.meanRanks, N, k, C, {
    higherIsBetter: ar.settings.higherIsBetter,
    tieCorrection,
    digits: ar.settings.digits,
  });
}

/**
 * Friedman test (no tie correction) from published mean ranks, for checking a paper that reports only
 * average ranks (e.g. Demšar 2006 Table 6). `meanRanks` must be the mean ranks of k methods over
 * `nDatasets` datasets.
 */
export function friedmanFromRanks(meanRanks: readonly number[], nDatasets: number): FriedmanResult {
  assertFiniteVector(meanRanks, 'meanRanks', 2);
  assertInteger(nDatasets, 'nDatasets', 1);
  const k = meanRanks.length;
  const N = nDatasets;
  let sumSq = 0;
  for (const r of meanRanks) sumSq += r * r;
  const chi2 = Math.max(0, ((12 * N) / (k * (k + 1))) * (sumSq - (k * (k + 1) ** 2) / 4));
  return finish(chi2, meanRanks.slice(), N, k, 1, { higherIsBetter: null, tieCorrection: false, digits: null });
}
