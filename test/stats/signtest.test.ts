import { describe, it, expect } from 'vitest';
import { binomTest, signTest, signTestCriticalWins, winDrawLoss } from '../../src/stats/signtest.js';
import { StatsInputError } from '../../src/stats/validate.js';
import { DEMSAR_C45, DEMSAR_C45M, GH2010 } from './fixtures.js';

describe('binomTest (R 4.2.2 binom.test)', () => {
  it('two-sided, p = 0.5', () => {
    // binom.test(11, 14)$p.value = 0.057373046875; binom.test(10, 12)$p.value = 0.03857421875
    expect(binomTest(11, 14).p).toBeCloseTo(0.057373046875, 14);
    expect(binomTest(10, 12).p).toBeCloseTo(0.03857421875, 14);
    // symmetric: binom.test(3, 14) == binom.test(11, 14)
    expect(binomTest(3, 14).p).toBeCloseTo(0.057373046875, 14);
    expect(binomTest(7, 14).p).toBe(1);
  });
  it('one-sided and p ≠ 0.5', () => {
    // binom.test(10, 12, alternative = "greater") = 0.019287109375; "less" = 0.996826171875
    expect(binomTest(10, 12, { alternative: 'greater' }).p).toBeCloseTo(0.019287109375, 14);
    expect(binomTest(10, 12, { alternative: 'less' }).p).toBeCloseTo(0.996826171875, 14);
    // binom.test(3, 10, p = 0.3) = 1; binom.test(7, 20, p = 0.2) = 0.098221728613468728;
    // binom.test(1, 20, p = 0.2) = 0.15586780384381105
    expect(binomTest(3, 10, { p: 0.3 }).p).toBe(1);
    expect(binomTest(7, 20, { p: 0.2 }).p).toBeCloseTo(0.098221728613468728, 13);
    expect(binomTest(1, 20, { p: 0.2 }).p).toBeCloseTo(0.15586780384381105, 13);
  });
  it('rejects invalid counts', () => {
    expect(() => binomTest(5, 4)).toThrow(/x must be <= n/);
    expect(() => binomTest(1.5, 4)).toThrow(StatsInputError);
    expect(() => binomTest(0, 0)).toThrow(/n must be an integer >= 1/);
  });
});

describe('signTest on win/draw/loss', () => {
  // Provenance: reference §2.4, Demšar (2006) Table 2, W/D/L = 10/2/2. R 4.2.2:
  // split → binom.test(11, 14) = 0.057373046875 (significant only at 0.10, as Demšar says);
  // drop  → binom.test(10, 12) = 0.03857421875.
  it('Demšar Table 2: split vs drop', () => {
    const split = signTest(10, 2, 2, { draws: 'split' });
    expect(split.p).toBeCloseTo(0.057373046875, 14);
    expect([split.effectiveWins, split.effectiveLosses, split.n]).toEqual([11, 3, 14]);
    expect(split.settings).toEqual({ draws: 'split', alternative: 'two.sided' });
    const drop = signTest(10, 2, 2);
    expect(drop.p).toBeCloseTo(0.03857421875, 14);
    expect(drop.n).toBe(12);
    expect(drop.ignoredDraws).toBe(2);
    expect(drop.settings.draws).toBe('drop');
  });
  // Provenance: reference §2.4, GH2010 PDFC vs NNEP 15/1/8 → 0.21004 (split with one draw ignores it: same);
  // vs IS-CHC+1NN 18/0/6 → 0.0226558; vs FH-GBML 20/0/4 → 0.00154388. R 4.2.2 binom.test(15, 23),
  // binom.test(18, 24), binom.test(20, 24) = 0.21003961563110371, 0.022655844688415548, 0.0015438795089721669.
  it('GH2010 PDFC vs others', () => {
    expect(signTest(15, 1, 8).p).toBeCloseTo(0.21003961563110371, 14);
    const split = signTest(15, 1, 8, { draws: 'split' });
    expect(split.p).toBeCloseTo(0.21003961563110371, 14);
    expect(split.ignoredDraws).toBe(1);
    expect(signTest(18, 0, 6).p).toBeCloseTo(0.022655844688415548, 14);
    expect(signTest(20, 0, 4).p).toBeCloseTo(0.0015438795089721669, 15);
  });
  it('edge cases', () => {
    const allDraws = signTest(0, 5, 0);
    expect(allDraws.p).toBe(1);
    expect(allDraws.n).toBe(0);
    expect(allDraws.warnings).toHaveLength(1);
    expect(signTest(1, 0, 0).p).toBe(1); // binom.test(1, 1) = 1
    expect(signTest(2, 0, 0).p).toBe(0.5); // binom.test(2, 2) = 0.5
    expect(() => signTest(-1, 0, 1)).toThrow(/wins/);
    expect(() => signTest(NaN, 0, 1)).toThrow(/wins must be an integer/);
    // @ts-expect-error invalid option value
    expect(() => signTest(1, 0, 1, { draws: 'half' })).toThrow(/draws/);
  });
});

