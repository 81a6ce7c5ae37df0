import { describe, expect, it } from 'vitest';
import { Variates } from '../../src/stats/random.js';
import { bayesianSignedRank, correlatedBayesianTTest } from '../../src/stats/bayesian.js';
import { Rng } from '../../src/util/rng.js';
import { BENAVOLI_FOLDS, BENAVOLI_MEANS } from './bayesian-fixtures.js';

// References: baycomp (the authors' package, github.com/janezd/baycomp, run from its source outside the
// repository) on the data of Benavoli et al. (2017):
//   SignedRankTest.probs(x.mean(1)/100, y.mean(1)/100, rope, random_state=seed)   (x = first, y = second)
//   CorrelatedTTest(x[d]/100, y[d]/100, rope=0.01, runs=10).probs(); .mean, .var
// baycomp returns (P(y − x < −rope), P(rope), P(y − x > rope)); here d = a − b with a = y, b = x.
describe('Bayesian signed-rank test (Benavoli et al. 2017) = baycomp SignedRankTest', () => {
  // baycomp, seeds 1, 2, 3: nbc–aode (0, 0.1297, 0.8703), (0, 0.1274, 0.8726), (0, 0.1280, 0.8720);
  // nbc–j48 (0.2346, 0.0071, 0.7583), (0.2303, 0.0074, 0.7623), (0.2323, 0.0068, 0.7609);
  // aode–hnb (0.0014, 0.9660, 0.0325), (0.0015, 0.9662, 0.0323), (0.0015, 0.9669, 0.0316).
  // Monte Carlo error with 50,000 samples is about 0.002; we ask for agreement within 0.01.
  const cases = [
    { x: 'nbc', y: 'aode', want: [0, 0.1284, 0.8716] },
    { x: 'nbc', y: 'j48', want: [0.2324, 0.0071, 0.7605] },
    { x: 'aode', y: 'hnb', want: [0.0015, 0.9664, 0.0321] },
  ];
  it.each(cases)('$x vs $y, rope 0.01', ({ x, y, want }) => {
    const r = bayesianSignedRank(BENAVOLI_MEANS[y], BENAVOLI_MEANS[x], 0.01, { seed: 'test' });
    expect(Math.abs(r.below - want[0])).toBeLessThan(0.01);
    expect(Math.abs(r.rope - want[1])).toBeLessThan(0.01);
    expect(Math.abs(r.above - want[2])).toBeLessThan(0.01);
    expect(r.below + r.rope + r.above).toBeCloseTo(1, 12);
    expect(r.kept.length).toBe(2000);
    expect(r.meanTheta[0] + r.meanTheta[1] + r.meanTheta[2]).toBeCloseTo(1, 12);
  });

  it('without a rope: P(a > b) as baycomp (nbc–j48 0.7728, aode–hnb 0.6467 with seed 1)', () => {
    const r = bayesianSignedRank(BENAVOLI_MEANS['j48'], BENAVOLI_MEANS['nbc'], 0, { seed: 'test' });
    expect(r.rope).toBe(0);
    expect(Math.abs(r.above - 0.7728)).toBeLessThan(0.01);
    const s = bayesianSignedRank(BENAVOLI_MEANS['hnb'], BENAVOLI_MEANS['aode'], 0, { seed: 'test' });
    expect(Math.abs(s.above - 0.6467)).toBeLessThan(0.01);
  });

  it('is reproducible: the same seed gives identical numbers, another seed differs only by Monte Carlo error', () => {
    const a = bayesianSignedRank(BENAVOLI_MEANS['j48'], BENAVOLI_MEANS['nbc'], 0.01, { seed: 's', samples: 5000 });
    const b = bayesianSignedRank(BENAVOLI_MEANS['j48'], BENAVOLI_MEANS['nbc'], 0.01, { seed: 's', samples: 5000 });
    const c = bayesianSignedRank(BENAVOLI_MEANS['j48'], BENAVOLI_MEANS['nbc'], 0.01, { seed: 't', samples: 5000 });
    expect(b).toEqual(a);
    expect(c.above).not.toBe(a.above);
    expect(Math.abs(c.above - a.above)).toBeLessThan(0.03);
  });

  it('each kept posterior sample equals the O(n²) double sum of the paper, ties at ±rope counted ½', () => {
    // Differences with exact ties at 2·rope = 0.5 and at zero.
    const a = [0.25, 0.5, 0, -0.25, 0.75, 0.1, -0.5];
    const b = [0, 0, 0, 0, 0, 0, 0];
    const r = bayesianSignedRank(a, b, 0.25, { seed: 'brute', samples: 50, keep: 50, prior: 0.7 });
    const v = new Variates(new Rng('brute'));
    const d = [0, ...a];
    const h = (x: number, t: number): number => (x > t ? 1 : x === t ? 0.5 : 0);
    for (let s = 0; s < 50; s++) {
      const g = d.map((_, i) => v.gamma(i === 0 ? 0.7 : 1));
      const tot = g.reduce((x, y) => x + y, 0);
      const w = g.map((x) => x / tot);
      let above = 0;
      let below = 0;
      for (let i = 0; i < d.length; i++)
        for (let j = 0; j < d.length; j++) {
          above += w[i] * w[j] * h(d[i] + d[j], 0.5);
          below += w[i] * w[j] * h(-d[i] - d[j], 0.5);
        }
      expect(r.kept[s][0]).toBeCloseTo(below, 12);
      expect(r.kept[s][2]).toBeCloseTo(above, 12);
    }
  });

  it('swapping a and b swaps below and above exactly', () => {
    const a = bayesianSignedRank(BENAVOLI_MEANS['j48'], BENAVOLI_MEANS['nbc'], 0.01, { seed: 's', samples: 3000 });
    const b = bayesianSignedRank(BENAVOLI_MEANS['nbc'], BENAVOLI_MEANS['j48'], 0.01, { seed: 's', samples: 3000 });
    expect(b.below).toBe(a.above);
    expect(b.above).toBe(a.below);
  });
});

