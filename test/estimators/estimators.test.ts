import { describe, it, expect } from 'vitest';
import { mle, mleLogProbs } from '../../src/estimators/mle.js';
import { dirichlet, dirichletLogProbs } from '../../src/estimators/dirichlet.js';
import { eap, bdeuLogProbs } from '../../src/estimators/eap.js';
import '../../src/estimators/index.js';
import { getEstimator, withDefaults } from '../../src/registry.js';
import type { CptModel } from '../../src/bn/cpt.js';
import { familyCounts } from '../../src/bn/counts.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { Rng } from '../../src/util/rng.js';
import { tinyData } from '../bn/fixtures.js';

const ctx = { rng: new Rng('estimators') };
const exp = (a: Float64Array) => [...a].map(Math.exp);

function expectClose(actual: number[], expected: number[], digits = 14): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i], digits));
}

describe('CPT values on the tiny data (X2 | C counts: C=0 [2,1,1], C=1 [1,1,1])', () => {
  const d = tinyData();
  const x2 = familyCounts(d, 2, [3]);
  const cls = familyCounts(d, 3, []);

  it('mle: N_ijk / N_ij', () => {
    expectClose(exp(mleLogProbs(x2)), [2 / 4, 1 / 4, 1 / 4, 1 / 3, 1 / 3, 1 / 3]);
    expectClose(exp(mleLogProbs(cls)), [1 / 2, 1 / 2]);
  });

  it('dirichlet α = 1 (Laplace): (N_ijk + 1) / (N_ij + r)', () => {
    expectClose(exp(dirichletLogProbs(x2, 1)), [3 / 7, 2 / 7, 2 / 7, 2 / 6, 2 / 6, 2 / 6]);
  });

  it('dirichlet α = 0.5: (N_ijk + 0.5) / (N_ij + 1.5)', () => {
    expectClose(exp(dirichletLogProbs(x2, 0.5)), [2.5 / 5.5, 1.5 / 5.5, 1.5 / 5.5, 1.5 / 4.5, 1.5 / 4.5, 1.5 / 4.5]);
  });

  it('eap α = 1: α_ijk = 1/(r q) = 1/6, θ = (N_ijk + 1/6) / (N_ij + 1/2)', () => {
    // C=0: (2 + 1/6)/(4 + 1/2) = 13/27, (1 + 1/6)/(9/2) = 7/27;  C=1: (1 + 1/6)/(3 + 1/2) = 1/3
    expectClose(exp(bdeuLogProbs(x2, 1)), [13 / 27, 7 / 27, 7 / 27, 1 / 3, 1 / 3, 1 / 3]);
    // Class (r = 2, q = 1): (4 + 1/2)/(8 + 1) = 1/2
    expectClose(exp(bdeuLogProbs(cls, 1)), [1 / 2, 1 / 2]);
  });

  it('eap α = 12 on X1 | C, X0 (r = 2, q = 4): α_ijk = 1.5, θ = (N_ijk + 1.5)/(N_ij + 3)', () => {
    // counts (c,x0): (0,0)[2,1] (0,1)[0,1] (1,0)[0,1] (1,1)[1,2]
    const fc = familyCounts(d, 1, [3, 0]);
    expectClose(exp(bdeuLogProbs(fc, 12)), [3.5 / 6, 2.5 / 6, 1.5 / 4, 2.5 / 4, 1.5 / 4, 2.5 / 4, 2.5 / 6, 3.5 / 6]);
  });
});

