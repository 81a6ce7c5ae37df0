import { describe, it, expect } from 'vitest';
import { pAdjust } from '../../src/stats/padjust.js';
import { StatsInputError } from '../../src/stats/validate.js';

function expectClose(actual: number[], expected: number[], digits = 12): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => {
    if (Number.isNaN(expected[i])) expect(v).toBeNaN();
    else expect(v).toBeCloseTo(expected[i], digits);
  });
}

describe('pAdjust: hommel (R 4.2.2 p.adjust(p, "hommel"))', () => {
  // Provenance: R 4.2.2 (Debian r-base-core 4.2.2.20221110-2), p.adjust(c(0.01,0.02,0.03,0.04,0.05), "hommel")
  it('0.01..0.05 -> all 0.05', () => {
    expectClose(pAdjust([0.01, 0.02, 0.03, 0.04, 0.05], 'hommel'), [0.05, 0.05, 0.05, 0.05, 0.05]);
  });
  // R: p.adjust(c(0.01,0.04,0.03), "hommel")
  it('unsorted input keeps input order', () => {
    expectClose(pAdjust([0.01, 0.04, 0.03], 'hommel'), [0.03, 0.04, 0.04]);
  });
  // R: p.adjust(c(0.02,0.03), "hommel") — n = 2 switches to Hochberg
  it('n = 2 uses Hochberg', () => {
    expectClose(pAdjust([0.02, 0.03], 'hommel'), [0.03, 0.03]);
  });
  // R: p.adjust(c(0.02,0.03), "hommel", n = 3)
  it('explicit n larger than the number of p-values', () => {
    expectClose(pAdjust([0.02, 0.03], 'hommel', 3), [0.045, 0.06]);
  });
  // R: p.adjust(0.03, "hommel", n = 2)
  it('single p with n = 2', () => {
    expectClose(pAdjust([0.03], 'hommel', 2), [0.06]);
  });
  // R: p.adjust(c(0.001,0.2,0.03,0.04), "hommel")
  it('0.001 0.2 0.03 0.04', () => {
    expectClose(pAdjust([0.001, 0.2, 0.03, 0.04], 'hommel'), [0.004, 0.2, 0.06, 0.08]);
  });
  // R: p.adjust(c(0.01,0.02,0.04,0.045,0.5), "hommel")
  it('0.01 0.02 0.04 0.045 0.5', () => {
    expectClose(pAdjust([0.01, 0.02, 0.04, 0.045, 0.5], 'hommel'), [0.05, 0.06, 0.08, 0.09, 0.5]);
  });
  // R: p.adjust(c(0.01,0.01,0.04,0.2), "hommel") — tied p-values
  it('tied p-values', () => {
    expectClose(pAdjust([0.01, 0.01, 0.04, 0.2], 'hommel'), [0.03, 0.03, 0.08, 0.2]);
  });
  // R: p.adjust(0.03, "hommel")
  it('n = 1 returns p unchanged', () => {
    expectClose(pAdjust([0.03], 'hommel'), [0.03]);
  });
  // R: p.adjust(c(0.02, NA, 0.03), "hommel") — NA kept in place, n counts non-missing values only
  it('NaN is treated as NA', () => {
    expectClose(pAdjust([0.02, NaN, 0.03], 'hommel'), [0.03, NaN, 0.03]);
  });
  it('empty input', () => {
    expect(pAdjust([], 'hommel')).toEqual([]);
  });

  // Provenance: statsmodels stats/tests/test_multi.py::test_hommel input (40 p-values), output recomputed with
  // R 4.2.2 p.adjust(pval0, "hommel") (agrees with the R-verified values in that file).
  it('statsmodels 40-vector', () => {
    const p = [
      0.00116, 0.00924, 0.01075, 0.01437, 0.01784, 0.01918, 0.02751, 0.02871, 0.03054, 0.03246, 0.04259, 0.06879,
      0.0691, 0.08081, 0.08593, 0.08993, 0.09386, 0.09412, 0.09718, 0.09758, 0.09781, 0.09788, 0.13282, 0.20191,
      0.21757, 0.24031, 0.26061, 0.26762, 0.29474, 0.32901, 0.41386, 0.51479, 0.52461, 0.53389, 0.56276, 0.62967,
      0.72178, 0.73403, 0.87182, 0.95384,
    ];
    const expected = [
      0.0464,
      0.25872,
      0.29025,
      0.3495714285714286,
      0.41032,
      0.44114,
      0.57771,
      0.60291,
      0.618954,
      0.6492,
      0.7402725,
      0.86749,
      0.86749,
      0.88891,
      0.8971477777777778,
      0.8993,
      0.9175375,
      0.9175375,
      0.9175375,
      0.9175375,
      0.9175375,
      0.9175375,
      ...new Array<number>(18).fill(0.95384),
    ];
    expectClose(pAdjust(p, 'hommel'), expected, 12);
  });

  // Reference §3.1: the @stdlib/stats-padjust bug values must NOT be reproduced.
  it('does not reproduce the stdlib padjust hommel bug', () => {
    expect(pAdjust([0.01, 0.02, 0.03, 0.04, 0.05], 'hommel')[0]).not.toBeCloseTo(0.04, 6);
    expect(pAdjust([0.02, 0.03], 'hommel')[0]).not.toBeCloseTo(0.02, 6);
  });
});

