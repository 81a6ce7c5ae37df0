import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  cmiFromCounts,
  conditionalMutualInformation,
  miFromCounts,
  mutualInformation,
  pairwiseCmi,
} from '../../src/bn/information.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { Rng } from '../../src/util/rng.js';
import { readCsvAsDiscrete, tinyData } from './fixtures.js';

const ln = Math.log;

describe('mutual information I(X;C) in nats', () => {
  it('matches the hand computation on the tiny data', () => {
    // X0 by class: n(0,0)=3 n(1,0)=1 n(0,1)=1 n(1,1)=3, N=8, all margins 4.
    // I = 2·(3/8)·ln(3·8/(4·4)) + 2·(1/8)·ln(1·8/(4·4)) = (3/4)ln(3/2) + (1/4)ln(1/2)
    const expected = 0.75 * ln(1.5) + 0.25 * ln(0.5);
    expect(expected).toBeCloseTo(0.130812036, 8);
    expect(mutualInformation(tinyData(), 0)).toBeCloseTo(expected, 14);
  });

  it('uses only rows where X is observed (X2: row 7 missing, N = 7)', () => {
    // X2 by class on rows 0..6: C=0 -> [2,1,1], C=1 -> [1,1,1]; margins x: [3,2,2], c: [4,3].
    // I = (1/7)[2ln(2·7/(3·4)) + ln(7/(2·4)) + ln(7/(2·4)) + ln(7/(3·3)) + ln(7/(2·3)) + ln(7/(2·3))]
    const expected = (2 * ln(14 / 12) + 2 * ln(7 / 8) + ln(7 / 9) + 2 * ln(7 / 6)) / 7;
    expect(mutualInformation(tinyData(), 2)).toBeCloseTo(expected, 14);
  });

  it('is 0 for independent counts and for an empty table', () => {
    expect(miFromCounts(Float64Array.from([2, 4, 1, 2]), 2, 2)).toBe(0);
    expect(miFromCounts(new Float64Array(4), 2, 2)).toBe(0);
  });
});

