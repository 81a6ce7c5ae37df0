/**
 * Post-hoc comparisons after the Friedman test based on mean ranks (Demšar 2006 §3.2.2; García & Herrera
 * 2008; scmamp `friedmanPost`):
 *
 *   z = (R_j − R_i) / √( k(k + 1) / (6N) ),   p = 2·Φ(−|z|),
 *
 * followed by a family-wise adjustment over the compared pairs (R `p.adjust`; Hommel by default, as
 * García et al. 2010 recommend for comparisons with a control).
 *
 * Note (Benavoli, Corani & Mangili 2016): these mean-rank p-values depend on which other methods take part
 * in the comparison; {@link pairwiseWilcoxon} is the alternative that does not.
 */

import { normalTwoSidedP } from './distributions.js';
import { rankSE } from './cd.js';
import { averageRanks } from './ranks.js';
import { type PAdjustMethod, pAdjust } from './padjust.js';
import { StatsInputError, assertFiniteVector, assertInteger } from './validate.js';

interface PosthocOptions {
  /** p-value adjustment over the family of comparisons. Default `'hommel'`. */
  adjust?: PAdjustMethod;
  /** `true` (default): larger scores are better (rank 1 = largest). */
  higherIsBetter?: boolean;
  /** Round scores to this many decimals before ranking (default: no rounding). */
  digits?: number;
}

interface PosthocControlComparison {
  /** Column index of the method compared with the control. */
  method: number;
  meanRank: number;
  /** Mean-rank difference R_method − R_control (positive: the method ranks worse than the control). */
  rankDifference: number;
  /** z = (R_method − R_control)/SE. */
  z: number;
  /** Unadjusted two-sided p-value 2·Φ(−|z|). */
  p: number;
  /** p-value adjusted over the k − 1 comparisons. */
  pAdjusted: number;
}

export interface PosthocVsControlResult {
  control: number;
  controlMeanRank: number;
  /** One entry per non-control method, in column order. */
  comparisons: PosthocControlComparison[];
  meanRanks: number[];
  se: number;
  nDatasets: number;
  nMethods: number;
  settings: { adjust: PAdjustMethod; higherIsBetter: boolean | null; digits: number | null };
}

interface PosthocPairComparison {
  i: number;
  j: number;
  /** R_j − R_i. */
  rankDifference: number;
  /** z = (R_j − R_i)/SE. */
  z: number;
  p: number;
  pAdjusted: number;
}

interface PosthocAllPairsResult {
  /** All pairs i < j in lexicographic order. */
  comparisons: PosthocPairComparison[];
  meanRanks: number[];
  se: number;
  nDatasets: number;
  nMethods: number;
  settings: { adjust: PAdjustMethod; higherIsBetter: boolean | null; digits: number | null };
}

function checkRanks(meanRanks: readonly number[], nDatasets: number): void {
  assertFiniteVector(meanRanks, 'meanRanks', 2);
  assertInteger(nDatasets, 'nDatasets', 1);
}

/** A control column index, or `'best'` for the method with the lowest mean rank (first one on ties). */
type ControlSpec = number | 'best';

function resolveControl(meanRanks: readonly number[], control: ControlSpec): number {
  const k = meanRanks.length;
  if (control === 'best') {
    let best = 0;
    for (let j = 1; j < k; j++) if (meanRanks[j] < meanRanks[best]) best = j;
    return best;
  }
  if (!Number.isInteger(control) || control < 0 || control >= k) {
    throw new StatsInputError(`control must be a column index in 0..${k - 1} or 'best', got ${String(control)}`);
  }
  return control;
}

/**
 * Comparisons of every method with a control from published or computed mean ranks.
 * @param meanRanks mean rank of each of the k methods.
 * @param nDatasets number of datasets N the ranks were averaged over.
 * @param controlSpec index of the control method, or `'best'` (lowest mean rank).
 */
