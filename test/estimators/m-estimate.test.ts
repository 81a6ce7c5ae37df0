import { describe, it, expect, vi } from 'vitest';
import '../../src/estimators/index.js';
import '../../src/structures/index.js';
import {
  BackoffTree,
  BackoffTreeModel,
  DENSE_LIMITS,
  fitMEstimateNetwork,
  fitMEstimateSingle,
  fitsFullTables,
  mEstimate,
  mEstimateCpt,
  selectM,
  M_GRID,
} from '../../src/estimators/m-estimate.js';
import { getEstimator } from '../../src/registry.js';
import { rmse } from '../../src/metrics/index.js';
import { CptModel } from '../../src/bn/cpt.js';
import { attributeCount, discreteFromArrays, MISSING, selectRows, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { kdb } from '../../src/structures/kdb.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { familyCounts } from '../../src/bn/counts.js';
import { tinyData } from '../bn/fixtures.js';
import { shipped } from '../structures/catalog-data.js';

// familyCounts passed through, with its calls recorded: how often a family is counted over the rows.
vi.mock(import('../../src/bn/counts.js'), async (importOriginal) => {
  const counts = await importOriginal();
  return { ...counts, familyCounts: vi.fn(counts.familyCounts) };
});

const ctx = { rng: new Rng('m-estimate') };
function probs(lp: Float64Array | undefined, from: number, to: number): number[] {
  if (lp === undefined) throw new Error('expected a dense table (logp set)');
  return [...lp.slice(from, to)].map(Math.exp);
}
function expectClose(actual: number[], expected: number[], digits = 14): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i], digits));
}

describe('back-off on the tiny data (rows X0 X1 X2 | C in test/bn/fixtures.ts)', () => {
  // X2 | C, X1, X0 (class first, then the kDB-2 parents in CMI order; kdb.test.ts).
  // Config index = (c·2 + x1)·2 + x0, cells config·3 + x2.
  // Fitted inside each test rather than while vitest collects the file: an error thrown during collection
  // fails no test, so the mutation runner, which counts failed tests, would not see it.
  const tiny = () => mEstimateCpt(tinyData(), 2, [3, 1, 0], 1);

  it('a seen configuration uses its own counts: (C=1, X1=1, X0=1) rows 4, 6 -> X2 [1,1,0], N = 2', () => {
    // (n + 1/3)/(2 + 1): 4/9, 4/9, 1/9
    const j = (1 * 2 + 1) * 2 + 1;
    expectClose(probs(tiny().logp, j * 3, j * 3 + 3), [4 / 9, 4 / 9, 1 / 9]);
  });

  it('an unseen configuration backs off to the deepest context with counts: (C=1, X1=0, X0=0) -> (C=1, X1=0)', () => {
    // (C=1, X1=0) holds row 5 only (X2 = 2): (0 + 1/3)/2, (0 + 1/3)/2, (1 + 1/3)/2 = 1/6, 1/6, 2/3
    const j = (1 * 2 + 0) * 2 + 0;
    expectClose(probs(tiny().logp, j * 3, j * 3 + 3), [1 / 6, 1 / 6, 2 / 3]);
  });

  it('a configuration seen only with the child missing also backs off: (C=1, X1=1, X0=0) is row 7, X2 missing', () => {
    // -> (C=1, X1=1): rows 4, 6 with X2 observed [1,1,0] -> 4/9, 4/9, 1/9
    const j = (1 * 2 + 1) * 2 + 0;
    expectClose(probs(tiny().logp, j * 3, j * 3 + 3), [4 / 9, 4 / 9, 1 / 9]);
  });

  it('the class prior is (n_c + m/C)/(N + m)', () => {
    expectClose(probs(mEstimateCpt(tinyData(), 3, [], 1).logp, 0, 2), [4.5 / 9, 4.5 / 9]);
    expectClose(probs(mEstimateCpt(tinyData(), 3, [], 5).logp, 0, 2), [6.5 / 13, 6.5 / 13]);
  });

  it('m = 0 is maximum likelihood in seen contexts (zeros allowed) and still backs off', () => {
    const ml = mEstimateCpt(tinyData(), 2, [3, 1, 0], 0);
    const seen = (1 * 2 + 1) * 2 + 1;
    expectClose(probs(ml.logp, seen * 3, seen * 3 + 3), [1 / 2, 1 / 2, 0]);
    const unseen = (1 * 2 + 0) * 2 + 0;
    expectClose(probs(ml.logp, unseen * 3, unseen * 3 + 3), [0, 0, 1]);
  });
});

