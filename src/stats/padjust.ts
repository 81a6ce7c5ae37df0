/**
 * Multiple-comparison p-value adjustment, exactly as R `p.adjust` (src/library/stats/R/p.adjust.R).
 *
 * - `bonferroni`: min(1, n·p).
 * - `holm` (Holm 1979): step-down, min(1, cummax((n − i + 1)·p_(i))).
 * - `hochberg` (Hochberg 1988): step-up, min(1, cummin((n − i + 1)·p_(i))) from the largest p.
 * - `hommel` (Hommel 1988), R's algorithm (contributed to R by Gordon Smyth); with n = 2 R switches to
 *   Hochberg, which is what Hommel's procedure reduces to for two hypotheses.
 * - `none`: unchanged.
 *
 * Missing values: NaN entries are treated like R's NA — kept in place, and not counted in `n`.
 */

import { StatsInputError } from './validate.js';

/** Adjustment methods supported by {@link pAdjust}. */
export type PAdjustMethod = 'hommel' | 'holm' | 'hochberg' | 'bonferroni' | 'none';

export const P_ADJUST_METHODS: readonly PAdjustMethod[] = ['hommel', 'holm', 'hochberg', 'bonferroni', 'none'];

/** Stable ascending order of indices by value. */
function orderAscending(p: readonly number[]): number[] {
  return [...p.keys()].sort((a, b) => p[a] - p[b] || a - b);
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
  const o = [...p.keys()].sort((a, b) => p[b] - p[a] || a - b); // descending
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
  const m = pIn.length;
  if (n === 2) return hochberg(pIn, n);
  const p = pIn.concat(new Array<number>(n - m).fill(1));
  const o = orderAscending(p);
  const s = o.map((k) => p[k]);
  let init = Infinity;
  for (let i = 0; i < n; i++) init = Math.min(init, (n * s[i]) / (i + 1));
  const q = new Array<number>(n).fill(init);
  const pa = new Array<number>(n).fill(init);
  for (let j = n - 1; j >= 2; j--) {
    let q1 = Infinity;
    for (let k = 2; k <= j; k++) q1 = Math.min(q1, (j * s[n - j + k - 1]) / k);
    for (let i = 0; i <= n - j; i++) q[i] = Math.min(j * s[i], q1);
    for (let i = n - j + 1; i < n; i++) q[i] = q[n - j];
    for (let i = 0; i < n; i++) pa[i] = Math.max(pa[i], q[i]);
  }
  const out = new Array<number>(n);
  o.forEach((k, r) => {
    out[k] = Math.max(pa[r], s[r]);
  });
  return out.slice(0, m);
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
  if (m === 0) return out;
  let adj: number[];
  if (nn <= 1 || method === 'none') adj = vals.slice();
  else if (method === 'bonferroni') adj = bonferroni(vals, nn);
  else if (method === 'holm') adj = holm(vals, nn);
  else if (method === 'hochberg') adj = hochberg(vals, nn);
  else adj = hommel(vals, nn);
  keep.forEach((i, r) => {
    out[i] = adj[r];
  });
  return out;
}
