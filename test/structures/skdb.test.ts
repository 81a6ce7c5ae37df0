import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { skdb, skdbSelect } from '../../src/structures/skdb.js';
import { kdb } from '../../src/structures/kdb.js';
import { assertDag } from '../../src/bn/structure.js';
import { discreteFromArrays, MISSING, selectRows, type DiscreteData } from '../../src/bn/data.js';
import { fitCptModel, smoothedLogProbs } from '../../src/bn/cpt.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { correlatedData, shipped } from './catalog-data.js';

const ctx = { rng: new Rng('skdb') };

/**
 * Independent leave-one-out reference, written from the definition rather than the count trees: for row
 * i, counts come from the other rows; attribute a's walk descends from depth d to d+1 while some OTHER row
 * shares x_a and the first d+1 parent values of row i (the authors' "count < 2 including row i"), and a
 * missing parent or x_a stops it; model k uses depth min(k, D). O(N² m) — small data only.
 */
function referenceRmse(
  d: DiscreteData,
  order: number[],
  parentsOf: number[][],
  K: number,
): { rmse: number[][]; classOnly: number } {
  const n = d.n;
  const C = d.classCard;
  const y = d.classColumn;
  const col = d.columns;
  const loss = Array.from({ length: K + 1 }, () => new Array<number>(order.length).fill(0));
  let classLoss = 0;
  for (let i = 0; i < n; i++) {
    const others: number[] = [];
    for (let j = 0; j < n; j++) if (j !== i) others.push(j);
    const prior = Array.from({ length: C }, (_, c) => (others.filter((j) => y[j] === c).length + 1 / C) / (n - 1 + 1));
    const norm = (p: number[]) => {
      const s = p.reduce((a, b) => a + b, 0);
      return p.map((v) => v / s);
    };
    const base = norm(prior);
    classLoss += (1 - base[y[i]]) ** 2;
    const post = Array.from({ length: K + 1 }, () => [...base]);
    order.forEach((a, pos) => {
      const xa = col[a][i];
      if (xa !== MISSING) {
        const ps = parentsOf[a];
        const inCtx = (j: number, depth: number) =>
          ps.slice(0, depth).every((p) => col[p][j] === col[p][i] && col[p][i] !== MISSING);
        let D = 0;
        while (D < ps.length && col[ps[D]][i] !== MISSING && others.some((j) => col[a][j] === xa && inCtx(j, D + 1)))
          D++;
        for (let k = 0; k <= K; k++) {
          const depth = Math.min(k, D);
          const ctxRows = others.filter((j) => col[a][j] !== MISSING && inCtx(j, depth));
          for (let c = 0; c < C; c++) {
            const ny = ctxRows.filter((j) => y[j] === c).length;
            const nxy = ctxRows.filter((j) => y[j] === c && col[a][j] === xa).length;
            post[k][c] *= (nxy + 1 / d.cards[a]) / (ny + 1);
          }
        }
      }
      for (let k = 0; k <= K; k++) {
        post[k] = norm(post[k]);
        loss[k][pos] += (1 - post[k][y[i]]) ** 2;
      }
    });
  }
  return { rmse: loss.map((l) => l.map((v) => Math.sqrt(v / n))), classOnly: Math.sqrt(classLoss / n) };
}