describe('available case per context', () => {
  it('a shorter context counts rows whose deeper parents are missing', () => {
    // X0 | C, X1 with X1 = 2 never observed. Rows (X0, X1, C): (0,0,0) (1,0,0) (1,1,0) (0,?,0) (0,?,0) (1,1,1).
    // (C=0, X1=2) backs off to (C=0), which counts every C=0 row with X0 observed, missing X1 included:
    // X0 [3, 2], N = 5 -> (3 + 1/2)/6 = 7/12, (2 + 1/2)/6 = 5/12 (summing the full family table would give
    // [1, 2] over 3 rows, i.e. 3/8, 5/8).
    const d = discreteFromArrays({
      cards: [2, 3],
      rows: [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, MISSING],
        [0, MISSING],
        [1, 1],
      ],
      classes: [0, 0, 0, 0, 0, 1],
      classCard: 2,
    });
    const cpt = mEstimateCpt(d, 0, [2, 1], 1);
    const j = 0 * 3 + 2;
    expectClose(probs(cpt.logp, j * 2, j * 2 + 2), [7 / 12, 5 / 12]);
    // (C=1, X1=0): (C=1) holds row 5 only -> (0 + 1/2)/2, (1 + 1/2)/2
    const k = 1 * 3 + 0;
    expectClose(probs(cpt.logp, k * 2, k * 2 + 2), [1 / 4, 3 / 4]);
    // The listed parent order decides the path: with X1 first, (X1=2, C=0) backs off to (X1=2), which is
    // empty, and then to the root: X0 [3, 3] over all 6 rows -> 1/2, 1/2.
    const swapped = mEstimateCpt(d, 0, [1, 2], 1);
    const s = 2 * 2 + 0;
    expectClose(probs(swapped.logp, s * 2, s * 2 + 2), [1 / 2, 1 / 2]);
    // With X1 the only parent (every parent has a missing value), (X1=2) backs off to the root, which counts
    // all 6 rows: 1/2, 1/2 (summing the full table would count the 4 rows with X1 observed: 3/10, 7/10).
    expectClose(probs(mEstimateCpt(d, 0, [1], 1).logp, 4, 6), [1 / 2, 1 / 2]);
  });

  it('an empty root context (child never observed) gives the uniform distribution', () => {
    const d = discreteFromArrays({ cards: [3], rows: [[MISSING], [MISSING]], classes: [0, 1], classCard: 2 });
    expectClose(probs(mEstimateCpt(d, 0, [1], 1).logp, 0, 6), [1 / 3, 1 / 3, 1 / 3, 1 / 3, 1 / 3, 1 / 3]);
  });

  it('a class value absent from training backs off to the root P(x)', () => {
    const d = discreteFromArrays({ cards: [2], rows: [[0], [0], [1]], classes: [0, 0, 1], classCard: 3 });
    // (C=2) unseen -> root: X0 [2, 1], N = 3 -> (2 + 1/2)/4, (1 + 1/2)/4
    expectClose(probs(mEstimateCpt(d, 0, [1], 1).logp, 4, 6), [5 / 8, 3 / 8]);
  });
});

describe('counting passes over the rows', () => {
  it('a family without missing values is counted once (shorter contexts summed out); with one, once per depth', () => {
    // X0 | C, X1, X2 on the tiny data without its one missing value (X2 in row 7), then with it.
    const counted = vi.mocked(familyCounts);
    const passes = (d: DiscreteData) => {
      counted.mockClear();
      mEstimateCpt(d, 0, [3, 1, 2], 1);
      return counted.mock.calls.length;
    };
    expect(passes(selectRows(tinyData(), [0, 1, 2, 3, 4, 5, 6]))).toBe(1);
    expect(passes(tinyData())).toBe(4);
  });
});

