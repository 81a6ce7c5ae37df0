/** Shared fixtures for the one-dependence and k-dependence catalog tests. */
import { loadRegistry } from '../../src/datasets/registry.js';
import { loadDataset } from '../../src/datasets/load.js';
import { fitPreprocessor } from '../../src/datasets/preprocess.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';

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
