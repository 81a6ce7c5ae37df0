import { describe, expect, it } from 'vitest';
import { cellKey, pairKey, splitCellKey, splitPairKey } from '../../src/util/keys.js';

describe('composite keys (src/util/keys.ts)', () => {
  it('split back into their two parts, names with spaces, slashes and dots included', () => {
    for (const [d, m] of [
      ['car', 'tan/dirichlet'],
      ['house-votes-84', 'kdb(k=2)/dirichlet(alpha=0.5)'],
      ['a b', ''],
    ] as const) {
      expect(splitCellKey(cellKey(d, m))).toEqual([d, m]);
      expect(splitPairKey(pairKey(d, m))).toEqual([d, m]);
    }
  });

  it('two different pairs never share a key, even when their concatenations agree', () => {
    expect(cellKey('ab', 'c')).not.toBe(cellKey('a', 'bc'));
    expect(cellKey('a', 'b')).toBe(pairKey('a', 'b'));
  });

  it('in code-unit order (sort() without a comparator) sort as the dataset, then the method', () => {
    const pairs: [string, string][] = [
      ['iris', 'tan'],
      ['car', 'tan'],
      ['car-x', 'nb'],
      ['car', 'nb'],
    ];
    const byKey = pairs.map(([d, m]) => cellKey(d, m)).sort();
    expect(byKey.map(splitCellKey)).toEqual([
      ['car', 'nb'],
      ['car', 'tan'],
      ['car-x', 'nb'],
      ['iris', 'tan'],
    ]);
  });
});