describe('the estimator', () => {
  it('fits a CptModel whose posterior is the hand value on the tiny data (naive Bayes, m = 1)', () => {
    // Row (1, 0, 2): P(c) = 1/2 each; P(X0=1|c): c0 (1+1/2)/5 = 3/10, c1 (3+1/2)/5 = 7/10;
    // P(X1=0|c): c0 (2+1/2)/5 = 1/2, c1 (1+1/2)/5 = 3/10; P(X2=2|c): c0 (1+1/3)/5 = 4/15, c1 (1+1/3)/4 = 1/3.
    // c0: 3/10·1/2·4/15 = 1/25; c1: 7/10·3/10·1/3 = 7/100 -> P(c=0) = 4/11.
    const d = tinyData();
    const model = mEstimate.fit(d, naiveBayesStructure(3), { m: 1, select: 'none' }, ctx);
    expect(model).toBeInstanceOf(CptModel);
    const p = model.posterior(discreteFromArrays({ cards: [2, 2, 3], rows: [[1, 0, 2]], classes: [0], classCard: 2 }));
    expect(p[0]).toBeCloseTo(4 / 11, 14);
    expect(getEstimator('m-estimate')).toBe(mEstimate);
    expect(mEstimate.defaults).toEqual({ m: 1, select: 'none' });
  });

  it('rejects a negative m or an unknown select as user errors', () => {
    const s: Structure = naiveBayesStructure(3);
    expect(() => mEstimate.fit(tinyData(), s, { m: -1 }, ctx)).toThrow(UserError);
    expect(() => mEstimate.fit(tinyData(), s, { select: 'cv' as never }, ctx)).toThrow(UserError);
  });
});

/** 300 rows of 8 four-valued attributes and a binary class, all independent uniform noise. */
function noiseData(): DiscreteData {
  const rng = new Rng('noise');
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < 300; r++) {
    rows.push(Array.from({ length: 8 }, () => rng.int(4)));
    classes.push(rng.int(2));
  }
  return discreteFromArrays({ cards: new Array<number>(8).fill(4), rows, classes, classCard: 2 });
}

