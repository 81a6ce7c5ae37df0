/**
 * Randomised golden cases computed by R 4.2.2 (Debian r-base-core 4.2.2.20221110-2) with base R only:
 * p.adjust, wilcox.test(x, y, paired = TRUE, alternative, correct, mu), friedman.test, binom.test, qtukey and
 * ptukey. Generator: test/stats/golden/generate-random.R (set.seed(20240611)); values stored with 15
 * significant digits.
 */
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { pAdjust } from '../../src/stats/padjust.js';
import { wilcoxonSignedRank, type Alternative } from '../../src/stats/wilcoxon.js';
import { friedman } from '../../src/stats/friedman.js';
import { binomTest } from '../../src/stats/signtest.js';
import { ptukey, qtukey } from '../../src/stats/tukey.js';

interface Golden {
  generator: string;
  padjust: { p: number[]; hommel: number[]; holm: number[]; hochberg: number[]; bonferroni: number[] }[];
  wilcoxon: {
    x: number[];
    y: number[];
    alternative: Alternative;
    correct: boolean;
    mu: number;
    V: number;
    p: number;
    exact: boolean;
  }[];
  friedman: { m: number[][]; chi2: number; p: number }[];
  binom: { x: number; n: number; p0: number; p: number }[];
  tukey: { k: number; df: number | 'Inf'; alpha: number; q: number; pt: number }[];
}

const golden = JSON.parse(readFileSync(new URL('./golden/r-4.2.2-random.json', import.meta.url), 'utf8')) as Golden;

/** Agreement to ~13 significant digits (R values are stored with 15). */
function expectSame(actual: number, expected: number, rel = 1e-12): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.max(Math.abs(expected), 1e-300));
}

describe('golden R 4.2.2 random cases', () => {
  it('p.adjust: hommel, holm, hochberg, bonferroni (40 vectors, some with ties)', () => {
    expect(golden.padjust).toHaveLength(40);
    for (const c of golden.padjust) {
      for (const m of ['hommel', 'holm', 'hochberg', 'bonferroni'] as const) {
        pAdjust(c.p, m).forEach((v, i) => expectSame(v, c[m][i]));
      }
    }
  });

  it('wilcox.test paired (40 cases: n = 1..60, exact and asymptotic, ties, zeros, mu, all alternatives)', () => {
    expect(golden.wilcoxon).toHaveLength(40);
    for (const c of golden.wilcoxon) {
      const r = wilcoxonSignedRank(c.x, c.y, { alternative: c.alternative, correct: c.correct, mu: c.mu });
      expect(r.statistic).toBe(c.V);
      expect(r.method === 'exact').toBe(c.exact);
      expectSame(r.p, c.p, 1e-11);
    }
  });

  it('friedman.test (20 matrices with ties, N = 2..25, k = 2..8)', () => {
    for (const c of golden.friedman) {
      const r = friedman(c.m);
      expectSame(r.chi2, c.chi2);
      expectSame(r.p, c.p, 1e-10);
    }
  });

  it('binom.test two-sided (20 cases, p0 ∈ {0.3, 0.5, 0.7})', () => {
    for (const c of golden.binom) expectSame(binomTest(c.x, c.n, { p: c.p0 }).p, c.p, 1e-11);
  });

  it('qtukey(1 - alpha, k, df) and ptukey(3, k, df) (15 cases, df up to Inf)', () => {
    for (const c of golden.tukey) {
      const df = c.df === 'Inf' ? Infinity : c.df;
      expect(qtukey(1 - c.alpha, c.k, df)).toBeCloseTo(c.q, 9);
      expect(ptukey(3, c.k, df)).toBeCloseTo(c.pt, 11);
    }
  });
});
