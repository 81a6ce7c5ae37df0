import { describe, it, expect } from 'vitest';
import { wilcoxonCriticalT, wilcoxonSignedRank } from '../../src/stats/wilcoxon.js';
import { pairwiseWilcoxon } from '../../src/stats/pairwise.js';
import { StatsInputError } from '../../src/stats/validate.js';
import { BORTZ_X1, BORTZ_X2, DEMSAR_C45, DEMSAR_C45M, GH2010, boundarySeries } from './fixtures.js';

describe('wilcoxonSignedRank: R 4.2.2 wilcox.test defaults', () => {
  // Provenance: R 4.2.2 wilcox.test(x1, x2, paired = TRUE) → V = 13, p-value = 0.14358103767869854
  // (asymptotic with continuity correction; warnings about ties and zeroes). Reference §2.3.
  it('Bortz/Lienert/Boehnke paired data with zeros and ties', () => {
    const r = wilcoxonSignedRank(BORTZ_X1, BORTZ_X2);
    expect(r.statistic).toBe(13);
    expect(r.p).toBeCloseTo(0.14358103767869854, 13);
    expect(r.method).toBe('normal');
    expect(r.methodDescription).toBe('Wilcoxon signed rank test with continuity correction');
    expect(r.warnings).toEqual(['cannot compute exact p-value with ties', 'cannot compute exact p-value with zeroes']);
    expect(r.nTotal).toBe(15);
    expect(r.nZeros).toBe(5);
    expect(r.n).toBe(10);
    expect(r.settings).toEqual({
      alternative: 'two.sided',
      zeroMethod: 'wilcox',
      exact: 'auto',
      correct: true,
      mu: 0,
      tolerance: 0,
      digitsRank: Infinity,
      dropOddZero: false,
      tieCorrection: true,
      paired: true,
    });
  });
  // R 4.2.2: wilcox.test(x1, x2, paired = TRUE, correct = FALSE) → 0.12981801361385484;
  // alternative = "less" → 0.071790518839349268; alternative = "greater" → 0.94144909269437227.
  it('Bortz: no continuity correction and one-sided alternatives', () => {
    expect(wilcoxonSignedRank(BORTZ_X1, BORTZ_X2, { correct: false }).p).toBeCloseTo(0.12981801361385484, 13);
    expect(wilcoxonSignedRank(BORTZ_X1, BORTZ_X2, { alternative: 'less' }).p).toBeCloseTo(0.071790518839349268, 13);
    expect(wilcoxonSignedRank(BORTZ_X1, BORTZ_X2, { alternative: 'greater' }).p).toBeCloseTo(0.94144909269437227, 13);
  });
  // Provenance: reference §2.3 (scipy 1.17.1 wilcoxon, asymptotic, no continuity correction) on the Bortz data:
  // pratt 0.084084, zsplit 0.090060; default (wilcox) 0.129818 equals R with correct = FALSE.
  it('Bortz: Pratt and zero-split (scipy numbers)', () => {
    expect(wilcoxonSignedRank(BORTZ_X1, BORTZ_X2, { zeroMethod: 'pratt', correct: false }).p).toBeCloseTo(0.084084, 6);
    expect(wilcoxonSignedRank(BORTZ_X1, BORTZ_X2, { zeroMethod: 'zsplit', correct: false }).p).toBeCloseTo(0.09006, 6);
    expect(wilcoxonSignedRank(BORTZ_X1, BORTZ_X2, { correct: false }).p).toBeCloseTo(0.129818, 6);
  });

  // R 4.2.2: wilcox.test(c(-0.2,-0.05,0.1,0.15,0.2)) → V = 9.5, p = 0.68446982102515541
  it('one-sample with ties', () => {
    const r = wilcoxonSignedRank([-0.2, -0.05, 0.1, 0.15, 0.2]);
    expect(r.statistic).toBe(9.5);
    expect(r.p).toBeCloseTo(0.68446982102515541, 13);
    expect(r.hasTies).toBe(true);
    expect(r.method).toBe('normal');
    expect(r.warnings).toEqual(['cannot compute exact p-value with ties']);
  });

  // R 4.2.2: wilcox.test(c(0.1,0.3,0.4,0.5,0.8)) → V = 15, p = 0.0625 (exact); "greater" 0.03125; "less" 1;
  // exact = FALSE → 0.059058229090536735.
  it('exact without ties', () => {
    const x = [0.1, 0.3, 0.4, 0.5, 0.8];
    const r = wilcoxonSignedRank(x);
    expect(r.statistic).toBe(15);
    expect(r.p).toBe(0.0625);
    expect(r.method).toBe('exact');
    expect(r.z).toBeNull();
    expect(r.methodDescription).toBe('Wilcoxon signed rank exact test');
    expect(wilcoxonSignedRank(x, undefined, { alternative: 'greater' }).p).toBe(0.03125);
    expect(wilcoxonSignedRank(x, undefined, { alternative: 'less' }).p).toBe(1);
    const normal = wilcoxonSignedRank(x, undefined, { exact: false });
    expect(normal.method).toBe('normal');
    expect(normal.p).toBeCloseTo(0.059058229090536735, 13);
    expect(normal.settings.exact).toBe(false);
  });

  // R 4.2.2: wilcox.test(c(1, 2, -3)) → V = 3, p = 1 (2 × 0.625 capped)
  it('two-sided exact p is capped at 1', () => {
    const r = wilcoxonSignedRank([1, 2, -3]);
    expect(r.statistic).toBe(3);
    expect(r.p).toBe(1);
  });

  // R 4.2.2: x_i = (i %% 3 == 0 ? -1 : 1)*1.01*i. n = 50 → asymptotic (n < 50 is false) p = 0.027063492176047903,
  // V = 867; exact = TRUE → 0.026166968171196455; n = 49 → exact 0.041703854232423516.
  it('n = 50 boundary: exact only when n < 50', () => {
    const x50 = boundarySeries(50);
    const r50 = wilcoxonSignedRank(x50);
    expect(r50.statistic).toBe(867);
    expect(r50.method).toBe('normal');
    expect(r50.p).toBeCloseTo(0.027063492176047903, 13);
    const e50 = wilcoxonSignedRank(x50, undefined, { exact: true });
    expect(e50.method).toBe('exact');
    expect(e50.p).toBeCloseTo(0.026166968171196455, 14);
    const r49 = wilcoxonSignedRank(boundarySeries(49));
    expect(r49.statistic).toBe(817);
    expect(r49.method).toBe('exact');
    expect(r49.p).toBeCloseTo(0.041703854232423516, 14);
  });

  // R 4.2.2: wilcox.test(c45m, c45, paired = TRUE) → V = 71.5, p = 0.012030358470209069 (zeros dropped, n = 12);
  // reversed → V = 6.5, same p; correct = FALSE → 0.010757133119789637; digits.rank = 3 → same as default.
  it('Demšar (2006) Table 2, C4.5+m vs C4.5', () => {
    const r = wilcoxonSignedRank(DEMSAR_C45M, DEMSAR_C45);
    expect(r.statistic).toBe(71.5);
    expect(r.n).toBe(12);
    expect(r.nZeros).toBe(2);
    expect(r.p).toBeCloseTo(0.012030358470209069, 13);
    const rev = wilcoxonSignedRank(DEMSAR_C45, DEMSAR_C45M);
    expect(rev.statistic).toBe(6.5);
    expect(rev.p).toBeCloseTo(0.012030358470209069, 13);
    expect(wilcoxonSignedRank(DEMSAR_C45M, DEMSAR_C45, { correct: false }).p).toBeCloseTo(0.010757133119789637, 13);
    const dr = wilcoxonSignedRank(DEMSAR_C45M, DEMSAR_C45, { digitsRank: 3 });
    expect(dr.p).toBeCloseTo(0.012030358470209069, 13);
    expect(dr.settings.digitsRank).toBe(3);
  });
  // Provenance: reference §2.3, scipy 1.17.1 (asymptotic, no continuity correction): wilcox 0.010757,
  // pratt 0.010792, zsplit 0.010968.
  it('Demšar Table 2 with Pratt and zero-split (scipy numbers)', () => {
    expect(wilcoxonSignedRank(DEMSAR_C45M, DEMSAR_C45, { zeroMethod: 'pratt', correct: false }).p).toBeCloseTo(
      0.010792,
      6,
    );
    const zs = wilcoxonSignedRank(DEMSAR_C45M, DEMSAR_C45, { zeroMethod: 'zsplit', correct: false });
    expect(zs.p).toBeCloseTo(0.010968, 6);
    expect(zs.rPlus).toBe(93);
    expect(zs.rMinus).toBe(12);
    expect(zs.T).toBe(12);
  });
  // Provenance: Demšar (2006) §3.1.3: R⁺ = 93, R⁻ = 12, T = 12, z = −2.5424 (no tie correction, no continuity
  // correction), two-sided p = 0.0110; T = 12 ≤ 21, the exact critical value for N = 14.
  it("Demšar's own computation", () => {
    const r = wilcoxonSignedRank(DEMSAR_C45M, DEMSAR_C45, {
      zeroMethod: 'zsplit',
      dropOddZero: true,
      correct: false,
      tieCorrection: false,
    });
    expect(r.T).toBe(12);
    expect(Math.abs(r.z ?? NaN)).toBeCloseTo(2.5424, 4);
    expect(r.p).toBeCloseTo(0.011, 4);
    expect(wilcoxonCriticalT(14)).toBe(21);
  });
  it('zsplit with an odd number of zeros drops one only when asked', () => {
    const x = [0, 0, 0, 1, 2, -3, 4];
    const keep = wilcoxonSignedRank(x, undefined, { zeroMethod: 'zsplit' });
    const drop = wilcoxonSignedRank(x, undefined, { zeroMethod: 'zsplit', dropOddZero: true });
    expect(keep.rPlus + keep.rMinus).toBe(28); // 7·8/2
    expect(drop.rPlus + drop.rMinus).toBe(21); // 6·7/2
    expect(drop.methodDescription).toContain('odd zero dropped');
  });

  // R 4.2.2: wilcox.test(c(1,2,3,4,5,6,0.5), mu = 1) → V = 20, p = 0.059172067825859431. The zero is x − mu,
  // not x (the @stdlib/stats-wilcoxon bug noted in reference §3 gives 0.078125).
  it('mu shifts before zero removal', () => {
    const r = wilcoxonSignedRank([1, 2, 3, 4, 5, 6, 0.5], undefined, { mu: 1 });
    expect(r.statistic).toBe(20);
    expect(r.nZeros).toBe(1);
    expect(r.p).toBeCloseTo(0.059172067825859431, 13);
    const paired = wilcoxonSignedRank([1, 2, 3, 4, 5, 6, 0.5], [1, 1, 1, 1, 1, 1, 1]);
    expect(paired.p).toBeCloseTo(r.p, 15);
  });

  describe('edge cases (R 4.2.2)', () => {
    // wilcox.test(c(0,0,0)) → V = 0, p = NaN, warning "cannot compute exact p-value with zeroes"
    it('all zeros / all equal pairs: p is NaN with a warning', () => {
      const r = wilcoxonSignedRank([0, 0, 0]);
      expect(r.statistic).toBe(0);
      expect(r.p).toBeNaN();
      expect(r.n).toBe(0);
      expect(r.warnings).toContain('cannot compute exact p-value with zeroes');
      expect(r.warnings).toContain('all differences are zero: the p-value is undefined');
      const eq = wilcoxonSignedRank([0.8, 0.7, 0.9], [0.8, 0.7, 0.9]);
      expect(eq.p).toBeNaN();
      // zero-split ranks the zeros: R⁺ = R⁻, z = 0, p = 1 (scipy zsplit agrees)
      expect(wilcoxonSignedRank([0, 0, 0], undefined, { zeroMethod: 'zsplit' }).p).toBe(1);
      expect(wilcoxonSignedRank([0, 0, 0], undefined, { zeroMethod: 'pratt' }).p).toBeNaN();
    });
    // wilcox.test(2.5) → V = 1, p = 1; wilcox.test(-2.5) → V = 0, p = 1
    it('n = 1', () => {
      expect(wilcoxonSignedRank([2.5])).toMatchObject({ statistic: 1, p: 1, method: 'exact' });
      expect(wilcoxonSignedRank([-2.5])).toMatchObject({ statistic: 0, p: 1, method: 'exact' });
    });
    // wilcox.test(c(1,2)) → V = 3, p = 0.5; wilcox.test(c(1,-1)) → V = 1.5, p = 1 (ties → normal);
    // wilcox.test(c(0,3)) → V = 1, p = 1 (zero → normal)
    it('n = 2', () => {
      expect(wilcoxonSignedRank([1, 2])).toMatchObject({ statistic: 3, p: 0.5, method: 'exact' });
      const tie = wilcoxonSignedRank([1, -1]);
      expect(tie.statistic).toBe(1.5);
      expect(tie.p).toBe(1);
      expect(tie.method).toBe('normal');
      const zero = wilcoxonSignedRank([0, 3]);
      expect(zero.statistic).toBe(1);
      expect(zero.p).toBe(1);
    });
    it('tolerance turns tiny differences into zeros', () => {
      const r = wilcoxonSignedRank([1e-12, 0.3, 0.4, 0.5, 0.8], undefined, { tolerance: 1e-9 });
      expect(r.nZeros).toBe(1);
      expect(r.n).toBe(4);
      expect(r.settings.tolerance).toBe(1e-9);
    });
    it('rejects NaN, infinities, length mismatch and bad options', () => {
      expect(() => wilcoxonSignedRank([1, NaN, 2])).toThrow(/x\[1\] must be a finite number, got NaN/);
      expect(() => wilcoxonSignedRank([1, 2], [1, NaN])).toThrow(/y\[1\] must be a finite number/);
      expect(() => wilcoxonSignedRank([1, Infinity])).toThrow(StatsInputError);
      expect(() => wilcoxonSignedRank([1, 2], [1])).toThrow(/same length/);
      expect(() => wilcoxonSignedRank([])).toThrow(/at least 1 element/);
      expect(() => wilcoxonSignedRank([1], undefined, { mu: NaN })).toThrow(/mu/);
      expect(() => wilcoxonSignedRank([1], undefined, { tolerance: -1 })).toThrow(/tolerance/);
      // @ts-expect-error invalid option value
      expect(() => wilcoxonSignedRank([1], undefined, { zeroMethod: 'demsar' })).toThrow(/zeroMethod/);
      // @ts-expect-error invalid option value
      expect(() => wilcoxonSignedRank([1], undefined, { alternative: 'two-sided' })).toThrow(/alternative/);
    });
  });
});

