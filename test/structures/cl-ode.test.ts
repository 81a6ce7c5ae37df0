import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { clOde, odeWeights } from '../../src/structures/cl-ode.js';
import { tan } from '../../src/structures/tan.js';
import { getStructure } from '../../src/registry.js';
import { assertDag } from '../../src/bn/structure.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { HH, hhTable, shipped } from './catalog-data.js';

const ctx = { rng: new Rng('cl-ode') };
const attributeArcs = (parents: readonly (readonly number[])[], m: number) =>
  parents.slice(0, m).reduce((s, ps) => s + ps.filter((p) => p < m).length, 0);

describe('cl-ode on the Hamine–Helman table (N = 12, rc = 2; I values worked in catalog-data.ts)', () => {
  const d = hhTable();
  // d = (ri−1)(rj−1)·rc: d01 = 2, d02 = d12 = 4.
  it('weights by hand: loglik = I, aic = N·I − d, bic = N·I − (ln N / 2)·d', () => {
    const w = { loglik: odeWeights(d, 'loglik'), aic: odeWeights(d, 'aic'), bic: odeWeights(d, 'bic') };
    expect(w.loglik[0 * 3 + 1]).toBeCloseTo(HH.I01, 14);
    expect(w.aic[0 * 3 + 2]).toBeCloseTo(12 * HH.I02 - 4, 12);
    expect(w.bic[1 * 3 + 2]).toBeCloseTo(12 * HH.I12 - 2 * Math.log(12), 12);
    expect(w.bic[2 * 3 + 1]).toBe(w.bic[1 * 3 + 2]);
    // bic: w01 = 12·I01 − ln 12 ≈ 1.334, w02 = 12·I02 − 2 ln 12 ≈ 0.575, w12 ≈ 2.668.
    expect(w.bic[1]).toBeCloseTo(1.33418, 5);
    expect(w.bic[2]).toBeCloseTo(0.57536, 5);
    expect(w.bic[5]).toBeCloseTo(2.66836, 5);
  });

  it('loglik takes (1,2) then (0,2): X0 -> X2 -> X1; aic and bic take (1,2) then (0,1): X0 -> X1 -> X2', () => {
    // loglik order: I12 0.637 > I02 0.462 > I01 0.318. aic: 3.638 > 1.819 (01) > 1.545 (02). bic as above.
    expect(clOde.learn(d, { score: 'loglik' }, ctx).parents).toEqual([[3], [3, 2], [3, 0], []]);
    expect(clOde.learn(d, { score: 'aic' }, ctx).parents).toEqual([[3], [3, 0], [3, 1], []]);
    const bic = clOde.learn(d, { score: 'bic' }, ctx);
    expect(bic.parents).toEqual([[3], [3, 0], [3, 1], []]);
    expect(bic.info).toMatchObject({ score: 'bic', arcs: 2 });
    expect(bic.info?.weight).toBeCloseTo((24 * HH.I12) / 2 + 12 * HH.I01 - 3 * Math.log(12), 10);
  });
});

describe('cl-ode on the shipped data (bnclassify tests/testthat/test-learn-chowliu.R: car 5 / 3 / 0 arcs, voting BIC 30 arcs with the class)', () => {
  const car = shipped('car');
  const voting = shipped('house-votes-84');

  it('car: loglik gives a 5-arc tree equal to tan, aic a 3-arc forest, bic no augmenting arc', () => {
    const ll = clOde.learn(car, { score: 'loglik' }, ctx);
    assertDag(ll);
    expect(attributeArcs(ll.parents, 6)).toBe(5);
    expect(ll.parents).toEqual(tan.learn(car, {}, ctx).parents);
    expect(attributeArcs(clOde.learn(car, { score: 'aic' }, ctx).parents, 6)).toBe(3);
    const bic = clOde.learn(car, { score: 'bic' }, ctx);
    expect(bic.parents).toEqual([[6], [6], [6], [6], [6], [6], []]);
  });

  it('voting (missing values, available case): the BIC forest has 14 augmenting arcs, 30 arcs in all', () => {
    const s = clOde.learn(voting, { score: 'bic' }, ctx);
    assertDag(s);
    const all = s.parents.reduce((n, ps) => n + ps.length, 0);
    expect(all).toBe(30);
    expect(s.info?.arcs).toBe(14);
    // As in test/bn/mst.test.ts: immigration is the root of its own one-node tree.
    expect(s.parents[voting.names.indexOf('immigration')]).toEqual([16]);
  });
});

