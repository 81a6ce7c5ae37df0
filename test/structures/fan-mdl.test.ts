/**
 * fan-mdl (Hamine & Helman 2004) against cl-ode with score bic (bnclassify's FAN by BIC).
 *
 * When do they coincide? Both keep an edge iff its MDL gain is ≥ 0: Hamine–Helman's test
 * I(Xi;Xj|C) ≥ T_R = rc(ri−1)(rj−1) log N / (2N) is N·I − (log N / 2)·d ≥ 0 with d = rc(ri−1)(rj−1), the
 * BIC edge weight. They differ in
 *  (1) the order Kruskal takes the kept edges: Hamine–Helman rank them by I, cl-ode by the penalised
 *      weight N·I − (log N/2)·d. The penalty is the same for every edge only when all attributes share one
 *      cardinality; otherwise the trees can differ, and then the BIC (= −MDL) forest of cl-ode scores
 *      better: the paper's claim that the structure length "depends only on the number of augmenting arcs"
 *      (its §4) holds only for equal cardinalities, so its optimality proof covers that case only;
 *  (2) N: the paper's N is the number of rows; with missing values cl-ode uses each pair's available-case
 *      count, so the two can keep different edges.
 * With complete data and one cardinality they return the same structure (checked on random data below).
 */
import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { fanMdl, mdlThreshold } from '../../src/structures/fan-mdl.js';
import { clOde, odeWeights } from '../../src/structures/cl-ode.js';
import { pairwiseCmi } from '../../src/bn/information.js';
import { arcs, assertDag, type Structure } from '../../src/bn/structure.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { HH, hhTable, shipped } from './catalog-data.js';

const ctx = { rng: new Rng('fan-mdl') };
const ln = Math.log;

