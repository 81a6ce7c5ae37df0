import { describe, it, expect } from 'vitest';
import '../../src/estimators/index.js';
import { awnb, awnbSamples, awnbTrees, awnbWeightsFromDepths } from '../../src/estimators/awnb.js';
import { rpartMinTestingDepths } from '../../src/estimators/rpart-tree.js';
import { shipped } from '../structures/catalog-data.js';
import { naiveBayesTables, renormalizedTables, WeightedNaiveBayes } from '../../src/estimators/weighted-nb.js';
import { minTestingDepths, type Tree } from '../../src/baselines/decision-tree.js';
import { getEstimator } from '../../src/registry.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure } from '../../src/bn/structure.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

const ctx = { rng: new Rng('awnb') };

/** A hand-built tree from (attribute or -1, depth) per node and child lists. */
function handTree(nodes: { attr: number; depth: number; first: number }[]): Tree {
  return {
    nodes: nodes.length,
    classCard: 2,
    attr: Int32Array.from(nodes.map((n) => n.attr)),
    firstChild: Int32Array.from(nodes.map((n) => n.first)),
    prop: new Float64Array(nodes.length).fill(0.5),
    dist: new Float64Array(nodes.length * 2).fill(0.5),
    depth: Int32Array.from(nodes.map((n) => n.depth)),
  };
}

describe('AWNB weights', () => {
  // Tree 1: root tests A2; its first branch tests A0, whose first branch tests A2 again (deeper, ignored).
  //   minimum testing depths: A0 = 2, A1 = untested (0), A2 = 1
  // Tree 2: root tests A0 only: A0 = 1.
  const tree1 = handTree([
    { attr: 2, depth: 0, first: 1 },
    { attr: 0, depth: 1, first: 3 },
    { attr: -1, depth: 1, first: -1 },
    { attr: 2, depth: 2, first: 5 },
    { attr: -1, depth: 2, first: -1 },
    { attr: -1, depth: 3, first: -1 },
    { attr: -1, depth: 3, first: -1 },
  ]);
  const tree2 = handTree([
    { attr: 0, depth: 0, first: 1 },
    { attr: -1, depth: 1, first: -1 },
    { attr: -1, depth: 1, first: -1 },
  ]);

  it('minimum testing depths of hand-built trees', () => {
    expect([...minTestingDepths(tree1, 3)]).toEqual([2, 0, 1]);
    expect([...minTestingDepths(tree2, 3)]).toEqual([1, 0, 0]);
  });

  it('w_i = (1/M) Σ_t 1/√d_ti with untested attributes contributing 0', () => {
    // A0: (1/√2 + 1/√1) / 2 = 0.8535533905932737; A1: 0; A2: (1 + 0) / 2 = 0.5
    const w = awnbWeightsFromDepths([minTestingDepths(tree1, 3), minTestingDepths(tree2, 3)], 3);
    expect(w[0]).toBeCloseTo((1 / Math.SQRT2 + 1) / 2, 15);
    expect(w[0]).toBeCloseTo(0.8535533905932737, 15);
    expect(w[1]).toBe(0);
    expect(w[2]).toBe(0.5);
  });
});

function data(seed: string, n: number): DiscreteData {
  const rng = new Rng(seed);
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = rng.int(2);
    // X0 determines the class; X1 is pure noise; X2 weakly informative.
    rows.push([c, rng.int(3), rng.next() < 0.3 ? c : rng.int(2)]);
    classes.push(c);
  }
  return discreteFromArrays({ cards: [2, 3, 2], rows, classes, classCard: 2 });
}

