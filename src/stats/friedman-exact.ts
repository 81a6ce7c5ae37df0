/**
 * The exact null distribution of the Friedman statistic for small designs (Friedman 1937; the tables of
 * Siegel & Castellan 1988, Table M): under H0 every dataset's ranking is a uniformly random permutation of
 * 1..k, independently, so P(χ²_F ≥ observed) is a finite sum. The statistic depends on the rank sums S_j
 * only through Σ S_j², and the null distribution is exchangeable across methods, so the enumeration
 * convolves one dataset at a time over the SORTED vector of rank sums (a multiset), which keeps the state
 * space small for the few-datasets case where the χ² approximation fails.
 *
 * Defined for rankings without ties (the permutation distribution of mid-ranks differs); the caller checks.
 */
import { StatsInputError, assertInteger } from './validate.js';

interface ExactFriedmanResult {
  /** Uncorrected Friedman χ² of the observed rank sums. */
  readonly chi2: number;
  /** Exact upper-tail probability P(χ²_F ≥ chi2) under H0. */
  readonly p: number;
  /** Number of distinct (sorted) rank-sum vectors of the final step. */
  readonly states: number;
}

/** All permutations of 1..k. */
function permutations(k: number): number[][] {
  if (k === 1) return [[1]];
  const out: number[][] = [];
  for (const p of permutations(k - 1))
    for (let i = 0; i <= p.length; i++) out.push([...p.slice(0, i), k, ...p.slice(i)]);
  return out;
}

/** Largest (states × k!) work per dataset step before giving up (then the function returns null). */
const EXACT_FRIEDMAN_BUDGET = 2e6;

/**
 * Exact Friedman p-value from the rank sums S_j = Σ_i r_ij (integers: rankings without ties) over N
 * datasets; null when a step would exceed `budget` (states × k!) operations.
 */
export function exactFriedman(
  rankSums: readonly number[],
  N: number,
  budget = EXACT_FRIEDMAN_BUDGET,
): ExactFriedmanResult | null {
  assertInteger(N, 'N', 1);
  const k = rankSums.length;
  if (k < 2) throw new StatsInputError('the exact Friedman test needs at least 2 methods');
  rankSums.forEach((s, j) => assertInteger(s, `rankSums[${j}]`, N));
  if (rankSums.reduce((a, b) => a + b, 0) !== (N * k * (k + 1)) / 2)
    throw new StatsInputError(`rank sums must add up to N·k(k+1)/2 = ${(N * k * (k + 1)) / 2}`);
  if (k > 8) return null;
  const perms = permutations(k);
  const pPerm = 1 / perms.length;
  let states = new Map<string, { v: number[]; p: number }>([
    [Array(k).fill(0).join(','), { v: Array(k).fill(0), p: 1 }],
  ]);
  for (let i = 0; i < N; i++) {
    if (states.size * perms.length > budget) return null;
    const next = new Map<string, { v: number[]; p: number }>();
    for (const { v, p } of states.values()) {
      for (const perm of perms) {
        const w = v.map((x, j) => x + perm[j]).sort((a, b) => a - b);
        const key = w.join(',');
        const e = next.get(key);
        if (e) e.p += p * pPerm;
        else next.set(key, { v: w, p: p * pPerm });
      }
    }
    states = next;
  }
  const sq = (v: readonly number[]): number => v.reduce((a, x) => a + x * x, 0);
  const observed = sq(rankSums);
  let p = 0;
  for (const { v, p: q } of states.values()) if (sq(v) >= observed) p += q;
  const chi2 = (12 / (N * k * (k + 1))) * observed - 3 * N * (k + 1);
  return { chi2, p: Math.min(1, p), states: states.size };
}
