import { describe, it, expect } from 'vitest';
import { friedman, friedmanFromRanks } from '../../src/stats/friedman.js';
import { averageRanks, rankAverage } from '../../src/stats/ranks.js';
import { StatsInputError } from '../../src/stats/validate.js';
import { GH2008_MEAN_RANKS, GH2008_N, GH2010 } from './fixtures.js';

describe('rankAverage (R rank(x, ties.method = "average"))', () => {
  it('average ranks for ties', () => {
    // R: rank(c(3, 1, 4, 1, 5)) = 3.0 1.5 4.0 1.5 5.0
    expect(rankAverage([3, 1, 4, 1, 5])).toEqual({ ranks: [3, 1.5, 4, 1.5, 5], tieSizes: [2] });
    expect(rankAverage([2, 2, 2])).toEqual({ ranks: [2, 2, 2], tieSizes: [3] });
    expect(rankAverage([7])).toEqual({ ranks: [1], tieSizes: [] });
    expect(rankAverage([])).toEqual({ ranks: [], tieSizes: [] });
  });
  it('rejects NaN', () => {
    expect(() => rankAverage([1, NaN])).toThrow(/values\[1\] must be a finite number/);
  });
});

describe('averageRanks', () => {
  it('higher is better by default; lower is better on request', () => {
    const m = [
      [0.9, 0.8, 0.8],
      [0.7, 0.75, 0.6],
    ];
    const hi = averageRanks(m);
    expect(hi.ranks).toEqual([
      [1, 2.5, 2.5],
      [2, 1, 3],
    ]);
    expect(hi.meanRanks).toEqual([1.5, 1.75, 2.75]);
    expect(hi.settings).toEqual({ higherIsBetter: true, digits: null });
    const lo = averageRanks(m, { higherIsBetter: false });
    expect(lo.ranks).toEqual([
      [3, 1.5, 1.5],
      [2, 3, 1],
    ]);
  });
  it('digits rounds before ranking (floating-point ties)', () => {
    const m = [[0.3 - 0.1, 0.2]]; // 0.19999999999999998 vs 0.2
    expect(averageRanks(m).ranks[0]).toEqual([2, 1]);
    expect(averageRanks(m, { digits: 3 }).ranks[0]).toEqual([1.5, 1.5]);
    expect(averageRanks(m, { digits: 3 }).settings.digits).toBe(3);
  });
  it('GH2010 mean ranks (R 4.2.2: colMeans(t(apply(-gh10, 1, rank))))', () => {
    const r = averageRanks(GH2010);
    const expected = [1.77083333333333, 2.47916666666667, 2.47916666666667, 3.27083333333333];
    r.meanRanks.forEach((v, j) => expect(v).toBeCloseTo(expected[j], 12));
    expect(r.nDatasets).toBe(24);
    expect(r.nMethods).toBe(4);
  });
  it('rejects ragged matrices and NaN', () => {
    expect(() => averageRanks([[1, 2], [3]])).toThrow(/ragged/);
    expect(() => averageRanks([[1, NaN]])).toThrow(/matrix\[0\]\[1\] must be a finite number/);
    expect(() => averageRanks([])).toThrow(StatsInputError);
  });
});

