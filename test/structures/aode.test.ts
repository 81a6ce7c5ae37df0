import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import '../../src/estimators/index.js';
import { aode, spodeStructure } from '../../src/structures/aode.js';
import { dirichlet } from '../../src/estimators/dirichlet.js';
import { mEstimate } from '../../src/estimators/m-estimate.js';
import { GatedMixtureModel } from '../../src/bn/cpt.js';
import { MixtureModel } from '../../src/bn/inference.js';
import { fitModel, smoothedLogProbs } from '../../src/bn/cpt.js';
import { discreteFromArrays, MISSING } from '../../src/bn/data.js';
import { naiveBayesStructure } from '../../src/bn/structure.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { shipped } from './catalog-data.js';

const ctx = { rng: new Rng('aode') };

/**
 * Rows (X0, X1, C): (0,0,0) (0,1,0) (1,1,1) (1,0,1) (0,1,1). Laplace (Dirichlet α = 1) CPTs:
 *   P(C) = (3/7, 4/7)
 *   SPODE X0 for x = (0, 1): P(c) P(x0=0|c) P(x1=1|c,x0=0)
 *     c=0: 3/7 · (2+1)/(2+2) · (1+1)/(2+2) = 9/56;   c=1: 4/7 · (1+1)/(3+2) · (1+1)/(1+2) = 16/105
 *   SPODE X1: P(c) P(x1=1|c) P(x0=0|c,x1=1)
 *     c=0: 3/7 · (1+1)/(2+2) · (1+1)/(1+2) = 1/7;    c=1: 4/7 · (2+1)/(3+2) · (1+1)/(2+2) = 6/35
 *   AODE averages the joints: c=0 ∝ 9/56 + 1/7 = 17/56, c=1 ∝ 16/105 + 6/35 = 34/105, i.e. 15 : 16,
 *   P(c=0 | x) = 15/31 ≈ 0.48387 (averaging the two posteriors, 945/1841 and 5/11, would give ≈ 0.48393).
 */
const data = discreteFromArrays({
  cards: [2, 2],
  rows: [
    [0, 0],
    [0, 1],
    [1, 1],
    [1, 0],
    [0, 1],
  ],
  classes: [0, 0, 1, 1, 1],
  classCard: 2,
});
const row = (x0: number, x1: number) =>
  discreteFromArrays({ cards: [2, 2], rows: [[x0, x1]], classes: [0], classCard: 2 });

describe('aode structure', () => {
  it('lists one SPODE per super-parent with equal weights, joint combination and naive Bayes as fallback', () => {
    const s = aode.learn(data, {}, ctx);
    expect(s.combine).toBe('joint');
    expect(s.fallback?.parents).toEqual(naiveBayesStructure(2).parents);
    expect(s.members?.map((m) => m.weight)).toEqual([1, 1]);
    expect(s.members?.map((m) => m.structure.parents)).toEqual([
      [[2], [2, 0], []],
      [[2, 1], [2], []],
    ]);
    expect(spodeStructure(3, 1).parents).toEqual([[3, 1], [3], [3, 1], []]);
    expect(s.members?.map((m) => m.gate)).toEqual([
      { attribute: 0, values: [0, 1] },
      { attribute: 1, values: [0, 1] },
    ]);
    expect(s.info).toMatchObject({ members: 2, frequencyLimit: 1, infrequentValues: 0 });
  });
});

