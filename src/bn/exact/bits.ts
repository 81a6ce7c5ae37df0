/**
 * Bit-set helpers for the exact learners: a set of DP variables is a 32-bit mask (at most 30 variables).
 * A parent set of variable x is stored "compressed" over the other variables: bit x is removed, so the
 * 2^(n-1) parent sets of x index a dense array.
 */

/** Number of set bits. */
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Index of the lowest set bit (x !== 0). */
function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Full mask (over all variables) → index among the subsets of the variables other than x (bit x dropped). */
export function compress(full: number, x: number): number {
  const low = full & ((1 << x) - 1);
  return ((full >>> (x + 1)) << x) | low;
}

/** The members of a mask in increasing order. */
export function members(mask: number): number[] {
  const out: number[] = [];
  for (let m = mask; m !== 0; m &= m - 1) out.push(lowestBit(m));
  return out;
}

/** Binomial coefficients C(a, b) for 0 <= a, b <= n (exact below 2^53). */
export function binomialTable(n: number): Float64Array[] {
  const t: Float64Array[] = [];
  for (let a = 0; a <= n; a++) {
    const row = new Float64Array(n + 2);
    row[0] = 1;
    for (let b = 1; b <= a; b++) row[b] = t[a - 1][b - 1] + (b <= a - 1 ? t[a - 1][b] : 0);
    t.push(row);
  }
  return t;
}
