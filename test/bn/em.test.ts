import { describe, it, expect } from 'vitest';
import '../../src/methods.js';
import { EM_DEFAULTS, fitByEm, fitCptModelEm, type EmSettings } from '../../src/bn/em.js';
import { fitCptModel, smoothedLogProbs, type CptModel } from '../../src/bn/cpt.js';
import { discreteFromArrays, MISSING, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { getEstimator, getStructure } from '../../src/registry.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { shipped } from '../structures/catalog-data.js';

const X = MISSING;
const settings = (s: Partial<EmSettings> = {}): EmSettings => ({
  ...EM_DEFAULTS,
  max_iterations: 500,
  tolerance: 1e-13,
  ...s,
});

/** Observed-data log-likelihood through the inference engine: Σ_rows log P(y_r, x_obs). */
function logLikelihood(model: CptModel, d: DiscreteData): number {
  const lj = model.logJoint(d);
  let s = 0;
  for (let r = 0; r < d.n; r++) s += lj[r * d.classCard + d.classColumn[r]];
  return s;
}

describe('hand-worked: two binary variables A -> B (one class value)', () => {
  // Rows (A, B): (0,0) x2, (0,1), (1,1) x3, (?,1) x2, (0,?).
  // Parameters p = P(A=1), q0 = P(B=1 | A=0), q1 = P(B=1 | A=1); w = P(A=1 | B=1) = p q1 / (p q1 + (1-p) q0).
  // Expected counts give the EM map (maximum likelihood M-step):
  //   p'  = (3 + 2w) / 9
  //   q0' = (1 + 2(1-w) + q0) / (3 + 2(1-w) + 1)     [the (0,?) row adds q0 to B=1 and 1 - q0 to B=0]
  //   q1' = (3 + 2w) / (3 + 2w) = 1                  [no A=1 row has B=0]
  const rows = [
    [0, 0],
    [0, 0],
    [0, 1],
    [1, 1],
    [1, 1],
    [1, 1],
    [X, 1],
    [X, 1],
    [0, X],
  ];
  const d = discreteFromArrays({ names: ['A', 'B'], cards: [2, 2], rows, classes: rows.map(() => 0), classCard: 1 });
  const s: Structure = { m: 2, parents: [[2], [2, 0], []] };

  it('EM reaches the fixed point of the hand-derived map, from the available-case start', () => {
    // Available case: p = 3/7 (A observed in 7 rows), q0 = 1/3, q1 = 1.
    let [p, q0, q1] = [3 / 7, 1 / 3, 1];
    for (let i = 0; i < 2000; i++) {
      const w = (p * q1) / (p * q1 + (1 - p) * q0);
      [p, q0, q1] = [(3 + 2 * w) / 9, (1 + 2 * (1 - w) + q0) / (6 - 2 * w), 1];
    }
    const { model, trace } = fitCptModelEm(
      d,
      s,
      () => 0,
      settings({ tolerance: 0, max_iterations: 2000 }),
      new Rng('em'),
    );
    expect(model.prob(0, 1, [0])).toBeCloseTo(p, 9);
    expect(model.prob(1, 1, [0, 0])).toBeCloseTo(q0, 9);
    expect(model.prob(1, 1, [0, 1])).toBeCloseTo(q1, 12);
    // The fixed point: q0 = (3 - 2w) / (5 - 2w).
    const w = (p * q1) / (p * q1 + (1 - p) * q0);
    expect(q0).toBeCloseTo((3 - 2 * w) / (5 - 2 * w), 12);
    expect(trace.converged).toBe(true);
    // The first objective is the available-case start.
    const ac = fitCptModel(d, s, (fc) => smoothedLogProbs(fc, 0));
    expect(trace.logLikelihood[0]).toBeCloseTo(logLikelihood(ac, d), 10);
    expect(trace.logLikelihood.at(-1)!).toBeGreaterThan(trace.logLikelihood[0] + 1e-3);
  });
});

describe('E-step and likelihood against the inference engine', () => {
  it('the traced log-likelihood of the final tables equals Σ log P(y, x_obs) from variable elimination (TAN, house-votes-84)', () => {
    const v = shipped('house-votes-84');
    const tan = getStructure('tan')!.learn(v, { root: 0 }, { rng: new Rng('t') });
    for (const a of [0, 1, 0.5]) {
      const { model, trace } = fitCptModelEm(
        v,
        tan,
        () => a,
        settings({ max_iterations: 30, tolerance: 0 }),
        new Rng('em'),
      );
      expect(trace.logLikelihood.at(-1)!).toBeCloseTo(logLikelihood(model, v), 8);
    }
  });
});

describe('variable elimination and enumeration give the same E-step', () => {
  it.each([
    ['house-votes-84', 'tan'],
    ['hepatitis', 'kdb'],
  ])('%s, %s', (name, sid) => {
    const d = shipped(name, 'mdl');
    const s = getStructure(sid)!.learn(d, sid === 'kdb' ? { k: 2 } : {}, { rng: new Rng('s') });
    const opts = settings({ max_iterations: 5, tolerance: 0 });
    const en = fitCptModelEm(d, s, () => 1, opts, new Rng('e'), undefined, undefined, 1 << 20);
    const ve = fitCptModelEm(d, s, () => 1, opts, new Rng('e'), undefined, undefined, 0);
    en.trace.objective.forEach((o, i) => expect(ve.trace.objective[i]).toBeCloseTo(o, 8));
    const pe = en.model.posterior(d);
    const pv = ve.model.posterior(d);
    for (let i = 0; i < pe.length; i++) expect(pv[i]).toBeCloseTo(pe[i], 10);
  });
});

describe('monotone objective (log-likelihood + Σ a log θ never decreases beyond 1e-9 relative)', () => {
  const cases: [string, string, number][] = [
    ['house-votes-84', 'tan', 0],
    ['house-votes-84', 'kdb', 1],
    ['hepatitis', 'tan', 1],
    ['breast-cancer', 'tan', 0.5],
    ['horse-colic', 'tan', 1],
  ];
  it.each(cases)('%s, %s, a = %s', (name, sid, a) => {
    const d = shipped(name, 'mdl');
    const s = getStructure(sid)!.learn(d, sid === 'kdb' ? { k: 2 } : {}, { rng: new Rng('s') });
    for (const init of ['available-case', 'uniform', 'random'] as const) {
      const its = name === 'horse-colic' ? 8 : 40;
      const { trace } = fitCptModelEm(
        d,
        s,
        () => a,
        settings({ max_iterations: its, tolerance: 0, init }),
        new Rng(init),
      );
      const obj = trace.objective;
      for (let i = 1; i < obj.length; i++)
        expect(obj[i] - obj[i - 1]).toBeGreaterThanOrEqual(-1e-9 * Math.abs(obj[i - 1]));
      expect(obj.length).toBeGreaterThan(2);
    }
  });

  it('restarts keep the best final objective and are seeded', () => {
    const d = shipped('hepatitis', 'mdl');
    const s = getStructure('tan')!.learn(d, {}, { rng: new Rng('s') });
    const one = fitCptModelEm(
      d,
      s,
      () => 1,
      settings({ max_iterations: 20, restarts: 0, init: 'random' }),
      new Rng('r'),
    );
    const three = fitCptModelEm(
      d,
      s,
      () => 1,
      settings({ max_iterations: 20, restarts: 2, init: 'random' }),
      new Rng('r'),
    );
    expect(three.trace.objective.at(-1)!).toBeGreaterThanOrEqual(one.trace.objective.at(-1)!);
    const again = fitCptModelEm(
      d,
      s,
      () => 1,
      settings({ max_iterations: 20, restarts: 2, init: 'random' }),
      new Rng('r'),
    );
    expect(again.trace).toEqual(three.trace);
  });
});

describe('naive Bayes with the class observed', () => {
  it('EM = available case (each missing attribute is a leaf given the observed class), so it stops after one iteration', () => {
    const d = shipped('hepatitis', 'mdl');
    const s = naiveBayesStructure(d.columns.length);
    const ac = getEstimator('dirichlet')!.fit(d, s, { alpha: 1 }, { rng: new Rng('x') });
    const em = fitByEm(d, s, getEstimator('dirichlet')!, { alpha: 1 }, EM_DEFAULTS, { rng: new Rng('x') });
    const pa = ac.posterior(d);
    const pe = em.posterior(d);
    for (let i = 0; i < pa.length; i++) expect(pe[i]).toBeCloseTo(pa[i], 12);
  });
});

describe('refusals', () => {
  it('an estimator without a pseudo-count (m-estimate) is a user error', () => {
    const d = shipped('hepatitis', 'mdl');
    const s = naiveBayesStructure(d.columns.length);
    expect(() => fitByEm(d, s, getEstimator('m-estimate')!, {}, EM_DEFAULTS, { rng: new Rng('x') })).toThrow(UserError);
  });
});