describe('wilcoxonCriticalT (R 4.2.2 qsignrank(0.025, N) - 1)', () => {
  // Provenance: reference §2.3, equals Demšar (2006) Table 2 critical values for N = 6..25.
  it('N = 6..25 at alpha = 0.05', () => {
    const expected = [0, 2, 3, 5, 8, 10, 13, 17, 21, 25, 29, 34, 40, 46, 52, 58, 65, 73, 81, 89];
    for (let n = 6; n <= 25; n++) expect(wilcoxonCriticalT(n)).toBe(expected[n - 6]);
    expect(wilcoxonCriticalT(5)).toBeNull();
  });
});

describe('pairwiseWilcoxon', () => {
  // Provenance: R 4.2.2 on scmamp::data.gh.2010: wilcox.test(gh10[,1], gh10[,j], paired = TRUE) for j = 2..4 →
  // V = 220.5, 244.5, 281.5; p = 0.012609806947356, 0.00723156036979717, 0.000181801396878996;
  // p.adjust(p, "hommel") = 0.012609806947356032, 0.012609806947356032, 0.000545404190636987. Reference §2.2.
  it('GH2010, PDFC vs the others, Hommel', () => {
    const r = pairwiseWilcoxon(GH2010, { control: 0 });
    expect(r.control).toBe(0);
    expect(r.settings.adjust).toBe('hommel');
    expect(r.settings.wilcoxon.zeroMethod).toBe('wilcox');
    const [nnep, ischc, fh] = r.comparisons;
    expect([nnep.i, nnep.j]).toEqual([0, 1]);
    expect(nnep.statistic).toBe(220.5);
    expect(ischc.statistic).toBe(244.5);
    expect(fh.statistic).toBe(281.5);
    expect(nnep.p).toBeCloseTo(0.012609806947356, 13);
    expect(ischc.p).toBeCloseTo(0.00723156036979717, 14);
    expect(fh.p / 0.000181801396878996).toBeCloseTo(1, 11);
    expect(nnep.pAdjusted).toBeCloseTo(0.012609806947356032, 13);
    expect(ischc.pAdjusted).toBeCloseTo(0.012609806947356032, 13);
    expect(fh.pAdjusted / 0.000545404190636987).toBeCloseTo(1, 11);
    // W/D/L from the reference table: 15/1/8, 18/0/6, 20/0/4
    expect([nnep.wins, nnep.draws, nnep.losses]).toEqual([15, 1, 8]);
    expect([ischc.wins, ischc.draws, ischc.losses]).toEqual([18, 0, 6]);
    expect([fh.wins, fh.draws, fh.losses]).toEqual([20, 0, 4]);
    expect(nnep.method).toBe('normal');
  });
  it('all pairs, and options are passed through', () => {
    const r = pairwiseWilcoxon(GH2010, { adjust: 'holm', correct: false });
    expect(r.control).toBeNull();
    expect(r.comparisons).toHaveLength(6);
    expect(r.settings.adjust).toBe('holm');
    expect(r.settings.wilcoxon.correct).toBe(false);
    expect(r.comparisons.every((c) => c.test.settings.correct === false)).toBe(true);
  });
  it('rejects a bad control and NaN', () => {
    expect(() => pairwiseWilcoxon(GH2010, { control: 9 })).toThrow(/control/);
    expect(() => pairwiseWilcoxon([[1, NaN]])).toThrow(/finite number/);
  });
});