describe('conditional mutual information I(Xi;Xj|C) in nats', () => {
  it('I(X0;X1|C) by hand', () => {
    // C=0 (4 rows): (0,0)x2 (0,1)x1 (1,1)x1; X0 margin [3,1], X1 margin [2,2]
    //   2ln(2·4/(3·2)) + ln(1·4/(3·2)) + ln(1·4/(1·2)) = 2ln(4/3) + ln(2/3) + ln 2
    // C=1 (4 rows): (1,1)x2 (1,0)x1 (0,1)x1; X0 margin [1,3], X1 margin [1,3]
    //   2ln(2·4/(3·3)) + ln(1·4/(3·1)) + ln(1·4/(1·3)) = 2ln(8/9) + 2ln(4/3)
    const expected = (2 * ln(4 / 3) + ln(2 / 3) + ln(2) + 2 * ln(8 / 9) + 2 * ln(4 / 3)) / 8;
    expect(expected).toBeCloseTo(0.150355536, 8);
    expect(conditionalMutualInformation(tinyData(), 0, 1)).toBeCloseTo(expected, 14);
    expect(conditionalMutualInformation(tinyData(), 1, 0)).toBeCloseTo(expected, 14);
  });

  it('I(X0;X2|C) = ln(64/27)/7 over the 7 rows with X2 observed', () => {
    // C=0: (0,0)(0,1)(0,2)(1,0); X0 margin [3,1], X2 margin [2,1,1]:
    //   ln(4/(3·2)) + ln(4/3) + ln(4/3) + ln(4/(1·2)) = ln(2/3 · 16/9 · 2) = ln(64/27)
    // C=1: (1,1)(1,2)(1,0): X0 is constant, every term ln(1·3/(3·1)) = 0
    expect(conditionalMutualInformation(tinyData(), 0, 2)).toBeCloseTo(ln(64 / 27) / 7, 14);
  });

  it('I(X1;X2|C) = 3 ln 3 / 7', () => {
    // C=0: (0,0)(0,1)(1,2)(1,0); X1 margin [2,2], X2 [2,1,1]: 0 + ln2 + ln2 + 0 = 2ln2
    // C=1: (1,1)(0,2)(1,0); X1 margin [1,2], X2 [1,1,1]: ln(3/2) + ln3 + ln(3/2) = ln(27/4)
    // (2ln2 + ln(27/4))/7 = ln(27)/7
    expect(conditionalMutualInformation(tinyData(), 1, 2)).toBeCloseTo((3 * ln(3)) / 7, 14);
  });

  it('counts above the x ln x table (2^16) give the value of the definition', () => {
    // One class; cells (0,0) 300000, (0,1) 100000, (1,0) 70000, (1,1) 1 (layout [(x*2+y)*1+c]).
    const t = Float64Array.from([300000, 100000, 70000, 1]);
    const N = 470001;
    const cell = (nxy: number, nx: number, ny: number): number => (nxy / N) * ln((nxy * N) / (nx * ny));
    const expected =
      cell(300000, 400000, 370000) + cell(100000, 400000, 100001) + cell(70000, 70001, 370000) + cell(1, 70001, 100001);
    expect(cmiFromCounts(t, 2, 2, 1)).toBeCloseTo(expected, 12);
    // The same counts as integers in an Int32 table (the pairwise loop's) give the same bits.
    expect(cmiFromCounts(Int32Array.from(t), 2, 2, 1)).toBe(cmiFromCounts(t, 2, 2, 1));
  });

  it('is 0 when X and Y are independent within each class', () => {
    // Per class the (x,y) table is a product: C=0 [[1,1],[1,1]], C=1 [[2,1],[4,2]].
    const t = Float64Array.from([1, 2, 1, 1, 1, 4, 1, 2]); // [(x*2+y)*2+c]
    expect(cmiFromCounts(t, 2, 2, 2)).toBe(0);
  });

  it('pairwiseCmi matches the single-pair values and records each pair N', () => {
    const d = tinyData();
    const p = pairwiseCmi(d);
    expect(p.m).toBe(3);
    for (let i = 0; i < 3; i++) {
      expect(p.cmi[i * 3 + i]).toBe(0);
      for (let j = 0; j < 3; j++) {
        if (i === j) continue;
        expect(p.cmi[i * 3 + j]).toBeCloseTo(conditionalMutualInformation(d, i, j), 15);
        expect(p.cmi[i * 3 + j]).toBe(p.cmi[j * 3 + i]);
      }
    }
    expect(p.n[0 * 3 + 1]).toBe(8);
    expect(p.n[0 * 3 + 2]).toBe(7);
    expect(p.n[2 * 3 + 1]).toBe(7);
  });

  it('pairwiseCmi (four pairs per pass) equals pair-by-pair counting on wider data with missing values', () => {
    const rng = new Rng('pairwise');
    const cards = [2, 3, 4, 2, 5, 3, 2, 4, 3];
    const rows = Array.from({ length: 300 }, () => cards.map((k) => (rng.next() < 0.1 ? -1 : rng.int(k))));
    const classes = rows.map((r) => ((r[0] + r[4] + 10) % 3 === 0 ? rng.int(3) : Math.max(0, r[1])));
    const d = discreteFromArrays({ cards, rows, classes, classCard: 3 });
    const p = pairwiseCmi(d);
    const m = cards.length;
    for (let i = 0; i < m; i++) {
      for (let j = i + 1; j < m; j++) {
        expect(p.cmi[i * m + j]).toBeCloseTo(conditionalMutualInformation(d, i, j), 14);
        const both = rows.filter((r) => r[i] >= 0 && r[j] >= 0).length;
        expect(p.n[i * m + j]).toBe(both);
        expect(p.n[j * m + i]).toBe(both);
      }
    }
  });

  it('pairwiseCmi honours an aborted signal', () => {
    const ac = new AbortController();
    ac.abort();
    expect(() => pairwiseCmi(tinyData(), ac.signal)).toThrow();
  });

  it('a pair that is never jointly observed has CMI 0 and N 0', () => {
    const d = discreteFromArrays({
      cards: [2, 2],
      rows: [
        [0, -1],
        [1, -1],
        [-1, 0],
        [-1, 1],
      ],
      classes: [0, 1, 0, 1],
      classCard: 2,
    });
    const p = pairwiseCmi(d);
    expect(p.cmi[1]).toBe(0);
    expect(p.n[1]).toBe(0);
  });
});

describe('golden values from bnclassify (tests/testthat/test-learn-chowliu.R)', () => {
  it('car: I(buying; maint | class) = 0.07199921', () => {
    const car = readCsvAsDiscrete(readFileSync(new URL('../../data/uci/car.csv', import.meta.url), 'utf8'));
    expect(car.n).toBe(1728);
    const i = car.names.indexOf('buying');
    const j = car.names.indexOf('maint');
    expect(conditionalMutualInformation(car, i, j)).toBeCloseTo(0.07199921, 8);
  });

  it('voting (with NAs, available case): I(water_project_cost_sharing; crime | Class) = 0.003924715', () => {
    const v = readCsvAsDiscrete(readFileSync(new URL('../../data/uci/house-votes-84.csv', import.meta.url), 'utf8'));
    expect(v.n).toBe(435);
    const i = v.names.indexOf('water-project-cost-sharing');
    const j = v.names.indexOf('crime');
    expect(conditionalMutualInformation(v, i, j)).toBeCloseTo(0.003924715, 9);
  });
});
