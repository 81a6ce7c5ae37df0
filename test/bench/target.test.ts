import { describe, expect, it } from 'vitest';
import { intervalText, medianInterval, targetVerdict } from '../../bench/lib/target.js';

// The ranks of the distribution-free 95 % interval for a median (Conover, Practical Nonparametric Statistics,
// table A3; the same as R's `binom.test`-based interval): n → k, the interval [x(k), x(n+1−k)].
const RANKS_95: readonly [number, number][] = [
  [6, 1],
  [8, 1],
  [9, 2],
  [12, 3],
  [16, 4],
  [20, 6],
  [30, 10],
];

/** Coverage of [x(k), x(n+1−k)] by brute force: 1 − 2 · P(Binomial(n, ½) ≤ k − 1), counting subsets. */
function coverage(n: number, k: number): number {
  let below = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0;
    for (let m = mask; m; m &= m - 1) bits++;
    if (bits <= k - 1) below++;
  }
  return 1 - (2 * below) / 2 ** n;
}

describe('medianInterval', () => {
  it('takes the published ranks of the 95 % interval, with their exact coverage', () => {
    for (const [n, k] of RANKS_95) {
      const xs = Array.from({ length: n }, (_, i) => 10 * (n - i)); // given in reverse: sorted inside
      const r = medianInterval(xs);
      expect([n, r.lo, r.hi]).toEqual([n, 10 * k, 10 * (n + 1 - k)]);
      if (n <= 20) expect(r.coverage).toBeCloseTo(coverage(n, k), 12);
      expect(r.coverage).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('gives the whole range, and says what it covers, when the runs are too few for the level', () => {
    const r = medianInterval([3, 1, 2]);
    expect([r.median, r.lo, r.hi]).toEqual([2, 1, 3]);
    expect(r.coverage).toBeCloseTo(0.75, 12);
    // Too few runs for a 95 % interval: no verdict, however far from the line they all are.
    expect(targetVerdict(r, { atMost: 100 })).toBe('undecided');
    expect(targetVerdict(r, { atMost: 0 })).toBe('undecided');
    expect(medianInterval([5, 1]).median).toBe(3);
  });

  it('leaves out values that are not numbers, and refuses none at all', () => {
    expect(medianInterval([Number.NaN, 4, 2, 6]).n).toBe(3);
    expect(() => medianInterval([Number.NaN])).toThrow(/no finite value/);
  });
});

describe('targetVerdict', () => {
  const twelve = (shift: number): number[] => Array.from({ length: 12 }, (_, i) => 0.1 + shift + i / 100);
  it('is met only when the whole interval is on the target side, not met when it is all beyond', () => {
    // x(3) … x(10) of 0.10 … 0.21 (+shift) is 0.12 … 0.19.
    expect(targetVerdict(medianInterval(twelve(0)), { atMost: 0.2 })).toBe('met');
    expect(targetVerdict(medianInterval(twelve(0)), { atMost: 0.15 })).toBe('undecided');
    expect(targetVerdict(medianInterval(twelve(0.1)), { atMost: 0.15 })).toBe('not met');
    expect(targetVerdict(medianInterval([5100, 5200, 5300, 5400, 5500, 5600]), { atLeast: 5000 })).toBe('met');
    expect(targetVerdict(medianInterval([4900, 5200, 5300, 5400, 5500, 5600]), { atLeast: 5000 })).toBe('undecided');
  });

  it('writes the median, the interval and its coverage', () => {
    expect(intervalText(medianInterval(twelve(0)), (x) => (100 * x).toFixed(1))).toBe(
      '15.5 (12.0–19.0, 96 % interval of 12 runs)',
    );
  });
});
