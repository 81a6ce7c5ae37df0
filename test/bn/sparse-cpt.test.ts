/**
 * Sparse conditional tables (issue 3): families above SPARSE_CPT_CELLS cells are counted over the parent
 * configurations seen in training and every other configuration shares one default row. The sparse tables
 * must hold exactly the numbers of the dense ones, fit families whose dense table cannot exist, and go
 * through exact inference (including missing values) unchanged.
 */
import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { kdb } from '../../src/structures/kdb.js';
import { forwardSample } from '../../src/structures/sparse-candidate.js';
import { mle, mleLogProbs } from '../../src/estimators/mle.js';
import { dirichlet, dirichletLogProbs } from '../../src/estimators/dirichlet.js';
import { eap, bdeuLogProbs } from '../../src/estimators/eap.js';
import {
  type CptModel,
  SPARSE_CPT_CELLS,
  cptRowOffset,
  cptTable,
  fitCptModel,
  fitModel,
  type FamilyEstimator,
  type NodeCpt,
} from '../../src/bn/cpt.js';
import {
  ConfigIndex,
  MAX_TABLE_CELLS,
  familyCounts,
  sparseFamilyCounts,
  weightedFamilyCounts,
  type FamilyCounts,
} from '../../src/bn/counts.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { tinyData } from './fixtures.js';
import { shipped } from '../structures/catalog-data.js';

const ctx = { rng: new Rng('sparse-cpt') };
const DENSE = { sparseAbove: Infinity };
const SPARSE = { sparseAbove: 0 };

function maxAbsDiff(a: Float64Array, b: Float64Array): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue; // also equal infinities
    d = Math.max(d, Math.abs(a[i] - b[i]));
  }
  return d;
}

function rowSums(p: Float64Array, C: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < p.length / C; r++) {
    let s = 0;
    for (let c = 0; c < C; c++) s += p[r * C + c];
    out.push(s);
  }
  return out;
}

/** Every cell of every table, through prob(): all parent configurations, seen or not. */
function allProbs(model: CptModel): number[] {
  const out: number[] = [];
  for (let v = 0; v <= model.m; v++) {
    const cpt = model.cpts[v];
    const k = cpt.parents.length;
    const vals = new Array<number>(k).fill(0);
    for (let cfg = 0; cfg < cpt.configs; cfg++) {
      for (let x = 0; x < cpt.card; x++) out.push(model.prob(v, x, vals));
      for (let q = k - 1; q >= 0; q--) {
        if (++vals[q] < cpt.parentCards[q]) break;
        vals[q] = 0;
      }
    }
  }
  return out;
}

describe('ConfigIndex', () => {
  it('numbers keys in order of first insertion, finds them after growing, and reports absent keys as -1', () => {
    const idx = new ConfigIndex(2);
    const rng = new Rng('config-index');
    const ref = new Map<number, number>();
    // Keys across the whole exact range: small, above 2^32 (both hash halves), up to 2^53 - 1.
    const keys: number[] = [0, 1, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1, 2 ** 53 - 2, 4294967295];
    for (let i = 0; i < 5000; i++) keys.push(rng.int(1000), rng.int(2 ** 30) * 2 ** 21 + rng.int(2 ** 21));
    for (const key of keys) {
      const id = idx.add(key);
      if (!ref.has(key)) ref.set(key, ref.size);
      expect(id).toBe(ref.get(key));
    }
    expect(idx.size).toBe(ref.size);
    for (const [key, id] of ref) {
      expect(idx.get(key)).toBe(id);
      expect(idx.key(id)).toBe(key);
    }
    expect(idx.get(2 ** 53 - 3)).toBe(-1);
    expect(idx.get(2 ** 32 + 2)).toBe(-1);
    expect(() => idx.key(idx.size)).toThrow(/out of range/);
  });
});

