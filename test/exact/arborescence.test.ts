import { describe, expect, it } from 'vitest';
import { maximumArborescence } from '../../src/bn/exact/arborescence.js';
import { Rng } from '../../src/util/rng.js';

/** Best arborescence by enumerating every parent assignment (n <= 6). */
function bruteForce(n: number, root: number, w: Float64Array): number {
  let best = -Infinity;
  const parent = new Int32Array(n).fill(-1);
  const rec = (v: number, total: number): void => {
    if (v === n) {
      // every node must reach the root
      for (let x = 0; x < n; x++) {
        let y = x;
        let steps = 0;
        while (y !== root && steps <= n) {
          y = parent[y];
          steps++;
        }
        if (y !== root) return;
      }
      if (total > best) best = total;
      return;
    }
    if (v === root) {
      rec(v + 1, total);
      return;
    }
    for (let u = 0; u < n; u++) {
      if (u === v || w[u * n + v] === -Infinity) continue;
      parent[v] = u;
      rec(v + 1, total + w[u * n + v]);
    }
  };
  rec(0, 0);
  return best;
}

function weight(n: number, parent: Int32Array, w: Float64Array): number {
  let s = 0;
  for (let v = 0; v < n; v++) if (parent[v] >= 0) s += w[parent[v] * n + v];
  return s;
}

function isArborescence(n: number, root: number, parent: Int32Array): boolean {
  if (parent[root] !== -1) return false;
  for (let x = 0; x < n; x++) {
    let y = x;
    let steps = 0;
    while (y !== root && steps <= n) {
      y = parent[y];
      steps++;
      if (y < 0) return false;
    }
    if (y !== root) return false;
  }
  return true;
}

describe('maximum spanning arborescence (Chu–Liu/Edmonds)', () => {
  it('a hand example with one cycle to contract', () => {
    // Edges: R=0→1 (1), 0→2 (1), 1→2 (10), 2→1 (10), 2→3 (5), 3→1 (20). Best: 0→2 (1), 2→3 (5), 3→1 (20) = 26
    // (the cycle 1⇄2 must be broken; entering 2 from the root and 1 from 3 beats 0→1, 1→2 = 11 + 5 + …).
    const n = 4;
    const w = new Float64Array(n * n).fill(-Infinity);
    const set = (u: number, v: number, x: number): void => {
      w[u * n + v] = x;
    };
    set(0, 1, 1);
    set(0, 2, 1);
    set(1, 2, 10);
    set(2, 1, 10);
    set(2, 3, 5);
    set(3, 1, 20);
    const p = maximumArborescence(n, 0, w);
    expect(Array.from(p)).toEqual([-1, 3, 0, 2]);
    expect(weight(n, p, w)).toBe(26);
    expect(bruteForce(n, 0, w)).toBe(26);
  });

  it('matches brute force on random dense and sparse graphs', () => {
    const rng = new Rng('arb');
    for (let trial = 0; trial < 300; trial++) {
      const n = 2 + rng.int(5);
      const root = rng.int(n);
      const w = new Float64Array(n * n).fill(-Infinity);
      for (let u = 0; u < n; u++) {
        for (let v = 0; v < n; v++) {
          if (u === v || v === root) continue;
          if (trial % 3 === 0 && rng.next() < 0.3) continue; // sparse
          w[u * n + v] = trial % 2 === 0 ? Math.round(rng.next() * 20) - 10 : rng.next();
        }
      }
      const best = bruteForce(n, root, w);
      if (best === -Infinity) {
        expect(() => maximumArborescence(n, root, w)).toThrow(/cannot be reached/);
        continue;
      }
      const p = maximumArborescence(n, root, w);
      expect(isArborescence(n, root, p)).toBe(true);
      expect(weight(n, p, w)).toBeCloseTo(best, 10);
    }
  });

  // No time limit here: a test that asserts a wall-clock time fails on a loaded machine; speed is for bench/.
  it('handles 1,001 nodes (dense O(n²) contractions)', () => {
    const n = 1001;
    const rng = new Rng('big');
    const w = new Float64Array(n * n).fill(-Infinity);
    for (let u = 0; u < n - 1; u++) for (let v = 0; v < n - 1; v++) if (u !== v) w[u * n + v] = rng.next();
    for (let v = 0; v < n - 1; v++) w[(n - 1) * n + v] = -1e6;
    const p = maximumArborescence(n, n - 1, w);
    expect(isArborescence(n, n - 1, p)).toBe(true);
    let rootChildren = 0;
    for (let v = 0; v < n - 1; v++) if (p[v] === n - 1) rootChildren++;
    expect(rootChildren).toBe(1);
  });
});