describe('wilcoxonSignedRank: options the R tests above leave unexercised', () => {
  // Provenance of every number here: R 4.2.2 wilcox.test (exact = NULL, correct = TRUE).
  it('digitsRank rounds to significant digits before ranking (R digits.rank)', () => {
    const x = [1.04, -1.01, 1.02, 2, 3];
    // Unrounded: no ties, exact test, V = 14, p = 0.125.
    const raw = wilcoxonSignedRank(x);
    expect([raw.statistic, raw.method, raw.hasTies]).toEqual([14, 'exact', false]);
    expect(raw.p).toBeCloseTo(0.125, 15);
    // digits.rank = 2: 1.0, -1.0, 1.0 tie (ranks 2, 2, 2) → V = 13, normal approximation, p = 0.16956414519056334.
    const r = wilcoxonSignedRank(x, undefined, { digitsRank: 2 });
    expect([r.statistic, r.rMinus, r.method, r.hasTies]).toEqual([13, 2, 'normal', true]);
    expect(r.p).toBeCloseTo(0.16956414519056334, 14);
    expect(r.warnings).toEqual(['cannot compute exact p-value with ties']);
    // Significant digits, not decimals: the same values scaled by 1000 tie the same way.
    const scaled = wilcoxonSignedRank(
      x.map((v) => v * 1000),
      undefined,
      { digitsRank: 2 },
    );
    expect([scaled.statistic, scaled.hasTies]).toEqual([13, true]);
    expect(scaled.p).toBeCloseTo(0.16956414519056334, 14);
    // Three digits keep 1.04, 1.01, 1.02 apart.
    expect(wilcoxonSignedRank(x, undefined, { digitsRank: 3 }).method).toBe('exact');
  });

  it('exact two-sided p just below and just above the mean of V (n = 10, mean 27.5)', () => {
    // V = 26: 2·P(V ≤ 26) = 0.921875; V = 29: 2·P(V ≥ 29), the same by symmetry; V = 27: capped at 1.
    const below = wilcoxonSignedRank([1, 2, 3, 4, -5, -6, 7, -8, 9, -10]);
    expect([below.statistic, below.method]).toEqual([26, 'exact']);
    expect(below.p).toBeCloseTo(0.921875, 15);
    const above = wilcoxonSignedRank([-1, -2, -3, -4, 5, 6, -7, 8, -9, 10]);
    expect(above.statistic).toBe(29);
    expect(above.p).toBeCloseTo(0.921875, 15);
    expect(wilcoxonSignedRank([1, 2, 3, 4, -5, -6, -7, 8, 9, -10]).p).toBe(1);
    // One-sided: P(V ≥ 26) for 'greater', P(V ≤ 26) for 'less' (R: 0.5771484375, 0.4609375).
    expect(
      wilcoxonSignedRank([1, 2, 3, 4, -5, -6, 7, -8, 9, -10], undefined, { alternative: 'greater' }).p,
    ).toBeCloseTo(0.5771484375, 15);
    expect(wilcoxonSignedRank([1, 2, 3, 4, -5, -6, 7, -8, 9, -10], undefined, { alternative: 'less' }).p).toBeCloseTo(
      0.4609375,
      15,
    );
  });

  it('pratt ignores dropOddZero (it applies to zsplit only)', () => {
    // Three zeros (odd). scipy 1.17.1 wilcoxon(x, zero_method='pratt', correction=True, method='approx'):
    // T = min(R+, R-) = 13, p = 0.4660334182645042 (zeros rank 1-3 → 2 each; R+ = 4+6+7+9 = 26).
    const x = [0, 0, 0, 1, -2, 3, 4, -5, 6];
    const plain = wilcoxonSignedRank(x, undefined, { zeroMethod: 'pratt' });
    const dropped = wilcoxonSignedRank(x, undefined, { zeroMethod: 'pratt', dropOddZero: true });
    expect(dropped.statistic).toBe(plain.statistic);
    expect(dropped.p).toBe(plain.p);
    expect(dropped.methodDescription).toBe(plain.methodDescription);
    expect(dropped.methodDescription).not.toMatch(/odd zero dropped/);
    expect([plain.statistic, plain.T]).toEqual([26, 13]);
    expect(plain.p).toBeCloseTo(0.4660334182645042, 14);
  });
});

