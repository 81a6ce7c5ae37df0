import { describe, expect, it } from 'vitest';
import { candidateScratch, RADIX_MIN, sortByScore } from '../../src/bn/exact/dp.js';
import { Rng } from '../../src/util/rng.js';

/** The order the candidate lists had before the radix sort: score descending, ties by set ascending. */
function reference(order: Int32Array, v: Float64Array): number[] {
  return Array.from(order).sort((a, b) => v[b] - v[a] || a - b);
}

describe('sortByScore (candidate parent sets by score)', () => {
  it('orders like the comparison sort: negative, zero, -0, positive, -Infinity and many ties', () => {
    const rng = new Rng('sort-by-score');
    const n = 12;
    const M = 2 ** (n - 1);
    const scratch = candidateScratch(n);
    // Values drawn from a small pool (ties on every pass), plus the bit patterns that need care.
    const pool = [-0, 0, 1e-300, -1e-300, 3.5, -3.5, -1234.5678, -1234.5677999999999, 2 ** 40, -(2 ** 40)];
    pool.push(-Infinity, -570.7549000077313, -570.754900007731, -5e-324, 5e-324);
    for (let round = 0; round < 20; round++) {
      const v = new Float64Array(M);
      const order: number[] = [];
      for (let c = 0; c < M; c++) {
        v[c] = round % 2 ? pool[rng.int(pool.length)] : -rng.next() * 10 ** rng.int(6);
        if (rng.next() < 0.6) order.push(c);
      }
      const ord = Int32Array.from(order);
      expect(ord.length).toBeGreaterThanOrEqual(RADIX_MIN); // the radix path
      expect(Array.from(sortByScore(ord, v, scratch))).toEqual(reference(ord, v));
    }
  });

  it('sorts one element and leaves the input alone', () => {
    const scratch = candidateScratch(3);
    const v = Float64Array.from([-2, -1, -3, -1]);
    const ord = Int32Array.from([0, 1, 2, 3]);
    expect(Array.from(sortByScore(ord, v, scratch))).toEqual([1, 3, 0, 2]);
    expect(Array.from(ord)).toEqual([0, 1, 2, 3]);
    expect(Array.from(sortByScore(Int32Array.from([2]), v, scratch))).toEqual([2]);
  });
});