/** Undirected augmenting edges [i, j] (i < j) of an ODE structure. */
function edges(s: Structure): [number, number][] {
  return arcs(s)
    .filter(([p, c]) => p < s.m && c < s.m)
    .map(([p, c]) => [Math.min(p, c), Math.max(p, c)] as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
const total = (w: Float64Array, m: number, es: [number, number][]) => es.reduce((s, [i, j]) => s + w[i * m + j], 0);

describe('the threshold T_R (Hamine & Helman Eq. 8)', () => {
  it('is rc(ri−1)(rj−1) ln N / (2N)', () => {
    // Hamine–Helman table: N = 12, rc = 2. Binary–binary: 2·1·1·ln12/24 = ln12/12; binary–ternary: ln12/6.
    expect(mdlThreshold(2, 2, 2, 12)).toBeCloseTo(ln(12) / 12, 15);
    expect(mdlThreshold(2, 3, 2, 12)).toBeCloseTo(ln(12) / 6, 15);
    expect(mdlThreshold(4, 3, 5, 100)).toBeCloseTo((5 * 3 * 2 * ln(100)) / 200, 15);
    // A constant attribute costs no parameters: every edge to it passes (cost 0 ≥ 0).
    expect(mdlThreshold(1, 7, 3, 50)).toBe(0);
  });
});

describe('hand-worked table where the two differ (mixed cardinalities)', () => {
  // catalog-data.ts: I01 ≈ 0.318257, I02 ≈ 0.462098, I12 ≈ 0.636514; T01 = ln12/12 ≈ 0.207, T02 = T12 = ln12/6 ≈ 0.414.
  // Every edge passes. Kruskal by I takes (1,2) then (0,2) [(0,1) closes a cycle]: X0 -> X2 -> X1.
  // By BIC weight (12·I − (ln12/2)·d): w12 ≈ 2.668 > w01 ≈ 1.334 > w02 ≈ 0.575: (1,2) then (0,1): X0 -> X1 -> X2.
  const d = hhTable();

  it('keeps all three edges and returns the I-maximal tree X0 -> X2 -> X1', () => {
    expect(HH.I01).toBeGreaterThan(mdlThreshold(2, 2, 2, 12));
    expect(HH.I02).toBeGreaterThan(mdlThreshold(2, 3, 2, 12));
    const s = fanMdl.learn(d, {}, ctx);
    expect(s.parents).toEqual([[3], [3, 2], [3, 0], []]);
    expect(s.info).toMatchObject({ arcs: 2, candidateEdges: 3 });
    expect(s.info?.cost).toBeCloseTo(HH.I12 + HH.I02, 14);
  });

  it('cl-ode bic returns X0 -> X1 -> X2, whose BIC (−MDL) is higher by 6 ln(3/4) + ln 12 = ln(12·(3/4)^6)', () => {
    const bic = clOde.learn(d, { score: 'bic' }, ctx);
    expect(bic.parents).toEqual([[3], [3, 0], [3, 1], []]);
    const w = odeWeights(d, 'bic');
    const gap = total(w, 3, edges(bic)) - total(w, 3, edges(fanMdl.learn(d, {}, ctx)));
    // w01 − w02 = 12(I01 − I02) + (4 − 2)·ln12/2 = 12·(1/2)ln(3/4) + ln 12.
    expect(gap).toBeCloseTo(6 * ln(3 / 4) + ln(12), 12);
    expect(gap).toBeCloseTo(0.758814, 6);
  });
});

describe('equal cardinalities and complete data: the same structure as cl-ode bic', () => {
  it.each(['a', 'b', 'c', 'd', 'e'])('random binary data, seed %s', (seed) => {
    const rng = new Rng(seed);
    const n = 300;
    const m = 7;
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < n; r++) {
      const c = rng.int(2);
      classes.push(c);
      const row: number[] = [];
      for (let a = 0; a < m; a++) row.push(rng.next() < 0.3 ? c : rng.next() < 0.5 && a > 0 ? row[a - 1] : rng.int(2));
      rows.push(row);
    }
    const d = discreteFromArrays({ cards: new Array<number>(m).fill(2), rows, classes, classCard: 2 });
    const fan = fanMdl.learn(d, {}, ctx);
    expect(fan.parents).toEqual(clOde.learn(d, { score: 'bic' }, ctx).parents);
    expect(fan.info?.arcs).toBeGreaterThan(0);
  });
});

describe('shipped data', () => {
  it('car (complete, cards 4 and 3): no edge reaches T_R, as cl-ode bic gives no arc (bnclassify: 0)', () => {
    const car = shipped('car');
    const s = fanMdl.learn(car, {}, ctx);
    expect(s.info).toMatchObject({ arcs: 0, candidateEdges: 0 });
    expect(s.parents).toEqual(clOde.learn(car, { score: 'bic' }, ctx).parents);
  });

  it('house-votes-84 (binary, missing values): the same 14-arc forest as cl-ode bic', () => {
    const v = shipped('house-votes-84');
    const s = fanMdl.learn(v, {}, ctx);
    assertDag(s);
    expect(s.info?.arcs).toBe(14);
    expect(s.parents).toEqual(clOde.learn(v, { score: 'bic' }, ctx).parents);
  });

  it('soybean (missing values): N = rows keeps stem–fruiting-bodies, which the available-case N drops', () => {
    const d: DiscreteData = shipped('soybean');
    const fan = fanMdl.learn(d, {}, ctx);
    const bic = clOde.learn(d, { score: 'bic' }, ctx);
    expect(fan.info?.arcs).toBe(3);
    expect(bic.info?.arcs).toBe(2);
    const i = d.names.indexOf('stem');
    const j = d.names.indexOf('fruiting-bodies');
    const m = d.columns.length;
    const { cmi, n } = pairwiseCmi(d);
    // Both binary, 19 classes: d = 19. I ≈ 0.09493 on the 577 rows where both are observed.
    expect(n[i * m + j]).toBe(577);
    expect(d.n).toBe(683);
    const I = cmi[i * m + j];
    expect(I).toBeGreaterThanOrEqual(mdlThreshold(2, 2, d.classCard, 683)); // T_R(N = 683) ≈ 0.09078
    expect(I).toBeLessThan(mdlThreshold(2, 2, d.classCard, 577)); // T_R(N = 577) ≈ 0.10468
    expect(edges(fan)).toContainEqual([Math.min(i, j), Math.max(i, j)]);
    expect(edges(bic)).not.toContainEqual([Math.min(i, j), Math.max(i, j)]);
  });

  it('cmc (complete, MDL-discretised, cards 2–4): same edge count, different trees; each wins its own objective', () => {
    const d = shipped('cmc', 'mdl');
    const m = d.columns.length;
    const fan = fanMdl.learn(d, {}, ctx);
    const bic = clOde.learn(d, { score: 'bic' }, ctx);
    const ef = edges(fan);
    const eb = edges(bic);
    // Complete data: the same kept edges, so spanning forests of the same components.
    expect(ef).toHaveLength(7);
    expect(eb).toHaveLength(7);
    expect(ef).not.toEqual(eb);
    const w = odeWeights(d, 'bic');
    const I = odeWeights(d, 'loglik');
    // cl-ode bic maximises the BIC gain; fan-mdl maximises the sum of I (values of this implementation).
    expect(total(w, m, eb)).toBeCloseTo(478.657, 3);
    expect(total(w, m, ef)).toBeCloseTo(473.88, 3);
    expect(total(I, m, ef)).toBeCloseTo(0.61143, 5);
    expect(total(I, m, eb)).toBeCloseTo(0.5701, 5);
  });
});

describe('fan-mdl options', () => {
  it('roots the tree holding `root` there', () => {
    expect(fanMdl.learn(hhTable(), { root: 1 }, ctx).parents).toEqual([[3, 2], [3], [3, 1], []]);
  });

  it('rejects a bad root; handles zero and one attribute', () => {
    expect(() => fanMdl.learn(hhTable(), { root: -1 }, ctx)).toThrow(UserError);
    const one = discreteFromArrays({ cards: [3], rows: [[0], [2]], classes: [0, 1], classCard: 2 });
    expect(fanMdl.learn(one, {}, ctx).parents).toEqual([[1], []]);
  });
});