describe('aode posterior by hand (Laplace)', () => {
  it('averages the joints: P(c=0 | 0, 1) = 15/31', () => {
    const model = dirichlet.fit(data, aode.learn(data, {}, ctx), { alpha: 1 }, ctx);
    expect(model).toBeInstanceOf(GatedMixtureModel);
    expect(model.posterior(row(0, 1))[0]).toBeCloseTo(15 / 31, 14);
    // Averaging posteriors instead would give (945/1841 + 5/11)/2.
    const byPosterior = new MixtureModel(
      [0, 1].map((sp) => ({
        weight: 1,
        model: fitModel(data, spodeStructure(2, sp), (fc) => smoothedLogProbs(fc, 1)),
      })),
      'posterior',
    );
    expect(byPosterior.posterior(row(0, 1))[0]).toBeCloseTo((945 / 1841 + 5 / 11) / 2, 14);
  });

  it('frequency limit 3: X0 = 1 (2 rows) cannot be a super-parent; with no super-parent, naive Bayes', () => {
    // F(X0=0) = 3, F(X0=1) = 2, F(X1=0) = 2, F(X1=1) = 3.
    const s = aode.learn(data, { frequencyLimit: 3 }, ctx);
    expect(s.members?.map((m) => m.gate)).toEqual([
      { attribute: 0, values: [0] },
      { attribute: 1, values: [1] },
    ]);
    const model = dirichlet.fit(data, s, { alpha: 1 }, ctx);
    // (0, 1): both qualify, as above.
    expect(model.posterior(row(0, 1))[0]).toBeCloseTo(15 / 31, 14);
    // (1, 1): only SPODE X1: c=0 3/7·1/2·(0+1)/(1+2) = 1/14, c=1 4/7·3/5·(1+1)/(2+2) = 6/35 -> 5/17.
    expect(model.posterior(row(1, 1))[0]).toBeCloseTo(5 / 17, 14);
    // (1, 0): none qualifies -> naive Bayes: c=0 3/7·(0+1)/4·(1+1)/4 = 3/56, c=1 4/7·(2+1)/5·(1+1)/5 = 24/175 -> 25/89.
    expect(model.posterior(row(1, 0))[0]).toBeCloseTo(25 / 89, 14);
  });

  it('a missing super-parent value does not qualify: (?, 1) uses SPODE X1 with X0 summed out -> 5/13', () => {
    // c=0: 3/7 · 1/2 = 3/14, c=1: 4/7 · 3/5 = 12/35 -> 15 : 24.
    const model = dirichlet.fit(data, aode.learn(data, {}, ctx), { alpha: 1 }, ctx);
    expect(model.posterior(row(MISSING, 1))[0]).toBeCloseTo(5 / 13, 14);
    // Nothing observed: naive Bayes with everything summed out is the class prior 3/7.
    expect(model.posterior(row(MISSING, MISSING))[0]).toBeCloseTo(3 / 7, 14);
  });

  it('the m-estimate honours the same gates and joint combination', () => {
    const s = aode.learn(data, { frequencyLimit: 3 }, ctx);
    const m = mEstimate.fit(data, s, { m: 1, select: 'none' }, ctx);
    expect(m).toBeInstanceOf(GatedMixtureModel);
    // (1, 0) falls back to naive Bayes with m-estimates (n + 1/r)/(N + 1):
    //   c=0: (2+1/2)/6 · (0+1/2)/(2+1) · (1+1/2)/(2+1) = 5/144;  c=1: (3+1/2)/6 · (2+1/2)/4 · (1+1/2)/4 = 35/256
    //   P(c=0 | x) = 1280/6320 = 16/79.
    expect(m.posterior(row(1, 0))[0]).toBeCloseTo(16 / 79, 14);
  });
});

describe('aode on shipped data and edge cases', () => {
  it('house-votes-84 (missing values): every member gated on both values; posteriors sum to 1', () => {
    const v = shipped('house-votes-84');
    const s = aode.learn(v, {}, ctx);
    expect(s.members).toHaveLength(16);
    const p = dirichlet.fit(v, s, { alpha: 1 }, ctx).posterior(v);
    for (let r = 0; r < v.n; r++) expect(p[2 * r] + p[2 * r + 1]).toBeCloseTo(1, 12);
  });

  it('one attribute: the single SPODE is naive Bayes; no attribute: the class alone', () => {
    const one = discreteFromArrays({ cards: [3], rows: [[0], [1]], classes: [0, 1], classCard: 2 });
    expect(aode.learn(one, {}, ctx).members?.[0]?.structure.parents).toEqual([[1], []]);
    const none = discreteFromArrays({ cards: [], rows: [[]], classes: [0], classCard: 2 });
    expect(aode.learn(none, {}, ctx).parents).toEqual([[]]);
  });

  it('rejects a bad frequency limit; declares its attribute limit', () => {
    expect(() => aode.learn(data, { frequencyLimit: -1 }, ctx)).toThrow(UserError);
    expect(aode.maxAttributes).toBe(500);
  });
});