describe('wilcoxonSignedRank: warnings, descriptions and input checks', () => {
  // Provenance: R 4.2.2 wilcox.test(c(0.5, 1, -2, 3.5, 4, -0.25, 5), exact = FALSE) → V = 23,
  // p = 0.1507855650279713, no warning; wilcox.test(c(1, 2, 2, 3, -1), exact = FALSE) → p = 0.13441657417036029,
  // no warning (with exact = NULL the same p and "cannot compute exact p-value with ties").
  it('exact = false asks for the normal approximation: no warning about ties', () => {
    const r = wilcoxonSignedRank([0.5, 1, -2, 3.5, 4, -0.25, 5], undefined, { exact: false });
    expect([r.statistic, r.method, r.warnings]).toEqual([23, 'normal', []]);
    expect(r.p).toBeCloseTo(0.1507855650279713, 14);
    const tied = wilcoxonSignedRank([1, 2, 2, 3, -1], undefined, { exact: false });
    expect(tied.warnings).toEqual([]);
    expect(tied.p).toBeCloseTo(0.13441657417036029, 14);
    const auto = wilcoxonSignedRank([1, 2, 2, 3, -1]);
    expect(auto.warnings).toEqual(['cannot compute exact p-value with ties']);
    expect(auto.p).toBe(tied.p);
  });

  // R returns p = 1 ('greater') and 0 ('less') here because its z is ∓Inf after the continuity correction of a
  // zero-variance statistic; with every difference zero there is no evidence either way, so the p-value is
  // left undefined for every alternative.
  it('all differences zero: p and z are NaN for one-sided alternatives too', () => {
    for (const alternative of ['greater', 'less', 'two.sided'] as const) {
      const r = wilcoxonSignedRank([0, 0, 0], undefined, { alternative });
      expect(r.p).toBeNaN();
      expect(r.z).toBeNaN();
      expect(r.warnings).toContain('all differences are zero: the p-value is undefined');
    }
  });

  it('tolerance is inclusive: |d| equal to it counts as zero', () => {
    const r = wilcoxonSignedRank([0.5, 1, -2, 3.5, 4, -0.25, 5], undefined, { tolerance: 0.5 });
    expect([r.nZeros, r.n]).toEqual([2, 5]);
  });

  it('the zero method is named only when there are zeros; an even number of zeros is never dropped', () => {
    const noZeros = wilcoxonSignedRank([0.5, 1, -2, 3.5, 4, -0.25, 5], undefined, { zeroMethod: 'pratt' });
    expect(noZeros.methodDescription).toBe('Wilcoxon signed rank exact test');
    const even = wilcoxonSignedRank([0, 0, 1, -2, 3, 4], undefined, { zeroMethod: 'zsplit', dropOddZero: true });
    expect(even.methodDescription).toBe('Wilcoxon signed rank test with continuity correction (zero method: zsplit)');
    const odd = wilcoxonSignedRank([0, 1, -2, 3, 4], undefined, { zeroMethod: 'zsplit', dropOddZero: true });
    expect(odd.methodDescription).toBe(
      'Wilcoxon signed rank test with continuity correction (zero method: zsplit, odd zero dropped)',
    );
  });

  it('bad options are rejected with a message naming the option', () => {
    // @ts-expect-error invalid option value
    expect(() => wilcoxonSignedRank([1], undefined, { alternative: 'x' })).toThrow(
      /^alternative must be one of two\.sided, greater, less, got 'x'$/,
    );
    // @ts-expect-error invalid option value
    expect(() => wilcoxonSignedRank([1], undefined, { zeroMethod: 'x' })).toThrow(
      /^zeroMethod must be one of wilcox, pratt, zsplit, got 'x'$/,
    );
    expect(() => wilcoxonSignedRank([1], undefined, { mu: NaN })).toThrow(/^mu must be a finite number/);
    expect(() => wilcoxonSignedRank([1], undefined, { tolerance: Infinity })).toThrow(
      /^tolerance must be a finite number/,
    );
    for (const digitsRank of [0, -1, 1.5, NaN]) {
      expect(() => wilcoxonSignedRank([1, 2], undefined, { digitsRank })).toThrow(
        new RegExp(`^digitsRank must be a positive integer or Infinity, got ${digitsRank}$`),
      );
    }
    expect(wilcoxonSignedRank([1, 2], undefined, { digitsRank: 1 }).settings.digitsRank).toBe(1);
  });
});