describe('sparseFamilyCounts on the tiny data (test/bn/fixtures.ts), X2 | C, X0', () => {
  // cfg = c · 2 + x0 (class listed first). Rows 0-2: cfg 0, X2 = 0, 1, 2; row 3: cfg 1, X2 = 0;
  // rows 4-6: cfg 3, X2 = 1, 2, 0; row 7 (cfg 2) has X2 missing and is not counted (available case).
  const fc = sparseFamilyCounts(tinyData(), 2, [3, 0]);

  it('indexes the three observed configurations in order of first occurrence and ends with a zero row', () => {
    expect(fc.index.size).toBe(3);
    expect([0, 1, 2].map((i) => fc.index.key(i))).toEqual([0, 1, 3]);
    expect([...fc.counts]).toEqual([1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0]);
    expect(fc.configs).toBe(4);
    expect([...fc.parentCards]).toEqual([2, 2]);
  });

  it('equals the dense counts row for row', () => {
    const dense = familyCounts(tinyData(), 2, [3, 0]);
    for (let cfg = 0; cfg < 4; cfg++) {
      const id = fc.index.get(cfg);
      const row = [...dense.counts.subarray(cfg * 3, cfg * 3 + 3)];
      expect(row).toEqual(id < 0 ? [0, 0, 0] : [...fc.counts.subarray(id * 3, id * 3 + 3)]);
    }
  });

  it('eap spreads α over the FULL q = 4 configurations, not the 3 observed ones', () => {
    // α = 1, r = 3, q = 4: α/(rq) = 1/12. cfg 1 [1,0,0]: (1 + 1/12)/(1 + 3/12) = 13/15, (1/12)/(5/4) = 1/15.
    // (With q = 3 it would be (1 + 1/9)/(1 + 1/3) = 5/6.) Unseen cfg 2 (default row): 1/3 each.
    const p = [...bdeuLogProbs(fc, 1)].map(Math.exp);
    [13 / 15, 1 / 15, 1 / 15].forEach((e, x) => expect(p[3 + x]).toBeCloseTo(e, 15));
    [1 / 3, 1 / 3, 1 / 3].forEach((e, x) => expect(p[9 + x]).toBeCloseTo(e, 15));
    // mle: zero cells of a seen configuration are 0; the default row is uniform.
    const ml = [...mleLogProbs(fc)].map(Math.exp);
    expect(ml.slice(3, 6)).toEqual([1, 0, 0]);
    ml.slice(9, 12).forEach((v) => expect(v).toBeCloseTo(1 / 3, 15));
    // dirichlet α = 2 on cfg 0 [1,1,1]: 3/9 each; default row 2/6 each.
    const di = [...dirichletLogProbs(fc, 2)].map(Math.exp);
    di.forEach((v, i) => (i < 3 || i >= 9 ? expect(v).toBeCloseTo(1 / 3, 15) : undefined));
  });

  it('with row weights, equals weightedFamilyCounts bit for bit on the observed rows', () => {
    const w = Float64Array.from([0.5, 1.25, 2, 0.1, 0.3, 0, 7, 1]);
    const sp = sparseFamilyCounts(tinyData(), 2, [3, 0], w);
    const dense = weightedFamilyCounts(tinyData(), 2, [3, 0], w);
    expect([...sp.counts.subarray(0, 9)]).toEqual([0.5, 1.25, 2, 0.1, 0, 0, 7, 0.3, 0]);
    for (let cfg = 0; cfg < 4; cfg++) {
      const id = sp.index.get(cfg);
      if (id < 0) expect([...dense.counts.subarray(cfg * 3, cfg * 3 + 3)]).toEqual([0, 0, 0]);
      else
        expect([...sp.counts.subarray(id * 3, id * 3 + 3)]).toEqual([...dense.counts.subarray(cfg * 3, cfg * 3 + 3)]);
    }
    expect(() => sparseFamilyCounts(tinyData(), 2, [3, 0], new Float64Array(3))).toThrow(/rowWeights/);
  });
});

