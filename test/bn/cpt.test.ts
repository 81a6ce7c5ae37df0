/**
 * fitCptModel, CptModel and smoothedLogProbs on the worked example of fixtures.ts, numbers worked by hand:
 * the checks, the dense/sparse threshold, row weights and the flattened tables GatedMixtureModel fuses.
 */
import { describe, it, expect } from 'vitest';
import { CptModel, fitCptModel, smoothedLogProbs, type FamilyEstimator } from '../../src/bn/cpt.js';
import { selectRows } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { tinyData } from './fixtures.js';

const laplace: FamilyEstimator = (fc) => smoothedLogProbs(fc, 1);
// TAN-like: X0 | C; X1 | C, X0; X2 | C; C. The family of X1 has 2·2·2 = 8 cells.
const TAN: Structure = { m: 3, parents: [[3], [3, 0], [3], []] };

describe('smoothedLogProbs', () => {
  // X2 | C on the tiny data (row 7 has X2 missing): C = 0 → X2 counts (2, 1, 1); C = 1 → (1, 1, 1).
  it('log((N_jk + a)/(N_j + r·a)) row by row', () => {
    const counts = {
      counts: Float64Array.from([2, 1, 1, 1, 1, 1]),
      childCard: 3,
      parentCards: Int32Array.of(2),
      configs: 2,
    };
    const lp = [...smoothedLogProbs(counts, 1)].map(Math.exp);
    const want = [3 / 7, 2 / 7, 2 / 7, 2 / 6, 2 / 6, 2 / 6];
    lp.forEach((p, i) => expect(p).toBeCloseTo(want[i], 15));
    const ml = [...smoothedLogProbs(counts, 0)].map(Math.exp);
    [2 / 4, 1 / 4, 1 / 4, 1 / 3, 1 / 3, 1 / 3].forEach((p, i) => expect(ml[i]).toBeCloseTo(p, 15));
  });

  it('a row with no counts and a = 0 is uniform; with a > 0 it is uniform through the pseudo-counts', () => {
    const counts = {
      counts: Float64Array.from([0, 0, 0, 4, 0, 0]),
      childCard: 3,
      parentCards: Int32Array.of(2),
      configs: 2,
    };
    const ml = smoothedLogProbs(counts, 0);
    expect([...ml.subarray(0, 3)]).toEqual([-Math.log(3), -Math.log(3), -Math.log(3)]);
    expect([...ml.subarray(3)]).toEqual([0, -Infinity, -Infinity]);
    const a = smoothedLogProbs(counts, 0.5);
    for (let k = 0; k < 3; k++) expect(a[k]).toBeCloseTo(-Math.log(3), 15);
    expect(Math.exp(a[3])).toBeCloseTo(4.5 / 5.5, 15);
    expect(Math.exp(a[4])).toBeCloseTo(0.5 / 5.5, 15);
  });
});

