/**
 * The paired percentile bootstrap of a mean difference: deterministic for a seed, degenerate for constant
 * differences, and for many differences close to the normal-theory interval mean ± 1.96 · sd / √n.
 */
import { describe, expect, it } from 'vitest';
import { pairedBootstrap } from '../../src/stats/bootstrap.js';
import { Rng } from '../../src/util/rng.js';

describe('pairedBootstrap', () => {
  it('is the same for the same seed, and a point for constant differences', () => {
    const d = [0.01, -0.02, 0.03, 0.0, 0.05, -0.01];
    expect(pairedBootstrap(d, 's')).toEqual(pairedBootstrap(d, 's'));
    expect(pairedBootstrap(d, 's')).not.toEqual(pairedBootstrap(d, 't'));
    expect(pairedBootstrap([0.25, 0.25, 0.25], 's')).toMatchObject({ mean: 0.25, lo: 0.25, hi: 0.25 });
    expect(() => pairedBootstrap([1], 's')).toThrow(/at least 2/);
  });

  it('agrees with the normal-theory interval for 400 differences', () => {
    const rng = new Rng('bootstrap-normal');
    const d = Array.from({ length: 400 }, () => rng.next() - 0.4); // uniform on [−0.4, 0.6): mean 0.1, sd 1/√12
    const ci = pairedBootstrap(d, 'n', 4000);
    const mean = d.reduce((a, b) => a + b, 0) / d.length;
    const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (d.length - 1));
    const half = (1.96 * sd) / Math.sqrt(d.length);
    expect(ci.mean).toBeCloseTo(mean, 12);
    expect(ci.lo).toBeLessThan(mean);
    expect(ci.hi).toBeGreaterThan(mean);
    expect(Math.abs(ci.lo - (mean - half))).toBeLessThan(0.15 * half);
    expect(Math.abs(ci.hi - (mean + half))).toBeLessThan(0.15 * half);
  });
});
