/**
 * A benchmark's target read with its uncertainty. Single runs on this kind of machine move by a third between
 * quarter hours, so "the median is under the line" says little without how sure it is: the median's
 * distribution-free confidence interval (from the order statistics: the number of runs under the true median
 * is Binomial(n, ½) whatever the timings' distribution) decides the verdict. The target is met when the whole
 * interval is on its side of the line, not met when the whole interval is on the other side, and undecided
 * otherwise (more runs, or a quieter machine, would tell).
 */
import { binomialPmfAll } from '../../src/stats/distributions.js';
import { median } from './process.js';

export interface MedianInterval {
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
  /** The interval's exact coverage (at least the level asked for when there are enough runs). */
  readonly coverage: number;
  /** The level asked for: a verdict needs an interval that reaches it. */
  readonly level: number;
  readonly n: number;
}

/**
 * The median of `xs` with the interval [x(k), x(n+1−k)] of the sorted values, k the largest rank whose
 * interval still covers the median with probability ≥ `level` (1 − 2·P(B ≤ k − 1), B ~ Binomial(n, ½)).
 * With too few runs for that level (fewer than 6 for 95 %) the interval is the whole range, and `coverage`
 * says what it holds.
 */
export function medianInterval(xs: readonly number[], level = 0.95): MedianInterval {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) throw new Error('medianInterval: no finite value');
  const pmf = binomialPmfAll(n, 0.5);
  // tail = P(B ≤ k − 1): the chance that x(k), the k-th smallest value, lies above the true median (and, by
  // symmetry, that x(n+1−k) lies below it).
  let k = 1;
  let tail = pmf[0];
  while (k + 1 <= n + 1 - (k + 1) && 1 - 2 * (tail + pmf[k]) >= level) {
    tail += pmf[k];
    k++;
  }
  return { median: median(s), lo: s[k - 1], hi: s[n - k], coverage: 1 - 2 * tail, level, n };
}

export type Verdict = 'met' | 'not met' | 'undecided';

/**
 * Whether a target on the median is met: `atMost` (e.g. a share of CPU ≤ 15 %) or `atLeast` (jobs per second
 * ≥ 5,000), read from the median's interval; undecided whatever the runs say when they are too few for the
 * interval to reach its level (fewer than 6 at 95 %).
 */
export function targetVerdict(
  interval: MedianInterval,
  target: { readonly atMost: number } | { readonly atLeast: number },
): Verdict {
  const good = (x: number): boolean => ('atMost' in target ? x <= target.atMost : x >= target.atLeast);
  if (interval.coverage < interval.level) return 'undecided';
  if (good(interval.lo) && good(interval.hi)) return 'met';
  if (!good(interval.lo) && !good(interval.hi)) return 'not met';
  return 'undecided';
}

/** "15.9 (14.6–16.7, 96 % interval of 12 runs)", each number through `f`. */
export function intervalText(i: MedianInterval, f: (x: number) => string): string {
  return `${f(i.median)} (${f(i.lo)}–${f(i.hi)}, ${Math.floor(100 * i.coverage)} % interval of ${i.n} runs)`;
}
