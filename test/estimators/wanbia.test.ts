import { describe, it, expect } from 'vitest';
import '../../src/estimators/index.js';
import { renormalizedTables, wanbia, wanbiaObjective, wanbiaWeights } from '../../src/estimators/wanbia.js';
import { naiveBayesTables, WeightedNaiveBayes } from '../../src/estimators/weighted-nb.js';
import { dirichlet } from '../../src/estimators/dirichlet.js';
import { getEstimator } from '../../src/registry.js';
import { discreteFromArrays, selectAttributes, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure } from '../../src/bn/structure.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

const ctx = { rng: new Rng('wanbia') };

/** Three classes; X0 informative, X1 a noisy copy of X0, X2 weak, X3 noise; 10% missing. */
function data(seed: string, n: number, miss = 0.1): DiscreteData {
  const rng = new Rng(seed);
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = rng.int(3);
    const x0 = rng.next() < 0.6 ? c : rng.int(3);
    const x1 = rng.next() < 0.9 ? x0 : rng.int(3);
    const x2 = rng.next() < 0.2 ? c % 2 : rng.int(2);
    rows.push([x0, x1, x2, rng.int(4)].map((v) => (rng.next() < miss ? -1 : v)));
    classes.push(c);
  }
  return discreteFromArrays({ cards: [3, 3, 2, 4], rows, classes, classCard: 3 });
}

describe('the WANBIA objective', () => {
  const d = data('objective', 300);
  const tables = naiveBayesTables(d, 1);

  it('at w = 1 is the conditional log-likelihood of Laplace naive Bayes', () => {
    const p = dirichlet.fit(d, naiveBayesStructure(4), { alpha: 1 }, ctx).posterior(d);
    let cll = 0;
    for (let r = 0; r < d.n; r++) cll += Math.log(p[r * 3 + d.classColumn[r]]);
    expect(wanbiaObjective(tables, d, [1, 1, 1, 1], new Float64Array(4))).toBeCloseTo(-cll, 9);
  });

  it.each([[[1, 1, 1, 1]], [[0.3, 0.7, 0.1, 0.9]], [[0, 0.5, 1, 0.2]]])(
    'has the analytic gradient (central differences, h = 1e-6) at %j',
    (w) => {
      const g = new Float64Array(4);
      wanbiaObjective(tables, d, w, g);
      const h = 1e-6;
      for (let a = 0; a < 4; a++) {
        const up = [...w];
        const dn = [...w];
        up[a] += h;
        dn[a] -= h;
        const fd =
          (wanbiaObjective(tables, d, up, new Float64Array(4)) - wanbiaObjective(tables, d, dn, new Float64Array(4))) /
          (2 * h);
        expect(Math.abs(g[a] - fd)).toBeLessThan(1e-5 * Math.max(1, Math.abs(fd)));
      }
    },
  );
});