describe('pAdjust: holm, hochberg, bonferroni, none (R 4.2.2 p.adjust)', () => {
  // R: p.adjust(c(0.01,0.02,0.03,0.04,0.05), "holm" | "hochberg" | "bonferroni")
  it('0.01..0.05', () => {
    const p = [0.01, 0.02, 0.03, 0.04, 0.05];
    expectClose(pAdjust(p, 'holm'), [0.05, 0.08, 0.09, 0.09, 0.09]);
    expectClose(pAdjust(p, 'hochberg'), [0.05, 0.05, 0.05, 0.05, 0.05]);
    expectClose(pAdjust(p, 'bonferroni'), [0.05, 0.1, 0.15, 0.2, 0.25]);
    expectClose(pAdjust(p, 'none'), p);
  });
  // R: p.adjust(c(0.001,0.2,0.03,0.04), "holm" | "hochberg" | "bonferroni")
  it('0.001 0.2 0.03 0.04', () => {
    const p = [0.001, 0.2, 0.03, 0.04];
    expectClose(pAdjust(p, 'holm'), [0.004, 0.2, 0.09, 0.09]);
    expectClose(pAdjust(p, 'hochberg'), [0.004, 0.2, 0.08, 0.08]);
    expectClose(pAdjust(p, 'bonferroni'), [0.004, 0.8, 0.12, 0.16]);
  });
  // R: p.adjust(c(0.01,0.02,0.04,0.045,0.5), "holm" | "hochberg" | "bonferroni") — bonferroni capped at 1
  it('0.01 0.02 0.04 0.045 0.5', () => {
    const p = [0.01, 0.02, 0.04, 0.045, 0.5];
    expectClose(pAdjust(p, 'holm'), [0.05, 0.08, 0.12, 0.12, 0.5]);
    expectClose(pAdjust(p, 'hochberg'), [0.05, 0.08, 0.09, 0.09, 0.5]);
    expectClose(pAdjust(p, 'bonferroni'), [0.05, 0.1, 0.2, 0.225, 1]);
  });
  // R: p.adjust(c(0.01,0.04,0.03), m); p.adjust(c(0.02, NA, 0.03), "holm")
  it('small vectors and NA', () => {
    expectClose(pAdjust([0.01, 0.04, 0.03], 'holm'), [0.03, 0.06, 0.06]);
    expectClose(pAdjust([0.01, 0.04, 0.03], 'bonferroni'), [0.03, 0.12, 0.09]);
    expectClose(pAdjust([0.02, 0.03], 'holm'), [0.04, 0.04]);
    expectClose(pAdjust([0.02, NaN, 0.03], 'holm'), [0.04, NaN, 0.04]);
  });
  it('defaults to hommel', () => {
    expectClose(pAdjust([0.01, 0.04, 0.03]), [0.03, 0.04, 0.04]);
  });
});