/**
 * A row-wise estimator whose default row is NOT uniform: pseudo-count k + 1 for child value k. The shipped
 * estimators all give unseen configurations the uniform row, under which reading the wrong entry of the
 * default row would go unnoticed; this one makes every entry differ.
 */
const skewed: FamilyEstimator = (fc) => {
  const r = fc.childCard;
  const out = new Float64Array(fc.counts.length);
  for (let o = 0; o < out.length; o += r) {
    let nj = 0;
    for (let k = 0; k < r; k++) nj += fc.counts[o + k] + k + 1;
    for (let k = 0; k < r; k++) out[o + k] = Math.log((fc.counts[o + k] + k + 1) / nj);
  }
  return out;
};

/** kdb-k structures on shipped data, fitted dense and sparse by each full-table estimator. */
const estimators: [string, FamilyEstimator][] = [
  ['mle', (fc) => mleLogProbs(fc)],
  ['dirichlet α=1', (fc) => dirichletLogProbs(fc, 1)],
  ['dirichlet α=0.5', (fc) => dirichletLogProbs(fc, 0.5)],
  ['eap α=1', (fc) => bdeuLogProbs(fc, 1)],
  ['eap α=10', (fc) => bdeuLogProbs(fc, 10)],
  ['per-value pseudo-counts (non-uniform default row)', skewed],
];

describe.each(['car', 'tic-tac-toe', 'house-votes-84'])(
  'dense and forced-sparse tables agree on %s with kdb k = 3',
  (name) => {
    const data = shipped(name);
    const s = kdb.learn(data, { k: 3 }, ctx);
    // Test rows: the training rows, plus copies with 1-3 values knocked out (missing values are marginalised).
    const rng = new Rng(`sparse-${name}`);
    const n = Math.min(data.n, 400);
    const cols = data.columns.map((c) => Int32Array.from(c.subarray(0, n)));
    const holed = cols.map((c) => Int32Array.from(c));
    for (let r = 0; r < n; r++) for (let t = 1 + rng.int(3); t > 0; t--) holed[rng.int(holed.length)][r] = -1;
    const test: DiscreteData = {
      ...data,
      n: 2 * n,
      columns: cols.map((c, a) => Int32Array.from([...c, ...holed[a]])),
      classColumn: Int32Array.from([...data.classColumn.subarray(0, n), ...data.classColumn.subarray(0, n)]),
    };

    it.each(estimators)(
      '%s: every table entry, posteriors and joints (incl. missing values) within 1e-12',
      (_, est) => {
        const dense = fitCptModel(data, s, est, undefined, DENSE);
        const sparse = fitCptModel(data, s, est, undefined, SPARSE);
        expect(dense.cpts.every((c) => !c.index)).toBe(true);
        expect(sparse.cpts.every((c) => c.index)).toBe(true);
        // Some parent configurations are unseen, so the default row is really exercised.
        expect(sparse.cpts.some((c) => c.index!.size < c.configs)).toBe(true);
        expect(allProbs(sparse)).toEqual(allProbs(dense));
        const pd = dense.posterior(test);
        const ps = sparse.posterior(test);
        expect(maxAbsDiff(pd, ps)).toBeLessThanOrEqual(1e-12);
        for (const sum of rowSums(ps, data.classCard)) expect(sum).toBeCloseTo(1, 12);
        expect(maxAbsDiff(dense.logJoint(test), sparse.logJoint(test))).toBeLessThanOrEqual(1e-12);
        // Same cells, same factor order: the scores are in fact bit for bit the same, also for a model mixing
        // dense and sparse families (the smallest families dense, the rest sparse).
        expect([...ps]).toEqual([...pd]);
        const sizes = dense.cpts.map((c) => c.configs * c.card).sort((a, b) => a - b);
        const mixed = fitCptModel(data, s, est, undefined, { sparseAbove: sizes[0] });
        expect(mixed.cpts.some((c) => c.index) && mixed.cpts.some((c) => !c.index)).toBe(true);
        expect([...mixed.posterior(test)]).toEqual([...pd]);
        expect([...mixed.logJoint(test)]).toEqual([...dense.logJoint(test)]);
      },
    );
  },
);