describe('WANBIA weights', () => {
  it('improve the training CLL over naive Bayes and satisfy the KKT conditions of the box [0, 1]', () => {
    const d = data('kkt', 400);
    const { tables, weights, optimizer } = wanbiaWeights(d, 1, 100, undefined, 'zaidi');
    const g = new Float64Array(4);
    const f = wanbiaObjective(tables, d, weights, g);
    expect(f).toBeCloseTo(optimizer.f, 9);
    const fNb = wanbiaObjective(tables, d, [1, 1, 1, 1], new Float64Array(4));
    expect(f).toBeLessThan(fNb - 1);
    for (let a = 0; a < 4; a++) {
      const w = weights[a];
      expect(w).toBeGreaterThanOrEqual(0);
      expect(w).toBeLessThanOrEqual(1);
      if (w > 0 && w < 1) expect(Math.abs(g[a])).toBeLessThan(0.05);
      if (w === 0) expect(g[a]).toBeGreaterThan(-0.05);
      if (w === 1) expect(g[a]).toBeLessThan(0.05);
    }
    // The noisy copy X1 is discounted relative to NB's weight 1.
    expect(weights[1] + weights[0]).toBeLessThan(2);
  });

  it('splits one weight among identical copies: their sum is the one-attribute optimum (golden-section search)', () => {
    // With X1 = X2 = X0 the posterior depends on w0 + w1 + w2 only, so the optimal sum is the optimal
    // weight s* of X0 alone on [0, 3]; found here by golden-section search on the convex 1-D objective.
    const rng = new Rng('copies');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 300; r++) {
      const c = rng.int(2);
      const x = rng.next() < 0.7 ? c : rng.int(2);
      rows.push([x, x, x]);
      classes.push(c);
    }
    const d = discreteFromArrays({ cards: [2, 2, 2], rows, classes, classCard: 2 });
    const one = selectAttributes(d, [0]);
    const t1 = naiveBayesTables(one, 1);
    const f1 = (s: number) => wanbiaObjective(t1, one, [s], new Float64Array(1));
    let lo = 0;
    let hi = 3;
    const phi = (Math.sqrt(5) - 1) / 2;
    for (let it = 0; it < 100; it++) {
      const a = hi - phi * (hi - lo);
      const b = lo + phi * (hi - lo);
      if (f1(a) < f1(b)) hi = b;
      else lo = a;
    }
    const sStar = (lo + hi) / 2;
    expect(sStar).toBeGreaterThan(0.2);
    const { weights } = wanbiaWeights(d, 1, 100, undefined, 'zaidi');
    expect(weights[0] + weights[1] + weights[2]).toBeCloseTo(sStar, 4);
  });

  it('the estimator returns a weighted naive Bayes with those weights; missing values drop their factor', () => {
    const d = data('model', 200);
    const model = wanbia.fit(d, naiveBayesStructure(4), {}, ctx) as WeightedNaiveBayes;
    expect(model).toBeInstanceOf(WeightedNaiveBayes);
    expect([...model.weights]).toEqual([...wanbiaWeights(d, 1, 100, undefined, 'zaidi').weights]);
    const allMissing = discreteFromArrays({
      cards: [3, 3, 2, 4],
      rows: [[-1, -1, -1, -1]],
      classes: [0],
      classCard: 3,
    });
    const p = model.posterior(allMissing);
    const nc = [0, 0, 0];
    for (const c of d.classColumn) nc[c]++;
    for (let c = 0; c < 3; c++) expect(p[c]).toBeCloseTo((nc[c] + 1) / (d.n + 3), 12);
  });

  it('is registered for naive Bayes only and validates its parameters', () => {
    const d = data('params', 50);
    expect(getEstimator('wanbia')).toBe(wanbia);
    expect(wanbia.requires).toEqual(['naive-bayes']);
    expect(() => wanbia.fit(d, naiveBayesStructure(4), { alpha: 0 }, ctx)).toThrow(UserError);
    expect(() => wanbia.fit(d, naiveBayesStructure(4), { maxIterations: 0 }, ctx)).toThrow(UserError);
  });
});