describe('wilcoxonCriticalT: boundaries', () => {
  // Provenance: R 4.2.2 qsignrank(p, 5) - 1 with P(V ≤ s) = (1, 2, 3, 5, 7)/32 for s = 0..4:
  // p = 0.0625/2 = 1/32 → -1 (none significant); p = 0.1875/2 = 3/32 → 1; p = 0.25/2 → 2. At 1/32 and 3/32
  // the cumulative probability equals alpha/2 exactly, so >= (not >) decides.
  it('alpha/2 equal to a cumulative probability', () => {
    expect(wilcoxonCriticalT(5, 0.0625)).toBeNull();
    expect(wilcoxonCriticalT(5, 0.1875)).toBe(1);
    expect(wilcoxonCriticalT(5, 0.25)).toBe(2);
  });

  it('n = 1 is valid (nothing significant); bad n and alpha are rejected', () => {
    expect(wilcoxonCriticalT(1)).toBeNull();
    for (const n of [0, -3, 2.5, NaN]) {
      expect(() => wilcoxonCriticalT(n)).toThrow(new RegExp(`^n must be a positive integer, got ${n}$`));
    }
    for (const alpha of [0, 1, -0.1, 1.5, NaN]) {
      expect(() => wilcoxonCriticalT(10, alpha)).toThrow(new RegExp(`^alpha must be in \\(0, 1\\), got ${alpha}$`));
    }
    expect(wilcoxonCriticalT(10, 0.999)).toBe(26); // R: qsignrank(0.4995, 10) - 1
  });
});
