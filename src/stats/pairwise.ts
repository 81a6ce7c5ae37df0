/**
 * Pairwise Wilcoxon signed-rank tests over a datasets × methods matrix with a family-wise adjustment
 * (Hommel by default) — the alternative to mean-rank post-hoc tests recommended by Benavoli, Corani &
 * Mangili (2016), whose p-values do not depend on which other methods are in the comparison.
 *
 * With a `control`, each other method j is tested as `wilcox.test(x = control, y = j, paired = TRUE)` and the
 * k − 1 p-values are adjusted together; otherwise all pairs i < j are tested as (x = i, y = j) and the
 * k(k − 1)/2 p-values are adjusted together.
 */

import { type PAdjustMethod, pAdjust } from './padjust.js';
import { winDrawLoss } from './signtest.js';
import { StatsInputError, assertMatrix } from './validate.js';
import { type WilcoxonOptions, type WilcoxonResult, wilcoxonSignedRank } from './wilcoxon.js';

interface PairwiseWilcoxonOptions extends WilcoxonOptions {
  /** p-value adjustment over the family. Default `'hommel'`. */
  adjust?: PAdjustMethod;
  /** Column index of a control method; when omitted all pairs are compared. */
  control?: number;
  /** Direction used for the win/draw/loss counts. Default `true` (larger scores are better). */
  higherIsBetter?: boolean;
}

interface PairwiseWilcoxonComparison {
  /** First method (x in the test; the control when one is given). */
  i: number;
  /** Second method (y in the test). */
  j: number;
  /** V = R⁺ of d = score_i − score_j − mu. */
  statistic: number;
  p: number;
  pAdjusted: number;
  method: 'exact' | 'normal';
  /** Wins/draws/losses of method i against method j (draw: |d| ≤ tolerance). */
  wins: number;
  draws: number;
  losses: number;
  /** The full signed-rank result (z, R⁻, warnings, …). */
  test: WilcoxonResult;
}

interface PairwiseWilcoxonResult {
  comparisons: PairwiseWilcoxonComparison[];
  control: number | null;
  nDatasets: number;
  nMethods: number;
  settings: {
    adjust: PAdjustMethod;
    higherIsBetter: boolean;
    wilcoxon: WilcoxonResult['settings'];
  };
}

/** Paired Wilcoxon signed-rank tests between the columns of a datasets × methods matrix. */
export function pairwiseWilcoxon(
  matrix: readonly (readonly number[])[],
  options: PairwiseWilcoxonOptions = {},
): PairwiseWilcoxonResult {
  const { rows, cols } = assertMatrix(matrix, 'matrix', 1, 2);
  const adjust = options.adjust ?? 'hommel';
  const higherIsBetter = options.higherIsBetter ?? true;
  const control = options.control;
  if (control !== undefined && (!Number.isInteger(control) || control < 0 || control >= cols)) {
    throw new StatsInputError(`control must be a column index in 0..${cols - 1}, got ${String(control)}`);
  }
  const wilcoxonOptions: WilcoxonOptions = {
    alternative: options.alternative,
    zeroMethod: options.zeroMethod,
    exact: options.exact,
    correct: options.correct,
    mu: options.mu,
    tolerance: options.tolerance,
    digitsRank: options.digitsRank,
    dropOddZero: options.dropOddZero,
    tieCorrection: options.tieCorrection,
  };
  const column = (j: number): number[] => matrix.map((row) => row[j]);
  const pairs: [number, number][] = [];
  if (control !== undefined) {
    for (let j = 0; j < cols; j++) if (j !== control) pairs.push([control, j]);
  } else {
    for (let i = 0; i < cols; i++) for (let j = i + 1; j < cols; j++) pairs.push([i, j]);
  }
  const tests = pairs.map(([i, j]) => {
    const a = column(i);
    const b = column(j);
    const test = wilcoxonSignedRank(a, b, wilcoxonOptions);
    const wdl = winDrawLoss(a, b, { lowerIsBetter: !higherIsBetter, tolerance: options.tolerance ?? 0 });
    return { i, j, test, wdl };
  });
  const adjusted = pAdjust(
    tests.map((t) => t.test.p),
    adjust,
  );
  return {
    comparisons: tests.map((t, idx) => ({
      i: t.i,
      j: t.j,
      statistic: t.test.statistic,
      p: t.test.p,
      pAdjusted: adjusted[idx],
      method: t.test.method,
      wins: t.wdl.wins,
      draws: t.wdl.draws,
      losses: t.wdl.losses,
      test: t.test,
    })),
    control: control ?? null,
    nDatasets: rows,
    nMethods: cols,
    settings: { adjust, higherIsBetter, wilcoxon: tests[0].test.settings },
  };
}
