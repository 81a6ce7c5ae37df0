import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import {
  candidateSets,
  empiricalPairTables,
  forwardSample,
  pairMutualInformation,
  pairwiseDiscrepancy,
  pairwiseMutualInformation,
  sparseCandidate,
} from '../../src/structures/sparse-candidate.js';
import { hillClimbLearner } from '../../src/structures/hill-climb.js';
import { assertDag } from '../../src/bn/structure.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { fitCptModel, smoothedLogProbs } from '../../src/bn/cpt.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

const ctx = { rng: new Rng('sparse-candidate') };

/** C uniform; X0 copies C, X1 copies X0, X2 copies C (each with probability 0.8), X3 noise; some missing. */
function chainData(seed: string, n: number, miss = 0): DiscreteData {
  const rng = new Rng(seed);
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = rng.int(2);
    const x0 = rng.next() < 0.8 ? c : rng.int(3);
    const x1 = rng.next() < 0.8 ? x0 % 2 : rng.int(2);
    const x2 = rng.next() < 0.8 ? c : rng.int(2);
    rows.push([x0, x1, x2, rng.int(3)].map((v) => (rng.next() < miss ? -1 : v)));
    classes.push(c);
  }
  return discreteFromArrays({ cards: [3, 2, 2, 3], rows, classes, classCard: 2 });
}

describe('measures', () => {
  it('pair mutual information of a 2 × 2 table (by hand)', () => {
    // t = [[3, 1], [0, 2]], N = 6, rows (4, 2), columns (3, 3):
    // I = 3/6 ln(3·6/12) + 1/6 ln(1·6/12) + 2/6 ln(2·6/6) = ½ ln 1.5 − (1/6) ln 2 + (1/3) ln 2
    const t = Float64Array.of(3, 1, 0, 2);
    expect(pairMutualInformation(t, 2, 2)).toBeCloseTo(0.5 * Math.log(1.5) + Math.log(2) / 6, 14);
  });

  it('the cached pair tables give the same MI as counting afresh, for every pair including the class', () => {
    const d = chainData('mi', 300, 0.1);
    const cache = empiricalPairTables(d);
    expect(cache).not.toBeNull();
    const a = pairwiseMutualInformation(d, cache);
    const b = pairwiseMutualInformation(d, null);
    expect([...a]).toEqual([...b]);
    // The noise attribute X3 shares the least information with the class (node 4).
    const row = [0, 1, 2, 3].map((l) => a[4 * 5 + l]);
    expect(row.indexOf(Math.min(...row))).toBe(3);
    expect(a[3 * 5 + 4]).toBeLessThan(0.01);
    expect(a[0 * 5 + 4]).toBeGreaterThan(0.2);
  });

  it('forward sampling reproduces the network probabilities', () => {
    const d = chainData('fs', 400);
    const model = fitCptModel(d, { m: 4, parents: [[4], [0], [4], [], []] }, (fc) => smoothedLogProbs(fc, 1));
    const S = 40000;
    const cols = forwardSample(model, S, new Rng('sample'));
    // P(X1 = 1) = Σ_c Σ_x0 P(c) P(x0 | c) P(X1 = 1 | x0)
    let p1 = 0;
    for (let c = 0; c < 2; c++)
      for (let x0 = 0; x0 < 3; x0++) p1 += model.prob(4, c) * model.prob(0, x0, [c]) * model.prob(1, 1, [x0]);
    let hits = 0;
    for (let r = 0; r < S; r++) hits += cols[1][r];
    expect(Math.abs(hits / S - p1)).toBeLessThan(4 * Math.sqrt((p1 * (1 - p1)) / S));
  });

  it('discrepancy to the empty network is the mutual information (up to sampling error)', () => {
    // With no arcs P_B(Xi, Xj) = P̂(Xi) P̂(Xj), so D_KL(P̂(Xi, Xj) ‖ P_B) = I(Xi; Xj) (complete data).
    const d = chainData('disc', 500);
    const empty = fitCptModel(d, { m: 4, parents: [[], [], [], [], []] }, (fc) => smoothedLogProbs(fc, 0));
    const disc = pairwiseDiscrepancy(d, empty, 200000, new Rng('disc'), empiricalPairTables(d));
    const mi = pairwiseMutualInformation(d, null);
    for (let k = 0; k < 25; k++) expect(Math.abs(disc[k] - mi[k])).toBeLessThan(0.01);
    // The same without the cache.
    const disc2 = pairwiseDiscrepancy(d, empty, 200000, new Rng('disc'), null);
    expect([...disc2]).toEqual([...disc]);
  });
});

