/**
 * Multiple-comparison p-value adjustment, exactly as R `p.adjust` (src/library/stats/R/p.adjust.R).
 *
 * - `bonferroni`: min(1, n·p).
 * - `holm` (Holm 1979): step-down, min(1, cummax((n − i + 1)·p_(i))).
 * - `hochberg` (Hochberg 1988): step-up, min(1, cummin((n − i + 1)·p_(i))) from the largest p.
 * - `hommel` (Hommel 1988), R's algorithm (contributed to R by Gordon Smyth). R switches to Hochberg for
 *   n = 2 and returns p unchanged for n ≤ 1; the general recursion gives those same values (for n = 2 it
 *   is min(2·p_(1), p_(2)) and p_(2), Hochberg's), so neither case needs a branch here.
 * - `none`: unchanged.
 *
 * Missing values: NaN entries are treated like R's NA — kept in place, and not counted in `n`.
 */

import { StatsInputError } from './validate.js';

/** Adjustment methods supported by {@link pAdjust}. */
export type PAdjustMethod = 'hommel' | 'holm' | 'hochberg' | 'bonferroni' | 'none';

const P_ADJUST_METHODS: readonly PAdjustMethod[] = ['hommel', 'holm', 'hochberg', 'bonferroni', 'none'];

/** Ascending order of indices by value; equal values keep their input order (Array.prototype.sort is stable). */
function orderAscending(p: readonly number[]): number[] {
  return [...p.keys()].sort((a, b) => p[a] - p[b]);
}

function bonferroni(p: readonly number[], n: number): number[] {
  return p.map((v) => Math.min(1, n * v));
}

function holm(p: readonly number[], n: number): number[] {
  const o = orderAscending(p);
  const out = new Array<number>(p.length);
  let run = -Infinity;
  o.forEach((k, r) => {
    run = Math.max(run, (n - r) * p[k]);
    out[k] = Math.min(1, run);
  });
  return out;
}

function hochberg(p: readonly number[], n: number): number[] {
  const m = p.length;
  const o = [...p.keys()].sort((a, b) => p[b] - p[a]); // descending, ties in input order (stable sort)
  const out = new Array<number>(m);
  let run = Infinity;
  o.forEach((k, r) => {
    const i = m - r; // rank of p[k] in ascending order (1-based)
    run = Math.min(run, (n - i + 1) * p[k]);
    out[k] = Math.min(1, run);
  });
  return out;
}

function hommel(pIn: readonly number[], n: number): number[] {
  // R pads the family with p = 1 for the n − m hypotheses not given.
  const p = pIn.concat(new Array<number>(n - pIn.length).fill(1));
  const o = orderAscending(p);
  const s = o.map((k) => p[k]);
  // Array methods instead of index loops (R's vector operations, line by line): a loop counter that a
  // mutation test turns around (i++ → i--) would run forever instead of failing a test.
  let pa = new Array<number>(n).fill(s.reduce((a, v, i) => Math.min(a, (n * v) / (i + 1)), Infinity));
  for (const j of Array.from({ length: n - 2 }, (_, t) => n - 1 - t)) {
    // R (its m is j here): q1 <- min(m*p[i2]/(2L:m)); q[i1] <- pmin(m*p[i1], q1); q[i2] <- q[n-m+1];
    // pa <- pmax(pa, q)
    const q1 = s.slice(n - j + 1).reduce((a, v, t) => Math.min(a, (j * v) / (t + 2)), Infinity);
    const q = s.map((v) => Math.min(j * v, q1));
    q.fill(q[n - j], n - j + 1);
    pa = pa.map((v, i) => Math.max(v, q[i]));
  }
  // rank[k]: the position of p[k] in the sorted order.
  const rank = new Int32Array(n);
  o.forEach((k, r) => {
    rank[k] = r;
  });
  return pIn.map((_, k) => Math.max(pa[rank[k]], s[rank[k]]));
}

/**
 * Adjusts p-values for multiple comparisons (R `p.adjust(p, method, n)`).
 *
 * @param p       raw p-values in [0, 1]; NaN marks a missing value (kept as NaN, like R's NA).
 * @param method  `'hommel'` (default), `'holm'`, `'hochberg'`, `'bonferroni'` or `'none'`.
 * @param n       number of comparisons in the family; defaults to the number of non-NaN p-values. Must be
 *                at least that number (extra hypotheses are treated as having p = 1, as in R).
 * @returns adjusted p-values in the input order.
 */
export function pAdjust(p: readonly number[], method: PAdjustMethod = 'hommel', n?: number): number[] {
  if (!Array.isArray(p)) throw new StatsInputError('p must be an array of p-values');
  if (!P_ADJUST_METHODS.includes(method)) {
    throw new StatsInputError(
      `unknown p-value adjustment method '${String(method)}' (use ${P_ADJUST_METHODS.join(', ')})`,
    );
  }
  const keep: number[] = [];
  for (let i = 0; i < p.length; i++) {
    const v = p[i];
    if (typeof v !== 'number') throw new StatsInputError(`p[${i}] must be a number, got ${String(v)}`);
    if (Number.isNaN(v)) continue;
    if (!(v >= 0 && v <= 1)) throw new StatsInputError(`p[${i}] must be in [0, 1], got ${v}`);
    keep.push(i);
  }
  const vals = keep.map((i) => p[i]);
  const m = vals.length;
  const nn = n ?? m;
  if (!Number.isInteger(nn) || nn < m) {
    throw new StatsInputError(`n must be an integer >= the number of non-missing p-values (${m}), got ${String(n)}`);
  }
  const out = p.map(() => NaN);
  let adj: number[];
  if (method === 'none') adj = vals;
  else if (method === 'bonferroni') adj = bonferroni(vals, nn);
  else if (method === 'holm') adj = holm(vals, nn);
  else if (method === 'hochberg') adj = hochberg(vals, nn);
  else adj = hommel(vals, nn);
  keep.forEach((i, r) => {
    out[i] = adj[r];
  });
  return out;
}
