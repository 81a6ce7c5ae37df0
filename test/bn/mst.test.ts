import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { boostKruskalOrder, forestWeight, maximumSpanningForest, orientForest } from '../../src/bn/mst.js';
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

describe("tie: bnclassify (Boost's Kruskal heap order, as bnclassify 0.4.8)", () => {
  it('pops six equal edges in the order worked by hand from libstdc++ push_heap / pop_heap', () => {
    // comp(a, b) = w[a] < w[b] is never true, so pushes never sift up: heap = [0 1 2 3 4 5].
    // pop 1: out 0; last (5) re-enters from the root's hole over 5 slots: hole 0 -> right child 2
    //        (comp(2, 1) false), 2 has no pair of children in 5 slots, 5 goes into slot 2: [2 1 5 3 4].
    // pop 2: out 2; 4 re-enters over 4 slots: hole 0 -> slot 2 (5 moves up), 4 into slot 2: [5 1 4 3].
    // pop 3: out 5; 3 over 3 slots: hole 0 -> slot 2 (4 moves up), 3 into slot 2: [4 1 3].
    // pop 4: out 4; 3 over 2 slots: only a left child: 1 moves up, 3 into slot 1: [1 3].
    // pop 5: out 1; pop 6: out 3.
    expect([...boostKruskalOrder(new Float64Array(6).fill(1), 6)]).toEqual([0, 2, 5, 4, 1, 3]);
    // Distinct weights pop largest first whatever the insertion order.
    expect([...boostKruskalOrder(Float64Array.from([1, 5, 3, 4, 2]), 5)]).toEqual([1, 3, 2, 4, 0]);
  });

  it('four attributes with equal weights: first gives the star at 0, bnclassify the path-like tree 1-0-3-2', () => {
    // combn edges (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) pop as 0, 2, 5, 4, 1, 3 (above): (0,1), (0,3), (2,3) join
    // all four nodes; Boost 1.74's kruskal_minimum_spanning_tree on bnclassify's graph type returns the same.
    const w = matrix(4, { '0,1': 1, '0,2': 1, '0,3': 1, '1,2': 1, '1,3': 1, '2,3': 1 });
    expect(maximumSpanningForest(4, w)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
    expect(maximumSpanningForest(4, w, { tie: 'bnclassify' })).toEqual([
      [0, 1],
      [0, 3],
      [2, 3],
    ]);
  });

  // Weight vectors over the combn pairs (0,1), (0,2), …, with the edges Boost 1.74's
  // kruskal_minimum_spanning_tree returned, in order, for bnclassify's graph (undirected vecS
  // adjacency_list, edges added in combn order with weight −w, w < 0 left out). Picked from 3000 random
  // tie-heavy cases, all of which agreed, among those where tie: first gives a different forest.
  const BOOST_CASES = [
    {
      k: 9,
      ws: [
        0, 1, 1, 1, -1, 1, 1, 1, 1, 0, 1, -1, 0, -1, -1, 1, 1, 1, -1, 0, 1, 0, -1, 0, 1, 1, 0, 0, 1, -1, -1, -1, 0, 0,
        1, 0,
      ],
      boost: '0,2 0,3 0,8 2,5 6,8 0,7 2,4 1,4',
    },
    {
      k: 8,
      ws: [0, 0, -1, 0, 0, -1, 0, 0, -1, -1, 0, 0, 0, 0, 0, -1, 0, -1, -1, -1, 0, -1, 0, -1, 0, -1, -1, -1],
      boost: '0,1 0,4 1,5 4,7 3,6 2,6 2,4',
    },
    {
      k: 9,
      ws: [
        0, 1, 2, 1, -1, 1, -1, 1, 0, 0, 1, 0, 0, -1, 0, -1, 1, 2, 1, 1, 2, 2, 0, 0, 0, -1, 2, 0, -1, 1, 0, -1, -1, -1,
        -1, 2,
      ],
      boost: '0,3 2,5 7,8 2,8 4,5 3,4 2,6 1,4',
    },
    {
      k: 9,
      ws: [
        0, -1, 0, 2, 0, -1, 2, 0, 2, -1, -1, 1, 2, 0, 1, 0, 2, 0, 1, 1, 1, 1, 1, 0, -1, 2, -1, -1, 0, 0, 0, 1, 1, 1, 0,
        0,
      ],
      boost: '0,4 1,2 2,4 0,7 3,8 1,6 5,8 5,7',
    },
  ];

  it.each(BOOST_CASES)('reproduces Boost on a tie-heavy %# (k = $k)', ({ k, ws, boost }) => {
    const w = new Float64Array(k * k);
    let x = 0;
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) w[i * k + j] = w[j * k + i] = ws[x++];
    const got = maximumSpanningForest(k, w, { drop: 'negative', tie: 'bnclassify' });
    expect(got.map(([i, j]) => `${i},${j}`).join(' ')).toBe(boost);
    const first = maximumSpanningForest(k, w, { drop: 'negative' });
    expect(first.map(([i, j]) => `${i},${j}`).sort()).not.toEqual(boost.split(' ').sort());
    expect(forestWeight(k, w, first)).toBe(forestWeight(k, w, got));
  });

  it('gives the same forest as tie: first when no two weights are equal', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let t = 0; t < 50; t++) {
      const k = 2 + (t % 9);
      const w = new Float64Array(k * k);
      for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) w[i * k + j] = w[j * k + i] = next() - 0.3;
      for (const drop of ['none', 'negative'] as const)
        expect(maximumSpanningForest(k, w, { drop, tie: 'bnclassify' })).toEqual(maximumSpanningForest(k, w, { drop }));
    }
  });

  it('treats near-ties (1e-12 relative) as exact ties, as the first rule does', () => {
    const exact = matrix(4, { '0,1': 0.3, '0,2': 0.3, '0,3': 0.3, '1,2': 0.3, '1,3': 0.3, '2,3': 0.3 });
    const near = matrix(4, { '0,1': 0.3, '0,2': 0.3 + 1e-15, '0,3': 0.3, '1,2': 0.3, '1,3': 0.3 - 1e-15, '2,3': 0.3 });
    expect(maximumSpanningForest(4, near, { tie: 'bnclassify' })).toEqual(
      maximumSpanningForest(4, exact, { tie: 'bnclassify' }),
    );
  });

  it('rejects an unknown tie rule', () => {
    expect(() => maximumSpanningForest(2, new Float64Array(4), { tie: 'last' as never })).toThrow(/tie rule/);
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
      const df = (d.cards[i] - 1) * (d.cards[j] - 1) * d.classCard;
      const N = n[i * m + j];
      const I = cmi[i * m + j];
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