describe('candidate sets', () => {
  it('keep the current parents and add the top-ranked others (ties to the lower index)', () => {
    const N = 4;
    // Symmetric measure: M(0,1) = 5, M(0,2) = 5, M(0,3) = 1, M(1,2) = 2, M(1,3) = 7, M(2,3) = 0.
    const M = new Float64Array(N * N);
    const set = (i: number, j: number, v: number) => (M[i * N + j] = M[j * N + i] = v);
    set(0, 1, 5);
    set(0, 2, 5);
    set(0, 3, 1);
    set(1, 2, 2);
    set(1, 3, 7);
    set(2, 3, 0);
    expect(candidateSets(M, [[], [], [], []], 2)).toEqual([
      [1, 2],
      [0, 3],
      [0, 1],
      [0, 1],
    ]);
    // Node 0 already has parent 3: it keeps it and adds the best other (1, tie with 2 → lower index).
    expect(candidateSets(M, [[3], [], [], []], 2)).toEqual([
      [1, 3],
      [0, 3],
      [0, 1],
      [0, 1],
    ]);
  });
});

describe('sparse-candidate', () => {
  const d = chainData('sc', 1500, 0.02);

  it('with k = m (every node a candidate) is exactly hill climbing', () => {
    const sc = sparseCandidate.learn(d, { k: 4 }, ctx);
    const hc = hillClimbLearner.learn(d, {}, ctx);
    expect(sc.parents).toEqual(hc.parents);
    expect(sc.info?.score).toBeCloseTo(hc.info!.score as number, 9);
    // Round 2 proposes the same candidates (all nodes), so the search stops after one maximize step.
    expect(sc.info?.rounds).toBe(1);
  });

  it('finds the generating skeleton with k = 2 and never scores below its first round', () => {
    const s = sparseCandidate.learn(d, { k: 2 }, ctx);
    assertDag(s);
    const skeleton = new Set(s.parents.flatMap((p, v) => p.map((u) => [Math.min(u, v), Math.max(u, v)].join('-'))));
    expect([...skeleton].sort()).toEqual(['0-1', '0-4', '2-4']);
    const first = sparseCandidate.learn(d, { k: 2, maxRounds: 1 }, ctx);
    expect(s.info!.score as number).toBeGreaterThanOrEqual(first.info!.score as number);
    for (const p of s.parents) expect(p.length).toBeLessThanOrEqual(2);
  });

  it('is deterministic under the same seed', () => {
    const a = sparseCandidate.learn(d, { k: 2 }, { rng: new Rng('x') });
    const b = sparseCandidate.learn(d, { k: 2 }, { rng: new Rng('x') });
    expect(b).toEqual(a);
  });

  it('rejects bad parameters as user errors', () => {
    expect(() => sparseCandidate.learn(d, { k: 0 }, ctx)).toThrow(UserError);
    expect(() => sparseCandidate.learn(d, { maxRounds: 0 }, ctx)).toThrow(UserError);
    expect(() => sparseCandidate.learn(d, { samples: -1 }, ctx)).toThrow(UserError);
    expect(() => sparseCandidate.learn(d, { score: 'x' as never }, ctx)).toThrow(UserError);
  });
});
