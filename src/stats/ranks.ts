/**
 * Ranking with average ranks for ties (R `rank(x, ties.method = "average")`), and per-dataset ranking of
 * methods as used by the Friedman test and its post-hoc procedures (Demšar 2006 §3.2.2).
 */

import { assertDigits, assertFiniteVector, assertMatrix, roundDecimals } from './validate.js';

interface RankResult {
  /** Rank of each input value (1 = smallest), ties receive the mean of the ranks they span. */
  ranks: number[];
  /** Sizes of the groups of tied values (only groups of size ≥ 2). */
  tieSizes: number[];
}

/**
 * Ascending ranks with average ranks for ties, compared with exact equality (as R `rank`).
 * @param values finite numbers.
 */
export function rankAverage(values: readonly number[]): RankResult {
  assertFiniteVector(values, 'values', 0);
  const n = values.length;
  const order = [...values.keys()].sort((a, b) => values[a] - values[b] || a - b);
  const ranks = new Array<number>(n);
  const tieSizes: number[] = [];
  let start = 0;
  while (start < n) {
    let end = start;
    while (end + 1 < n && values[order[end + 1]] === values[order[start]]) end++;
    const avg = (start + end) / 2 + 1;
    for (let r = start; r <= end; r++) ranks[order[r]] = avg;
    const size = end - start + 1;
    if (size > 1) tieSizes.push(size);
    start = end + 1;
  }
  return { ranks, tieSizes };
}

interface AverageRanksOptions {
  /**
   * `true` (default, e.g. accuracy; as scmamp `rankMatrix(decreasing = TRUE)`): the largest value gets rank 1.
   * `false` (error rate, RMSE, log loss): the smallest value gets rank 1.
   */
  higherIsBetter?: boolean;
  /**
   * Round every score to this many decimals before ranking (e.g. the precision a paper printed), so that
   * floating-point noise does not break ties. Default: no rounding.
   */
  digits?: number;
}

interface AverageRanksResult {
  /** ranks[i][j]: rank of method j on dataset i (1 = best, average ranks for ties). */
  ranks: number[][];
  /** Mean rank of each method over the datasets. */
  meanRanks: number[];
  /** Sum of ranks of each method over the datasets. */
  rankSums: number[];
  /** Per dataset, the sizes of tied groups (for the Friedman tie correction). */
  tieSizes: number[][];
  nDatasets: number;
  nMethods: number;
  settings: { higherIsBetter: boolean; digits: number | null };
}

/**
 * Ranks the methods within each dataset (row) and averages the ranks over datasets.
 * @param matrix datasets × methods scores (rows: datasets, columns: methods).
 */
export function averageRanks(
  matrix: readonly (readonly number[])[],
  options: AverageRanksOptions = {},
): AverageRanksResult {
  const higherIsBetter = options.higherIsBetter ?? true;
  assertDigits(options.digits);
  const { rows, cols } = assertMatrix(matrix, 'matrix', 1, 1);
  const ranks: number[][] = [];
  const tieSizes: number[][] = [];
  const rankSums = new Array<number>(cols).fill(0);
  for (let i = 0; i < rows; i++) {
    const row = matrix[i].map((v) => {
      const r = roundDecimals(v, options.digits);
      return higherIsBetter ? -r : r;
    });
    const rr = rankAverage(row);
    ranks.push(rr.ranks);
    tieSizes.push(rr.tieSizes);
    for (let j = 0; j < cols; j++) rankSums[j] += rr.ranks[j];
  }
  return {
    ranks,
    meanRanks: rankSums.map((s) => s / rows),
    rankSums,
    tieSizes,
    nDatasets: rows,
    nMethods: cols,
    settings: { higherIsBetter, digits: options.digits ?? null },
  };
}