describe('holdout selection of m from {0, 0.05, 0.2, 1, 5, 20}', () => {
  it('uses min(⌊N/10⌋, 5000) rows and needs at least 10 rows', () => {
    expect(M_GRID).toEqual([0, 0.05, 0.2, 1, 5, 20]);
    expect(selectM(tinyData(), naiveBayesStructure(3), new Rng('h'))).toBeNull();
  });

  it('picks m = 0 when the class is a function of the attributes and every configuration is seen', () => {
    // Class = X0 XOR X1, all four configurations repeated: maximum likelihood is exact (RMSE 0 on the holdout).
    const rows: number[][] = [];
    for (let r = 0; r < 200; r++) rows.push([r % 2, (r >> 1) % 2]);
    const d = discreteFromArrays({ cards: [2, 2], rows, classes: rows.map(([a, b]) => a ^ b), classCard: 2 });
    const structure: Structure = { m: 2, parents: [[2], [2, 0], []] };
    const sel = selectM(d, structure, new Rng('xor'))!;
    expect(sel.m).toBe(0);
    expect(sel.losses[0]).toBeCloseTo(0, 12);
    expect(sel.losses.every((l, i) => i === 0 || l > 0)).toBe(true);
  });

  it('picks the largest m when the attributes carry no information (heavier smoothing toward the prior)', () => {
    const d = noiseData();
    const structure = kdb.learn(d, { k: 2 }, ctx);
    const sel = selectM(d, structure, new Rng('noise-holdout'))!;
    expect(sel.losses).toHaveLength(6);
    expect(sel.m).toBe(20);
    // select: holdout refits on every row with the chosen m.
    const fitted = mEstimate.fit(d, structure, { select: 'holdout' }, { rng: new Rng('noise-holdout').derive('x') });
    expect(fitted).toBeInstanceOf(CptModel);
  });

  it('select: holdout fits with the m it selected (not the fixed m), refitted on every row', () => {
    const d = noiseData();
    const structure = kdb.learn(d, { k: 2 }, ctx);
    // fit derives the selection stream as ctx.rng.derive('m-holdout').
    const chosen = selectM(d, structure, new Rng('sel').derive('m-holdout'))!.m;
    expect(chosen).toBe(20);
    const selected = [
      ...mEstimate.fit(d, structure, { m: 1, select: 'holdout' }, { rng: new Rng('sel') }).posterior(d),
    ];
    expect(selected).toEqual([...mEstimate.fit(d, structure, { m: chosen, select: 'none' }, ctx).posterior(d)]);
    expect(selected).not.toEqual([...mEstimate.fit(d, structure, { m: 1, select: 'none' }, ctx).posterior(d)]);
  });

  it("select: holdout splits with ctx.rng.derive('m-holdout'): pinned choices for two seeds", () => {
    // 60 rows where each attribute copies the class with probability 0.3: the losses of the grid are close,
    // so the chosen m follows the split (seed 'd' picks 20, seed 'e' picks 0; another stream label, e.g. '',
    // gives 0.2 and 20).
    const rng = new Rng('weak');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 60; r++) {
      const c = rng.int(2);
      classes.push(c);
      rows.push([0, 1, 2].map(() => (rng.next() < 0.3 ? c : rng.int(2))));
    }
    const d = discreteFromArrays({ cards: [2, 2, 2], rows, classes, classCard: 2 });
    const s = naiveBayesStructure(3);
    const posterior = (params: { m?: number; select?: 'none' | 'holdout' }, seed: string) => [
      ...mEstimate.fit(d, s, params, { rng: new Rng(seed) }).posterior(d),
    ];
    for (const [seed, m] of [
      ['d', 20],
      ['e', 0],
    ] as const) {
      expect(selectM(d, s, new Rng(seed).derive('m-holdout'))!.m).toBe(m);
      const held = posterior({ m: 1, select: 'holdout' }, seed);
      expect(held).toEqual(posterior({ m }, seed));
      for (const other of M_GRID.filter((g) => g !== m)) expect(held).not.toEqual(posterior({ m: other }, seed));
    }
  });

  it('ensemble members with rows of their own are fitted on those of the fit part (bagging, boosting)', () => {
    const d = noiseData();
    const nb = naiveBayesStructure(attributeCount(d));
    const plain: Structure = { ...nb, members: [{ weight: 1, structure: nb }] };
    const want = selectM(d, plain, new Rng('members'))!.losses;
    // Rows 0..N-1 once each, and weights of 1: the member's data is all of the fit part, as without them.
    // (Taken as they were on the fit part, these rows ran past its end, and the weights did not fit it.)
    const every = Int32Array.from({ length: d.n }, (_, i) => i);
    const withRows: Structure = { ...nb, members: [{ weight: 1, structure: nb, rows: every }] };
    expect(selectM(d, withRows, new Rng('members'))!.losses).toEqual(want);
    const weighted: Structure = {
      ...nb,
      members: [{ weight: 1, structure: nb, rowWeights: new Float64Array(d.n).fill(1) }],
    };
    expect(selectM(d, weighted, new Rng('members'))!.losses).toEqual(want);
    // Each row twice (a bootstrap that drew every row two times) with weights 1/2: the same counts again.
    const twice = Int32Array.from({ length: 2 * d.n }, (_, i) => i >> 1);
    const halves: Structure = {
      ...nb,
      members: [{ weight: 1, structure: nb, rows: twice, rowWeights: new Float64Array(2 * d.n).fill(0.5) }],
    };
    const got = selectM(d, halves, new Rng('members'))!.losses;
    got.forEach((l, i) => expect(l).toBeCloseTo(want[i], 12));
  });

  it('kDB-2 on car with select: holdout gives finite posteriors summing to 1', () => {
    const car = shipped('car');
    const s = kdb.learn(car, { k: 2 }, ctx);
    const p = mEstimate.fit(car, s, { select: 'holdout' }, ctx).posterior(car);
    for (let r = 0; r < car.n; r += 97) {
      let t = 0;
      for (let c = 0; c < 4; c++) t += p[r * 4 + c];
      expect(t).toBeCloseTo(1, 12);
    }
  });
});