describe('skdb leave-one-out by hand', () => {
  it('one binary attribute, four rows: class-only RMSE 5/8, with the attribute sqrt((3·(10/19)² + (50/59)²)/4)', () => {
    // Rows (x, y): (0,0) (0,0) (1,1) (0,1). Row 0: LOO prior ((2−1+1/2)/4, (2+1/2)/4) = (3/8, 5/8), err 5/8
    // (every row: 5/8). Factors (n(x,y) − [y=y*] + 1/2)/(n(y) − [y=y*] + 1): y=0 (2−1+1/2)/2 = 3/4,
    // y=1 (1+1/2)/3 = 1/2 -> posterior (9/19, 10/19), err 10/19. Row 2 (1,1): prior (5/8, 3/8), factors
    // (1/2)/3 = 1/6 and (1−1+1/2)/2 = 1/4 -> (10/19, 9/19), err 10/19. Row 3 (0,1): factors (2+1/2)/3 = 5/6
    // and (1−1+1/2)/2 = 1/4 -> (50/59, 9/59), err 50/59.
    const d = discreteFromArrays({ cards: [2], rows: [[0], [0], [1], [0]], classes: [0, 0, 1, 1], classCard: 2 });
    const sel = skdbSelect(d, 1);
    expect(sel.rmseClassOnly).toBeCloseTo(5 / 8, 15);
    const expected = Math.sqrt((3 * (10 / 19) ** 2 + (50 / 59) ** 2) / 4);
    expect(expected).toBeCloseTo(0.622336, 6);
    expect(sel.rmse[0][0]).toBeCloseTo(expected, 14);
    expect(sel.rmse[1][0]).toBeCloseTo(expected, 14); // no parent to add
    // 0.6223 < 0.625: the attribute is kept, k* = 0 (k = 1 ties and strict < keeps the first).
    expect(sel).toMatchObject({ nStar: 1, kStar: 0 });
  });

  it('two attributes with the minCount back-off: B alone wins with RMSE 21/121', () => {
    // Rows (A, B, y): (0,0,0) (0,0,0) (0,1,1) (1,1,1) (1,1,1) (1,0,0). B determines y, so the MI order is
    // B, A and A's parent (k = 1) is B. Class-only: every row's LOO prior for its class is (2 + 1/2)/6, err 7/12.
    // B (no parent), row 0: prior (5/12, 7/12), factors (2+1/2)/(2+1) = 5/6 and (0+1/2)/(3+1) = 1/8 ->
    // (100/121, 21/121): err 21/121 for every row by symmetry.
    // A | B for row 2 = (0,1,1): among the other rows, context B=1 holds A=1 only (rows 3, 4), so the walk
    // backs off to the root for k = 1 as well: factors (2+1/2)/(3+1) = 5/8 (y=0), (0+1/2)/(2+1) = 1/6 (y=1),
    // posterior (63/143, 80/143). Rows 2 and 5 back off; the others use the B context for k = 1.
    // Exact sums (rational arithmetic): RMSE[0][A] = sqrt(337718241/4383631681), RMSE[1][A] = sqrt(209769/2474329).
    const d = discreteFromArrays({
      names: ['A', 'B'],
      cards: [2, 2],
      rows: [
        [0, 0],
        [0, 0],
        [0, 1],
        [1, 1],
        [1, 1],
        [1, 0],
      ],
      classes: [0, 0, 1, 1, 1, 0],
      classCard: 2,
    });
    const sel = skdbSelect(d, 1);
    expect(sel.order).toEqual([1, 0]);
    expect(sel.parentsOf).toEqual([[1], []]);
    expect(sel.rmseClassOnly).toBeCloseTo(7 / 12, 15);
    expect(sel.rmse[0][0]).toBeCloseTo(21 / 121, 15);
    expect(sel.rmse[1][0]).toBeCloseTo(21 / 121, 15);
    expect(sel.rmse[0][1]).toBeCloseTo(Math.sqrt(337718241 / 4383631681), 14);
    expect(sel.rmse[1][1]).toBeCloseTo(Math.sqrt(209769 / 2474329), 14);
    expect(sel).toMatchObject({ nStar: 1, kStar: 0 });
    const s = skdb.learn(d, { maxK: 1 }, ctx);
    // A is not selected: no parents at all (not even the class), and nobody's child.
    expect(s.parents).toEqual([[], [2], []]);
    expect(s.info).toMatchObject({ maxK: 1, nStar: 1, kStar: 0 });
    expect(s.info?.rmse).toBeCloseTo(21 / 121, 15);
  });
});

function randomData(seed: string, n: number, cards: number[], C: number, missing: number): DiscreteData {
  return correlatedData(seed, n, cards, C, missing, 0.35);
}

describe('skdb against the brute-force reference', () => {
  it.each([
    ['complete', 0],
    ['with missing values', 0.15],
  ])('every RMSE[k][attribute] agrees (%s)', (_, missing) => {
    const d = randomData(`ref-${missing}`, 60, [3, 2, 4, 3, 2], 3, missing);
    const sel = skdbSelect(d, 3);
    const ref = referenceRmse(d, sel.order, sel.parentsOf, 3);
    expect(sel.rmseClassOnly).toBeCloseTo(ref.classOnly, 13);
    for (let k = 0; k <= 3; k++)
      for (let pos = 0; pos < 5; pos++) expect(sel.rmse[k][pos]).toBeCloseTo(ref.rmse[k][pos], 12);
  });
});