describe('pAdjust: invalid input', () => {
  it('rejects p outside [0, 1], infinities and bad n or method', () => {
    expect(() => pAdjust([0.2, 1.5], 'holm')).toThrow(StatsInputError);
    expect(() => pAdjust([-0.1], 'holm')).toThrow(/\[0, 1\]/);
    expect(() => pAdjust([Infinity], 'holm')).toThrow(StatsInputError);
    expect(() => pAdjust([0.1, 0.2], 'holm', 1)).toThrow(/n must be/);
    // @ts-expect-error unknown method
    expect(() => pAdjust([0.1], 'BH')).toThrow(/unknown/);
    // @ts-expect-error unknown method
    expect(() => pAdjust([0.1], 'BH')).toThrow(
      /^unknown p-value adjustment method 'BH' \(use hommel, holm, hochberg, bonferroni, none\)$/,
    );
    // @ts-expect-error not an array
    expect(() => pAdjust('0.1')).toThrow(/^p must be an array of p-values$/);
    // @ts-expect-error not a number
    expect(() => pAdjust([0.1, '0.2'])).toThrow(/^p\[1\] must be a number, got 0\.2$/);
  });

  it('accepts the bounds 0 and 1 (R: p.adjust(c(1, 0.5), "holm") = 1 1)', () => {
    expectClose(pAdjust([1, 0.5], 'holm'), [1, 1], 15);
    expectClose(pAdjust([1, 0], 'bonferroni'), [1, 0], 15);
  });
});

describe('pAdjust: a p-value of exactly 0', () => {
  // Provenance: R 4.2.2 p.adjust(c(0, 0.01, 0.03, 0.2), m) for each m, and p.adjust(c(0, 0.04, 0.5), "hommel", n = 6).
  it('stays 0 under every method and does not pull the others down', () => {
    const p = [0, 0.01, 0.03, 0.2];
    expectClose(pAdjust(p, 'hommel'), [0, 0.03, 0.06, 0.2], 15);
    expectClose(pAdjust(p, 'holm'), [0, 0.03, 0.06, 0.2], 15);
    expectClose(pAdjust(p, 'hochberg'), [0, 0.03, 0.06, 0.2], 15);
    expectClose(pAdjust(p, 'bonferroni'), [0, 0.04, 0.12, 0.8], 15);
    expectClose(pAdjust([0.2, 0, 0.03, 0.01], 'hommel'), [0.2, 0, 0.06, 0.03], 15);
    expectClose(pAdjust([0, 0.04, 0.5], 'hommel', 6), [0, 0.2, 1], 15);
  });
});

describe('pAdjust: hommel to the last bit', () => {
  // Provenance: R 4.2.2 sprintf("%.17g", p.adjust(p, "hommel")) for this p. Each step of Hommel's recursion
  // copies q[n - j] to the positions above it (R: q[i2] <- q[n - m]); skipping that copy changes only the last
  // bit here (0.7759728408028279 instead of 0.77597284080282802), so the comparison is exact.
  it('matches R exactly, ties at 0.75 included', () => {
    const p = [0.02341979151168163, 0.004435684235955122, 0.75, 0.75, 0.7759728408028279, 0.06366184077474996];
    expect(pAdjust(p, 'hommel')).toEqual([
      0.11709895755840816, 0.026614105415730734, 0.77597284080282802, 0.77597284080282802, 0.77597284080282802,
      0.25464736309899982,
    ]);
  });

  // Provenance: R 4.2.2 sprintf("%.17g", p.adjust(c(0.08, 0.37, 0, 0.4), "hommel")) = 0.23999999999999999
  // 0.40000000000000002 0 0.40000000000000002. Without that copy (or with it starting past n − j) the positions
  // above n − j keep q1, which is not below the copied value, and 0.37 and 0.4 come out one bit above 0.4.
  it('matches R exactly where the copied value is below q1', () => {
    expect(pAdjust([0.08, 0.37, 0, 0.4], 'hommel')).toEqual([0.24, 0.4, 0, 0.4]);
  });
});
