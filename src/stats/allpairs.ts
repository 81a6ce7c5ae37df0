/**
 * All-pairs post-hoc p-value matrices after the Friedman test (García & Herrera 2008, "An extension on
 * 'Statistical comparisons of classifiers over multiple data sets' for all pairwise comparisons", JMLR 9;
 * scmamp `postHocTest(..., test = 'friedman', correct = ...)`).
 *
 * Every pair (i, j) has the mean-rank statistic z = (R_j − R_i)/√(k(k+1)/(6N)) and the raw two-sided p
 * 2·Φ(−|z|) of {@link posthocAllPairsFromRanks}; the m = k(k−1)/2 p-values are then adjusted by:
 *
 * - `nemenyi`: the studentized-range p-value P(Q_{k,df} ≥ |z|·√2) (Nemenyi 1963; scikit-posthocs
 *   `posthoc_nemenyi_friedman`, PMCMRplus `frdAllPairsNemenyiTest`). A pair is significant at α exactly when
 *   its mean ranks differ by more than the Nemenyi critical difference with the same df, so this matrix
 *   agrees with the CD diagram. (García & Herrera's table labelled "Nemenyi" is Bonferroni's m·p: use
 *   `bonferroni` for that.)
 * - `bonferroni`: min(1, m·p).
 * - `holm`: Holm's step-down over the m pairs (R `p.adjust`).
 * - `shaffer`: Shaffer's (1986) static procedure: the i-th smallest p is multiplied by t_i, the largest
 *   number of hypotheses that can still be true when i − 1 are false, t_i = max{s ∈ S(k) : s ≤ m − i + 1}
 *   with S(k) = ∪_{j=1..k} {C(j,2) + x : x ∈ S(k − j)}, S(0) = S(1) = {0}; then capped at 1 and made
 *   monotone (García & Herrera 2008 §3; scmamp `adjustShaffer`).
 * - `bergmann-hommel`: Bergmann & Hommel's (1988) dynamic procedure: the adjusted p of hypothesis H is
 *   max over the exhaustive sets I ∋ H of min(1, |I|·min_{h∈I} p_h), then made monotone (García & Herrera
 *   2008 §3, scmamp `adjustBergmannHommel`). An exhaustive set is a set of pairwise hypotheses that can all
 *   be true at once, i.e. the within-block pairs of a partition of the k methods into groups of equal
 *   methods; they are enumerated exactly (the partitions of k items), so the procedure is exact. scmamp
 *   ships precomputed sets for k ≤ 9 (Bell(9) = 21,147 partitions); the same bound applies here because the
 *   count grows faster than exponentially (Bell(10) = 115,975, Bell(12) ≈ 4.2 million).
 */

import { rankSE } from './cd.js';
import { normalTwoSidedP } from './distributions.js';
import { pAdjust } from './padjust.js';
import { ptukey } from './tukey.js';
import { StatsInputError, assertFiniteVector, assertInteger } from './validate.js';

export type AllPairsProcedure = 'nemenyi' | 'bonferroni' | 'holm' | 'shaffer' | 'bergmann-hommel';
export const ALL_PAIRS_PROCEDURES: readonly AllPairsProcedure[] = [
  'nemenyi',
  'bonferroni',
  'holm',
  'shaffer',
  'bergmann-hommel',
];

/** Largest k for which Bergmann–Hommel enumerates its exhaustive sets (as scmamp). */
export const BERGMANN_HOMMEL_MAX_K = 9;

interface AllPairsOptions {
  /** Studentized-range df of the Nemenyi p-value: Infinity (default; Demšar) or 'scmamp' = k(N − 1). */
  nemenyiDf?: number | 'scmamp';
}

interface AllPairsMatrix {
  readonly procedure: AllPairsProcedure;
  /** k × k symmetric matrix of adjusted p-values, NaN on the diagonal. */
  readonly p: number[][];
}