describe('awnb estimator', () => {
  it('a perfectly predictive attribute is every tree root (weight 1); the others are never tested (weight 0)', () => {
    const d = data('perfect', 200);
    const trees = awnbTrees(d, 10, 0.5, new Rng('t'));
    expect(trees).toHaveLength(10);
    for (const t of trees) expect([...minTestingDepths(t, 3)]).toEqual([1, 0, 0]);
    const model = awnb.fit(d, naiveBayesStructure(3), {}, ctx) as WeightedNaiveBayes;
    expect([...model.weights]).toEqual([1, 0, 0]);
  });

  it('posteriors are P(c) Π θ^w normalised, with θ the Laplace tables', () => {
    const rng = new Rng('mixed');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 300; r++) {
      const c = rng.int(2);
      rows.push([rng.next() < 0.7 ? c : 1 - c, rng.int(3), rng.next() < 0.6 ? c : rng.int(2)]);
      classes.push(c);
    }
    const d = discreteFromArrays({ cards: [2, 3, 2], rows, classes, classCard: 2 });
    const model = awnb.fit(d, naiveBayesStructure(3), {}, ctx) as WeightedNaiveBayes;
    const w = model.weights;
    expect(w[0]).toBeGreaterThan(0);
    expect(w[0]).toBeLessThanOrEqual(1);
    const t = naiveBayesTables(d, 1);
    const x = [1, 2, 0];
    const s = [0, 1].map((c) => t.logPrior[c] + x.reduce((acc, v, a) => acc + w[a] * t.logCond[a][v * 2 + c], 0));
    const p = model.posterior(discreteFromArrays({ cards: [2, 3, 2], rows: [x], classes: [0], classCard: 2 }));
    expect(p[1]).toBeCloseTo(1 / (1 + Math.exp(s[0] - s[1])), 14);
  });

  it('is deterministic under a seed, and the bootstrap changes with it', () => {
    const d = data('seeded', 300);
    d.columns[0].forEach((_, r) => {
      if (r % 3 === 0) d.columns[0][r] = 1 - d.columns[0][r];
    });
    const a = awnb.fit(d, naiveBayesStructure(3), {}, { rng: new Rng('s') }) as WeightedNaiveBayes;
    const b = awnb.fit(d, naiveBayesStructure(3), {}, { rng: new Rng('s') }) as WeightedNaiveBayes;
    const c = awnb.fit(d, naiveBayesStructure(3), { trees: 3 }, { rng: new Rng('other') }) as WeightedNaiveBayes;
    expect([...a.weights]).toEqual([...b.weights]);
    expect([...a.weights]).not.toEqual([...c.weights]);
  });

  it('is registered for naive Bayes only and validates its parameters', () => {
    const d = data('params', 50);
    expect(getEstimator('awnb')).toBe(awnb);
    expect(awnb.requires).toEqual(['naive-bayes']);
    expect(() => awnb.fit(d, naiveBayesStructure(3), { trees: 0 }, ctx)).toThrow(UserError);
    expect(() => awnb.fit(d, naiveBayesStructure(3), { subsample: 0 }, ctx)).toThrow(UserError);
    expect(() => awnb.fit(d, naiveBayesStructure(3), { subsample: 1.5 }, ctx)).toThrow(UserError);
    expect(() => awnb.fit(d, naiveBayesStructure(3), { alpha: 0 }, ctx)).toThrow(UserError);
  });
});

describe("tables: renormalized (bnclassify's way of applying the weights)", () => {
  it('same weights as the default; each table is θ^w / Σθ^w per class; a weight of 1 leaves a table unchanged', () => {
    const d = data('renorm', 300);
    const s = naiveBayesStructure(3);
    const plain = awnb.fit(d, s, {}, ctx) as WeightedNaiveBayes;
    const renorm = awnb.fit(d, s, { tables: 'renormalized' }, ctx) as WeightedNaiveBayes;
    expect([...renorm.weights]).toEqual([1, 1, 1]);
    const expected = new WeightedNaiveBayes(
      renormalizedTables(naiveBayesTables(d, 1), plain.weights),
      Float64Array.from([1, 1, 1]),
    );
    const got = renorm.posterior(d);
    const want = expected.posterior(d);
    for (let i = 0; i < got.length; i++) expect(got[i]).toBeCloseTo(want[i], 14);
    // By hand: with w = 1, θ^1 / Σθ^1 = θ.
    const t = naiveBayesTables(d, 1);
    const one = renormalizedTables(t, [1, 1, 1]);
    one.logCond.forEach((L, a) => L.forEach((v, i) => expect(v).toBeCloseTo(t.logCond[a][i], 14)));
    // With w = 0 every row of the table is uniform.
    const zero = renormalizedTables(t, [0, 0, 0]);
    expect(Math.exp(zero.logCond[0][0])).toBeCloseTo(1 / d.cards[0], 14);
    expect(() => awnb.fit(d, s, { tables: 'other' } as never, ctx)).toThrow(UserError);
  });
});