describe('skdb structure', () => {
  it('keeps an MI prefix, each kept attribute with the first k* of its kDB-maxK parents', () => {
    const d = randomData('structure', 400, [3, 2, 4, 3, 2, 3], 3, 0.05);
    const sel = skdbSelect(d, 5);
    const s = skdb.learn(d, { maxK: 5 }, ctx);
    assertDag(s);
    const m = 6;
    const kdbMax = kdb.learn(d, { k: 5 }, ctx);
    sel.order.forEach((a, pos) => {
      if (pos < sel.nStar) expect(s.parents[a]).toEqual(kdbMax.parents[a].slice(0, 1 + sel.kStar));
      else expect(s.parents[a]).toEqual([]);
    });
    expect(s.info).toMatchObject({ nStar: sel.nStar, kStar: sel.kStar });
    // The dropped attributes' factors cancel: the posterior equals that of the model without them.
    const kept = sel.order.slice(0, sel.nStar);
    const model = fitCptModel(d, s, (fc) => smoothedLogProbs(fc, 1));
    const p = model.posterior(d);
    const lj = model.logJoint(d);
    for (let r = 0; r < 20; r++) {
      // log P(c, x) − log P(c', x) only involves class factors of kept attributes.
      let diff = Math.log(model.prob(m, 0)) - Math.log(model.prob(m, 1));
      for (const a of kept) {
        const ps = s.parents[a];
        const vals = (c: number) => ps.map((q) => (q === m ? c : d.columns[q][r]));
        if (d.columns[a][r] < 0 || ps.slice(1).some((q) => d.columns[q][r] < 0)) continue;
        diff += Math.log(model.prob(a, d.columns[a][r], vals(0))) - Math.log(model.prob(a, d.columns[a][r], vals(1)));
      }
      const rowComplete = kept.every((a) => d.columns[a][r] >= 0);
      if (rowComplete) {
        expect(Math.log(p[r * 3]) - Math.log(p[r * 3 + 1])).toBeCloseTo(diff, 10);
        expect(lj[r * 3] - lj[r * 3 + 1]).toBeCloseTo(diff, 10);
      }
    }
  });

  it('keeps every attribute as naive Bayes when nothing beats the class-only model (the authors’ quirk)', () => {
    // Attributes independent of the class: every LOO RMSE is above the class-only one.
    const rows = Array.from({ length: 40 }, (_, r) => [r % 2, (r >> 1) % 3]);
    const d = discreteFromArrays({ cards: [2, 3], rows, classes: rows.map((_, r) => (r >> 2) % 2), classCard: 2 });
    const sel = skdbSelect(d, 2);
    for (let k = 0; k <= 2; k++)
      for (let pos = 0; pos < 2; pos++) expect(sel.rmse[k][pos]).toBeGreaterThanOrEqual(sel.rmseClassOnly);
    expect(sel).toMatchObject({ nStar: 2, kStar: 0 });
    expect(skdb.learn(d, { maxK: 2 }, ctx).parents).toEqual([[2], [2], []]);
  });

  it('car: a 300-row sample agrees with the brute-force reference; on all 1,728 rows k* = 3 with every attribute', () => {
    const car = shipped('car');
    const sample = selectRows(
      car,
      Array.from({ length: 300 }, (_, i) => (i * 577) % car.n),
    );
    const sel = skdbSelect(sample, 5);
    const ref = referenceRmse(sample, sel.order, sel.parentsOf, 5);
    for (let k = 0; k <= 5; k++)
      for (let pos = 0; pos < 6; pos++) expect(sel.rmse[k][pos]).toBeCloseTo(ref.rmse[k][pos], 12);
    // Every one of car's 1,728 attribute combinations occurs once, so deep contexts back off in LOO;
    // the selection keeps all six attributes with k* = 3 (value of this implementation).
    const s = skdb.learn(car, {}, ctx);
    assertDag(s);
    expect(s.info).toMatchObject({ maxK: 5, nStar: 6, kStar: 3 });
  });

  it('rejects maxK outside 1..5 as a user error', () => {
    const d = randomData('p', 10, [2], 2, 0);
    expect(() => skdb.learn(d, { maxK: 0 }, ctx)).toThrow(UserError);
    expect(() => skdb.learn(d, { maxK: 6 }, ctx)).toThrow(UserError);
  });
});