describe('fitCptModel', () => {
  it('rejects a structure over a different number of attributes', () => {
    expect(() => fitCptModel(tinyData(), naiveBayesStructure(2), laplace)).toThrow(
      /^structure has 2 attributes, data has 3$/,
    );
  });

  it('rejects an estimator that returns the wrong number of cells, dense or sparse', () => {
    const bad: FamilyEstimator = (fc) => new Float64Array(fc.counts.length + 1);
    // Node 0 (X0 | C): 2 configurations × 2 values = 4 cells dense; sparse: the 2 seen rows + the default row.
    expect(() => fitCptModel(tinyData(), naiveBayesStructure(3), bad)).toThrow(
      /^estimator returned 5 cells for node 0, expected 4$/,
    );
    expect(() => fitCptModel(tinyData(), naiveBayesStructure(3), bad, undefined, { sparseAbove: 0 })).toThrow(
      /^estimator returned 7 cells for node 0, expected 6$/,
    );
  });

  it('stores a family sparsely only when it has more cells than sparseAbove (default: dense here)', () => {
    const kinds = (sparseAbove?: number): boolean[] =>
      fitCptModel(tinyData(), TAN, laplace, undefined, sparseAbove === undefined ? {} : { sparseAbove }).cpts.map(
        (c) => c.index !== undefined,
      );
    // Cells per family: X0 | C 4, X1 | C, X0 8, X2 | C 6, C 2.
    expect(kinds()).toEqual([false, false, false, false]);
    expect(kinds(8)).toEqual([false, false, false, false]);
    expect(kinds(7)).toEqual([false, true, false, false]);
    expect(kinds(4)).toEqual([false, true, true, false]);
    expect(kinds(1)).toEqual([true, true, true, true]);
    // Same numbers either way.
    const d = tinyData();
    const dense = fitCptModel(d, TAN, laplace).posterior(d);
    const sparse = fitCptModel(d, TAN, laplace, undefined, { sparseAbove: 0 }).posterior(d);
    for (let i = 0; i < dense.length; i++) expect(sparse[i]).toBeCloseTo(dense[i], 14);
  });

  it('row weights are counts: weight 0 drops a row, dense and sparse', () => {
    const d = tinyData();
    const w = Float64Array.from([1, 1, 1, 0, 1, 0, 1, 1]);
    const kept = selectRows(d, [0, 1, 2, 4, 6, 7]);
    for (const options of [{}, { sparseAbove: 0 }]) {
      const a = fitCptModel(d, TAN, laplace, w, options);
      const b = fitCptModel(kept, TAN, laplace, undefined, options);
      for (let v = 0; v <= 3; v++) {
        const parents = TAN.parents[v];
        const nPar = parents.length;
        for (let cfg = 0; cfg < 2 ** nPar; cfg++) {
          const vals = parents.map((_, i) => (cfg >> (nPar - 1 - i)) & 1);
          for (let x = 0; x < (v === 2 ? 3 : 2); x++) expect(a.prob(v, x, vals)).toBe(b.prob(v, x, vals));
        }
      }
    }
    // By hand: without rows 3 and 5, C = 0 has rows 0, 1, 2 and C = 1 rows 4, 6, 7; X0 | C = 1 is (1, 2) → (2/5, 3/5).
    const a = fitCptModel(d, TAN, laplace, w);
    expect(a.prob(0, 1, [1])).toBeCloseTo(3 / 5, 15);
    expect(a.prob(0, 0, [0])).toBeCloseTo(4 / 5, 15);
  });
});

