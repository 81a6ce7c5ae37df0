/** Shared fixtures for the one-dependence and k-dependence catalog tests. */
import { loadRegistry } from '../../src/datasets/registry.js';
import { loadDataset } from '../../src/datasets/load.js';
import { fitPreprocessor } from '../../src/datasets/preprocess.js';
import { MISSING, discreteFromArrays, selectRows, type DiscreteData } from '../../src/bn/data.js';
import { fitCptModel, smoothedLogProbs } from '../../src/bn/cpt.js';
import type { Structure } from '../../src/bn/structure.js';
import { Rng } from '../../src/util/rng.js';

/** A shipped data set, all rows, preprocessed as a spec would (missing values kept for available case). */
export function shipped(name: string, discretize: 'none' | 'mdl' = 'none'): DiscreteData {
  const { table } = loadDataset(loadRegistry().get(name));
  const rows = Int32Array.from({ length: table.classColumn.length }, (_, i) => i);
  const pre = fitPreprocessor(table, rows, { discretize: { method: discretize }, missing: 'available-case' });
  return pre.transform(table, pre.trainRows());
}

/**
 * The Hamine–Helman table: six base rows of (X0, X1, X2), cards 2, 2, 3, repeated once for each of two
 * classes (N = 12). Within each class the table is the same, so I(Xi;Xj|C) is the MI of the base rows:
 *   base rows: (0,0,2) ×2, (0,1,1), (1,1,0) ×2, (1,1,1)
 *   I(X0;X1) = (1/3)ln(2·6/(3·2)) + (1/6)ln(1·6/(3·4)) + (1/2)ln(3·6/(3·4)) = (1/6)ln 2 + (1/2)ln(3/2) ≈ 0.318257
 *   I(X0;X2) = 2·(1/3)ln(2·6/(3·2)) + 2·(1/6)ln(1·6/(3·2))              = (2/3)ln 2              ≈ 0.462098
 *   I(X1;X2) = (1/3)ln(2·6/(2·2)) + 2·(1/3)ln(2·6/(4·2))                = (1/3)ln 3 + (2/3)ln(3/2) ≈ 0.636514
 */
export function hhTable(): DiscreteData {
  const base = [
    [0, 0, 2],
    [0, 0, 2],
    [0, 1, 1],
    [1, 1, 0],
    [1, 1, 0],
    [1, 1, 1],
  ];
  return discreteFromArrays({
    cards: [2, 2, 3],
    rows: [...base, ...base],
    classes: [...base.map(() => 0), ...base.map(() => 1)],
    classCard: 2,
  });
}
export const HH = {
  I01: Math.log(2) / 6 + Math.log(1.5) / 2,
  I02: (2 / 3) * Math.log(2),
  I12: Math.log(3) / 3 + (2 / 3) * Math.log(1.5),
};

/**
 * Seeded random data with structure: each value copies (class + attribute) mod k with probability `classTie`,
 * else the previous attribute's value mod k up to probability 0.6, else uniform; then missing with
 * probability `missing`.
 */
export function correlatedData(
  seed: string,
  n: number,
  cards: number[],
  C: number,
  missing: number,
  classTie: number,
): DiscreteData {
  const rng = new Rng(seed);
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = rng.int(C);
    classes.push(c);
    const row: number[] = [];
    cards.forEach((k, a) => {
      const u = rng.next();
      let v = u < classTie ? (c + a) % k : u < 0.6 && a > 0 && row[a - 1] >= 0 ? row[a - 1] % k : rng.int(k);
      if (rng.next() < missing) v = MISSING;
      row.push(v);
    });
    rows.push(row);
  }
  return discreteFromArrays({ cards, rows, classes, classCard: C });
}

/**
 * Mean fold accuracy of a structure the slow way: a Dirichlet (α per cell) CptModel fitted on each training
 * fold, exact log P(c, x_obs) on its test rows; a row whose best class is shared by t classes (within 1e-9,
 * relative) counts 1/t. The reference the wrapper evaluators (tan-hc, fssj, bsej, kdb-hc) are checked against.
 */
export function refitCvAccuracy(
  d: DiscreteData,
  foldOf: Int32Array,
  k: number,
  structure: Structure,
  alpha: number,
): number {
  let sum = 0;
  for (let f = 0; f < k; f++) {
    const train: number[] = [];
    const test: number[] = [];
    for (let r = 0; r < d.n; r++) (foldOf[r] === f ? test : train).push(r);
    const model = fitCptModel(selectRows(d, train), structure, (fc) => smoothedLogProbs(fc, alpha));
    const t = selectRows(d, test);
    const lj = model.logJoint(t);
    const C = d.classCard;
    let credit = 0;
    for (let r = 0; r < t.n; r++) {
      let mx = -Infinity;
      for (let c = 0; c < C; c++) mx = Math.max(mx, lj[r * C + c]);
      const tol = 1e-9 * Math.max(1, Math.abs(mx));
      let ties = 0;
      for (let c = 0; c < C; c++) if (lj[r * C + c] >= mx - tol) ties++;
      if (lj[r * C + t.classColumn[r]] >= mx - tol) credit += 1 / ties;
    }
    sum += credit / t.n;
  }
  return sum / k;
}

/**
 * Class = a xor b over 120 rows; a third column is noise. Naive Bayes is at chance; a joint of (or an arc
 * between) a and b classifies perfectly: the hand-worked case of the greedy wrappers.
 */
export function xorData(): DiscreteData {
  const rng = new Rng('xor');
  const rows: number[][] = [];
  for (let r = 0; r < 120; r++) rows.push([r % 2, (r >> 1) % 2, rng.int(3)]);
  return discreteFromArrays({
    names: ['a', 'b', 'noise'],
    cards: [2, 2, 3],
    rows,
    classes: rows.map(([x, y]) => x ^ y),
    classCard: 2,
  });
}