describe('unseen parent configurations and zero cells', () => {
  // X1 | X0 where X0 = 2 never occurs: MLE falls back to uniform; X1 = 1 never occurs with X0 = 0.
  const d = discreteFromArrays({
    cards: [3, 2],
    rows: [
      [0, 0],
      [0, 0],
      [1, 1],
      [1, 0],
    ],
    classes: [0, 1, 0, 1],
    classCard: 2,
  });
  const fc = familyCounts(d, 1, [0]);

  it('mle: unseen configuration -> uniform; zero cell -> probability 0 (log -Infinity)', () => {
    const lp = mleLogProbs(fc);
    expect(lp[1]).toBe(-Infinity); // P(X1=1 | X0=0) = 0/2
    expectClose(exp(lp), [1, 0, 1 / 2, 1 / 2, 1 / 2, 1 / 2]);
  });

  it('dirichlet α = 0 equals mle; eap never gives zeros', () => {
    expect([...dirichletLogProbs(fc, 0)]).toEqual([...mleLogProbs(fc)]);
    // eap α = 1: a = 1/(2·3) = 1/6; X0=0: (2 + 1/6)/(2 + 1/3) = 13/14, (1/6)/(7/3) = 1/14; X0=2: uniform.
    expectClose(exp(bdeuLogProbs(fc, 1)), [13 / 14, 1 / 14, 1 / 2, 1 / 2, 1 / 2, 1 / 2]);
  });

  it('rejects invalid alpha', () => {
    expect(() => dirichletLogProbs(fc, -1)).toThrow(/alpha/);
    expect(() => bdeuLogProbs(fc, 0)).toThrow(/alpha/);
  });
});

describe('mle posterior when every class has probability 0', () => {
  // X0 = 0 only with C = 0, X1 = 0 only with C = 1: the row (0, 0) has P(x | c) = 0 for both classes.
  const train = discreteFromArrays({
    cards: [2, 2],
    rows: [
      [0, 1],
      [1, 0],
    ],
    classes: [0, 1],
    classCard: 2,
  });
  const model = mle.fit(train, naiveBayesStructure(2), {}, ctx);
  const test = discreteFromArrays({
    cards: [2, 2],
    rows: [
      [0, 0],
      [0, 1],
    ],
    classes: [0, 0],
    classCard: 2,
  });

  it('falls back to the uniform posterior', () => {
    const p = model.posterior(test);
    expect(p[0]).toBe(0.5);
    expect(p[1]).toBe(0.5);
    const lj = (model as CptModel).logJoint(test);
    expect(lj[0]).toBe(-Infinity);
    expect(lj[1]).toBe(-Infinity);
  });

  it('a zero under one class only gives a certain posterior', () => {
    const p = model.posterior(test);
    expect(p[2]).toBe(1);
    expect(p[3]).toBe(0);
  });
});

describe('registered estimators', () => {
  it('are in the registry with schemas, defaults and citations', () => {
    for (const e of [mle, dirichlet, eap]) {
      expect(getEstimator(e.id)).toBe(e);
      expect(e.citation.length).toBeGreaterThan(10);
      expect(e.params).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(dirichlet.defaults).toEqual({ alpha: 1 });
    expect(eap.defaults).toEqual({ alpha: 1 });
  });

  it('fit uses the defaults: dirichlet = Laplace NB posterior 9/23 on the worked example', () => {
    const test = discreteFromArrays({ cards: [2, 2, 3], rows: [[1, 0, 2]], classes: [0], classCard: 2 });
    const p = dirichlet
      .fit(tinyData(), naiveBayesStructure(3), withDefaults(dirichlet, undefined), ctx)
      .posterior(test);
    expect(p[0]).toBeCloseTo(9 / 23, 14);
    const q = dirichlet.fit(tinyData(), naiveBayesStructure(3), {}, ctx).posterior(test);
    expect(q[0]).toBeCloseTo(9 / 23, 14);
  });

  it('eap with a large α pulls the NB posterior towards the prior', () => {
    const test = discreteFromArrays({ cards: [2, 2, 3], rows: [[1, 0, 2]], classes: [0], classCard: 2 });
    const small = eap.fit(tinyData(), naiveBayesStructure(3), { alpha: 0.01 }, ctx).posterior(test)[0];
    const big = eap.fit(tinyData(), naiveBayesStructure(3), { alpha: 1e6 }, ctx).posterior(test)[0];
    expect(Math.abs(big - 0.5)).toBeLessThan(1e-4);
    expect(Math.abs(small - 0.5)).toBeGreaterThan(0.1);
  });

  it('fits ensembles member by member', () => {
    const s: Structure = {
      m: 3,
      parents: naiveBayesStructure(3).parents,
      members: [{ weight: 1, structure: naiveBayesStructure(3) }],
    };
    const test = discreteFromArrays({ cards: [2, 2, 3], rows: [[1, 0, 2]], classes: [0], classCard: 2 });
    expect(dirichlet.fit(tinyData(), s, { alpha: 1 }, ctx).posterior(test)[0]).toBeCloseTo(9 / 23, 14);
  });
});
