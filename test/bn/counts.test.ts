import { describe, it, expect } from 'vitest';
import {
  accumulatePairCodes,
  attributeClassCodes,
  attributeClassCounts,
  familyCounts,
  nodeCard,
  pairClassCounts,
} from '../../src/bn/counts.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { tinyData } from './fixtures.js';

describe('familyCounts', () => {
  const d = tinyData();
  const m = 3; // class node

  it('counts the class (no parents) over all rows', () => {
    const fc = familyCounts(d, m, []);
    expect([...fc.counts]).toEqual([4, 4]);
    expect(fc.configs).toBe(1);
    expect(fc.childCard).toBe(2);
  });

  it('skips rows where the child is missing (X2 | C: row 7 dropped)', () => {
    // C=0: X2 = 0,1,2,0 -> [2,1,1]; C=1: rows 4,5,6 have X2 = 1,2,0 -> [1,1,1]; layout [c * 3 + x2].
    const fc = familyCounts(d, 2, [m]);
    expect([...fc.counts]).toEqual([2, 1, 1, 1, 1, 1]);
    expect([...fc.parentCards]).toEqual([2]);
  });

  it('lays out two parents first-parent-major: config = c * 2 + x0', () => {
    // (C=0,X0=0): rows 0,1,2 -> X1 = 0,0,1 -> [2,1]; (C=0,X0=1): row 3 -> [0,1];
    // (C=1,X0=0): row 7 -> [0,1]; (C=1,X0=1): rows 4,5,6 -> X1 = 1,0,1 -> [1,2].
    const fc = familyCounts(d, 1, [m, 0]);
    expect([...fc.counts]).toEqual([2, 1, 0, 1, 0, 1, 1, 2]);
    expect(fc.configs).toBe(4);
  });

  it('follows the given parent order (X2 | C, X0 versus X2 | X0, C)', () => {
    // (C=0,X0=0): rows 0,1,2 -> X2 = 0,1,2 -> [1,1,1]; (C=0,X0=1): row 3 -> [1,0,0];
    // (C=1,X0=0): only row 7, X2 missing -> [0,0,0]; (C=1,X0=1): rows 4,5,6 -> X2 = 1,2,0 -> [1,1,1].
    expect([...familyCounts(d, 2, [m, 0]).counts]).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1]);
    // Reversed: config = x0 * 2 + c, so the middle two configurations swap.
    expect([...familyCounts(d, 2, [0, m]).counts]).toEqual([1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 1, 1]);
  });

  it('skips rows where a parent is missing (X0 | X2: row 7 dropped)', () => {
    // X2=0: rows 0,3,6 -> X0 = 0,1,1 -> [1,2]; X2=1: rows 1,4 -> [1,1]; X2=2: rows 2,5 -> [1,1].
    const fc = familyCounts(d, 0, [2]);
    expect([...fc.counts]).toEqual([1, 2, 1, 1, 1, 1]);
  });

  it('uses the generic loop for three parents with the same layout', () => {
    // X2 | C, X0, X1: config = (c * 2 + x0) * 2 + x1; 7 usable rows.
    const fc = familyCounts(d, 2, [m, 0, 1]);
    expect(fc.configs).toBe(8);
    const at = (c: number, x0: number, x1: number, x2: number) => fc.counts[((c * 2 + x0) * 2 + x1) * 3 + x2];
    expect(at(0, 0, 0, 0)).toBe(1); // row 0
    expect(at(0, 0, 0, 1)).toBe(1); // row 1
    expect(at(0, 0, 1, 2)).toBe(1); // row 2
    expect(at(0, 1, 1, 0)).toBe(1); // row 3
    expect(at(1, 1, 1, 1)).toBe(1); // row 4
    expect(at(1, 1, 0, 2)).toBe(1); // row 5
    expect(at(1, 1, 1, 0)).toBe(1); // row 6
    expect(fc.counts.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('rejects a node listed as its own parent or twice', () => {
    expect(() => familyCounts(d, 1, [1])).toThrow(/own parent/);
    expect(() => familyCounts(d, 1, [0, 0])).toThrow(/twice/);
    expect(() => nodeCard(d, 4)).toThrow(/out of range/);
  });
});

describe('attribute/class fast paths', () => {
  const d = tinyData();

  it('attributeClassCounts is [x * C + c]', () => {
    // X0: C=0 -> 0,0,0,1; C=1 -> 1,1,1,0.  (x=0,c=0)=3 (0,1)=1 (1,0)=1 (1,1)=3
    expect([...attributeClassCounts(d, 0)]).toEqual([3, 1, 1, 3]);
  });

  it('pairClassCounts is [(xi * rj + xj) * C + c] and skips missing', () => {
    const t = pairClassCounts(d, 1, 2);
    // rows 0..6 (row 7 has X2 missing): (x1,x2,c) = (0,0,0) (0,1,0) (1,2,0) (1,0,0) (1,1,1) (0,2,1) (1,0,1)
    const at = (x1: number, x2: number, c: number) => t[(x1 * 3 + x2) * 2 + c];
    expect(at(0, 0, 0)).toBe(1);
    expect(at(0, 1, 0)).toBe(1);
    expect(at(1, 2, 0)).toBe(1);
    expect(at(1, 0, 0)).toBe(1);
    expect(at(1, 1, 1)).toBe(1);
    expect(at(0, 2, 1)).toBe(1);
    expect(at(1, 0, 1)).toBe(1);
    expect(t.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('the code-based pair loop matches pairClassCounts and reuses buffers', () => {
    const z = attributeClassCodes(d, 2);
    expect(z[7]).toBe(-1);
    expect(z[5]).toBe(2 * 2 + 1);
    const t = new Float64Array(2 * 3 * 2);
    const used = accumulatePairCodes(d.columns[1], z, 3 * 2, d.n, t);
    expect(used).toBe(7);
    expect([...t]).toEqual([...pairClassCounts(d, 1, 2)]);
    const buf = new Float64Array(64).fill(9);
    pairClassCounts(d, 1, 2, buf);
    expect([...buf.subarray(0, 12)]).toEqual([...t]);
  });

  it('skips a missing first parent and a missing child in the same family', () => {
    const e = discreteFromArrays({
      cards: [2, 2],
      rows: [
        [-1, 0],
        [1, -1],
        [1, 1],
        [0, 1],
      ],
      classes: [0, 1, 1, 0],
      classCard: 2,
    });
    // X1 | X0: only rows 2 and 3 are complete -> (x0=1,x1=1), (x0=0,x1=1)
    expect([...familyCounts(e, 1, [0]).counts]).toEqual([0, 1, 0, 1]);
  });
});
