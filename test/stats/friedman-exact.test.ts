import { describe, expect, it } from 'vitest';
import { exactFriedman } from '../../src/stats/friedman-exact.js';

/** Brute force: every one of the (k!)^N assignments of rankings, counted. */
function bruteForce(rankSums: number[], N: number): number {
  const k = rankSums.length;
  const perms: number[][] = [];
  const rec = (p: number[]): void => {
    if (p.length === k) perms.push(p);
    else for (let r = 1; r <= k; r++) if (!p.includes(r)) rec([...p, r]);
  };
  rec([]);
  const obs = rankSums.reduce((a, x) => a + x * x, 0);
  let hit = 0;
  let total = 0;
  const walk = (i: number, sums: number[]): void => {
    if (i === N) {
      total++;
      if (sums.reduce((a, x) => a + x * x, 0) >= obs) hit++;
      return;
    }
    for (const p of perms)
      walk(
        i + 1,
        sums.map((s, j) => s + p[j]),
      );
  };
  walk(0, Array(k).fill(0));
  return hit / total;
}

describe('exact Friedman test', () => {
  // Friedman (1937) / Siegel & Castellan (1988) Table M, k = 3, N = 3: P(χ² ≥ 6.00) = 0.028, P(χ² ≥ 4.67) = 0.194.
  it('k = 3, N = 3 equals the published table', () => {
    const r = exactFriedman([3, 6, 9], 3)!;
    expect(r.chi2).toBeCloseTo(6, 12);
    expect(r.p).toBeCloseTo(1 / 36, 12); // 0.0278
    const s = exactFriedman([4, 5, 9], 3)!;
    expect(s.chi2).toBeCloseTo(4.666666666666667, 12);
    expect(s.p.toFixed(3)).toBe('0.194');
  });
  it.each([
    [[3, 7, 8, 12], 3],
    [[4, 6, 9, 11], 3],
    [[5, 9, 10, 16], 4],
    [[4, 8, 8, 10, 15], 3],
  ])('equals brute-force enumeration: rank sums %j over N = %i', (sums, N) => {
    expect(exactFriedman(sums, N)!.p).toBeCloseTo(bruteForce(sums, N), 12);
  });
  it('k = 2 is the two-sided sign test: 5 wins of 6 give 2·7/64 (R binom.test(5, 6)$p.value = 0.21875)', () => {
    expect(exactFriedman([7, 11], 6)!.p).toBeCloseTo(0.21875, 14);
    expect(exactFriedman([6, 12], 6)!.p).toBeCloseTo(0.03125, 14);
  });
  it('rejects rank sums that no rankings give', () => {
    expect(() => exactFriedman([3, 3, 3], 3)).toThrow(/add up/);
  });
  it('gives up (null) beyond its budget', () => {
    expect(exactFriedman([60, 70, 80, 90, 100, 100, 110, 110], 20)).toBeNull();
  });
});
