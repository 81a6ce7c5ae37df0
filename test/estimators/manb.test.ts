import { describe, it, expect } from 'vitest';
import '../../src/estimators/index.js';
import { fitManb, manb, manbLogArcPosterior } from '../../src/estimators/manb.js';
import { getEstimator } from '../../src/registry.js';
import { attributeClassCounts } from '../../src/bn/counts.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure } from '../../src/bn/structure.js';
import { lgamma } from '../../src/bn/scores.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

const ctx = { rng: new Rng('manb') };

/** One binary attribute, binary class: C = 0 has X = (3, 1), C = 1 has X = (0, 2). */
const d2x2 = discreteFromArrays({
  cards: [2],
  rows: [[0], [0], [0], [1], [1], [1]],
  classes: [0, 0, 0, 0, 1, 1],
  classCard: 2,
});

describe('MANB arc posterior on a 2 × 2 table (worked by hand)', () => {
  const t = attributeClassCounts(d2x2, 0);

  it('α = 1, prior 1/2: P(C → X | D) = 0.7', () => {
    // P(D | arc)    = Π_c (r−1)!/(N_c + r − 1)! Π_x N_xc! = (1!·3!·1!/5!) · (1!·0!·2!/3!) = 1/20 · 1/3 = 1/60
    // P(D | no arc) = (r−1)!/(N + r − 1)! Π_x N_x!         = 1!·3!·3!/7!                   = 1/140
    // posterior = (1/60) / (1/60 + 1/140) = 140/200 = 0.7
    const { logArc, logNoArc } = manbLogArcPosterior(t, 2, 2, 1, 0.5);
    expect(Math.exp(logArc)).toBeCloseTo(0.7, 14);
    expect(Math.exp(logNoArc)).toBeCloseTo(0.3, 14);
  });

  it('α = 1, prior 0.2: odds (0.2/0.8)·(140/60) = 7/12, so 7/19', () => {
    expect(Math.exp(manbLogArcPosterior(t, 2, 2, 1, 0.2).logArc)).toBeCloseTo(7 / 19, 14);
  });

  it('α = 1/2: P(D | arc) = 15/1024, P(D | no arc) = 5/1024, posterior 0.75', () => {
    // arc:    c0: Γ(1)/Γ(5) · Γ(3.5)/Γ(.5) · Γ(1.5)/Γ(.5) = 1/24 · 15/8 · 1/2 = 15/384
    //         c1: Γ(1)/Γ(3) · Γ(.5)/Γ(.5) · Γ(2.5)/Γ(.5)  = 1/2 · 1 · 3/4    = 3/8      → 15/1024
    // no arc:     Γ(1)/Γ(7) · (Γ(3.5)/Γ(.5))²              = (15/8)² / 720            = 5/1024
    expect(Math.exp(manbLogArcPosterior(t, 2, 2, 0.5, 0.5).logArc)).toBeCloseTo(0.75, 14);
  });

  it('the fitted network mixes the two estimates: θ(0|c0) = 37/60, θ(0|c1) = 13/40, posterior 370/487', () => {
    // θ(0|c0) = 0.7 · (3+1)/(4+2) + 0.3 · (3+1)/(6+2) = 37/60;  θ(0|c1) = 0.7 · 1/4 + 0.3 · 1/2 = 13/40
    // P(c) = (5/8, 3/8);  P(c0 | x=0) = (5/8 · 37/60) / (5/8 · 37/60 + 3/8 · 13/40) = 370/487
    const model = fitManb(d2x2, 1, 0.5);
    expect(model.arcPosteriors[0]).toBeCloseTo(0.7, 14);
    expect(model.prob(0, 0, [0])).toBeCloseTo(37 / 60, 14);
    expect(model.prob(0, 0, [1])).toBeCloseTo(13 / 40, 14);
    expect(model.prob(1, 0)).toBeCloseTo(5 / 8, 14);
    const p = model.posterior(discreteFromArrays({ cards: [2], rows: [[0], [-1]], classes: [0, 0], classCard: 2 }));
    expect(p[0]).toBeCloseTo(370 / 487, 14);
    // A missing value leaves the class prior.
    expect(p[2]).toBeCloseTo(5 / 8, 14);
  });
});

/** log Dirichlet-multinomial marginal likelihood of counts with α per cell. */
function logMarginal(counts: number[], alpha: number): number {
  const N = counts.reduce((a, b) => a + b, 0);
  let s = lgamma(counts.length * alpha) - lgamma(N + counts.length * alpha);
  for (const v of counts) s += lgamma(v + alpha) - lgamma(alpha);
  return s;
}

