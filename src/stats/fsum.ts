/**
 * Correctly rounded summation: the double nearest the exact sum of the values (ties to even), whatever
 * their order, so the same multiset of fold values gives bit-identical means, ranks and win/draw/loss counts
 * in any fold order. Shewchuk's exact partials (J. R. Shewchuk (1997), Adaptive precision floating-point
 * arithmetic and fast robust geometric predicates, Discrete & Computational Geometry 18:305–363) with the
 * final rounding of Python's math.fsum: the partials are non-overlapping and increasing in magnitude, their
 * sum is exact, and it is rounded once from the top, correcting the one half-way case.
 *
 * Non-finite values give what plain addition gives (NaN for a NaN or for +∞ with −∞, else the infinity).
 * The values this sums (metrics, means of metrics) are far from the overflow threshold, where an
 * intermediate sum could overflow to ±∞.
 */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  let special = 0;
  let nonFinite = false;
  for (const v of values) {
    if (!Number.isFinite(v)) {
      special += v;
      nonFinite = true;
      continue;
    }
    let x = v;
    let i = 0;
    for (let j = 0; j < partials.length; j++) {
      let y = partials[j];
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  if (nonFinite) return special;
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  // Half-way case: the rest of the partials push the rounding of hi + lo towards lo.
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

/** The mean from the correctly rounded sum (NaN for no values). */
export function fmean(values: readonly number[]): number {
  return values.length === 0 ? NaN : fsum(values) / values.length;
}