describe('signTestCriticalWins (Demšar 2006 Table 3)', () => {
  // Provenance: reference §2.4; R 4.2.2: smallest w with binom.test(w, N)$p.value <= alpha, N = 5..25.
  it('alpha = 0.05 and 0.10, N = 5..25', () => {
    const a05 = [null, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 17, 17, 18, 18];
    const a10 = [5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 16, 17, 18];
    for (let n = 5; n <= 25; n++) {
      expect(signTestCriticalWins(n, 0.05)).toBe(a05[n - 5]);
      expect(signTestCriticalWins(n, 0.1)).toBe(a10[n - 5]);
    }
  });
});

describe('winDrawLoss', () => {
  it('Demšar Table 2: C4.5+m vs C4.5 is 10/2/2', () => {
    const r = winDrawLoss(DEMSAR_C45M, DEMSAR_C45);
    expect([r.wins, r.draws, r.losses]).toEqual([10, 2, 2]);
    expect(r.settings).toEqual({ lowerIsBetter: false, tolerance: 0, digits: null });
    const rev = winDrawLoss(DEMSAR_C45, DEMSAR_C45M);
    expect([rev.wins, rev.draws, rev.losses]).toEqual([2, 2, 10]);
  });
  it('GH2010 PDFC vs NNEP is 15/1/8', () => {
    const pdfc = GH2010.map((r) => r[0]);
    const nnep = GH2010.map((r) => r[1]);
    const r = winDrawLoss(pdfc, nnep);
    expect([r.wins, r.draws, r.losses]).toEqual([15, 1, 8]);
  });
  it('lowerIsBetter flips wins and losses; tolerance and digits create draws', () => {
    const a = [0.1, 0.2, 0.3];
    const b = [0.2, 0.2, 0.29];
    expect(winDrawLoss(a, b)).toMatchObject({ wins: 1, draws: 1, losses: 1 });
    expect(winDrawLoss(a, b, { lowerIsBetter: true })).toMatchObject({ wins: 1, draws: 1, losses: 1 });
    expect(winDrawLoss([0.1], [0.2], { lowerIsBetter: true })).toMatchObject({ wins: 1, losses: 0 });
    expect(winDrawLoss(a, b, { tolerance: 0.011 })).toMatchObject({ wins: 0, draws: 2, losses: 1 });
    expect(winDrawLoss([0.8123], [0.8118], { digits: 2 })).toMatchObject({ wins: 0, draws: 1, losses: 0 });
    expect(winDrawLoss([0.3 - 0.1], [0.2])).toMatchObject({ draws: 0 });
    expect(winDrawLoss([0.3 - 0.1], [0.2], { digits: 6 })).toMatchObject({ draws: 1 });
  });
  it('rejects NaN and length mismatch', () => {
    expect(() => winDrawLoss([1, NaN], [1, 2])).toThrow(/a\[1\] must be a finite number/);
    expect(() => winDrawLoss([1, 2], [1])).toThrow(/same length/);
    expect(() => winDrawLoss([1], [1], { tolerance: -0.1 })).toThrow(/tolerance/);
  });
});