describe('cl-ode options', () => {
  it('is registered with loglik and root 0 as defaults', () => {
    expect(getStructure('cl-ode')).toBe(clOde);
    expect(clOde.defaults).toEqual({ score: 'loglik', root: 0 });
  });

  it('roots the tree at `root` and the other trees at their lowest index', () => {
    const d = hhTable();
    expect(clOde.learn(d, { score: 'bic', root: 2 }, ctx).parents).toEqual([[3, 1], [3, 2], [3], []]);
  });

  it('rejects a bad score or root as user errors', () => {
    expect(() => clOde.learn(hhTable(), { score: 'mdl' as never }, ctx)).toThrow(UserError);
    expect(() => clOde.learn(hhTable(), { root: 3 }, ctx)).toThrow(UserError);
  });

  it('handles zero and one attribute', () => {
    const one = discreteFromArrays({ cards: [2], rows: [[0], [1]], classes: [0, 1], classCard: 2 });
    expect(clOde.learn(one, { score: 'bic' }, ctx).parents).toEqual([[1], []]);
    const none = discreteFromArrays({ cards: [], rows: [[], []], classes: [0, 1], classCard: 2 });
    expect(clOde.learn(none, {}, ctx).parents).toEqual([[]]);
  });
});

describe('cl-ode zero-weight edges (a single-valued column: I = 0 and d = 0, weight exactly 0)', () => {
  // X1 copies X0 (N·I − d > 0 under aic), X2 has one value: edges (0,2) and (1,2) weigh exactly 0.
  const rows = Array.from({ length: 12 }, (_, r) => [r % 2, r % 2, 0]);
  const d = discreteFromArrays({ cards: [2, 2, 1], rows, classes: rows.map((_, r) => (r >> 1) % 2), classCard: 2 });

  it('weights: aic (0,1) positive, (0,2) and (1,2) exactly 0', () => {
    const w = odeWeights(d, 'aic');
    expect(w[1]).toBeGreaterThan(0);
    expect(w[2]).toBe(0);
    expect(w[5]).toBe(0);
  });

  it('drop: negative (default, bnclassify w >= 0) keeps the zero edge (0,2): one tree X0 -> X1, X0 -> X2', () => {
    expect(clOde.learn(d, { score: 'aic' }, ctx).parents).toEqual([[3], [3, 0], [3, 0], []]);
  });

  it('drop: nonPositive keeps only strictly positive edges: X2 stays a class-only orphan', () => {
    expect(clOde.learn(d, { score: 'aic', drop: 'nonPositive' }, ctx).parents).toEqual([[3], [3, 0], [3], []]);
    expect(() => clOde.learn(d, { drop: 'zero' } as never, ctx)).toThrow(UserError);
  });
});

describe("tie: bnclassify on four copies of one column (six equal weights; checked against bnclassify 0.4.8's tan_cl)", () => {
  // Every pair has the same table, so every weight is the same number in bnclab and in bnclassify
  // (loglik I = 0.56233514461880818, aic 2.4986811569504654 in both). Boost's heap pops the combn edges
  // (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) as 0, 2, 5, 4, 1, 3 (test/bn/mst.test.ts), so Kruskal keeps
  // (0,1), (0,3), (2,3): X0 -> X1, X0 -> X3, X3 -> X2, which is what tan_cl(score = 'loglik' | 'aic' | 'bic')
  // returned on this table in R (families: X1 <- X0, X2 <- X3, X3 <- X0), and likewise for bic. tie: first gives the star at X0.
  const A = [0, 0, 0, 1, 1, 1, 1, 0];
  const d = discreteFromArrays({
    cards: [2, 2, 2, 2],
    rows: A.map((a) => [a, a, a, a]),
    classes: [0, 0, 0, 0, 1, 1, 1, 1],
    classCard: 2,
  });
  const star = [[4], [4, 0], [4, 0], [4, 0], []];
  const boost = [[4], [4, 0], [4, 3], [4, 0], []];

  it('tan', () => {
    expect(odeWeights(d, 'loglik')[1]).toBeCloseTo(0.56233514461880818, 15);
    expect(tan.learn(d, {}, ctx).parents).toEqual(star);
    expect(tan.learn(d, { tie: 'first' }, ctx).parents).toEqual(star);
    expect(tan.learn(d, { tie: 'bnclassify' }, ctx).parents).toEqual(boost);
  });

  it('cl-ode (loglik, aic, bic: all six weights positive and equal)', () => {
    expect(odeWeights(d, 'aic')[1]).toBeCloseTo(2.4986811569504654, 14);
    for (const score of ['loglik', 'aic', 'bic'] as const) {
      expect(clOde.learn(d, { score }, ctx).parents).toEqual(star);
      expect(clOde.learn(d, { score, tie: 'bnclassify' }, ctx).parents).toEqual(boost);
    }
  });

  it('rejects an unknown tie rule on one line', () => {
    expect(() => tan.learn(d, { tie: 'last' } as never, ctx)).toThrow(UserError);
    expect(() => clOde.learn(d, { tie: 'last' } as never, ctx)).toThrow(/cl-ode: tie must be first or bnclassify/);
  });
});