describe('registered estimators', () => {
  it('mle, dirichlet and eap give the forced-sparse posteriors (default threshold keeps these families dense)', () => {
    const data = shipped('car');
    const s = kdb.learn(data, { k: 3 }, ctx);
    const cases: [ReturnType<typeof mle.fit>, FamilyEstimator][] = [
      [mle.fit(data, s, {}, ctx), (fc) => mleLogProbs(fc)],
      [dirichlet.fit(data, s, { alpha: 1 }, ctx), (fc) => dirichletLogProbs(fc, 1)],
      [eap.fit(data, s, { alpha: 1 }, ctx), (fc) => bdeuLogProbs(fc, 1)],
    ];
    for (const [model, est] of cases) {
      expect((model as CptModel).cpts.every((c) => !c.index)).toBe(true);
      expect(maxAbsDiff(model.posterior(data), fitModel(data, s, est, SPARSE).posterior(data))).toBeLessThanOrEqual(
        1e-12,
      );
    }
  });
});

describe('weighted counts (ban-mix, adaboost) and ensembles', () => {
  it('weighted fits agree dense vs sparse, directly and through members with rowWeights and rows', () => {
    const data = shipped('car');
    const s = kdb.learn(data, { k: 2 }, ctx);
    const rng = new Rng('weights');
    const w = Float64Array.from({ length: data.n }, () => (rng.next() < 0.1 ? 0 : rng.next() * 3));
    const est: FamilyEstimator = (fc) => dirichletLogProbs(fc, 0.5);
    const d = fitCptModel(data, s, est, w, DENSE);
    const sp = fitCptModel(data, s, est, w, SPARSE);
    expect(allProbs(sp)).toEqual(allProbs(d));
    expect(maxAbsDiff(d.posterior(data), sp.posterior(data))).toBeLessThanOrEqual(1e-12);
    const rows = Int32Array.from({ length: 500 }, (_, i) => (i * 7) % data.n);
    const ens: Structure = {
      ...s,
      members: [
        { weight: 1, structure: s, rowWeights: w },
        { weight: 2, structure: s, rows },
        { weight: 1, structure: naiveBayesStructure(s.m) },
      ],
    };
    expect(
      maxAbsDiff(fitModel(data, ens, est, DENSE).posterior(data), fitModel(data, ens, est, SPARSE).posterior(data)),
    ).toBeLessThanOrEqual(1e-12);
  });
});

describe('random DAGs (class with parents, zero MLE cells), random missing patterns', () => {
  it('dense and sparse fits give the same posteriors and joints', () => {
    const rng = new Rng('sparse-random-dags');
    for (let trial = 0; trial < 30; trial++) {
      const m = 3 + rng.int(4);
      const cards = Array.from({ length: m + 1 }, () => 2 + rng.int(3));
      const order = rng.shuffle(Array.from({ length: m + 1 }, (_, v) => v));
      const parents: number[][] = Array.from({ length: m + 1 }, () => []);
      for (let x = 1; x <= m; x++)
        parents[order[x]] = rng.shuffle(order.slice(0, x)).slice(0, rng.int(Math.min(4, x) + 1));
      const gen = (rows: number, holes: number): DiscreteData =>
        discreteFromArrays({
          cards: cards.slice(0, m),
          rows: Array.from({ length: rows }, () =>
            Array.from({ length: m }, (_, a) => (rng.next() < holes ? -1 : rng.int(cards[a]))),
          ),
          classes: Array.from({ length: rows }, () => rng.int(cards[m])),
          classCard: cards[m],
        });
      const train = gen(30, 0.1);
      const test = gen(40, 0.35);
      const s: Structure = { m, parents };
      const est: FamilyEstimator = [
        (fc: FamilyCounts) => mleLogProbs(fc),
        (fc: FamilyCounts) => bdeuLogProbs(fc, 2),
        skewed,
      ][trial % 3];
      const d = fitCptModel(train, s, est, undefined, DENSE);
      const sp = fitCptModel(train, s, est, undefined, SPARSE);
      expect(maxAbsDiff(d.posterior(test), sp.posterior(test))).toBeLessThanOrEqual(1e-12);
      expect(maxAbsDiff(d.logJoint(test), sp.logJoint(test))).toBeLessThanOrEqual(1e-12);
    }
  });
});