export function posthocVsControlFromRanks(
  meanRanks: readonly number[],
  nDatasets: number,
  controlSpec: ControlSpec,
  options: Pick<PosthocOptions, 'adjust'> = {},
): PosthocVsControlResult {
  checkRanks(meanRanks, nDatasets);
  const k = meanRanks.length;
  const control = resolveControl(meanRanks, controlSpec);
  const adjust = options.adjust ?? 'hommel';
  const se = rankSE(k, nDatasets);
  const others = [...meanRanks.keys()].filter((j) => j !== control);
  const raw = others.map((j) => {
    const d = meanRanks[j] - meanRanks[control];
    const z = d / se;
    return { method: j, meanRank: meanRanks[j], rankDifference: d, z, p: normalTwoSidedP(z) };
  });
  const adj = pAdjust(
    raw.map((c) => c.p),
    adjust,
  );
  return {
    control,
    controlMeanRank: meanRanks[control],
    comparisons: raw.map((c, idx) => ({ ...c, pAdjusted: adj[idx] })),
    meanRanks: meanRanks.slice(),
    se,
    nDatasets,
    nMethods: k,
    settings: { adjust, higherIsBetter: null, digits: null },
  };
}

/**
 * Friedman mean-rank post-hoc test of every method against a control (Demšar 2006 §3.2.2 with, by default,
 * Hommel's adjustment).
 * @param matrix  datasets × methods scores.
 * @param control column index of the control method, or `'best'` (lowest mean rank).
 */
export function posthocVsControl(
  matrix: readonly (readonly number[])[],
  control: ControlSpec,
  options: PosthocOptions = {},
): PosthocVsControlResult {
  const ar = averageRanks(matrix, { higherIsBetter: options.higherIsBetter, digits: options.digits });
  if (ar.nMethods < 2) throw new StatsInputError('post-hoc comparisons need at least 2 methods');
  const res = posthocVsControlFromRanks(ar.meanRanks, ar.nDatasets, control, options);
  res.settings = {
    adjust: res.settings.adjust,
    higherIsBetter: ar.settings.higherIsBetter,
    digits: ar.settings.digits,
  };
  return res;
}

/** All-pairs mean-rank comparisons from mean ranks, adjusted over the k(k − 1)/2 pairs. */
export function posthocAllPairsFromRanks(
  meanRanks: readonly number[],
  nDatasets: number,
  options: Pick<PosthocOptions, 'adjust'> = {},
): PosthocAllPairsResult {
  checkRanks(meanRanks, nDatasets);
  const k = meanRanks.length;
  const adjust = options.adjust ?? 'hommel';
  const se = rankSE(k, nDatasets);
  const raw: Omit<PosthocPairComparison, 'pAdjusted'>[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const d = meanRanks[j] - meanRanks[i];
      const z = d / se;
      raw.push({ i, j, rankDifference: d, z, p: normalTwoSidedP(z) });
    }
  }
  const adj = pAdjust(
    raw.map((c) => c.p),
    adjust,
  );
  return {
    comparisons: raw.map((c, idx) => ({ ...c, pAdjusted: adj[idx] })),
    meanRanks: meanRanks.slice(),
    se,
    nDatasets,
    nMethods: k,
    settings: { adjust, higherIsBetter: null, digits: null },
  };
}

/** All-pairs Friedman mean-rank post-hoc test on a datasets × methods score matrix. */
export function posthocAllPairs(
  matrix: readonly (readonly number[])[],
  options: PosthocOptions = {},
): PosthocAllPairsResult {
  const ar = averageRanks(matrix, { higherIsBetter: options.higherIsBetter, digits: options.digits });
  if (ar.nMethods < 2) throw new StatsInputError('post-hoc comparisons need at least 2 methods');
  const res = posthocAllPairsFromRanks(ar.meanRanks, ar.nDatasets, options);
  res.settings = {
    adjust: res.settings.adjust,
    higherIsBetter: ar.settings.higherIsBetter,
    digits: ar.settings.digits,
  };
  return res;
}
