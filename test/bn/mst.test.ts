import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { forestWeight, maximumSpanningForest, orientForest } from '../../src/bn/mst.js';
import { pairwiseCmi } from '../../src/bn/information.js';
import type { DiscreteData } from '../../src/bn/data.js';
import { readCsvAsDiscrete } from './fixtures.js';

/** Symmetric k × k matrix from {"i,j": w}. */
function matrix(k: number, w: Record<string, number>): Float64Array {
  const a = new Float64Array(k * k);
  for (const [key, v] of Object.entries(w)) {
    const [i, j] = key.split(',').map(Number) as [number, number];
    a[i * k + j] = v;
    a[j * k + i] = v;
  }
  return a;
}

describe('maximumSpanningForest', () => {
  it('takes edges by decreasing weight and skips those closing a cycle', () => {
    // 4 nodes. Sorted: (1,2)=9, (0,1)=8, (0,2)=7 [cycle 0-1-2, skipped], (2,3)=5, then the rest would cycle.
    const w = matrix(4, { '0,1': 8, '0,2': 7, '0,3': 1, '1,2': 9, '1,3': 2, '2,3': 5 });
    const e = maximumSpanningForest(4, w);
    expect(e).toEqual([
      [1, 2],
      [0, 1],
      [2, 3],
    ]);
    expect(forestWeight(4, w, e)).toBe(22);
  });

  it('breaks exact ties by the lower (i, j) pair', () => {
    // A triangle with equal weights: (0,1) and (0,2) are taken, (1,2) closes the cycle.
    const w = matrix(3, { '0,1': 0.5, '0,2': 0.5, '1,2': 0.5 });
    expect(maximumSpanningForest(3, w)).toEqual([
      [0, 1],
      [0, 2],
    ]);
  });

  it('treats weights within 1e-12 relative as tied, but not 1e-9 apart', () => {
    // (1,2) is larger by 1 ulp-scale noise: tied with (0,1), (0,2) -> (0,1), (0,2) win by index order.
    const near = matrix(3, { '0,1': 0.3, '0,2': 0.3, '1,2': 0.3 + 1e-14 });
    expect(maximumSpanningForest(3, near)).toEqual([
      [0, 1],
      [0, 2],
    ]);
    // A real difference wins regardless of index.
    const far = matrix(3, { '0,1': 0.3, '0,2': 0.3, '1,2': 0.3 + 1e-9 });
    expect(maximumSpanningForest(3, far)).toEqual([
      [1, 2],
      [0, 1],
    ]);
  });

  it('keeps zero and negative weights by default (a spanning tree) and can drop them (a forest)', () => {
    const w = matrix(4, { '0,1': 3, '0,2': 0, '0,3': -1, '1,2': -2, '1,3': -4, '2,3': -3 });
    // All candidates: (0,1)=3, (0,2)=0, (0,3)=-1 -> a spanning tree.
    expect(maximumSpanningForest(4, w)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    // bnclassify CL-ODE keeps w >= 0.
    expect(maximumSpanningForest(4, w, { drop: 'negative' })).toEqual([
      [0, 1],
      [0, 2],
    ]);
    expect(maximumSpanningForest(4, w, { drop: 'nonPositive' })).toEqual([[0, 1]]);
  });

  it('handles 0 and 1 nodes', () => {
    expect(maximumSpanningForest(0, new Float64Array(0))).toEqual([]);
    expect(maximumSpanningForest(1, new Float64Array(1))).toEqual([]);
  });
});

describe('orientForest', () => {
  it('orients a tree away from the root by BFS', () => {
    // Path 3 - 1 - 0 - 2 rooted at 1: parent(3)=1, parent(0)=1, parent(2)=0.
    const p = orientForest(
      4,
      [
        [1, 3],
        [0, 1],
        [0, 2],
      ],
      1,
    );
    expect([...p]).toEqual([1, -1, 0, 1]);
  });

  it('roots other components at their lowest-index node', () => {
    // Components {0,2} (root given: 2) and {1,3,4} (root 1) and {5}.
    const p = orientForest(
      6,
      [
        [0, 2],
        [3, 4],
        [1, 4],
      ],
      2,
    );
    expect([...p]).toEqual([2, -1, -1, 4, 1, -1]);
  });

  it('rejects a cycle and a bad root', () => {
    expect(() =>
      orientForest(3, [
        [0, 1],
        [1, 2],
        [0, 2],
      ]),
    ).toThrow(/cycle/);
    expect(() => orientForest(3, [], 3)).toThrow(/root/);
  });
});

/** bnclassify's CL-ODE pairwise scores: loglik = I, aic = N·I − df, bic = N·I − (ln N / 2)·df, df = (rx−1)(ry−1)rc. */
function odeWeights(d: DiscreteData, score: 'loglik' | 'aic' | 'bic'): Float64Array {
  const m = d.columns.length;
  const { cmi, n } = pairwiseCmi(d);
  const w = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      if (i === j) continue;
      const df = (d.cards[i]! - 1) * (d.cards[j]! - 1) * d.classCard;
      const N = n[i * m + j]!;
      const I = cmi[i * m + j]!;
      w[i * m + j] = score === 'loglik' ? I : score === 'aic' ? N * I - df : N * I - (Math.log(N) / 2) * df;
    }
  }
  return w;
}

describe('forest sizes pinned by bnclassify (tests/testthat/test-learn-chowliu.R)', () => {
  const car = readCsvAsDiscrete(readFileSync(new URL('../../data/uci/car.csv', import.meta.url), 'utf8'));
  const voting = readCsvAsDiscrete(readFileSync(new URL('../../data/uci/house-votes-84.csv', import.meta.url), 'utf8'));

  it('car: loglik tree has 5 arcs, AIC forest 3, BIC forest 0', () => {
    expect(maximumSpanningForest(6, odeWeights(car, 'loglik'), { drop: 'negative' })).toHaveLength(5);
    expect(maximumSpanningForest(6, odeWeights(car, 'aic'), { drop: 'negative' })).toHaveLength(3);
    expect(maximumSpanningForest(6, odeWeights(car, 'bic'), { drop: 'negative' })).toHaveLength(0);
  });

  it('voting: BIC forest has 14 arcs (30 with the class arcs) and immigration has no tree parent', () => {
    const edges = maximumSpanningForest(16, odeWeights(voting, 'bic'), { drop: 'negative' });
    expect(edges).toHaveLength(14);
    const parent = orientForest(16, edges, 0);
    expect(parent[voting.names.indexOf('immigration')]).toBe(-1);
  });
});