describe('context trees for large families (BackoffTreeModel)', () => {
  // First in this block: the last test fits such a structure, which with full tables would take very long.
  it('a kDB-5 family over 10-valued attributes and 2 classes (2·10^6 cells) is too large for a full table', () => {
    // X5 | C, X0..X4: 2 · 10^6 cells > 2^20. Only the cardinalities are read, so one row suffices.
    const d = discreteFromArrays({
      cards: new Array<number>(6).fill(10),
      rows: [new Array<number>(6).fill(0)],
      classes: [0],
      classCard: 2,
    });
    const s: Structure = { m: 6, parents: [[6], [6], [6], [6], [6], [6, 0, 1, 2, 3, 4], []] };
    expect(fitsFullTables(d, s)).toBe(false);
    expect(fitsFullTables(d, naiveBayesStructure(6))).toBe(true);
  });

  it('gives the full-table log P(c, x) on complete rows, for every structure shape', () => {
    const rng = new Rng('trees');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 120; r++) {
      const c = rng.int(3);
      classes.push(c);
      rows.push([0, 1, 2, 3, 4].map((a) => (rng.next() < 0.4 ? (c + a) % 3 : rng.int(a === 2 ? 4 : 3))));
    }
    const d = discreteFromArrays({ cards: [3, 3, 4, 3, 3], rows, classes, classCard: 3 });
    const test = discreteFromArrays({
      cards: [3, 3, 4, 3, 3],
      rows: [
        [0, 0, 0, 0, 0],
        [2, 1, 3, 0, 2],
        [1, 1, 1, 1, 1],
      ],
      classes: [0, 0, 0],
      classCard: 3,
    });
    for (const k of [1, 3, 4]) {
      const s = kdb.learn(d, { k }, ctx);
      for (const m of [0.05, 1, 20]) {
        const dense = fitMEstimateNetwork(d, s, m).logJoint(test);
        const tree = new BackoffTreeModel(d, s, m).logJoint(test);
        dense.forEach((v, i) => expect(tree[i]).toBeCloseTo(v, 12));
      }
    }
    // A parent list with the class last, and a node without the class.
    const odd: Structure = { m: 5, parents: [[5], [0, 5], [1, 0], [2, 1, 0, 5], [], []] };
    const dense = fitMEstimateNetwork(d, odd, 1).logJoint(test);
    new BackoffTreeModel(d, odd, 1).logJoint(test).forEach((v, i) => expect(v).toBeCloseTo(dense[i], 12));
  });

  it('training rows with missing parents or weight 0 count as in the full tables (available case)', () => {
    // A row stops at its first missing parent, and a context reached only by rows of weight 0 is backed off
    // from, in trees as in tables; m = 0 with a child never observed gives the uniform 1/r in both.
    const rng = new Rng('tree-missing');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 80; r++) {
      const c = rng.int(2);
      classes.push(c);
      rows.push([0, 1, 2].map((a) => (rng.next() < 0.2 ? MISSING : rng.next() < 0.5 ? (c + a) % 3 : rng.int(3))));
      rows[r].push(MISSING);
    }
    const d = discreteFromArrays({ cards: [3, 3, 3, 2], rows, classes, classCard: 2 });
    const s: Structure = { m: 4, parents: [[4], [4, 0], [4, 1, 0], [4, 2], []] };
    const test = discreteFromArrays({
      cards: [3, 3, 3, 2],
      rows: Array.from({ length: 27 }, (_, i) => [i % 3, Math.floor(i / 3) % 3, Math.floor(i / 9), i % 2]),
      classes: new Array<number>(27).fill(0),
      classCard: 2,
    });
    const w = Float64Array.from({ length: 80 }, (_, r) => (r % 4 === 0 ? 0 : 1 + (r % 3)));
    for (const [m, weights] of [
      [1, undefined],
      [0.2, w],
      [0, w],
    ] as const) {
      const dense = fitMEstimateNetwork(d, s, m, weights).logJoint(test);
      const tree = new BackoffTreeModel(d, s, m, weights).logJoint(test);
      dense.forEach((v, i) => expect(tree[i]).toBeCloseTo(v, 12));
    }
  });

  it('a missing value: the node drops out, a missing parent ends the context (tiny data, X2 | C, X1, X0)', () => {
    const s: Structure = { m: 3, parents: [[3], [3], [3, 1, 0], []] };
    const tree = new BackoffTreeModel(tinyData(), s, 1);
    const row = discreteFromArrays({ cards: [2, 2, 3], rows: [[MISSING, 0, 2]], classes: [0], classCard: 2 });
    // C=1: P(C=1) = 4.5/9; X1=0 | C=1: (1 + 1/2)/(4 + 1) = 3/10; X2=2 | (C=1, X1=0) (X0 missing): row 5 only
    // -> (1 + 1/3)/(1 + 1) = 2/3; X0 missing: no factor.
    const lj = tree.logJoint(row);
    expect(lj[1]).toBeCloseTo(Math.log(0.5 * 0.3 * (2 / 3)), 14);
    // C=0: 1/2 · (2 + 1/2)/5 · X2=2 | (C=0, X1=0): rows 0, 1 have X2 = 0, 1 -> (0 + 1/3)/3 = 1/9
    expect(lj[0]).toBeCloseTo(Math.log(0.5 * 0.5 * (1 / 9)), 14);
  });

  it('holds each context and cell that training rows reach once (brute force over the rows)', () => {
    // 60 rows of three 3-valued attributes with 25 % missing: many rows share a context, some stop early.
    const rng = new Rng('tree-sizes');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 60; r++) {
      classes.push(rng.int(2));
      rows.push([0, 1, 2].map(() => (rng.next() < 0.25 ? MISSING : rng.int(3))));
    }
    rows.push([MISSING, 0, 0]);
    classes.push(0);
    const d = discreteFromArrays({ cards: [3, 3, 3], rows, classes, classCard: 2 });
    const value = (i: number, v: number) => (v === 3 ? classes[i] : rows[i][v]);
    for (const [v, parents] of [
      [2, [3, 1, 0]],
      [0, [3, 2]],
      [1, [0, 2]],
      [3, []],
    ] as const) {
      // A row with its child observed is in the depth-d context of its first d parents until one is missing.
      const contexts = parents.map(() => new Set<string>());
      const cells = [new Set<string>(), ...contexts.map(() => new Set<string>())];
      rows.forEach((_, i) => {
        const x = value(i, v);
        if (x < 0) return;
        cells[0].add(`${x}`);
        const path: number[] = [];
        for (const [q, p] of parents.entries()) {
          if (value(i, p) < 0) break;
          path.push(value(i, p));
          contexts[q].add(path.join());
          cells[q + 1].add(`${path.join()}|${x}`);
        }
      });
      expect(new BackoffTree(d, v, parents, 1).sizes(), `node ${v}`).toEqual({
        contexts: [1, ...contexts.map((c) => c.size)],
        cells: cells.map((c) => c.size),
      });
    }
  });

  it('evaluates a node without the class among its parents once per row, every other node once per class', () => {
    const s: Structure = { m: 3, parents: [[3], [3, 0], [1, 0], []] };
    const model = new BackoffTreeModel(tinyData(), s, 1);
    // Two test rows, the second with X2 missing (X2 then contributes no factor).
    const test = discreteFromArrays({
      cards: [2, 2, 3],
      rows: [
        [1, 0, 2],
        [0, 1, MISSING],
      ],
      classes: [0, 0],
      classCard: 2,
    });
    const logProb = vi.spyOn(BackoffTree.prototype, 'logProb');
    try {
      model.logJoint(test);
      // The class, X0 and X1 (class parents) 2 rows · 2 classes each; X2 (no class parent) once, for row 0.
      expect(logProb).toHaveBeenCalledTimes(4 + 4 + 4 + 1);
    } finally {
      logProb.mockRestore();
    }
  });

  it('is what the estimator fits when a family is too large for a full table', () => {
    // kDB-5 over 10-value attributes and 2 classes: each of the 7 families with 5 attribute parents needs
    // 2·10^6 = 2,000,000 cells (> 2^20), so the estimator keeps context trees.
    const rng = new Rng('big');
    const m = 12;
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 200; r++) {
      const c = rng.int(2);
      classes.push(c);
      rows.push(Array.from({ length: m }, (_, a) => (rng.next() < 0.5 ? (c + a) % 10 : rng.int(10))));
    }
    const d = discreteFromArrays({ cards: new Array<number>(m).fill(10), rows, classes, classCard: 2 });
    const s = kdb.learn(d, { k: 5 }, ctx);
    const model = mEstimate.fit(d, s, { m: 1 }, ctx);
    expect(model).toBeInstanceOf(BackoffTreeModel);
    const p = model.posterior(d);
    let hits = 0;
    for (let r = 0; r < d.n; r++) if ((p[2 * r + 1] > p[2 * r] ? 1 : 0) === d.classColumn[r]) hits++;
    expect(hits / d.n).toBeGreaterThan(0.9);
  });
});

