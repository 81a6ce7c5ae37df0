import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { kdb, kdbAttributeParents, miOrder, rankDescending } from '../../src/structures/kdb.js';
import { tan } from '../../src/structures/tan.js';
import { assertDag } from '../../src/bn/structure.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { pairwiseCmi } from '../../src/bn/information.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { tinyData } from '../bn/fixtures.js';
import { shipped } from './catalog-data.js';

const ctx = { rng: new Rng('kdb') };
const ln = Math.log;

describe('kdb on the tiny data (test/bn/fixtures.ts)', () => {
  // I(X;C), nats (test/bn/information.test.ts for X0 and X2):
  //   X0: (3/4)ln(3/2) + (1/4)ln(1/2)                                     ≈ 0.130812
  //   X1: by class C=0 [2,2], C=1 [1,3]; margins X1 [3,5], C [4,4]:
  //       (1/4)ln(2·8/12) + (1/4)ln(2·8/20) + (1/8)ln(8/12) + (3/8)ln(3·8/20) ≈ 0.033822
  //   X2 (7 rows): (2ln(14/12) + 2ln(7/8) + ln(7/9) + 2ln(7/6))/7        ≈ 0.014033
  // MI order X0, X1, X2. CMI with X2: I(X2;X1|C) = 3ln3/7 ≈ 0.4708 > I(X2;X0|C) = ln(64/27)/7 ≈ 0.1233.
  const d = tinyData();

  it('orders the attributes by MI', () => {
    const mi1 = 0.25 * ln(16 / 12) + 0.25 * ln(16 / 20) + 0.125 * ln(8 / 12) + 0.375 * ln(24 / 20);
    expect(mi1).toBeCloseTo(0.033822, 6);
    expect(miOrder(d)).toEqual([0, 1, 2]);
  });

  it('k = 1: X1 <- X0 and X2 <- X1 (the TAN chain), class first in every list', () => {
    const s = kdb.learn(d, { k: 1 }, ctx);
    assertDag(s);
    expect(s.parents).toEqual([[3], [3, 0], [3, 1], []]);
    expect(s.parents).toEqual(tan.learn(d, {}, ctx).parents);
    expect(s.info).toMatchObject({ k: 1, arcs: 2, first: 'X1' });
  });

  it('k = 2: X2 takes both earlier attributes in decreasing CMI (X1 before X0); X1 has only X0 before it', () => {
    expect(kdb.learn(d, { k: 2 }, ctx).parents).toEqual([[3], [3, 0], [3, 1, 0], []]);
    // k larger than the number of earlier attributes changes nothing.
    expect(kdb.learn(d, { k: 5 }, ctx).parents).toEqual([[3], [3, 0], [3, 1, 0], []]);
  });
});

describe('tie rule', () => {
  it('equal MI goes to the lower attribute index; equal CMI to the parent earlier in the MI order', () => {
    // X0 and X2 are copies, X1 their negation: the same MI with the class, and every CMI pair equal.
    const rows = [
      [0, 1, 0, 0],
      [0, 1, 0, 1],
      [1, 0, 1, 1],
      [1, 0, 1, 0],
      [0, 1, 0, 1],
      [1, 0, 1, 1],
    ];
    const d = discreteFromArrays({ cards: [2, 2, 2, 2], rows, classes: [0, 0, 1, 1, 1, 0], classCard: 2 });
    const order = miOrder(d);
    expect(order.slice(0, 3)).toEqual([0, 1, 2]);
    const { cmi } = pairwiseCmi(d);
    // X2 sees X0 and X1 with the same CMI: X0 (earlier in the MI order) goes first.
    expect(kdbAttributeParents(order, cmi, 4, 1)[2]).toEqual([0]);
    expect(kdbAttributeParents(order, cmi, 4, 2)[2]).toEqual([0, 1]);
  });

  it('rankDescending treats values within 1e-12 (relative) as tied', () => {
    const v = [0.5, 0.5 + 1e-14, 0.7, 0.5 - 1e-14];
    expect(rankDescending([0, 1, 2, 3], (i) => v[i])).toEqual([2, 0, 1, 3]);
    expect(rankDescending([3, 1, 0], (i) => v[i])).toEqual([3, 1, 0]);
  });
});

describe('kdb on shipped data', () => {
  it('car: k parents for every attribute after the first k in MI order; safety and persons lead', () => {
    const car = shipped('car');
    const order = miOrder(car);
    // I(X;C) on car: safety and persons are the two informative attributes (bnclassify / UCI folklore).
    expect(order.slice(0, 2).map((a) => car.names[a])).toEqual(['safety', 'persons']);
    for (const k of [1, 2, 3]) {
      const s = kdb.learn(car, { k }, ctx);
      assertDag(s);
      order.forEach((a, pos) => {
        expect(s.parents[a][0]).toBe(6);
        expect(s.parents[a].length - 1).toBe(Math.min(pos, k));
        for (const p of s.parents[a].slice(1)) expect(order.indexOf(p)).toBeLessThan(pos);
      });
    }
  });
});

describe('kdb parameters', () => {
  it('rejects k outside 1..5 as a user error', () => {
    expect(() => kdb.learn(tinyData(), { k: 0 }, ctx)).toThrow(UserError);
    expect(() => kdb.learn(tinyData(), { k: 6 }, ctx)).toThrow(UserError);
    expect(() => kdb.learn(tinyData(), { k: 1.5 }, ctx)).toThrow(UserError);
  });

  it('handles zero and one attribute', () => {
    expect(
      kdb.learn(discreteFromArrays({ cards: [], rows: [[]], classes: [0], classCard: 2 }), {}, ctx).parents,
    ).toEqual([[]]);
    expect(
      kdb.learn(discreteFromArrays({ cards: [2], rows: [[0], [1]], classes: [0, 1], classCard: 2 }), { k: 3 }, ctx)
        .parents,
    ).toEqual([[1], []]);
  });
});
