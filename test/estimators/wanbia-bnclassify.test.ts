import { describe, it, expect } from 'vitest';
import { bnclassifyWanbiaObjective } from '../../src/estimators/wanbia-bnclassify.js';
import { naiveBayesTables } from '../../src/estimators/weighted-nb.js';
import { wanbiaObjective } from '../../src/estimators/wanbia.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { expRounded, lnRounded, powRounded } from '../../src/util/exact-float.js';

// 40 rows, attributes of 3, 2 and 4 values, 3 classes (a fixed list, no generator).
const ROWS: [number, number, number, number][] = [
  [2, 0, 3, 0],
  [0, 0, 0, 1],
  [0, 1, 0, 1],
  [0, 0, 1, 0],
  [1, 1, 0, 2],
  [2, 0, 1, 0],
  [2, 0, 2, 0],
  [0, 0, 1, 0],
  [2, 1, 2, 0],
  [2, 1, 3, 1],
  [0, 0, 2, 0],
  [0, 1, 2, 1],
  [1, 1, 3, 2],
  [0, 1, 3, 2],
  [1, 1, 0, 0],
  [2, 1, 0, 1],
  [0, 0, 1, 0],
  [2, 1, 3, 1],
  [2, 1, 0, 1],
  [0, 0, 3, 1],
  [0, 1, 3, 1],
  [1, 1, 3, 0],
  [2, 1, 2, 0],
  [1, 1, 2, 0],
  [1, 0, 0, 1],
  [1, 0, 0, 2],
  [0, 0, 3, 1],
  [1, 1, 1, 0],
  [1, 0, 3, 2],
  [1, 1, 3, 0],
  [2, 0, 2, 2],
  [2, 1, 1, 0],
  [1, 1, 3, 2],
  [1, 1, 1, 0],
  [1, 1, 3, 2],
  [1, 1, 0, 2],
  [1, 0, 1, 2],
  [2, 1, 1, 0],
  [2, 1, 1, 1],
  [1, 1, 1, 2],
];
const tiny = discreteFromArrays({
  cards: [3, 2, 4],
  rows: ROWS.map((r) => r.slice(0, 3)),
  classes: ROWS.map((r) => r[3]),
  classCard: 3,
});

describe('correctly rounded exp, log and pow', () => {
  // Inputs where V8's fdlibm functions are one ulp off; expected values are R 4.2's exp, log and ^ (glibc).
  it('exp', () => {
    for (const [x, want] of [
      [-4.33497433806429, 0.013102210296755833],
      [-1.0475532350864203, 0.35079501285135944],
      [-24.806376066502146, 1.685496124602362e-11],
    ] as const)
      expect(expRounded(x)).toBe(want);
  });
  it('log', () => {
    for (const [x, want] of [
      [0.3326111832241657, -1.1007810891440568],
      [0.09209255614894483, -2.38496116256008],
      [0.6068037937536689, -0.4995497794612708],
    ] as const)
      expect(lnRounded(x)).toBe(want);
  });
  it('pow, with R_pow special cases', () => {
    for (const [x, y, want] of [
      [0.21389133132538357, 0.18437000667921732, 0.7525020940218335],
      [0.8190984257563861, 0.6171092020384056, 0.884135653950974],
      [0.1676610285480753, 0.7879550120127808, 0.24484283900751394],
    ] as const)
      expect(powRounded(x, y)).toBe(want);
    expect(powRounded(0.3, 0)).toBe(1);
    expect(powRounded(0.3, 1)).toBe(0.3);
    expect(powRounded(0.3, 2)).toBe(0.3 * 0.3);
  });
});

describe("WANBIA variant bnclassify: bnclassify's objective to the last bit", () => {
  // bnclassify 0.4.8: -make_cll('class', d)(w) and make_cll_gradient('class', d)(w), printed with %.17g.
  const R: [number[], number[]][] = [
    [
      [1, 1, 1],
      [29.70111300682181, -2.2215141636763849, -0.022471088688570895, -2.3593627159595632],
    ],
    [
      [0.3, 0.7, 0.55],
      [35.391294747150972, -9.1505143214203137, -0.040215289602108073, -5.7966185457346047],
    ],
    [
      [0, 0.125, 1],
      [36.805839724909973, -12.579737788677324, -0.024115382339416014, -2.4339825742846597],
    ],
  ];
  const objective = bnclassifyWanbiaObjective(tiny, 1);
  it('equals bnclassify bit for bit at three points', () => {
    for (const [w, want] of R) {
      const g = new Float64Array(3);
      const f = objective(w, g);
      expect([f, ...g]).toEqual(want);
    }
  });
  it('is the same function as the log-space objective of wanbia.ts (to rounding)', () => {
    const tables = naiveBayesTables(tiny, 1);
    for (const [w] of R) {
      const g1 = new Float64Array(3);
      const g2 = new Float64Array(3);
      const f1 = objective(w, g1);
      const f2 = wanbiaObjective(tables, tiny, w, g2, undefined, 'bnclassify');
      expect(f1).toBeCloseTo(f2, 10);
      for (let a = 0; a < 3; a++) expect(g1[a]).toBeCloseTo(g2[a], 10);
    }
  });
});