describe('ensemble members with their own rows and row weights (bootstrap / boosting members)', () => {
  it('row weights act as counts: weight 2 on every row equals every row twice, in tables and in trees', () => {
    const d = tinyData();
    const twice = selectRows(d, [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]);
    const w = new Float64Array(8).fill(2);
    const s: Structure = { m: 3, parents: [[3], [3, 0], [3, 1, 0], []] };
    const test = discreteFromArrays({
      cards: [2, 2, 3],
      rows: [
        [1, 0, 2],
        [0, 1, 1],
      ],
      classes: [0, 0],
      classCard: 2,
    });
    const ref = fitMEstimateNetwork(twice, s, 1).logJoint(test);
    fitMEstimateNetwork(d, s, 1, w)
      .logJoint(test)
      .forEach((v, i) => expect(v).toBeCloseTo(ref[i], 13));
    new BackoffTreeModel(d, s, 1, w).logJoint(test).forEach((v, i) => expect(v).toBeCloseTo(ref[i], 13));
  });

  it('a member with rows is fitted on those rows only', () => {
    const d = tinyData();
    const rows = Int32Array.from([0, 2, 4, 6, 7]);
    const nb = naiveBayesStructure(3);
    const ens: Structure = { ...nb, members: [{ weight: 1, structure: nb, rows }] };
    const test = discreteFromArrays({ cards: [2, 2, 3], rows: [[1, 0, 2]], classes: [0], classCard: 2 });
    const a = mEstimate.fit(d, ens, { m: 1 }, ctx).posterior(test);
    const b = mEstimate.fit(selectRows(d, rows), nb, { m: 1 }, ctx).posterior(test);
    expect(a[0]).toBeCloseTo(b[0], 14);
  });
});