interface AllPairsResult {
  readonly meanRanks: number[];
  readonly nDatasets: number;
  readonly nMethods: number;
  readonly se: number;
  /** k × k matrix of z = (R_j − R_i)/SE (antisymmetric, NaN on the diagonal). */
  readonly z: number[][];
  /** k × k matrix of raw two-sided normal p-values (NaN on the diagonal). */
  readonly raw: number[][];
  readonly adjusted: AllPairsMatrix[];
  /** The studentized-range df used by `nemenyi` (null when it was not requested). */
  readonly nemenyiDf: number | null;
}

/** The pairs (i < j) in scmamp's order: (0,1), (0,2), …, (0,k−1), (1,2), … */
export function allPairs(k: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) out.push([i, j]);
  return out;
}

/** S(k) of Shaffer (1986): the possible numbers of simultaneously true pairwise hypotheses among k methods. */
export function shafferCounts(k: number): number[] {
  assertInteger(k, 'k', 0);
  const memo: Set<number>[] = [new Set([0]), new Set([0])];
  for (let n = 2; n <= k; n++) {
    const s = new Set<number>();
    for (let j = 1; j <= n; j++) for (const x of memo[n - j]) s.add((j * (j - 1)) / 2 + x);
    memo.push(s);
  }
  return [...memo[k]].sort((a, b) => a - b);
}

/** Shaffer's multipliers t_1 … t_m for the ascending p-values of the m = k(k−1)/2 pairs. */
export function shafferMultipliers(k: number): number[] {
  const s = shafferCounts(k);
  const m = (k * (k - 1)) / 2;
  const t: number[] = [];
  for (let i = 1; i <= m; i++) {
    let best = 0;
    for (const v of s) if (v <= m - i + 1) best = v;
    t.push(best);
  }
  return t;
}

/** Caps at 1 and enforces monotonicity along the ascending raw p-values (scmamp `correctForMonotocity`). */
function monotone(raw: readonly number[], adjusted: readonly number[]): number[] {
  const order = [...raw.keys()].sort((a, b) => raw[a] - raw[b] || a - b);
  const out = new Array<number>(raw.length);
  let run = 0;
  for (const idx of order) {
    run = Math.max(run, Math.min(1, adjusted[idx]));
    out[idx] = run;
  }
  return out;
}

function shafferAdjust(raw: readonly number[], k: number): number[] {
  const t = shafferMultipliers(k);
  if (raw.length !== t.length)
    throw new StatsInputError(`Shaffer: expected ${t.length} p-values for k = ${k}, got ${raw.length}`);
  const order = [...raw.keys()].sort((a, b) => raw[a] - raw[b] || a - b);
  const scaled = new Array<number>(raw.length);
  order.forEach((idx, r) => {
    scaled[idx] = raw[idx] * t[r];
  });
  return monotone(raw, scaled);
}

/**
 * The exhaustive sets of pairwise hypotheses among k methods, each as a list of pair indices (into
 * {@link allPairs}(k)): the within-block pairs of every partition of the k methods with at least one block
 * of two or more. Partitions are generated as restricted growth strings.
 */
export function exhaustiveSets(k: number): number[][] {
  assertInteger(k, 'k', 2);
  if (k > BERGMANN_HOMMEL_MAX_K)
    throw new StatsInputError(`Bergmann–Hommel: exact for k ≤ ${BERGMANN_HOMMEL_MAX_K} methods, got k = ${k}`);
  const index = new Map<number, number>();
  allPairs(k).forEach(([i, j], idx) => index.set(i * k + j, idx));
  const out: number[][] = [];
  const block = new Array<number>(k).fill(0);
  const rec = (pos: number, maxBlock: number): void => {
    if (pos === k) {
      const set: number[] = [];
      for (let i = 0; i < k; i++)
        for (let j = i + 1; j < k; j++) if (block[i] === block[j]) set.push(index.get(i * k + j)!);
      if (set.length) out.push(set);
      return;
    }
    for (let b = 0; b <= maxBlock + 1; b++) {
      block[pos] = b;
      rec(pos + 1, Math.max(maxBlock, b));
    }
  };
  block[0] = 0;
  rec(1, 0);
  return out;
}

