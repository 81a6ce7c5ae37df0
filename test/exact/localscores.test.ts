import { describe, expect, it } from 'vitest';
import { discreteFromArrays } from '../../src/bn/data.js';
import { LocalScores, completeRows } from '../../src/bn/exact/localscores.js';
import { localScore, lgamma } from '../../src/bn/scores.js';
import { selectRows } from '../../src/bn/data.js';
import { randomData } from './helpers.js';
import { members } from '../../src/bn/exact/bits.js';

describe('local-score engine', () => {
  it('BDeu of a tiny family matches a hand computation', () => {
    // X (binary) with parent Y (binary), rows (x, y): (0,0) (0,0) (1,0) (1,1); class constant, ess = 1.
    // BDeu(X | Y) = Σ_j [lnΓ(1/2) − lnΓ(1/2 + N_j)] + Σ_jk [lnΓ(1/4 + N_jk) − lnΓ(1/4)]
    //  j = y0: N = 3 (x0: 2, x1: 1); j = y1: N = 1 (x1: 1).
    const d = discreteFromArrays({
      cards: [2, 2],
      rows: [
        [0, 0],
        [0, 0],
        [1, 0],
        [1, 1],
      ],
      classes: [0, 0, 0, 0],
      classCard: 1,
    });
    const hand =
      lgamma(0.5) -
      lgamma(3.5) +
      (lgamma(2.25) - lgamma(0.25)) +
      (lgamma(1.25) - lgamma(0.25)) +
      lgamma(0.5) -
      lgamma(1.5) +
      (lgamma(1.25) - lgamma(0.25));
    // Written out with Γ(1.25)/Γ(0.25) = 0.25 and Γ(2.25)/Γ(0.25) = 1.25·0.25, Γ(3.5)/Γ(0.5) = 2.5·1.5·0.5,
    // Γ(1.5)/Γ(0.5) = 0.5: ln(0.3125) + ln(0.25) − ln(1.875) + ln(0.25) − ln(0.5) = ln(0.0208333…).
    expect(hand).toBeCloseTo(Math.log((0.3125 * 0.25 * 0.25) / (1.875 * 0.5)), 12);
    const ls = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'none' });
    expect(ls.local(0, 1 << 1)).toBeCloseTo(hand, 12);
    expect(Math.log((0.3125 * 0.25 * 0.25) / (1.875 * 0.5))).toBeCloseTo(-3.871201010907891, 12);
  });

  for (const score of ['bdeu', 'loglik', 'bic', 'aic'] as const) {
    for (const ess of score === 'bdeu' ? [1, 0.3, 16] : [1]) {
      it(`${score}${score === 'bdeu' ? ` (ess ${ess})` : ''}: every family equals scores.ts on complete data`, () => {
        const d = randomData(`ls-${score}-${ess}`, 180, [2, 3, 2, 4], 3);
        const ls = new LocalScores(d, { score, ess, constraint: 'none' });
        const n = 5;
        const out = new Float64Array(1 << (n - 1));
        for (let x = 0; x < n; x++) {
          ls.fillLocal(x, out);
          for (let c = 0; c < 1 << (n - 1); c++) {
            const low = c & ((1 << x) - 1);
            const full = ((c >>> x) << (x + 1)) | low;
            const ref = localScore(d, x, members(full), score, ess);
            expect(ls.local(x, full)).toBeCloseTo(ref, 8);
            expect(out[c]).toBeCloseTo(ref, 8);
          }
        }
      });
    }
  }

  it('uses only the complete rows when values are missing', () => {
    const d = randomData('ls-missing', 200, [2, 3, 2], 2, 0.6, 0.1);
    const rows = completeRows(d);
    expect(rows.length).toBeLessThan(200);
    expect(rows.length).toBeGreaterThan(100);
    const cc = selectRows(d, rows);
    const ls = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'none' });
    expect(ls.rows).toBe(rows.length);
    expect(ls.local(1, 0b1001)).toBeCloseTo(localScore(cc, 1, [0, 3], 'bdeu', 1), 8);
  });

  it('ANB folds the class into every parent set and scores the class family as a constant', () => {
    const d = randomData('ls-anb', 150, [2, 3, 2], 3);
    for (const score of ['bdeu', 'bic'] as const) {
      const ls = new LocalScores(d, { score, ess: 1, constraint: 'anb' });
      expect(ls.n).toBe(3);
      expect(ls.constant).toBeCloseTo(localScore(d, 3, [], score, 1), 8);
      expect(ls.local(2, 0b001)).toBeCloseTo(localScore(d, 2, [3, 0], score, 1), 8);
      expect(ls.local(0, 0)).toBeCloseTo(localScore(d, 0, [3], score, 1), 8);
    }
  });

  it('large data with many cells: BDeu series branch (α/Q < 1e-4) agrees with lnΓ', () => {
    // 8 attributes of cardinality 4 and 3 classes: Q up to 4^8·3 ≈ 2e5, so a = 1/Q < 1e-4 for the big sets.
    const d = randomData('ls-big', 400, [4, 4, 4, 4, 4, 4, 4, 4], 3, 0.5);
    const ls = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'none' });
    const all = (1 << 9) - 1;
    const x = 8;
    const parents = all & ~(1 << x);
    expect(ls.configs(parents)).toBe(4 ** 8);
    expect(ls.local(x, parents)).toBeCloseTo(localScore(d, 8, [0, 1, 2, 3, 4, 5, 6, 7], 'bdeu', 1), 7);
    expect(ls.local(0, all & ~1)).toBeCloseTo(localScore(d, 0, [1, 2, 3, 4, 5, 6, 7, 8], 'bdeu', 1), 7);
  });

  it('no complete row: every score is 0', () => {
    const d = discreteFromArrays({
      cards: [2, 2],
      rows: [
        [-1, 0],
        [1, -1],
      ],
      classes: [0, 1],
      classCard: 2,
    });
    const ls = new LocalScores(d, { score: 'bic', ess: 1, constraint: 'none' });
    expect(ls.rows).toBe(0);
    expect(ls.local(2, 0b011)).toBe(0);
  });
});
