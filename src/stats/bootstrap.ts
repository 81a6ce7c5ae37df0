/**
 * Paired percentile bootstrap of a mean difference (Efron & Tibshirani (1993), An Introduction to the
 * Bootstrap, ch. 13): the pairs (data sets, or folds) are resampled with replacement B times from a seeded
 * stream, each resample's mean difference taken with correctly rounded sums, and the interval is the
 * (1 − level)/2 and (1 + level)/2 quantiles of the B means (order statistics ⌊(B − 1) q⌋ and ⌈(B − 1) q⌉
 * averaged, R's quantile type 7).
 */
import { Rng } from '../util/rng.js';
import { fsum } from './fsum.js';

export interface BootstrapInterval {
  /** The observed mean difference. */
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  readonly level: number;
  readonly resamples: number;
  readonly n: number;
}

/**
 * The q-quantile of sorted values, R's type 7 (d3's and so Vega's quantile too): linear between the order
 * statistics around (n − 1) q.
 */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** The bootstrap interval of mean(d) for paired differences d (at least 2). */
export function pairedBootstrap(d: readonly number[], seed: string, resamples = 2000, level = 0.95): BootstrapInterval {
  const n = d.length;
  if (n < 2) throw new Error(`bootstrap: needs at least 2 paired values, got ${n}`);
  const rng = new Rng(`bootstrap/${seed}`);
  const means = new Float64Array(resamples);
  const pick = new Array<number>(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) pick[i] = d[rng.int(n)];
    means[b] = fsum(pick) / n;
  }
  means.sort();
  return {
    mean: fsum(d) / n,
    lo: quantile(means, (1 - level) / 2),
    hi: quantile(means, (1 + level) / 2),
    level,
    resamples,
    n,
  };
}