describe('many classes, few rows per context', () => {
  it('sparse families with the class as a parent read per class value when regrouping by context would not pay', () => {
    // 12 classes, a binary child A | C, X0, X1, X2 (10 values each), 40 random rows: almost every context
    // (x0, x1, x2) is seen with one class only, so contexts · C > 2 · rows · card and the inference reads
    // each class value's configuration separately (the other branch of the class-parent fast path).
    const rng = new Rng('many-classes');
    const cards = [10, 10, 10, 2];
    const gen = (n: number, holes: number): DiscreteData =>
      discreteFromArrays({
        cards,
        rows: Array.from({ length: n }, () => cards.map((c) => (rng.next() < holes ? -1 : rng.int(c)))),
        classes: Array.from({ length: n }, () => rng.int(12)),
        classCard: 12,
      });
    const train = gen(40, 0);
    const test = gen(60, 0.1);
    const s: Structure = { m: 4, parents: [[4], [4, 0], [4, 1], [4, 0, 1, 2], []] };
    for (const est of [skewed, (fc: FamilyCounts) => dirichletLogProbs(fc, 1)]) {
      const d = fitCptModel(train, s, est, undefined, DENSE);
      const sp = fitCptModel(train, s, est, undefined, SPARSE);
      expect([...sp.posterior(test)]).toEqual([...d.posterior(test)]);
      expect([...sp.logJoint(test)]).toEqual([...d.logJoint(test)]);
    }
  });
});

