/**
 * Bayesian comparisons of two classifiers with a region of practical equivalence (ROPE), after Benavoli,
 * Corani, Demšar & Zaffalon (2017), "Time for a change: a tutorial for comparing multiple classifiers through
 * Bayesian analysis", JMLR 18(77). Conventions follow baycomp (the authors' Python package), with the
 * difference taken as d = a − b: `below` is P(a − b < −rope), `rope` is P(|a − b| ≤ rope), `above` is
 * P(a − b > rope).
 *
 * - Correlated Bayesian t-test (Corani & Benavoli 2015, "A Bayesian approach for comparing cross-validated
 *   algorithms on multiple data sets", Machine Learning 100) for ONE dataset from its J paired fold scores:
 *   with the non-informative prior of the paper, the posterior of the mean difference is a Student t with
 *   df = J − 1, location mean(d) and scale² = (1/J + ρ/(1 − ρ))·s²_d, where ρ is the correlation between
 *   folds, set to n_test/(n_test + n_train) (= 1/k for k-fold CV, as baycomp's `CorrelatedTTest`). The three
 *   probabilities are exact (Student t distribution function), no sampling.
 * - Bayesian signed-rank test (Benavoli et al. 2014, 2017 §4) over datasets from the per-dataset means: the
 *   Dirichlet-process posterior with a prior pseudo-observation of strength s (default 0.5, baycomp's) at
 *   d = 0. Each posterior sample draws weights w ~ Dirichlet(s, 1, …, 1) over {0, d_1, …, d_n} and gives
 *   θ_above = Σ_{i,j} w_i w_j H(d_i + d_j − 2·rope), θ_below = Σ_{i,j} w_i w_j H(−d_i − d_j − 2·rope)
 *   (H(0) = ½), θ_rope = 1 − θ_above − θ_below. The reported probabilities are the fractions of samples
 *   in which each θ is the largest (baycomp `Posterior.probs`). Sampling is seeded ({@link Rng}), so the
 *   same inputs and seed give the same numbers.
 */

import { Variates } from './random.js';
import { Rng } from '../util/rng.js';
import { studentTCdf } from './distributions.js';
import { StatsInputError, assertPairedVectors } from './validate.js';
import { fsum } from './fsum.js';

interface RopeProbabilities {
  /** P(a − b < −rope). */
  readonly below: number;
  /** P(|a − b| ≤ rope). */
  readonly rope: number;
  /** P(a − b > rope). */
  readonly above: number;
}

interface CorrelatedTTestResult extends RopeProbabilities {
  readonly n: number;
  readonly meanDifference: number;
  /** Scale of the Student t posterior of the mean difference. */
  readonly scale: number;
  readonly df: number;
  readonly rho: number;
  readonly ropeWidth: number;
}

function checkRope(rope: number): void {
  if (!(rope >= 0) || !Number.isFinite(rope))
    throw new StatsInputError(`rope must be a finite number >= 0, got ${rope}`);
}

/**
 * Correlated Bayesian t-test on the paired fold scores of one dataset.
 * @param rho correlation between folds, in [0, 1): n_test/(n_test + n_train) for cross-validation.
 */
export function correlatedBayesianTTest(
  a: readonly number[],
  b: readonly number[],
  rho: number,
  rope = 0,
): CorrelatedTTestResult {
  assertPairedVectors(a, b, 2);
  checkRope(rope);
  if (!(rho >= 0 && rho < 1)) throw new StatsInputError(`rho must be in [0, 1), got ${rho}`);
  const n = a.length;
  const d = a.map((x, i) => x - b[i]);
  const mean = fsum(d) / n;
  const variance = fsum(d.map((x) => (x - mean) ** 2)) / (n - 1);
  const scale = Math.sqrt((1 / n + rho / (1 - rho)) * variance);
  const df = n - 1;
  let below: number;
  let above: number;
  if (scale > 0) {
    below = studentTCdf((-rope - mean) / scale, df);
    above = studentTCdf((rope - mean) / scale, df, false);
  } else {
    // A point mass at the mean (baycomp): inside the rope (closed) unless beyond it; without a rope, a
    // point mass at exactly 0 is split evenly between the two sides (baycomp Posterior(0, 0, 1).probs()).
    const split = rope === 0 && mean === 0 ? 0.5 : 0;
    below = mean < -rope ? 1 : split;
    above = mean > rope ? 1 : split;
  }
  return {
    n,
    meanDifference: mean,
    scale,
    df,
    rho,
    ropeWidth: rope,
    below,
    above,
    rope: Math.max(0, 1 - below - above),
  };
}

interface SignedRankOptions {
  /** Strength of the prior pseudo-observation at d = 0 (default 0.5, as baycomp). */
  prior?: number;
  /** Number of posterior samples (default 50,000, as baycomp). */
  samples?: number;
  /** Seed string of the sampler (default 'bnclab'). */
  seed?: string;
  /** How many posterior samples (θ_below, θ_rope, θ_above) to keep for plotting (default 2,000). */
  keep?: number;
}

