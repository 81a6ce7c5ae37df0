/**
 * Effect sizes to print next to p-values (autorank's choices, Herbold 2020, "Autorank: a Python package for
 * automated ranking of classifiers", JOSS 5(48)):
 *
 * - Cliff's δ (Cliff 1993): P(X > Y) − P(X < Y) over all pairs of values of the two samples; magnitudes
 *   negligible < 0.147 ≤ small < 0.33 ≤ medium < 0.474 ≤ large (Romano et al. 2006, as autorank).
 * - Akinshin's γ: (median(x) − median(y)) / pooled MAD, the MADs scaled by 1.4826 to estimate a normal
 *   standard deviation; magnitudes as Cohen's d: negligible < 0.2 ≤ small < 0.5 ≤ medium < 0.8 ≤ large.
 * - The mean paired difference with a percentile bootstrap confidence interval (Efron & Tibshirani 1993,
 *   §13.3): the n pairs are resampled with replacement B times from a seeded {@link Rng}.
 */

import { Rng } from '../util/rng.js';
import { StatsInputError, assertFiniteVector, assertPairedVectors } from './validate.js';
import { fsum } from './fsum.js';

type EffectMagnitude = 'negligible' | 'small' | 'medium' | 'large';

interface EffectSize {
  readonly value: number;
  readonly magnitude: EffectMagnitude;
}

function magnitude(v: number, cuts: readonly [number, number, number]): EffectMagnitude {
  const a = Math.abs(v);
  return a < cuts[0] ? 'negligible' : a < cuts[1] ? 'small' : a < cuts[2] ? 'medium' : 'large';
}

/** Cliff's δ of x against y: positive when values of x tend to be larger. */
export function cliffsDelta(x: readonly number[], y: readonly number[]): EffectSize {
  assertFiniteVector(x, 'x');
  assertFiniteVector(y, 'y');
  let s = 0;
  for (const a of x) for (const b of y) s += a > b ? 1 : a < b ? -1 : 0;
  const value = s / (x.length * y.length);
  return { value, magnitude: magnitude(value, [0.147, 0.33, 0.474]) };
}

function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** Median absolute deviation scaled by 1.4826 (scipy `median_abs_deviation(x, scale=1/1.4826)`). */
export function scaledMad(v: readonly number[]): number {
  const m = median(v);
  return 1.4826 * median(v.map((x) => Math.abs(x - m)));
}

/** Akinshin's γ of x against y; NaN when both pooled MADs are 0 and the medians are equal. */
export function akinshinGamma(x: readonly number[], y: readonly number[]): EffectSize {
  assertFiniteVector(x, 'x', 2);
  assertFiniteVector(y, 'y', 2);
  const nx = x.length;
  const ny = y.length;
  const pooled = Math.sqrt(((nx - 1) * scaledMad(x) ** 2 + (ny - 1) * scaledMad(y) ** 2) / (nx + ny - 2));
  const diff = median(x) - median(y);
  const value = pooled > 0 ? diff / pooled : diff === 0 ? NaN : diff > 0 ? Infinity : -Infinity;
  return { value, magnitude: Number.isNaN(value) ? 'negligible' : magnitude(value, [0.2, 0.5, 0.8]) };
}

interface BootstrapOptions {
  /** Number of bootstrap resamples (default 10,000). */
  resamples?: number;
  /** Confidence level (default 0.95). */
  level?: number;
  /** Seed string (default 'bnclab'). */
  seed?: string;
}

interface MeanDifferenceCI {
  /** mean(a − b). */
  readonly mean: number;
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  readonly resamples: number;
  readonly seed: string;
}

/**
 * Percentile bootstrap CI of the mean paired difference mean(a − b). The quantiles are the order statistics
 * at ⌈B·q⌉ (type-1 empirical quantile), q = (1 − level)/2 and (1 + level)/2.
 */
export function bootstrapMeanDifference(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): MeanDifferenceCI {
  assertPairedVectors(a, b);
  const resamples = options.resamples ?? 10000;
  const level = options.level ?? 0.95;
  const seed = options.seed ?? 'bnclab';
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new StatsInputError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new StatsInputError(`level must be in (0, 1), got ${level}`);
  const n = a.length;
  const d = a.map((x, i) => x - b[i]);
  const mean = fsum(d) / n;
  const rng = new Rng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[rng.int(n)];
    means[r] = s / n;
  }
  means.sort();
  const at = (q: number): number => means[Math.min(resamples - 1, Math.max(0, Math.ceil(resamples * q) - 1))];
  return { mean, lower: at((1 - level) / 2), upper: at((1 + level) / 2), level, resamples, seed };
}