/**
 * rpart 4.1.19 (R 4.2.2, Debian r-cran-rpart) on the same bootstrap samples, with bnclassify's control:
 *   rpart(cls ~ ., data, na.action = na.rpart, method = "class", parms = list(split = "information"),
 *         control = rpart.control(minsplit = 2, minbucket = 1, cp = 0, maxcompete = 0, maxsurrogate = 0, xval = 0))
 * on the sampled rows written out once per draw (factors coded a00, a01, …; classes c00, …; NA for missing),
 * depths as bnclassify's identify_min_testing_depths reads them (trunc(log2(node number)) + 1), minimum per
 * attribute V1..Vm. Samples: Rng(`rp-<dataset>-<t>`), ⌊n/2⌋ draws with replacement over the MDL-discretised
 * data (missing values kept for house-votes-84, hepatitis and breast-cancer).
 */
const R_RPART: Record<string, string> = {
  'breast-cancer-0': 'V1=3 V2=5 V3=3 V4=1 V5=9 V6=4 V7=4 V8=2',
  'breast-cancer-1': 'V1=3 V2=5 V3=1 V4=2 V5=5 V6=7 V7=8 V8=4 V9=6',
  'heart-statlog-0': 'V1=4 V10=5 V11=4 V12=3 V13=2 V2=3 V3=1 V6=6 V7=4 V8=4 V9=2',
  'heart-statlog-1': 'V1=4 V10=6 V11=3 V12=2 V13=4 V2=2 V3=1 V6=3 V7=4 V8=5 V9=3',
  'hepatitis-0': 'V10=4 V11=5 V13=5 V17=1 V5=2 V6=6 V9=6',
  'hepatitis-1': 'V12=2 V14=1 V17=4 V18=2 V5=3 V6=3',
  'hepatitis-2': 'V10=4 V11=3 V13=2 V17=1 V19=2 V3=5 V5=3 V6=4 V7=6 V9=4',
  'hepatitis-3': 'V14=2 V17=1 V19=3',
  'house-votes-84-0': 'V10=3 V11=2 V12=3 V15=4 V3=4 V4=1',
  'house-votes-84-1': 'V11=2 V16=3 V2=5 V3=2 V4=1 V7=4 V9=4',
  'house-votes-84-2': 'V1=5 V10=4 V11=2 V13=4 V14=4 V16=3 V2=6 V3=2 V4=1 V9=3',
  'house-votes-84-3': 'V1=5 V10=3 V11=3 V12=4 V16=4 V2=5 V4=1 V7=4 V9=2',
  'iris-0': 'V3=1 V4=2',
  'iris-1': 'V1=4 V2=5 V3=1 V4=3',
};

describe("tree: rpart reproduces R rpart (bnclassify's trees)", () => {
  it.each(Object.keys(R_RPART))("%s: minimum testing depths equal rpart's", (key) => {
    const t = Number(key.slice(key.lastIndexOf('-') + 1));
    const name = key.slice(0, key.lastIndexOf('-'));
    const d = shipped(name, 'mdl'); // missing values kept (available case); iris and heart-statlog have none
    const rng = new Rng(`rp-${name}-${t}`);
    const counts = new Float64Array(d.n);
    for (let i = 0; i < Math.trunc(d.n * 0.5); i++) counts[rng.int(d.n)]++;
    const rows: number[] = [];
    const w: number[] = [];
    for (let i = 0; i < d.n; i++)
      if (counts[i] > 0) {
        rows.push(i);
        w.push(counts[i]);
      }
    const depths = rpartMinTestingDepths(d, Int32Array.from(rows), Float64Array.from(w));
    const want = new Int32Array(d.columns.length);
    for (const kv of R_RPART[key].split(' ')) {
      const [v, dep] = kv.split('=');
      want[Number(v.slice(1)) - 1] = Number(dep);
    }
    expect([...depths]).toEqual([...want]);
  });

  it('awnb with tree: rpart weighs from those trees; tree: c45 stays the default', () => {
    const d = data('rpart-awnb', 200);
    const s = naiveBayesStructure(3);
    const r = awnb.fit(d, s, { tree: 'rpart' }, ctx) as WeightedNaiveBayes;
    const samples = awnbSamples(d, 10, 0.5, ctx.rng.derive('awnb'));
    const w = awnbWeightsFromDepths(
      samples.map((x) => rpartMinTestingDepths(d, x.rows, x.weights)),
      3,
    );
    expect([...r.weights]).toEqual([...w]);
    expect([...(awnb.fit(d, s, {}, ctx) as WeightedNaiveBayes).weights]).toEqual([
      ...(awnb.fit(d, s, { tree: 'c45' }, ctx) as WeightedNaiveBayes).weights,
    ]);
    expect(() => awnb.fit(d, s, { tree: 'cart' } as never, ctx)).toThrow(UserError);
  });
});