describe('a family whose dense table cannot exist: A | C, X0..X9 with ten 10-valued parents', () => {
  // 10 attributes X0..X9 (10 values), A (3 values), class C (2 values); A has parents C, X0..X9:
  // 2 · 10^10 configurations × 3 = 6e10 cells, far above MAX_TABLE_CELLS. The X's are naive Bayes children.
  const rng = new Rng('ten-parents');
  const m = 11;
  const cards = [...Array.from({ length: 10 }, () => 10), 3];
  const N = 600;
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < N; r++) {
    const c = rng.int(2);
    // Few distinct X patterns (so configurations repeat), correlated with the class; A follows X0 + c.
    const base = rng.int(25);
    const x = Array.from({ length: 10 }, (_, i) => (base * (i + 3) + c * i) % 10);
    const a = rng.next() < 0.8 ? (x[0] + c) % 3 : rng.int(3);
    rows.push([...x, r % 97 === 5 ? -1 : a]);
    classes.push(c);
  }
  const train = discreteFromArrays({ cards, rows, classes, classCard: 2 });
  const s: Structure = {
    m,
    parents: [...Array.from({ length: 10 }, () => [11]), [11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9], []],
  };

  it('dense counting refuses it; dirichlet, mle and eap fit it sparsely with the default threshold', () => {
    expect(2 * 10 ** 10 * 3).toBeGreaterThan(MAX_TABLE_CELLS);
    expect(() => familyCounts(train, 10, s.parents[10])).toThrow(/cells/);
    for (const model of [
      dirichlet.fit(train, s, { alpha: 1 }, ctx),
      mle.fit(train, s, {}, ctx),
      eap.fit(train, s, { alpha: 1 }, ctx),
    ]) {
      const cpt = (model as CptModel).cpts[10];
      expect(cpt.index).toBeDefined();
      expect(cpt.configs).toBe(2 * 10 ** 10);
      expect(cpt.index!.size).toBeLessThanOrEqual(50); // 25 patterns × 2 classes at most
      expect((model as CptModel).cpts[0].index).toBeUndefined(); // X0 | C is small: dense
      const p = model.posterior(train);
      for (const sum of rowSums(p, 2)) expect(sum).toBeCloseTo(1, 12);
    }
  });

  /**
   * Independent reference: Laplace (α = 1) probabilities from counts kept in a Map keyed by the row's
   * values as a string, and P(c, x_obs) summed by brute force over the missing attributes.
   */
  function referenceJoint(row: number[]): number[] {
    const count = (pred: (r: number) => boolean): number => {
      let k = 0;
      for (let r = 0; r < N; r++) if (pred(r)) k++;
      return k;
    };
    const xKey = (x: readonly number[]) => x.join(',');
    const aCounts = new Map<string, number[]>();
    for (let r = 0; r < N; r++) {
      if (rows[r][10] < 0) continue;
      const key = `${classes[r]}|${xKey(rows[r].slice(0, 10))}`;
      const t = aCounts.get(key) ?? [0, 0, 0];
      t[rows[r][10]]++;
      aCounts.set(key, t);
    }
    const missing = row.map((v, i) => (v < 0 ? i : -1)).filter((i) => i >= 0);
    const out: number[] = [];
    for (let c = 0; c < 2; c++) {
      const nc = count((r) => classes[r] === c);
      let total = 0;
      const combos = missing.reduce((acc, i) => acc * cards[i], 1);
      for (let t = 0; t < combos; t++) {
        const x = [...row];
        let rest = t;
        for (const i of missing) {
          x[i] = rest % cards[i];
          rest = Math.floor(rest / cards[i]);
        }
        let p = (nc + 1) / (N + 2);
        for (let i = 0; i < 10; i++) p *= (count((r) => classes[r] === c && rows[r][i] === x[i]) + 1) / (nc + 10);
        const t3 = aCounts.get(`${c}|${xKey(x.slice(0, 10))}`) ?? [0, 0, 0];
        p *= (t3[x[10]] + 1) / (t3[0] + t3[1] + t3[2] + 3);
        total += p;
      }
      out.push(total);
    }
    return out;
  }

  it('posteriors equal an independent brute-force computation, with and without missing values', () => {
    const model = dirichlet.fit(train, s, { alpha: 1 }, ctx) as CptModel;
    const seen = rows[3];
    const testRows = [
      seen, // a training configuration: its own row
      [...seen.slice(0, 10), (seen[10] + 1) % 3],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 2], // an unseen configuration: the default row
      [...seen.slice(0, 4), -1, ...seen.slice(5, 10), seen[10]], // a missing parent of the big family
      [...seen.slice(0, 2), -1, -1, ...seen.slice(4, 10), 1], // two missing parents (100 configurations)
      [...seen.slice(0, 10), -1], // the big family's child missing: barren, pruned
    ];
    const test = discreteFromArrays({ cards, rows: testRows, classes: testRows.map(() => 0), classCard: 2 });
    const post = model.posterior(test);
    const lj = model.logJoint(test);
    testRows.forEach((row, r) => {
      const joint = referenceJoint(row);
      const z = joint[0] + joint[1];
      for (let c = 0; c < 2; c++) {
        expect(post[r * 2 + c]).toBeCloseTo(joint[c] / z, 12);
        expect(lj[r * 2 + c]).toBeCloseTo(Math.log(joint[c]), 10);
      }
    });
  });
});