describe('checks and boundaries', () => {
  it('rejects a non-finite m, a structure over other attributes and test data of another shape', () => {
    const s = naiveBayesStructure(3);
    for (const m of [Infinity, NaN]) {
      expect(() => mEstimate.fit(tinyData(), s, { m }, ctx)).toThrow(/^m-estimate: m must be a finite number >= 0/);
    }
    expect(() => mEstimate.fit(tinyData(), s, { m: 0 }, ctx)).not.toThrow();
    expect(() => mEstimate.fit(tinyData(), s, { select: 'cv' as never }, ctx)).toThrow(
      /^m-estimate: select must be 'none' or 'holdout', got 'cv'$/,
    );
    expect(() => fitMEstimateNetwork(tinyData(), naiveBayesStructure(2), 1)).toThrow(
      /^structure has 2 attributes, data has 3$/,
    );
    expect(() => new BackoffTreeModel(tinyData(), naiveBayesStructure(4), 1)).toThrow(
      /^structure has 4 attributes, data has 3$/,
    );
    const tree = new BackoffTreeModel(tinyData(), s, 1);
    const shapes = [
      { cards: [2, 2], rows: [[0, 0]], classCard: 2 },
      { cards: [2, 2, 3], rows: [[0, 0, 0]], classCard: 3 },
      { cards: [2, 2, 4], rows: [[0, 0, 0]], classCard: 2 },
    ];
    for (const { cards, rows, classCard } of shapes) {
      const other = discreteFromArrays({ cards, rows, classes: [0], classCard });
      expect(() => tree.logJoint(other)).toThrow(/^m-estimate: data do not match the model/);
    }
  });

  it('select: holdout with fewer than 10 rows fits the given m', () => {
    const s = naiveBayesStructure(3);
    const test = discreteFromArrays({ cards: [2, 2, 3], rows: [[1, 0, 2]], classes: [0], classCard: 2 });
    const held = mEstimate.fit(tinyData(), s, { m: 5, select: 'holdout' }, ctx).posterior(test);
    const fixed = mEstimate.fit(tinyData(), s, { m: 5 }, ctx).posterior(test);
    expect([...held]).toEqual([...fixed]);
    expect([...held]).not.toEqual([...mEstimate.fit(tinyData(), s, { m: 1 }, ctx).posterior(test)]);
  });

  it('selectM: on equal losses the first m of the grid wins', () => {
    // One class: every posterior is 1, so every m has RMSE 0.
    const rows = Array.from({ length: 30 }, (_, r) => [r % 2]);
    const d = discreteFromArrays({ cards: [2], rows, classes: rows.map(() => 0), classCard: 1 });
    const sel = selectM(d, naiveBayesStructure(1), new Rng('ties'), [5, 0.2, 1])!;
    expect(sel.losses).toEqual([0, 0, 0]);
    expect(sel.m).toBe(5);
  });

  it('selectM scores each m on the first min(⌊N/10⌋, 5000) rows of the seeded permutation, fitted on the rest', () => {
    // Recomputed here from the definition: shuffle 0..N-1 with the same stream, hold out the first nh rows.
    const rng = new Rng('cap');
    const n = 50_020;
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < n; r++) {
      const c = rng.int(2);
      classes.push(c);
      rows.push([rng.next() < 0.7 ? c : 1 - c, rng.int(3)]);
    }
    const d = discreteFromArrays({ cards: [2, 3], rows, classes, classCard: 2 });
    const s = naiveBayesStructure(2);
    for (const size of [15, 25, 999, n]) {
      const part =
        size === n
          ? d
          : selectRows(
              d,
              Array.from({ length: size }, (_, i) => i),
            );
      const perm = new Rng('sel-cap').shuffle(Array.from({ length: size }, (_, i) => i));
      const nh = Math.min(Math.floor(size / 10), 5000);
      const hold = selectRows(
        part,
        perm.slice(0, nh).sort((a, b) => a - b),
      );
      const rest = selectRows(
        part,
        perm.slice(nh).sort((a, b) => a - b),
      );
      const want = M_GRID.map((m) => rmse(fitMEstimateNetwork(rest, s, m).posterior(hold), hold.classColumn, 2));
      const got = selectM(part, s, new Rng('sel-cap'))!;
      got.losses.forEach((l, i) => expect(l).toBeCloseTo(want[i], 14));
      expect(got.m).toBe(M_GRID[want.indexOf(Math.min(...want))]);
    }
  });

  it('tables adding up to exactly 2^23 cells (none above 2^20) still fit full tables; one cell more does not', () => {
    // Class (2 cells), X0 | C (2·1024), X1..X7 | C, X0 (2·1024·512 = 2^20 each), X8 | C, X0 (2·1024·510) and a
    // parentless X9 with 2046 values: 2 + 2048 + 7·2^20 + 1,044,480 + 2046 = 2^23 cells. Only the
    // cardinalities are read, so one row suffices.
    const make = (card9: number) =>
      discreteFromArrays({
        cards: [1024, ...new Array<number>(7).fill(512), 510, card9],
        rows: [new Array<number>(10).fill(0)],
        classes: [0],
        classCard: 2,
      });
    const s: Structure = { m: 10, parents: [[10], ...new Array<number[]>(8).fill([10, 0]), [], []] };
    expect(fitsFullTables(make(2046), s)).toBe(true);
    expect(fitsFullTables(make(2047), s)).toBe(false);
    expect(fitsFullTables(make(2047), s, { ...DENSE_LIMITS, total: (1 << 23) + 1 })).toBe(true);
  });

  it("both sides of the switch give the same estimates (limits lowered to the structure's own sizes)", () => {
    // kDB-2 on 200 noisy rows: the largest family and the total, then each limit one cell lower.
    const rng = new Rng('switch');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 200; r++) {
      const c = rng.int(3);
      classes.push(c);
      rows.push([0, 1, 2, 3].map((a) => (rng.next() < 0.5 ? (c + a) % 4 : rng.int(4))));
    }
    const d = discreteFromArrays({ cards: [4, 4, 4, 4], rows, classes, classCard: 3 });
    const s = kdb.learn(d, { k: 2 }, ctx);
    const card = (v: number) => (v === 4 ? 3 : 4);
    const cells = s.parents.map((ps, v) => ps.reduce((a, p) => a * card(p), card(v)));
    const family = Math.max(...cells);
    const total = cells.reduce((a, b) => a + b, 0);
    expect(family).toBe(3 * 4 * 4 * 4);
    const at = fitMEstimateSingle(d, s, 1, undefined, { family, total });
    expect(at).toBeInstanceOf(CptModel);
    const want = at.posterior(d);
    for (const limits of [
      { family: family - 1, total },
      { family, total: total - 1 },
    ]) {
      const over = fitMEstimateSingle(d, s, 1, undefined, limits);
      expect(over).toBeInstanceOf(BackoffTreeModel);
      over.posterior(d).forEach((v, i) => expect(v).toBeCloseTo(want[i], 13));
    }
  });

  it('a family of exactly 2^20 cells still gets a full table; one more value of the child does not', () => {
    // X1 | C, X0: 2 · 1024 · 512 = 2^20 cells. With 513 values of X1 the family exceeds the limit.
    const make = (card1: number) =>
      discreteFromArrays({
        cards: [1024, card1],
        rows: [
          [0, 0],
          [1, 1],
          [2, 1],
        ],
        classes: [0, 1, 1],
        classCard: 2,
      });
    const s: Structure = { m: 2, parents: [[2], [2, 0], []] };
    expect(mEstimate.fit(make(512), s, { m: 1 }, ctx)).toBeInstanceOf(CptModel);
    expect(mEstimate.fit(make(513), s, { m: 1 }, ctx)).toBeInstanceOf(BackoffTreeModel);
  });
});
