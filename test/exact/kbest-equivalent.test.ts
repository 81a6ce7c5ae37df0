/**
 * The duplicate test of the K-best equivalence-class search, equivalentOn: two DAGs that agree on the
 * parents of every node of R (an ancestral set: no node of R has a parent in D = the rest) are Markov
 * equivalent iff their skeletons and v-structures agree (Verma & Pearl 1990), which the function decides
 * from the nodes of D alone.
 *
 * Provenance: the small cases are worked by hand below; the random cases are checked against
 * equivalenceKey (whole skeleton + v-structure participants of every node), with equivalent pairs made by
 * covered-edge reversals inside D (Chickering 1995, "A transformational characterization of equivalent
 * Bayesian network structures", UAI: reversing a covered edge keeps the class).
 */
import { describe, expect, it } from 'vitest';
import { equivalenceKey, equivalentOn } from '../../src/bn/exact/kbest.js';
import { Rng } from '../../src/util/rng.js';

const bit = (...vs: number[]): number => vs.reduce((m, v) => m | (1 << v), 0);

function on(a: number[], b: number[], D: number): boolean {
  const n = a.length;
  return equivalentOn(Int32Array.from(a), Int32Array.from(b), D, new Int32Array(n), new Int32Array(n));
}

describe('equivalentOn (K-best duplicate test on the peeled nodes)', () => {
  it('decides hand-worked cases', () => {
    const all3 = bit(0, 1, 2);
    // 0→1→2 and 0←1←2: one skeleton, no v-structure: equivalent
    expect(on([0, bit(0), bit(1)], [bit(1), bit(2), 0], all3)).toBe(true);
    // 0→1→2 and the collider 0→1←2: v-structure at 1 in the second only
    expect(on([0, bit(0), bit(1)], [0, bit(0, 2), 0], all3)).toBe(false);
    // R = {0} (no parents); complete graph 0→1, 0→2, 1→2 vs 0→1, 0→2, 2→1: no v-structure either way
    expect(on([0, bit(0), bit(0, 1)], [0, bit(0, 2), bit(0)], bit(1, 2))).toBe(true);
    // R = {0, 1} (no edge between them); 2 ← {0, 1} (v-structure) vs 2 ← {0}: skeletons differ
    expect(on([0, 0, bit(0, 1)], [0, 0, bit(0)], bit(2))).toBe(false);
    // R = {0}; 0→2←1 (0, 1 not adjacent: a v-structure with one end in R) vs 0→2→1: same skeleton, no v-structure
    expect(on([0, 0, bit(0, 1)], [0, bit(2), bit(0)], bit(1, 2))).toBe(false);
    // R = {0, 1, 2} with 0→2←1 shared; D = {3} with 3 ← {2} in both: identical
    expect(on([0, 0, bit(0, 1), bit(2)], [0, 0, bit(0, 1), bit(2)], bit(3))).toBe(true);
    // same R; 3 ← {0, 1} vs 3 ← {0, 1, 2}: skeletons differ at 3
    expect(on([0, 0, bit(0, 1), bit(0, 1)], [0, 0, bit(0, 1), bit(0, 1, 2)], bit(3))).toBe(false);
    // R = {0, 1, 2} with 0→2←1; D = {3, 4}: 3←{0}, 4←{1, 3} vs 3←{0, 4}, 4←{1}: a v-structure 1→4←3 in the first,
    // 1→4→3←0 (4 and 0 not adjacent) in the second
    expect(on([0, 0, bit(0, 1), bit(0), bit(1, 3)], [0, 0, bit(0, 1), bit(0, 4), bit(1)], bit(3, 4))).toBe(false);
  });

  it('agrees with the whole-graph key on random DAG pairs sharing an ancestral part', () => {
    const rng = new Rng('kbest-equivalent');
    let same = 0;
    let different = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const n = 3 + rng.int(6); // 3..8 nodes
      const order = rng.shuffle(Int32Array.from({ length: n }, (_, i) => i));
      const a = new Array<number>(n).fill(0);
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (rng.next() < 0.45) a[order[i]] |= 1 << order[j];
      const r = rng.int(n); // R = the first r nodes of the order: ancestral
      let D = 0;
      for (let i = r; i < n; i++) D |= 1 << order[i];
      const b = a.slice();
      if (rng.next() < 0.5) {
        // covered-edge reversals inside D: the class is kept
        for (let step = 0; step < 6; step++) {
          const covered: [number, number][] = [];
          for (let v = 0; v < n; v++) {
            if (!((D >> v) & 1)) continue;
            for (let u = 0; u < n; u++)
              if ((D >> u) & 1 && (b[v] >> u) & 1 && b[v] === (b[u] | (1 << u))) covered.push([u, v]);
          }
          if (covered.length === 0) break;
          const [u, v] = covered[rng.int(covered.length)];
          b[v] = b[v] & ~(1 << u);
          b[u] = b[u] | (1 << v);
        }
      } else {
        // new parents for D: a fresh order of D after R, each node's parents drawn among its predecessors
        const dOrder = rng.shuffle(Int32Array.from(order.slice(r)));
        for (let i = 0; i < dOrder.length; i++) {
          const v = dOrder[i];
          let pa = 0;
          for (let j = 0; j < r; j++)
            if ((a[v] >> order[j]) & 1 ? rng.next() < 0.8 : rng.next() < 0.15) pa |= 1 << order[j];
          for (let j = 0; j < i; j++) if (rng.next() < 0.4) pa |= 1 << dOrder[j];
          b[v] = pa;
        }
      }
      const expected = equivalenceKey(a) === equivalenceKey(b);
      expect(on(a, b, D)).toBe(expected);
      if (expected) same++;
      else different++;
    }
    // both outcomes are exercised many times
    expect(same).toBeGreaterThan(1000);
    expect(different).toBeGreaterThan(500);
  });
});