describe('correlated Bayesian t-test (Corani & Benavoli 2015) = baycomp CorrelatedTTest', () => {
  // baycomp: (mean, var, df, probs) for runs = 10 (ρ = 1/10), rope 0.01.
  const cases = [
    {
      x: 'nbc',
      y: 'aode',
      d: 0,
      mean: 0.019388199999999994,
      variance: 3.0337701691178453e-5,
      p: [3.021105047749901e-7, 0.045714032898925394, 0.9542856649905699],
    },
    {
      x: 'nbc',
      y: 'aode',
      d: 1,
      mean: 0.0026088999999999973,
      variance: 2.7776512546700353e-5,
      p: [0.009312149167360215, 0.9087251242585637, 0.0819627265740761],
    },
    {
      x: 'nbc',
      y: 'aode',
      d: 3,
      mean: 0.007192400000000007,
      variance: 5.591533383407406e-5,
      p: [0.011798228435242605, 0.6341429054866294, 0.354058866078128],
    },
    {
      x: 'nbc',
      y: 'j48',
      d: 0,
      mean: 0.026963099999999986,
      variance: 6.309306618351295e-5,
      p: [5.065468804824266e-6, 0.017585482722251244, 0.9824094518089439],
    },
    {
      x: 'nbc',
      y: 'j48',
      d: 1,
      mean: 0.0582619,
      variance: 0.0009769226177188662,
      p: [0.015662659107002933, 0.04721519214717962, 0.9371221487458175],
    },
    {
      x: 'nbc',
      y: 'j48',
      d: 3,
      mean: -0.004875700000000001,
      variance: 0.00018893080963590343,
      p: [0.3550448234851501, 0.5040690598284417, 0.14088611668640816],
    },
  ];
  it.each(cases)('$x vs $y on dataset $d', ({ x, y, d, mean, variance, p }) => {
    const r = correlatedBayesianTTest(BENAVOLI_FOLDS[y][d], BENAVOLI_FOLDS[x][d], 0.1, 0.01);
    expect(r.meanDifference).toBeCloseTo(mean, 12);
    expect(r.scale ** 2 / variance).toBeCloseTo(1, 10);
    expect(r.df).toBe(99);
    expect(r.below / p[0]).toBeCloseTo(1, 7);
    expect(r.rope).toBeCloseTo(p[1], 9);
    expect(r.above).toBeCloseTo(p[2], 9);
  });
  it("baycomp's unit-test statistics: x = (4, 2, 6), y = (5, 7, 3), one run: var = 16·(1/3 + 1/2)", () => {
    const r = correlatedBayesianTTest([5, 7, 3], [4, 2, 6], 1 / 3, 0);
    expect(r.meanDifference).toBe(1);
    expect(r.scale ** 2).toBeCloseTo(16 * (1 / 3 + 1 / 2), 12);
    expect(r.rope).toBe(0);
  });
  it('zero variance is a point mass (baycomp Posterior(42, 0, 1, 2).probs() = [0, 0, 1])', () => {
    expect(correlatedBayesianTTest([42, 42], [0, 0], 0.1, 2)).toMatchObject({ below: 0, rope: 0, above: 1 });
    expect(correlatedBayesianTTest([1, 1], [0, 0], 0.1, 2)).toMatchObject({ below: 0, rope: 1, above: 0 });
    // baycomp Posterior(0, 0, 1).probs() = [0.5, 0.5] without a rope.
    expect(correlatedBayesianTTest([1, 1], [1, 1], 0.1, 0)).toMatchObject({ below: 0.5, rope: 0, above: 0.5 });
  });
});