describe('MANB equals explicit averaging over all 2^m naive Bayes feature subsets', () => {
  // An independent computation: enumerate the 8 subsets G of 3 attributes, weight each by
  // P(G) P(D | G) (structure prior × marginal likelihoods), and average P(c, x | G, D) (Dirichlet
  // posterior means); then normalise over c. Dash & Cooper's factorisation must give the same posteriors.
  const rng = new Rng('enumerate');
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < 40; r++) {
    const c = rng.int(3);
    classes.push(c);
    rows.push([rng.next() < 0.7 ? c % 2 : rng.int(2), rng.int(3), rng.next() < 0.5 ? c : rng.int(3)]);
  }
  const d: DiscreteData = discreteFromArrays({ cards: [2, 3, 3], rows, classes, classCard: 3 });
  const C = 3;

  it.each([
    [1, 0.5],
    [0.5, 0.3],
    [2, 0.9],
  ])('α = %d, prior %d', (alpha, prior) => {
    const m = 3;
    const tables = [0, 1, 2].map((a) => attributeClassCounts(d, a));
    const cards = [2, 3, 3];
    const nc = [0, 0, 0];
    for (const c of classes) nc[c]++;
    const logW: number[] = [];
    for (let G = 0; G < 1 << m; G++) {
      let lw = 0;
      for (let a = 0; a < m; a++) {
        const r = cards[a];
        const t = tables[a];
        if (G & (1 << a)) {
          lw += Math.log(prior);
          for (let c = 0; c < C; c++)
            lw += logMarginal(
              Array.from({ length: r }, (_, x) => t[x * C + c]),
              alpha,
            );
        } else {
          lw += Math.log(1 - prior);
          lw += logMarginal(
            Array.from({ length: r }, (_, x) => [0, 1, 2].reduce((s, c) => s + t[x * C + c], 0)),
            alpha,
          );
        }
      }
      logW.push(lw);
    }
    const mx = Math.max(...logW);
    const w = logW.map((l) => Math.exp(l - mx));
    const model = fitManb(d, alpha, prior);
    const test = discreteFromArrays({
      cards: [2, 3, 3],
      rows: [
        [0, 0, 0],
        [1, 2, 1],
        [0, 1, 2],
        [1, 0, 0],
      ],
      classes: [0, 0, 0, 0],
      classCard: 3,
    });
    const got = model.posterior(test);
    test.columns[0].forEach((_, row) => {
      const x = [0, 1, 2].map((a) => test.columns[a][row]);
      const joint = [0, 1, 2].map((c) => {
        let s = 0;
        for (let G = 0; G < 1 << m; G++) {
          let p = (nc[c] + alpha) / (40 + C * alpha);
          for (let a = 0; a < m; a++) {
            const r = cards[a];
            const t = tables[a];
            if (G & (1 << a)) p *= (t[x[a] * C + c] + alpha) / (nc[c] + r * alpha);
            else p *= ([0, 1, 2].reduce((s2, cc) => s2 + t[x[a] * C + cc], 0) + alpha) / (40 + r * alpha);
          }
          s += w[G] * p;
        }
        return s;
      });
      const z = joint.reduce((a, b) => a + b, 0);
      for (let c = 0; c < C; c++) expect(got[row * C + c]).toBeCloseTo(joint[c] / z, 12);
    });
  });
});

describe('manb estimator', () => {
  it('is registered for naive Bayes only and validates its parameters', () => {
    expect(getEstimator('manb')).toBe(manb);
    expect(manb.requires).toEqual(['naive-bayes']);
    const nbS = naiveBayesStructure(1);
    expect(() => manb.fit(d2x2, nbS, { prior: 1 }, ctx)).toThrow(UserError);
    expect(() => manb.fit(d2x2, nbS, { alpha: 0 }, ctx)).toThrow(UserError);
    expect(() => manb.fit(d2x2, { m: 1, parents: [[], []] }, {}, ctx)).toThrow(/naive Bayes/);
  });

  it('an irrelevant attribute gets a small arc posterior and a relevant one a large one', () => {
    const rng = new Rng('relevance');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 500; r++) {
      const c = rng.int(2);
      classes.push(c);
      rows.push([rng.next() < 0.8 ? c : 1 - c, rng.int(2)]);
    }
    const model = fitManb(discreteFromArrays({ cards: [2, 2], rows, classes, classCard: 2 }), 1, 0.5);
    expect(model.arcPosteriors[0]).toBeGreaterThan(0.999999);
    expect(model.arcPosteriors[1]).toBeLessThan(0.5);
  });
});
