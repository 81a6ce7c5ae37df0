import { describe, expect, it } from 'vitest';
import { naiveBayesStructure, structureOnRows, type Structure } from '../../src/bn/structure.js';

const nb = naiveBayesStructure(2);

describe('structureOnRows: ensemble members renumbered onto a part of the rows', () => {
  it('a structure without members is returned as it is', () => {
    expect(structureOnRows(nb, [1, 2], 4)).toBe(nb);
  });

  it("a member's rows keep those in the part, renumbered, duplicates included; its weights follow", () => {
    // Part: rows 1, 2, 5 of 6 (they become 0, 1, 2).
    const s: Structure = {
      ...nb,
      members: [
        {
          weight: 1,
          structure: nb,
          rows: Int32Array.from([0, 2, 2, 5, 3]),
          rowWeights: Float64Array.from([1, 2, 3, 4, 5]),
        },
      ],
    };
    const m = structureOnRows(s, [1, 2, 5], 6).members![0];
    expect([...m.rows!]).toEqual([1, 1, 2]);
    expect([...m.rowWeights!]).toEqual([2, 3, 4]);
    expect(m.weight).toBe(1);
  });

  it("a member without rows has a weight per row of the data: those of the part's rows", () => {
    const s: Structure = {
      ...nb,
      members: [{ weight: 0.5, structure: nb, rowWeights: Float64Array.from([9, 8, 7, 6]) }],
    };
    const m = structureOnRows(s, [0, 3], 4).members![0];
    expect(m.rows).toBeUndefined();
    expect([...m.rowWeights!]).toEqual([9, 6]);
  });

  it("members of a member number the member's rows; a fallback numbers the data's; shared rows stay shared", () => {
    const shared = Int32Array.from([3, 1]);
    const inner: Structure = { ...nb, members: [{ weight: 1, structure: nb, rows: Int32Array.from([1, 2, 0]) }] };
    const s: Structure = {
      ...nb,
      members: [
        // The member's data is rows [0, 2, 2, 5] of the data; its own member takes entries 1, 2, 0 of that.
        { weight: 1, structure: inner, rows: Int32Array.from([0, 2, 2, 5]) },
        { weight: 1, structure: nb, rows: shared },
        { weight: 1, structure: nb, rows: shared },
      ],
      fallback: { ...nb, members: [{ weight: 1, structure: nb, rows: Int32Array.from([5, 4, 1]) }] },
    };
    const out = structureOnRows(s, [1, 2, 5], 6);
    const [a, b, c] = out.members!;
    // Kept entries of [0, 2, 2, 5]: 1, 2, 3 (rows 2, 2, 5 → 1, 1, 2); the inner member's entries 1, 2 of the
    // old list are now entries 0, 1, and entry 0 (row 0) is gone.
    expect([...a.rows!]).toEqual([1, 1, 2]);
    expect([...a.structure.members![0].rows!]).toEqual([0, 1]);
    expect([...b.rows!]).toEqual([0]);
    expect(c.rows).toBe(b.rows);
    expect([...out.fallback!.members![0].rows!]).toEqual([2, 0]);
  });
});