describe('CptModel', () => {
  it('prob checks the number of parent values and reads the mixed-radix row (first parent most significant)', () => {
    const model = fitCptModel(tinyData(), TAN, laplace);
    expect(() => model.prob(1, 0, [0])).toThrow(/^prob: node 1 has 2 parents$/);
    expect(() => model.prob(3, 0, [0])).toThrow(/^prob: node 3 has 0 parents$/);
    // X1 | C = 0, X0 = 1: row 3 only, X1 = 1 → (1/3, 2/3); C = 1, X0 = 0: row 7, X1 = 1 → (1/3, 2/3);
    // C = 1, X0 = 1: rows 4, 5, 6, X1 = (1, 0, 1) → (2/5, 3/5).
    expect(model.prob(1, 1, [0, 1])).toBeCloseTo(2 / 3, 15);
    expect(model.prob(1, 1, [1, 0])).toBeCloseTo(2 / 3, 15);
    expect(model.prob(1, 1, [1, 1])).toBeCloseTo(3 / 5, 15);
  });

  it('prob of a node without parents needs no parent values', () => {
    const model = fitCptModel(tinyData(), TAN, laplace);
    expect(model.prob(3, 0)).toBeCloseTo(1 / 2, 15); // (4 + 1)/(8 + 2)
  });

  // X0 | C; X1 | X0 (no class); C, maximum likelihood, fitted without row 5 (X0 = 1, X1 = 0, C = 1): then X0 = 1
  // only occurs with X1 = 1 (rows 3, 4, 6), so θ(X1 = 0 | X0 = 1) = 0 and row 5 has P(x) = 0. The posterior keeps
  // the class factors only (module comment of inference.ts): P(C) = (4/7, 3/7), P(X0 = 1 | C) = (1/4, 2/3), so
  // P(C | X0 = 1) ∝ (1/7, 2/7) = (1/3, 2/3); the joint is -Infinity for both classes.
  it('posterior uses the class factors only, so a zero in a factor without the class does not erase it', () => {
    const d = selectRows(tinyData(), [0, 1, 2, 3, 4, 6, 7]);
    const s: Structure = { m: 3, parents: [[3], [0], [], []] };
    const model = fitCptModel(d, s, (fc) => smoothedLogProbs(fc, 0));
    const row = selectRows(tinyData(), [5]);
    const p = model.posterior(row);
    expect(p[0]).toBeCloseTo(1 / 3, 14);
    expect(p[1]).toBeCloseTo(2 / 3, 14);
    expect([...model.logJoint(row)]).toEqual([-Infinity, -Infinity]);
  });

  it('fusedFactors flattens the dense tables (class factors first) and is null when a table is sparse', () => {
    // X0 | C; X1 | X0 (no class); X2 | C; C. Class factors 0, 2, 3, then 1.
    const s: Structure = { m: 3, parents: [[3], [0], [3], []] };
    const model = fitCptModel(tinyData(), s, laplace);
    const f = model.fusedFactors();
    expect(f).not.toBeNull();
    expect(f!.tabs).toHaveLength(4);
    [0, 2, 3, 1].forEach((v, i) => expect(f!.tabs[i]).toBe(model.cpts[v].logp));
    // Strides as the table layout gives them: the child 1, a parent the product of the cards after it.
    expect([...f!.classStride]).toEqual([2, 3, 1, 0]);
    expect([...f!.start]).toEqual([0, 1, 2, 2, 4]);
    expect([...f!.attr]).toEqual([0, 2, 1, 0]);
    expect([...f!.stride]).toEqual([1, 1, 1, 2]);
    // Two-parent family: X1 | C, X0 has cell (c·2 + x0)·2 + x1.
    const t = fitCptModel(tinyData(), TAN, laplace).fusedFactors()!;
    expect([...t.classStride]).toEqual([2, 4, 3, 1]);
    expect([...t.attr]).toEqual([0, 1, 0, 2]);
    expect([...t.stride]).toEqual([1, 1, 2, 1]);
    expect(fitCptModel(tinyData(), s, laplace, undefined, { sparseAbove: 4 }).fusedFactors()).toBeNull();
    expect(new CptModel(model.cards, model.cpts).fusedFactors()).toEqual(f);
  });
});

describe("fitCptModel's counts kept with the training rows", () => {
  it('a second fit on the same rows counts as a first one, whatever the first estimator did to its counts', () => {
    const data = tinyData();
    const seen: number[][] = [];
    // An estimator that keeps a copy of what it was given, then zeroes its counts (a user's may change them).
    const spoiling: FamilyEstimator = (fc) => {
      seen.push([...fc.counts]);
      const lp = smoothedLogProbs(fc, 1);
      fc.counts.fill(0);
      return lp;
    };
    const first = fitCptModel(data, TAN, spoiling);
    const firstSeen = seen.splice(0);
    const again = fitCptModel(data, TAN, spoiling);
    expect(seen).toEqual(firstSeen);
    const fresh = fitCptModel(tinyData(), TAN, laplace);
    for (const m of [first, again]) expect(m.posterior(data)).toEqual(fresh.posterior(data));
    // The family X1 | C, X0 counted on its own rows, not another family's: its 8 cells add up to the rows
    // where X1, C and X0 are all observed.
    expect(firstSeen[1]).toHaveLength(8);
  });
});