interface SignedRankResult extends RopeProbabilities {
  readonly n: number;
  readonly ropeWidth: number;
  readonly prior: number;
  readonly samples: number;
  readonly seed: string;
  /** Mean of the posterior θ (below, rope, above). */
  readonly meanTheta: readonly [number, number, number];
  /** The first `keep` posterior samples of (θ_below, θ_rope, θ_above), for the simplex plot. */
  readonly kept: readonly (readonly [number, number, number])[];
}

/** Bayesian signed-rank test on per-dataset mean scores a and b (paired by dataset). */
export function bayesianSignedRank(
  a: readonly number[],
  b: readonly number[],
  rope = 0,
  options: SignedRankOptions = {},
): SignedRankResult {
  assertPairedVectors(a, b, 1);
  checkRope(rope);
  const prior = options.prior ?? 0.5;
  const samples = options.samples ?? 50000;
  const seed = options.seed ?? 'bnclab';
  const keep = Math.min(options.keep ?? 2000, samples);
  if (!(prior > 0) || !Number.isFinite(prior))
    throw new StatsInputError(`prior must be a finite number > 0, got ${prior}`);
  if (!Number.isInteger(samples) || samples < 1)
    throw new StatsInputError(`samples must be a positive integer, got ${samples}`);
  const d = [0, ...a.map((x, i) => x - b[i])];
  const m = d.length;
  // Work in ascending order of d: for a fixed i, fl(d_i + d_j) is non-decreasing in d_j, so each row of
  // H(d_i + d_j − 2·rope) is 0 … 0, ½ … ½, 1 … 1 (H(0) = ½, baycomp's heaviside) and a row sum of w_j·H is
  // two suffix sums of w. That makes a posterior sample O(n) instead of O(n²).
  const order = [...d.keys()].sort((x, y) => d[x] - d[y]);
  const sorted = order.map((i) => d[i]);
  const c = 2 * rope;
  // firstAbove[i]: first position j with d_i + d_j ≥ c; firstStrict[i]: first with d_i + d_j > c (both in
  // sorted positions). Likewise for −(d_i + d_j) ≥ c, which holds on a prefix.
  const aboveHalf = new Int32Array(m);
  const aboveOne = new Int32Array(m);
  const belowHalf = new Int32Array(m);
  const belowOne = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const di = sorted[i];
    let j = 0;
    while (j < m && di + sorted[j] < c) j++;
    aboveHalf[i] = j;
    while (j < m && !(di + sorted[j] > c)) j++;
    aboveOne[i] = j;
    // Prefix where −(d_i + d_j) > c, then where it equals c.
    let k = 0;
    while (k < m && -(di + sorted[k]) > c) k++;
    belowOne[i] = k;
    while (k < m && -(di + sorted[k]) >= c) k++;
    belowHalf[i] = k;
  }
  const position = new Int32Array(m); // original index → sorted position
  order.forEach((orig, pos) => (position[orig] = pos));
  const variates = new Variates(new Rng(seed));
  const w = new Float64Array(m);
  const suffix = new Float64Array(m + 1);
  const wins = [0, 0, 0];
  const sum: [number, number, number] = [0, 0, 0];
  const kept: [number, number, number][] = [];
  for (let s = 0; s < samples; s++) {
    // Draw in the original order (prior first, then the datasets as given), so that the draws do not
    // depend on the values: swapping a and b swaps θ_below and θ_above sample by sample.
    let total = 0;
    for (let i = 0; i < m; i++) {
      const g = variates.gamma(i === 0 ? prior : 1);
      w[position[i]] = g;
      total += g;
    }
    suffix[m] = 0;
    for (let i = m - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + w[i] / total;
    let above = 0;
    let below = 0;
    for (let i = 0; i < m; i++) {
      const wi = w[i] / total;
      above += wi * (suffix[aboveOne[i]] + 0.5 * (suffix[aboveHalf[i]] - suffix[aboveOne[i]]));
      below += wi * (suffix[0] - suffix[belowOne[i]] + 0.5 * (suffix[belowOne[i]] - suffix[belowHalf[i]]));
    }
    const theta: [number, number, number] = [below, 1 - below - above, above];
    // argmax, first index on ties (numpy.argmax).
    let best = 0;
    if (theta[1] > theta[best]) best = 1;
    if (theta[2] > theta[best]) best = 2;
    wins[best]++;
    sum[0] += theta[0];
    sum[1] += theta[1];
    sum[2] += theta[2];
    if (kept.length < keep) kept.push(theta);
  }
  return {
    n: a.length,
    ropeWidth: rope,
    prior,
    samples,
    seed,
    below: wins[0] / samples,
    rope: wins[1] / samples,
    above: wins[2] / samples,
    meanTheta: [sum[0] / samples, sum[1] / samples, sum[2] / samples],
    kept,
  };
}
