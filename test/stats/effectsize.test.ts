import { describe, expect, it } from 'vitest';
import { akinshinGamma, bootstrapMeanDifference, cliffsDelta, scaledMad } from '../../src/stats/effectsize.js';

// References: autorank's own _cliffs_delta, _akinshin_gamma and _effect_level (github.com/sherbold/autorank
// autorank/_util.py), run with numpy/scipy outside the repository on these vectors.
const X = [0.81, 0.77, 0.92, 0.65, 0.88, 0.79, 0.91, 0.7, 0.83];
const Y = [0.78, 0.77, 0.9, 0.61, 0.89, 0.72, 0.86, 0.7, 0.8];

describe('effect sizes (autorank)', () => {
  it("Cliff's δ", () => {
    expect(cliffsDelta(X, Y)).toEqual({ value: expect.closeTo(0.1851851851851852, 14) as number, magnitude: 'small' });
    expect(cliffsDelta(Y, X).value).toBeCloseTo(-0.18518518518518517, 14);
    expect(cliffsDelta([1, 2], [3, 4])).toEqual({ value: -1, magnitude: 'large' });
  });
  it("Akinshin's γ and the scaled MAD", () => {
    expect(scaledMad(X)).toBeCloseTo(0.10378199999999992, 12);
    expect(akinshinGamma(X, Y).value).toBeCloseTo(0.26919874756687184, 12);
    expect(akinshinGamma(X, Y).magnitude).toBe('small');
    expect(akinshinGamma(Y, X).value).toBeCloseTo(-0.26919874756687184, 12);
  });
});

describe('percentile bootstrap CI of the mean paired difference', () => {
  it('converges to the exact bootstrap quantiles (all 4^4 resamples enumerated)', () => {
    const a = [0.1, -0.05, 0.2, 0];
    const b = [0, 0, 0, 0];
    const all: number[] = [];
    for (let i = 0; i < 256; i++) {
      const idx = [i & 3, (i >> 2) & 3, (i >> 4) & 3, (i >> 6) & 3];
      all.push(idx.reduce((s, j) => s + a[j], 0) / 4);
    }
    all.sort((x, y) => x - y);
    const exact = (q: number): number => all[Math.ceil(256 * q) - 1];
    const r = bootstrapMeanDifference(a, b, { resamples: 200000, seed: 'exact', level: 0.9 });
    expect(r.mean).toBeCloseTo(0.0625, 15);
    expect(r.lower).toBeCloseTo(exact(0.05), 12);
    expect(r.upper).toBeCloseTo(exact(0.95), 12);
  });
  it('is seeded: same seed, same interval; another seed, another interval', () => {
    const a = [0.81, 0.77, 0.92, 0.65, 0.88, 0.79, 0.91, 0.7, 0.83];
    const r1 = bootstrapMeanDifference(a, Y, { seed: 'x' });
    const r2 = bootstrapMeanDifference(a, Y, { seed: 'x' });
    const r3 = bootstrapMeanDifference(a, Y, { seed: 'y' });
    expect(r2).toEqual(r1);
    expect(r3.lower === r1.lower && r3.upper === r1.upper).toBe(false);
    expect(r1.lower).toBeLessThan(r1.mean);
    expect(r1.upper).toBeGreaterThan(r1.mean);
  });
  it('rejects unpaired input', () => {
    expect(() => bootstrapMeanDifference([1, 2], [1], {})).toThrow(/paired/);
  });
});
