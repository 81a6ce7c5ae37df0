import { describe, expect, it } from 'vitest';
import { studentTCdf, studentTTwoSidedP } from '../../src/stats/distributions.js';
import { correctedResampledTTest, fiveByTwoCvTests } from '../../src/stats/resampled.js';
import { FIVE_BY_TWO_A, FIVE_BY_TWO_B, W2_A, W2_B } from './resampled-fixtures.js';

// Paired per-fold scores; references from Weka 3.6.14's own weka.experiment.PairedStatsCorrected
// (new PairedStatsCorrected(0.05, ratio); add(x, y) per fold; calculateDerived(); differencesProbability,
// differencesSignificance), run outside the repository.
const W3 = [
  0.71527, 0.73389, 0.72605, 0.72678, 0.71544, 0.74726, 0.66694, 0.73847, 0.72783, 0.78374, 0.66898, 0.6668, 0.6828,
  0.69961, 0.7316, 0.75906, 0.67763, 0.66892, 0.67397, 0.7306, 0.6596, 0.68695, 0.72133, 0.69663, 0.70242, 0.76161,
  0.59928, 0.60963, 0.69469, 0.69018, 0.72487, 0.743, 0.62677, 0.6716, 0.73347, 0.78184, 0.77203, 0.8029, 0.70596,
  0.68699, 0.73077, 0.73242, 0.67736, 0.65942, 0.65162, 0.65569, 0.76444, 0.72349, 0.62711, 0.6543, 0.77217, 0.80952,
  0.605, 0.54946, 0.71787, 0.71578, 0.64401, 0.69333, 0.75509, 0.77981,
];
const W3_A = W3.filter((_, i) => i % 2 === 0);
const W3_B = W3.filter((_, i) => i % 2 === 1);

describe('Student t distribution', () => {
  it('equals scipy.stats.t', () => {
    expect(studentTCdf(-2.5, 7)).toBeCloseTo(0.020496109292876444, 13);
    expect(studentTCdf(40, 3, false) / 1.7190340394579253e-5).toBeCloseTo(1, 10);
    expect(studentTCdf(0.3, 1.5)).toBeCloseTo(0.5997639015982075, 12);
    expect(studentTTwoSidedP(-2.5, 7)).toBeCloseTo(2 * 0.020496109292876444, 13);
  });
});

describe('corrected resampled t-test (Nadeau & Bengio 2003) = Weka PairedStatsCorrected', () => {
  it('10 folds, ratio 1/9: p and the v marker', () => {
    const r = correctedResampledTTest(W2_A, W2_B, 1 / 9);
    expect(r.p / 0.001684995278458656).toBeCloseTo(1, 10);
    expect(r.significance).toBe(1);
    expect(r.meanDifference).toBeCloseTo(0.01503, 12);
    expect(r.df).toBe(9);
  });
  it('ratio 0 is the plain paired t-test', () => {
    expect(correctedResampledTTest(W2_A, W2_B, 0).p / 0.00012324979916423056).toBeCloseTo(1, 10);
  });
  it('30 pairs, ratio 1/2, not significant; swapping a and b flips only the sign', () => {
    const r = correctedResampledTTest(W3_A, W3_B, 0.5);
    expect(r.p / 0.474101879516427).toBeCloseTo(1, 10);
    expect(r.significance).toBe(0);
    const s = correctedResampledTTest(W3_B, W3_A, 0.5);
    expect(s.t).toBeCloseTo(-r.t, 12);
    expect(s.p).toBeCloseTo(r.p, 14);
  });
  it('zero variance: p = 0 with a constant non-zero difference (Weka), 1 when identical', () => {
    const r = correctedResampledTTest([0.8, 0.8, 0.8], [0.7, 0.7, 0.7], 0.1);
    expect(r.p).toBe(0);
    expect(r.significance).toBe(1);
    expect(correctedResampledTTest([0.8, 0.8], [0.8, 0.8], 0.1).p).toBe(1);
  });
  it('rejects unpaired input', () => {
    expect(() => correctedResampledTTest([1, 2, 3], [1, 2], 0.1)).toThrow(/paired/);
  });
});

describe('5×2cv tests (Dietterich 1998; Alpaydin 1999)', () => {
  // Reference: numpy/scipy from the papers' formulas: t = p11/sqrt(sum s2/5) ~ t5; F = sum p^2/(2 sum s2) ~ F(10,5).
  const A = FIVE_BY_TWO_A;
  const B = FIVE_BY_TWO_B;
  it('t and F with their p-values', () => {
    const r = fiveByTwoCvTests(A, B);
    expect(r.t).toBeCloseTo(0.6720460402294592, 10);
    expect(r.tP).toBeCloseTo(0.5313521528247362, 10);
    expect(r.f).toBeCloseTo(2.3814250664485717, 10);
    expect(r.fP).toBeCloseTo(0.17522030709078593, 10);
  });
  it('needs 5 × 2 folds', () => {
    expect(() => fiveByTwoCvTests(A.slice(0, 4), B.slice(0, 4))).toThrow(/5 replications/);
  });
});
