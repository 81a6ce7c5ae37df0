import { describe, it, expect } from 'vitest';
import {
  binomialPmfAll,
  chiSquareCdf,
  chiSquareSf,
  fCdf,
  fSf,
  logGamma,
  normalCdf,
  normalQuantile,
  normalTwoSidedP,
  regularizedBeta,
  regularizedGammaP,
  signRankCdf,
  signRankDistribution,
  signRankSf,
} from '../../src/stats/distributions.js';
import { ptukey, qtukey } from '../../src/stats/tukey.js';

/** Relative closeness for values spanning many orders of magnitude. */
function expectRel(actual: number, expected: number, rel = 1e-10): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
}

describe('normal distribution (R 4.2.2 pnorm / qnorm)', () => {
  it('lower tail far out is computed directly (reference §2.6)', () => {
    // R: pnorm(-9) = 1.12858840595384e-19 (jStat's erf-based cdf returns 0 here)
    expectRel(normalCdf(-9), 1.12858840595384e-19, 1e-12);
    // R: pnorm(-5.47) = 2.25017789482686e-08 (simple-statistics' table returns 0.001)
    expectRel(normalCdf(-5.47), 2.25017789482686e-8, 1e-12);
    // R: pnorm(9, lower.tail = FALSE)
    expectRel(normalCdf(9, false), 1.12858840595384e-19, 1e-12);
  });
  it('central values and symmetry', () => {
    expect(normalCdf(0)).toBe(0.5);
    // R: pnorm(1.959963984540054) = 0.975
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 15);
    expect(normalCdf(-1) + normalCdf(1)).toBeCloseTo(1, 15);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(-Infinity)).toBe(0);
    // 2 * pnorm(-2.816913204200655) (GH2008 C4.5 vs k-NN) = 4.8487627216789479e-03
    expectRel(normalTwoSidedP(2.8169132042006546), 4.8487627216789479e-3, 1e-12);
  });
  it('quantiles', () => {
    // R: qnorm(1 - 0.05/8) = 2.49770547441237
    expect(normalQuantile(0.05 / 8, false)).toBeCloseTo(2.4977054744123737, 12);
    // R: qnorm(0.975) = 1.95996398454005
    expect(normalQuantile(0.975)).toBeCloseTo(1.9599639845400536, 12);
    expect(normalQuantile(0.5)).toBe(0);
    // R: qnorm(1e-300) = -37.0470962993612
    expect(normalQuantile(1e-300)).toBeCloseTo(-37.0470962993612, 9);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(1.5)).toBeNaN();
    for (const p of [1e-12, 1e-5, 0.01, 0.2, 0.7, 0.999]) expectRel(normalCdf(normalQuantile(p)), p, 1e-13);
  });
});

describe('chi-square, F, gamma and beta (R 4.2.2)', () => {
  it('chi-square upper tail is computed directly', () => {
    // R: pchisq(120, 4, lower.tail = FALSE) = 5.34147156524488e-25 (1 - cdf gives 0)
    expectRel(chiSquareSf(120, 4), 5.34147156524488e-25, 1e-10);
    // R: pchisq(39.646666666666619, 4, lower.tail = FALSE) = 5.1213678596398507e-08
    expectRel(chiSquareSf(39.646666666666619, 4), 5.1213678596398507e-8, 1e-10);
    expect(chiSquareCdf(3, 3) + chiSquareSf(3, 3)).toBeCloseTo(1, 14);
  });
  it('F upper tail', () => {
    // R: pf(14.308719820791479, 4, 116, lower.tail = FALSE) = 1.593159881564414e-09
    expectRel(fSf(14.308719820791479, 4, 116), 1.593159881564414e-9, 1e-9);
    expect(fSf(2.5, 3, 39) + fCdf(2.5, 3, 39)).toBeCloseTo(1, 14);
    expect(fSf(0, 3, 39)).toBe(1);
  });
  it('log-gamma and regularized functions', () => {
    expect(logGamma(1)).toBeCloseTo(0, 14);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 14);
    // R: lgamma(101) = 363.739375555563
    expect(logGamma(101)).toBeCloseTo(363.739375555563, 9);
    expect(regularizedGammaP(1, 2)).toBeCloseTo(1 - Math.exp(-2), 14);
    expect(regularizedBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedBeta(0.3, 2, 3)).toBeCloseTo(0.3483, 12); // R: pbeta(0.3, 2, 3)
  });
});

describe('binomial and signed-rank distributions', () => {
  it('binomial pmf sums to one and matches closed forms', () => {
    const f = binomialPmfAll(14, 0.5);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    expect(f[0]).toBe(2 ** -14);
    expect(f[7]).toBeCloseTo(3432 / 16384, 15);
    const big = binomialPmfAll(3000, 0.5);
    expect(big.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });
  it('exact signed-rank distribution (R psignrank)', () => {
    // R: psignrank(20, 14) = 0.02093505859375
    expect(signRankCdf(20, 14)).toBeCloseTo(0.02093505859375, 15);
    expect(signRankSf(20, 14) + signRankCdf(20, 14)).toBeCloseTo(1, 14);
    const f = signRankDistribution(5);
    expect(f.length).toBe(16);
    expect(f[0]).toBe(1 / 32);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 15);
    expect(signRankCdf(-1, 5)).toBe(0);
    expect(signRankSf(-1, 5)).toBe(1);
  });
});

describe('studentized range (R 4.2.2 ptukey / qtukey)', () => {
  it('ptukey', () => {
    // R: ptukey(3.5, 4, 20) = 0.905041549451443
    expect(ptukey(3.5, 4, 20)).toBeCloseTo(0.905041549451443, 11);
    // R: ptukey(3.5, 4, Inf) = 0.93612366614076
    expect(ptukey(3.5, 4, Infinity)).toBeCloseTo(0.93612366614076, 11);
    // R: ptukey(2, 3, 10) = 0.629455324964442
    expect(ptukey(2, 3, 10)).toBeCloseTo(0.629455324964442, 11);
    expect(ptukey(0, 3, 10)).toBe(0);
    expect(ptukey(Infinity, 3, 10)).toBe(1);
  });
  it('qtukey', () => {
    // R: qtukey(0.99, 6, 12) = 6.10112822238497
    expect(qtukey(0.99, 6, 12)).toBeCloseTo(6.10112822238497, 9);
    // R: qtukey(0.95, 5, Inf) / sqrt(2) = 2.727774382518559 (also jStat.tukey.inv)
    expect(qtukey(0.95, 5, Infinity) / Math.SQRT2).toBeCloseTo(2.72777438251855, 10);
  });
});