function bergmannHommelAdjust(raw: readonly number[], k: number): number[] {
  const m = (k * (k - 1)) / 2;
  if (raw.length !== m)
    throw new StatsInputError(`Bergmann–Hommel: expected ${m} p-values for k = ${k}, got ${raw.length}`);
  const adjusted = new Array<number>(m).fill(0);
  for (const set of exhaustiveSets(k)) {
    let min = Infinity;
    for (const h of set) min = Math.min(min, raw[h]);
    const v = Math.min(1, set.length * min);
    for (const h of set) if (v > adjusted[h]) adjusted[h] = v;
  }
  return monotone(raw, adjusted);
}

function toMatrix(k: number, values: readonly number[]): number[][] {
  const out = Array.from({ length: k }, () => new Array<number>(k).fill(NaN));
  allPairs(k).forEach(([i, j], idx) => {
    out[i][j] = values[idx];
    out[j][i] = values[idx];
  });
  return out;
}

/** Adjusts the m raw pair p-values (in {@link allPairs} order) by one procedure. */
export function adjustAllPairs(
  raw: readonly number[],
  k: number,
  procedure: AllPairsProcedure,
  nemenyi?: { z: readonly number[]; df: number },
): number[] {
  switch (procedure) {
    case 'bonferroni':
      return pAdjust(raw, 'bonferroni');
    case 'holm':
      return pAdjust(raw, 'holm');
    case 'shaffer':
      return shafferAdjust(raw, k);
    case 'bergmann-hommel':
      return bergmannHommelAdjust(raw, k);
    case 'nemenyi': {
      if (!nemenyi) throw new StatsInputError('Nemenyi p-values need the z statistics');
      return nemenyi.z.map((z) => ptukey(Math.abs(z) * Math.SQRT2, k, nemenyi.df, 1, false));
    }
    default:
      throw new StatsInputError(
        `unknown all-pairs procedure '${String(procedure)}' (use ${ALL_PAIRS_PROCEDURES.join(', ')})`,
      );
  }
}

/** All-pairs matrices from published or computed mean ranks over N datasets. */
export function allPairsFromRanks(
  meanRanks: readonly number[],
  nDatasets: number,
  procedures: readonly AllPairsProcedure[],
  options: AllPairsOptions = {},
): AllPairsResult {
  assertFiniteVector(meanRanks, 'meanRanks', 2);
  assertInteger(nDatasets, 'nDatasets', 1);
  const k = meanRanks.length;
  if (procedures.includes('bergmann-hommel') && k > BERGMANN_HOMMEL_MAX_K) {
    throw new StatsInputError(
      `Bergmann–Hommel: exact for k ≤ ${BERGMANN_HOMMEL_MAX_K} methods (as scmamp), got k = ${k}; use shaffer instead`,
    );
  }
  const se = rankSE(k, nDatasets);
  const pairs = allPairs(k);
  const z = pairs.map(([i, j]) => (meanRanks[j] - meanRanks[i]) / se);
  const raw = z.map((v) => normalTwoSidedP(v));
  const dfOpt = options.nemenyiDf ?? Infinity;
  const df = dfOpt === 'scmamp' ? k * (nDatasets - 1) : dfOpt;
  const zMatrix = Array.from({ length: k }, () => new Array<number>(k).fill(NaN));
  pairs.forEach(([i, j], idx) => {
    zMatrix[i][j] = z[idx];
    zMatrix[j][i] = -z[idx];
  });
  return {
    meanRanks: meanRanks.slice(),
    nDatasets,
    nMethods: k,
    se,
    z: zMatrix,
    raw: toMatrix(k, raw),
    adjusted: procedures.map((procedure) => ({
      procedure,
      p: toMatrix(k, adjustAllPairs(raw, k, procedure, { z, df })),
    })),
    nemenyiDf: procedures.includes('nemenyi') ? df : null,
  };
}
