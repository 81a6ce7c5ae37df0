/**
 * Sign test on win/draw/loss counts (Demšar 2006 §3.1.2; the "two-tailed binomial sign test" of the
 * Bayesian network classifier literature) and the exact binomial test it rests on (R `binom.test`).
 *
 * Draw conventions:
 * - `'drop'` (default; what `binom.test(wins, wins + losses)`, scipy `binomtest` and stdlib compute):
 *   n = wins + losses.
 * - `'split'` (Demšar 2006): draws "support the null hypothesis … split them evenly between the two
 *   classifiers; if there is an odd number of them, we again ignore one": wins' = wins + ⌊t/2⌋,
 *   losses' = losses + ⌊t/2⌋.
 *
 * What counts as a draw is decided by {@link winDrawLoss} (absolute tolerance and/or rounding to the
 * precision the paper printed).
 */

import { binomialPmfAll } from './distributions.js';
import type { Alternative } from './wilcoxon.js';
import {
  StatsInputError,
  assertAlpha,
  assertDigits,
  assertFiniteNumber,
  assertFiniteVector,
  assertInteger,
  roundDecimals,
} from './validate.js';

interface BinomTestOptions {
  /** Success probability under the null hypothesis. Default 0.5. */
  p?: number;
  /** Default `'two.sided'`. `'greater'`: the success probability exceeds `p`. */
  alternative?: Alternative;
}

interface BinomTestResult {
  p: number;
  successes: number;
  trials: number;
  settings: { p: number; alternative: Alternative };
}

/**
 * Exact binomial test of `x` successes in `n` trials (R `binom.test(x, n, p, alternative)`); the two-sided
 * p-value sums the probabilities of all outcomes no more likely than the observed one (relative tolerance
 * 1e-7, as R).
 */
export function binomTest(x: number, n: number, options: BinomTestOptions = {}): BinomTestResult {
  const p0 = options.p ?? 0.5;
  const alternative = options.alternative ?? 'two.sided';
  assertInteger(n, 'n', 1);
  assertInteger(x, 'x', 0);
  if (x > n) throw new StatsInputError(`x must be <= n (got x=${x}, n=${n})`);
  if (!(p0 >= 0 && p0 <= 1)) throw new StatsInputError(`p must be in [0, 1], got ${p0}`);
  const pmf = binomialPmfAll(n, p0);
  const sum = (from: number, to: number): number => {
    let s = 0;
    for (let i = Math.max(0, from); i <= Math.min(n, to); i++) s += pmf[i];
    return s;
  };
  let pv: number;
  if (alternative === 'less') pv = sum(0, x);
  else if (alternative === 'greater') pv = sum(x, n);
  else {
    const relErr = 1 + 1e-7;
    const d = pmf[x];
    const m = n * p0;
    if (x === m) pv = 1;
    else if (x < m) {
      let y = 0;
      for (let i = Math.ceil(m); i <= n; i++) if (pmf[i] <= d * relErr) y++;
      pv = sum(0, x) + sum(n - y + 1, n);
    } else {
      let y = 0;
      for (let i = 0; i <= Math.floor(m); i++) if (pmf[i] <= d * relErr) y++;
      pv = sum(0, y - 1) + sum(x, n);
    }
  }
  return { p: Math.min(1, pv), successes: x, trials: n, settings: { p: p0, alternative } };
}

type DrawHandling = 'drop' | 'split';

interface SignTestOptions {
  /** How draws enter the test. Default `'drop'`. */
  draws?: DrawHandling;
  /** Default `'two.sided'`; `'greater'`: wins are more likely than losses. */
  alternative?: Alternative;
}

export interface SignTestResult {
  p: number;
  wins: number;
  draws: number;
  losses: number;
  /** Wins and losses after applying the draw convention; the test is Bin(effectiveWins; n, ½). */
  effectiveWins: number;
  effectiveLosses: number;
  n: number;
  /** Draws that did not enter the test (all of them with 'drop', one when splitting an odd number). */
  ignoredDraws: number;
  warnings: string[];
  settings: { draws: DrawHandling; alternative: Alternative };
}