describe('the elimination limit is the dense one', () => {
  it('a missing-value query is exact or refused: 7 missing parents of a sparse family need 2·10^7 > 10^6 cells', () => {
    // The same network shape as above, fitted on a few rows: the restricted table of A's family over its
    // missing members {X0..X6, C} has 10^7 · 2 entries whether the CPT is dense or sparse, so the query is
    // refused with the inference's MAX_ELIMINATION_CELLS error instead of being approximated.
    const rng = new Rng('limit');
    const cards = [...Array.from({ length: 10 }, () => 10), 3];
    const rows = Array.from({ length: 20 }, () => cards.map((c) => rng.int(c)));
    const train = discreteFromArrays({ cards, rows, classes: rows.map(() => rng.int(2)), classCard: 2 });
    const s: Structure = {
      m: 11,
      parents: [...Array.from({ length: 10 }, () => [11]), [11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9], []],
    };
    const model = dirichlet.fit(train, s, { alpha: 1 }, ctx) as CptModel;
    expect(model.cpts[10].index).toBeDefined();
    const ok = discreteFromArrays({
      cards,
      rows: [[-1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 1]],
      classes: [0],
      classCard: 2,
    });
    for (const sum of rowSums(model.posterior(ok), 2)) expect(sum).toBeCloseTo(1, 12); // 2·10^5 cells: fine
    const tooMany = discreteFromArrays({
      cards,
      rows: [[-1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 1]],
      classes: [0],
      classCard: 2,
    });
    expect(() => model.posterior(tooMany)).toThrow(
      /row 0: the family of node 10 over its missing attributes needs 20000000 cells/,
    );
  });
});

describe('families beyond exact configuration numbers', () => {
  it('more than 2^53 cells is a one-line UserError naming the family', () => {
    // 53 binary parents and a binary child: 2^54 cells, whose mixed-radix numbers are no longer exact doubles.
    const m = 54;
    const data = discreteFromArrays({
      cards: new Array(m).fill(2),
      rows: [new Array(m).fill(0), new Array(m).fill(1)],
      classes: [0, 1],
      classCard: 2,
    });
    const parents = Array.from({ length: 53 }, (_, i) => i + 1);
    expect(() => sparseFamilyCounts(data, 0, parents)).toThrow(UserError);
    expect(() => sparseFamilyCounts(data, 0, parents)).toThrow(
      /^family of node 0 with parents \[1, 2, .*, 53\] has 18014398509481984 cells, more than 2\^53; use fewer parents$/,
    );
    // 52 parents (2^53 cells) still fit: the two rows give two configurations.
    expect(sparseFamilyCounts(data, 0, parents.slice(0, 52)).index.size).toBe(2);
  });
});

describe('other readers of NodeCpt', () => {
  it('cptRowOffset / cptTable read the default row for unseen configurations; forwardSample draws the same rows', () => {
    const data = shipped('car');
    const s = kdb.learn(data, { k: 3 }, ctx);
    const est: FamilyEstimator = (fc) => dirichletLogProbs(fc, 1);
    const d = fitCptModel(data, s, est, undefined, DENSE);
    const sp = fitCptModel(data, s, est, undefined, SPARSE);
    const cpt = sp.cpts.find((c) => c.index!.size < c.configs)! as NodeCpt;
    let unseen = 0;
    while (cpt.index!.get(unseen) >= 0) unseen++;
    expect(cptRowOffset(cpt, unseen)).toBe(cpt.index!.size * cpt.card);
    expect(
      [...cptTable(cpt).subarray(cptRowOffset(cpt, unseen), cptRowOffset(cpt, unseen) + cpt.card)].map(Math.exp),
    ).toEqual(new Array(cpt.card).fill(1 / cpt.card));
    const a = forwardSample(d, 300, new Rng('fs'));
    const b = forwardSample(sp, 300, new Rng('fs'));
    a.forEach((col, v) => expect([...b[v]]).toEqual([...col]));
  });

  it('the default threshold: 2^20 cells', () => {
    expect(SPARSE_CPT_CELLS).toBe(1 << 20);
    const fitted = fitCptModel(tinyData(), naiveBayesStructure(3), (fc) => dirichletLogProbs(fc, 1));
    expect(fitted.cpts.every((c) => c.logp instanceof Float64Array)).toBe(true);
  });
});
