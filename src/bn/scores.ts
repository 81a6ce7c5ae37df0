/**
 * Decomposable local scores of a family (a node and its parents), in natural-log units:
 *
 *   loglik  LL     = Σ_j Σ_k N_jk ln(N_jk / N_j)
 *   aic     LL − d                          (the "LL − d" convention of bnlearn, bnclassify and Weka)
 *   bic     LL − (ln N / 2) · d             (= −MDL; Schwarz 1978)
 *   bdeu    ln Π_j Γ(α/q) / Γ(N_j + α/q) · Π_k Γ(N_jk + α/(rq)) / Γ(α/(rq))
 *           (Buntine 1991; Heckerman, Geiger & Chickering 1995, equivalent sample size α)
 *
 * with r the child's cardinality, q the number of parent configurations (every combination, seen or
 * not), d = q (r − 1) free parameters and N = Σ_jk N_jk.
 *
 * Missing values: a family is counted on the rows where the child and all its parents are observed
 * (available case, counts.ts), so N differs between parent sets of the same child. Summed raw, a parent
 * with missing values would look good merely because it removes rows from the sum. Given the data set's
 * row count n, a family counted on N < n rows therefore scores as its node-average value scaled to n
 * rows: (n/N)·LL, (n/N)·LL − d, (n/N)·LL − (ln n / 2)·d, (n/N)·BDeu. For LL/AIC/BIC this is n times Balov's
 * (2013) penalized node-average likelihood (bnlearn's "nal"/"pnal"), consistent under data missing
 * completely at random; for BDeu it is the same rescaling, a heuristic. With complete data (N = n) every
 * score is the textbook one. A family with N = 0 scores 0.
 */
import type { DiscreteData } from './data.js';
import { familyCounts } from './counts.js';
import { xlogx, xlogxTable } from './xlogx.js';

export type ScoreName = 'loglik' | 'aic' | 'bic' | 'bdeu';
export const SCORE_NAMES: readonly ScoreName[] = ['loglik', 'aic', 'bic', 'bdeu'];

// Lanczos approximation, g = 7, n = 9 (Godfrey's coefficients, as in Numerical Recipes 3rd ed. §6.1 and
// most libm-free implementations); relative error of Γ about 1e-15 for x > 0.
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/** ln Γ(x) for x > 0 (reflection for x < 0.5, so ln|Γ(x)| for negative non-integers too). */
export function lgamma(x: number): number {
  if (x < 0.5) {
    // Γ(x) Γ(1 − x) = π / sin(πx)
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  }
  const z = x - 1;
  let a = LANCZOS[0];
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return HALF_LOG_2PI + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Number of free parameters of a family: q (r − 1). */
function freeParameters(r: number, q: number): number {
  return q * (r - 1);
}

/**
 * Score of one family from its counts laid out counts[j * r + k] (j: parent configuration, k: child
 * value), as familyCounts returns them (any parent order gives the same score). `n`: the data set's row
 * count, for the missing-value scaling above (omit it to score the counts as they are).
 */
export function scoreFromCounts(
  counts: ArrayLike<number>,
  r: number,
  q: number,
  score: ScoreName,
  ess = 1,
  n?: number,
): number {
  let total = 0;
  for (let i = 0; i < q * r; i++) total += counts[i];
  if (total === 0) return 0;
  // Node-average scaling for families counted on fewer rows than the data set has (see above).
  const scale = n !== undefined && n > total ? n / total : 1;
  const N = scale === 1 ? total : n!;
  if (score === 'bdeu') return scale * bdeuFromCounts(counts, r, q, ess);
  const t = xlogxTable(Math.ceil(total));
  // LL = Σ_jk N_jk ln N_jk − Σ_j N_j ln N_j
  let ll = 0;
  for (let j = 0; j < q; j++) {
    const o = j * r;
    let nj = 0;
    for (let k = 0; k < r; k++) {
      const v = counts[o + k];
      if (v > 0) {
        ll += xlogx(t, v);
        nj += v;
      }
    }
    if (nj > 0) ll -= xlogx(t, nj);
  }
  ll *= scale;
  if (score === 'loglik') return ll;
  const d = freeParameters(r, q);
  if (score === 'aic') return ll - d;
  if (score === 'bic') return ll - 0.5 * Math.log(N) * d;
  throw new Error(`unknown score '${String(score)}'`);
}

/** BDeu with equivalent sample size ess; configurations and cells without counts contribute 0. */
export function bdeuFromCounts(counts: ArrayLike<number>, r: number, q: number, ess: number): number {
  if (!(ess > 0) || !Number.isFinite(ess)) throw new Error(`bdeu: equivalent sample size must be > 0, got ${ess}`);
  const aj = ess / q;
  const ajk = aj / r;
  const lgAj = lgamma(aj);
  const lgAjk = lgamma(ajk);
  let s = 0;
  for (let j = 0; j < q; j++) {
    const o = j * r;
    let nj = 0;
    for (let k = 0; k < r; k++) {
      const v = counts[o + k];
      if (v > 0) {
        s += lgamma(v + ajk) - lgAjk;
        nj += v;
      }
    }
    if (nj > 0) s += lgAj - lgamma(nj + aj);
  }
  return s;
}

/**
 * Local score of node `child` (m = the class) with the given parents: one counting pass over the rows.
 * Rows with a missing family member are handled as described above (scaled to data.n rows).
 */
export function localScore(
  data: DiscreteData,
  child: number,
  parents: readonly number[],
  score: ScoreName,
  ess = 1,
): number {
  const fc = familyCounts(data, child, parents);
  return scoreFromCounts(fc.counts, fc.childCard, fc.configs, score, ess, data.n);
}

/** Sum of the local scores of every node of a DAG given as parent lists over nodes 0..m. */
export function networkScore(
  data: DiscreteData,
  parents: readonly (readonly number[])[],
  score: ScoreName,
  ess = 1,
): number {
  let s = 0;
  for (let v = 0; v < parents.length; v++) s += localScore(data, v, parents[v], score, ess);
  return s;
}
