/**
 * Critical differences of mean ranks (Demšar 2006 §3.2.2).
 *
 *   CD = q_α · √( k(k + 1) / (6N) )
 *
 * - Nemenyi (all pairs): q_α = qtukey(1 − α, k, df) / √2, the studentized range quantile. Demšar, Orange
 *   `compute_CD` and autorank use df = ∞; scmamp `getNemenyiCD` uses df = k(N − 1) — choose with `df`.
 * - Bonferroni–Dunn (each method vs one control): q_α = Φ⁻¹(1 − α / (2(k − 1))).
 *
 * Two methods differ significantly when |R_i − R_j| ≥ CD.
 */

import { normalQuantile } from './distributions.js';
import { qtukey } from './tukey.js';
import { StatsInputError, assertAlpha, assertInteger } from './validate.js';

export interface CriticalDifferenceResult {
  /** Critical difference of mean ranks. */
  cd: number;
  /** Critical value q_α (for Nemenyi: the studentized range quantile divided by √2). */
  q: number;
  /** Standard error √(k(k+1)/(6N)). */
  se: number;
  k: number;
  N: number;
  alpha: number;
  /** Which procedure produced the value. */
  procedure: 'nemenyi' | 'bonferroni-dunn';
  /** Degrees of freedom of the studentized range (Nemenyi only; Infinity = Demšar's convention). */
  df: number | null;
}

interface NemenyiOptions {
  /**
   * Degrees of freedom of the studentized range. Default `Infinity` (Demšar 2006, Orange, autorank).
   * Pass `'scmamp'` for scmamp's k(N − 1), or any number ≥ 2.
   */
  df?: number | 'scmamp';
}

function checkKN(k: number, N: number): void {
  assertInteger(k, 'k (number of methods)', 2);
  assertInteger(N, 'N (number of datasets)', 1);
}

/** Standard error of a difference of mean ranks, √(k(k+1)/(6N)). */
export function rankSE(k: number, N: number): number {
  return Math.sqrt((k * (k + 1)) / (6 * N));
}

/** Nemenyi critical difference for k methods over N datasets at level α (default 0.05). */
export function nemenyiCD(k: number, N: number, alpha = 0.05, options: NemenyiOptions = {}): CriticalDifferenceResult {
  checkKN(k, N);
  assertAlpha(alpha);
  const dfOpt = options.df ?? Infinity;
  const df = dfOpt === 'scmamp' ? k * (N - 1) : dfOpt;
  if (typeof df !== 'number' || Number.isNaN(df) || df < 2) {
    throw new StatsInputError(`df must be a number >= 2, Infinity, or 'scmamp', got ${String(dfOpt)}`);
  }
  const q = qtukey(1 - alpha, k, df) / Math.SQRT2;
  const se = rankSE(k, N);
  return { cd: q * se, q, se, k, N, alpha, procedure: 'nemenyi', df };
}

/** Bonferroni–Dunn critical difference (comparisons with a control) for k methods over N datasets. */
export function bonferroniDunnCD(k: number, N: number, alpha = 0.05): CriticalDifferenceResult {
  checkKN(k, N);
  assertAlpha(alpha);
  const q = normalQuantile(alpha / (2 * (k - 1)), false);
  const se = rankSE(k, N);
  return { cd: q * se, q, se, k, N, alpha, procedure: 'bonferroni-dunn', df: null };
}