describe("variant: bnclassify (tables θ^w renormalised per class; bnclassify's gradient)", () => {
  // One binary attribute, two classes, P(c) = 1/2; θ(x | c0) = (0.8, 0.2), θ(x | c1) = (0.5, 0.5); w = 1/2.
  // Renormalised: θ_w(· | c0) = (√.8, √.2) / (√.8 + √.2) = (2/3, 1/3); θ_w(· | c1) = (1/2, 1/2).
  // So P(c0 | x0) = (2/3) / (2/3 + 1/2) = 4/7 and P(c0 | x1) = (1/3) / (1/3 + 1/2) = 2/5.
  // Rows (x0, c0), (x1, c1): −CLL = −ln(4/7) − ln(3/5); the gradient of −CLL with bnclassify's formula
  // (unweighted log θ, renormalised posteriors) is 3/7 ln(5/8) + 2/5 ln(2/5).
  const tables = {
    logPrior: Float64Array.from([Math.log(0.5), Math.log(0.5)]),
    logCond: [Float64Array.from([Math.log(0.8), Math.log(0.5), Math.log(0.2), Math.log(0.5)])],
    classCard: 2,
  };
  const d = discreteFromArrays({ cards: [2], rows: [[0], [1]], classes: [0, 1], classCard: 2 });

  it('tables, posteriors, objective and gradient as worked by hand', () => {
    const rt = renormalizedTables(tables, [0.5]);
    expect(Math.exp(rt.logCond[0][0])).toBeCloseTo(2 / 3, 14);
    expect(Math.exp(rt.logCond[0][2])).toBeCloseTo(1 / 3, 14);
    expect(Math.exp(rt.logCond[0][1])).toBeCloseTo(1 / 2, 14);
    const p = new WeightedNaiveBayes(rt, Float64Array.from([1])).posterior(d);
    expect(p[0]).toBeCloseTo(4 / 7, 14);
    expect(p[2]).toBeCloseTo(2 / 5, 14);
    const g = new Float64Array(1);
    const f = wanbiaObjective(tables, d, [0.5], g, undefined, 'bnclassify');
    expect(f).toBeCloseTo(-Math.log(4 / 7) - Math.log(3 / 5), 14);
    expect(g[0]).toBeCloseTo((3 / 7) * Math.log(5 / 8) + (2 / 5) * Math.log(2 / 5), 14);
    // The paper's variant differs here: P(c0 | x0) = √.8 / (√.8 + √.5).
    const z = new Float64Array(1);
    const fz = wanbiaObjective(tables, d, [0.5], z);
    const pz0 = Math.sqrt(0.8) / (Math.sqrt(0.8) + Math.sqrt(0.5));
    const pz1 = Math.sqrt(0.5) / (Math.sqrt(0.2) + Math.sqrt(0.5));
    expect(fz).toBeCloseTo(-Math.log(pz0) - Math.log(pz1), 14);
  });

  it('the fitted model predicts with the renormalised tables, the default stays the paper', () => {
    const dd = data('variant', 300);
    const s = naiveBayesStructure(4);
    const bn = wanbia.fit(dd, s, { variant: 'bnclassify' }, ctx) as WeightedNaiveBayes;
    expect([...bn.weights]).toEqual([1, 1, 1, 1]);
    const { weights } = wanbiaWeights(dd, 1, 100, undefined, 'bnclassify');
    const expected = new WeightedNaiveBayes(
      renormalizedTables(naiveBayesTables(dd, 1), weights),
      Float64Array.from([1, 1, 1, 1]),
    ).posterior(dd);
    const got = bn.posterior(dd);
    for (let i = 0; i < got.length; i++) expect(got[i]).toBeCloseTo(expected[i], 14);
    const def = wanbia.fit(dd, s, {}, ctx) as WeightedNaiveBayes;
    expect([...def.weights]).toEqual([...wanbiaWeights(dd, 1, 100, undefined, 'zaidi').weights]);
  });
});

describe("variant bnclassify against bnclassify 0.4.8's own optimisation (R 4.2)", () => {
  it("stops where R's optim(method = 'L-BFGS-B') stops", () => {
    // The data: 200 rows drawn from Rng('r-pinned') as below, written as CSV (values v0.., classes c0..) and fitted in R:
    //   d <- read.csv('wdata.csv', stringsAsFactors = TRUE); d$x3 <- factor(d$x3, levels = paste0('v', 0:3))
    //   o <- bnclassify:::compute_wanbia_weights('class', d, return_optim_object = TRUE)
    //   o$value 125.35905704653548; o$par 1 0.086176993198195315 1 1; "CONVERGENCE: REL_REDUCTION_OF_F <= FACTR*EPSMCH"
    const rng = new Rng('r-pinned');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 200; r++) {
      const c = rng.int(3);
      const x0 = rng.next() < 0.6 ? c : rng.int(3);
      const x1 = rng.next() < 0.9 ? x0 : rng.int(3);
      const x2 = rng.next() < 0.2 ? c % 2 : rng.int(2);
      rows.push([x0, x1, x2, rng.int(4)]);
      classes.push(c);
    }
    const d = discreteFromArrays({ cards: [3, 3, 2, 4], rows, classes, classCard: 3 });
    const { weights, optimizer } = wanbiaWeights(d, 1, 100, undefined, 'bnclassify');
    expect(optimizer.message).toBe('CONVERGENCE: REL_REDUCTION_OF_F <= FACTR*EPSMCH');
    expect(Math.abs(optimizer.f - 125.35905704653548)).toBeLessThan(1e-10);
    [1, 0.086176993198195315, 1, 1].forEach((w, a) => expect(Math.abs(weights[a] - w)).toBeLessThan(1e-10));
  });
});