describe('friedman', () => {
  // Provenance: R 4.2.2 friedman.test(gh10) — "Friedman chi-squared = 16.36134453782, df = 3,
  // p-value = 0.000956051172221"; the data are scmamp::data.gh.2010 (García et al. 2010).
  it('GH2010 with tie correction (R friedman.test)', () => {
    const r = friedman(GH2010);
    expect(r.settings).toEqual({ higherIsBetter: true, tieCorrection: true, digits: null });
    expect(r.chi2).toBeCloseTo(16.36134453782, 10);
    expect(r.df).toBe(3);
    expect(r.p).toBeCloseTo(0.000956051172221, 14);
  });
  // Provenance: reference §2.2 vector B (scmamp friedmanTest / imanDavenportTest on data.gh.2010): χ² = 16.225,
  // p = 0.00101967; Iman–Davenport F = 6.690722 (df 3, 69), p = 0.000497 (R 4.2.2 pchisq/pf on these).
  it('GH2010 without tie correction (Demšar / scmamp) and Iman–Davenport', () => {
    const r = friedman(GH2010, { tieCorrection: false });
    expect(r.chi2).toBeCloseTo(16.225, 10);
    expect(r.p).toBeCloseTo(0.00101967, 8);
    expect(r.imanDavenport.F).toBeCloseTo(6.690722, 6);
    expect(r.imanDavenport.df1).toBe(3);
    expect(r.imanDavenport.df2).toBe(69);
    expect(r.imanDavenport.p).toBeCloseTo(0.000497, 6);
    // uncorrected = corrected × C
    expect(friedman(GH2010).chi2 * friedman(GH2010).tieCorrectionFactor).toBeCloseTo(16.225, 10);
  });
  // Provenance: reference §2.2 vector A; R 4.2.2 on the exact mean ranks:
  // chi = 12*N/(k*(k+1))*(sum(r^2) - k*(k+1)^2/4) = 39.646666666666619, pchisq(chi, 4, lower.tail=FALSE) =
  // 5.1213678596398507e-08; F = (N-1)*chi/(N*(k-1)-chi) = 14.308719820791479, pf(F, 4, 116, lower.tail=FALSE) =
  // 1.593159881564414e-09.
  it('GH2008 from mean ranks (García & Herrera 2008)', () => {
    const r = friedmanFromRanks(GH2008_MEAN_RANKS, GH2008_N);
    expect(r.chi2).toBeCloseTo(39.646666666666619, 10);
    expect(r.df).toBe(4);
    expect(r.p / 5.1213678596398507e-8).toBeCloseTo(1, 9);
    expect(r.imanDavenport.F).toBeCloseTo(14.308719820791479, 10);
    expect(r.imanDavenport.df2).toBe(116);
    expect(r.imanDavenport.p / 1.593159881564414e-9).toBeCloseTo(1, 8);
    expect(r.settings.tieCorrection).toBe(false);
  });
  // Provenance: Demšar (2006) §3.2.2 example, published (rounded) mean ranks 3.143 2.000 2.893 1.964, N = 14:
  // χ²_F = 9.28, F_F = 3.69 (df 3, 39). Loose check only, as the paper's ranks are rounded.
  it('Demšar 2006 example (loose)', () => {
    const r = friedmanFromRanks([3.143, 2.0, 2.893, 1.964], 14);
    expect(Math.abs(r.chi2 - 9.28)).toBeLessThan(0.01);
    expect(Math.abs(r.imanDavenport.F - 3.69)).toBeLessThan(0.01);
    expect(r.imanDavenport.df2).toBe(39);
    expect(Math.abs(r.p - 0.0257)).toBeLessThan(0.001);
  });
  it('lower-is-better ranks the opposite way', () => {
    const errors = GH2010.map((row) => row.map((v) => 1 - v));
    const r = friedman(errors, { higherIsBetter: false });
    expect(r.chi2).toBeCloseTo(16.36134453782, 10);
    expect(r.meanRanks[0]).toBeCloseTo(1.77083333333333, 12);
  });

  describe('edge cases', () => {
    it('N = 1: χ² = k − 1, Iman–Davenport undefined', () => {
      const r = friedman([[0.9, 0.8, 0.7]]);
      expect(r.chi2).toBeCloseTo(2, 14);
      expect(r.p).toBeCloseTo(Math.exp(-1), 14); // pchisq(2, 2, lower.tail = FALSE)
      expect(r.imanDavenport.df2).toBe(0);
      expect(r.imanDavenport.F).toBeNaN();
      expect(r.imanDavenport.p).toBeNaN();
    });
    it('perfect agreement: F_F undefined (its denominator is 0), with the reason; no ∞ and no p = 0', () => {
      const r = friedman([
        [3, 2, 1],
        [3, 2, 1],
        [3, 2, 1],
      ]);
      expect(r.chi2).toBeCloseTo(6, 14);
      expect(r.imanDavenport.F).toBeNaN();
      expect(r.imanDavenport.p).toBeNaN();
      expect(r.imanDavenport.undefinedReason).toContain(
        'every dataset ranks the methods identically (χ² = N(k − 1) = 6)',
      );
    });
    it('all equal: NaN with tie correction (as R), 0 and p = 1 without', () => {
      const m = [
        [1, 1, 1],
        [2, 2, 2],
      ];
      expect(friedman(m).chi2).toBeNaN();
      expect(friedman(m).p).toBeNaN();
      const raw = friedman(m, { tieCorrection: false });
      expect(raw.chi2).toBe(0);
      expect(raw.p).toBe(1);
      expect(raw.imanDavenport.F).toBe(0);
      expect(raw.imanDavenport.p).toBe(1);
    });
    it('k = 2 works; k = 1 and NaN are rejected', () => {
      const r = friedman([
        [1, 2],
        [1, 2],
        [2, 1],
      ]);
      expect(r.df).toBe(1);
      // R: friedman.test(matrix(c(1,2,1,2,2,1), ncol = 2, byrow = TRUE)) → chi-squared = 0.33333, p = 0.5637
      expect(r.chi2).toBeCloseTo(1 / 3, 14);
      expect(r.p).toBeCloseTo(0.563702861650773, 12);
      expect(() => friedman([[1], [2]])).toThrow(/at least 2 methods/);
      expect(() => friedman([[1, NaN]])).toThrow(/finite number/);
    });
  });
});