/** Sign test on win/draw/loss counts. */
export function signTest(wins: number, draws: number, losses: number, options: SignTestOptions = {}): SignTestResult {
  const drawHandling = options.draws ?? 'drop';
  const alternative = options.alternative ?? 'two.sided';
  assertInteger(wins, 'wins', 0);
  assertInteger(draws, 'draws', 0);
  assertInteger(losses, 'losses', 0);
  if (drawHandling !== 'drop' && drawHandling !== 'split') {
    throw new StatsInputError(`draws must be 'drop' or 'split', got '${String(drawHandling)}'`);
  }
  const half = drawHandling === 'split' ? Math.floor(draws / 2) : 0;
  const w = wins + half;
  const l = losses + half;
  const n = w + l;
  const warnings: string[] = [];
  let p: number;
  if (n === 0) {
    p = 1;
    warnings.push('no decisive comparisons (all draws): p-value set to 1');
  } else {
    p = binomTest(w, n, { alternative }).p;
  }
  return {
    p,
    wins,
    draws,
    losses,
    effectiveWins: w,
    effectiveLosses: l,
    n,
    ignoredDraws: draws - 2 * half,
    warnings,
    settings: { draws: drawHandling, alternative },
  };
}

/**
 * Smallest number of wins out of `n` decisive comparisons that the two-sided sign test declares significant
 * at level `alpha` (Demšar 2006, Table 3); `null` when no number of wins suffices.
 */
export function signTestCriticalWins(n: number, alpha = 0.05): number | null {
  assertInteger(n, 'n', 1);
  assertAlpha(alpha);
  for (let w = Math.ceil(n / 2); w <= n; w++) {
    if (binomTest(w, n).p <= alpha) return w;
  }
  return null;
}

interface WinDrawLossOptions {
  /** `false` (default, e.g. accuracy): the larger score wins. `true` for error, RMSE, log loss. */
  lowerIsBetter?: boolean;
  /** |a − b| ≤ tolerance counts as a draw. Default 0. */
  tolerance?: number;
  /** Round both scores to this many decimals first (the precision a paper printed). Default: no rounding. */
  digits?: number;
}

export interface WinDrawLossResult {
  /** Datasets on which `a` is better than `b`. */
  wins: number;
  draws: number;
  /** Datasets on which `a` is worse than `b`. */
  losses: number;
  n: number;
  settings: { lowerIsBetter: boolean; tolerance: number; digits: number | null };
}

/**
 * Each pair's outcome for method `a`: 1 a win, 0 a draw, −1 a loss (the rule winDrawLoss counts), so a
 * resampling of the pairs (a bootstrap interval of the net wins) sees exactly the decisions the counts do.
 */
export function pairOutcomes(a: readonly number[], b: readonly number[], options: WinDrawLossOptions = {}): Int8Array {
  const lowerIsBetter = options.lowerIsBetter ?? false;
  const tolerance = options.tolerance ?? 0;
  assertFiniteNumber(tolerance, 'tolerance');
  if (tolerance < 0) throw new StatsInputError(`tolerance must be >= 0, got ${tolerance}`);
  assertDigits(options.digits);
  assertFiniteVector(a, 'a', 1);
  assertFiniteVector(b, 'b', 1);
  if (a.length !== b.length)
    throw new StatsInputError(`a and b must have the same length (got ${a.length} and ${b.length})`);
  const out = new Int8Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const diff = roundDecimals(a[i], options.digits) - roundDecimals(b[i], options.digits);
    out[i] = Math.abs(diff) <= tolerance ? 0 : diff > 0 !== lowerIsBetter ? 1 : -1;
  }
  return out;
}

/** Wins, draws and losses among pair outcomes (pairOutcomes), and their number. */
export function tallyOutcomes(outcomes: Int8Array): { wins: number; draws: number; losses: number; n: number } {
  let wins = 0;
  let draws = 0;
  let losses = 0;
  for (const o of outcomes) {
    if (o > 0) wins++;
    else if (o < 0) losses++;
    else draws++;
  }
  return { wins, draws, losses, n: outcomes.length };
}

/** Counts wins, draws and losses of method `a` against method `b` over paired per-dataset scores. */
export function winDrawLoss(
  a: readonly number[],
  b: readonly number[],
  options: WinDrawLossOptions = {},
): WinDrawLossResult {
  return {
    ...tallyOutcomes(pairOutcomes(a, b, options)),
    settings: {
      lowerIsBetter: options.lowerIsBetter ?? false,
      tolerance: options.tolerance ?? 0,
      digits: options.digits ?? null,
    },
  };
}
