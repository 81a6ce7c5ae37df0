import { describe, expect, it } from 'vitest';
import { MISSING } from '../../src/bn/data.js';
import { parseCsv } from '../../src/datasets/csv.js';
import { fitPreprocessor, type PreprocessOptions } from '../../src/datasets/preprocess.js';
import { UserError } from '../../src/util/errors.js';

// x numeric (missing in row 6), c categorical (missing in row 3; 'w' occurs only in row 5).
const TABLE = parseCsv(['x,c,class', '1,u,A', '2,u,A', '3,v,A', '4,?,B', '100,v,B', '200,w,B', '?,u,A'].join('\n'), {
  file: 't.csv',
});
const TRAIN = Int32Array.from([0, 1, 2, 3, 6]);
const TEST = Int32Array.from([4, 5]);

const median = (missing: PreprocessOptions['missing']): PreprocessOptions => ({
  discretize: { method: 'median' },
  missing,
});
const cols = (d: { columns: readonly ArrayLike<number>[] }): number[][] => d.columns.map((c) => Array.from(c));

describe('fitPreprocessor', () => {
  it("'as-value': cuts from training rows only, '?' category where the table has missing values", () => {
    const p = fitPreprocessor(TABLE, TRAIN, median('as-value'));
    // Training x values 1,2,3,4 (the missing one ignored): median 2.5. The whole column's median would be 3.5.
    expect(p.describe()).toEqual({
      dataset: 't',
      discretize: { method: 'median' },
      missing: 'as-value',
      trainRows: 5,
      droppedTrainRows: 0,
      cuts: { x: [2.5] },
      missingCategory: ['x', 'c'],
    });
    expect(Array.from(p.trainRows())).toEqual([0, 1, 2, 3, 6]);
    const train = p.transform(TABLE, p.trainRows());
    expect(train.names).toEqual(['x', 'c']);
    expect(train.labels).toEqual([
      ['(-inf,2.5]', '(2.5,inf)', '?'],
      ['u', 'v', 'w', '?'],
    ]);
    expect(Array.from(train.cards)).toEqual([3, 4]);
    expect(cols(train)).toEqual([
      [0, 0, 1, 1, 2],
      [0, 0, 1, 3, 0],
    ]);
    expect(train.className).toBe('class');
    expect(train.classLabels).toEqual(['A', 'B']);
    expect(train.classCard).toBe(2);
    expect(Array.from(train.classColumn)).toEqual([0, 0, 0, 1, 0]);
    // Test values beyond the training range fall in the open outer bin; 'w' (never in training) keeps its code.
    const test = p.transform(TABLE, TEST);
    expect(test.n).toBe(2);
    expect(cols(test)).toEqual([
      [1, 1],
      [1, 2],
    ]);
    expect(Array.from(test.classColumn)).toEqual([1, 1]);
  });

  it("'as-value': the '?' category exists even when the training rows have no missing value (fold-independent cards)", () => {
    const p = fitPreprocessor(TABLE, Int32Array.from([0, 1, 2, 4, 5]), median('as-value'));
    const train = p.transform(TABLE, p.trainRows());
    expect(Array.from(train.cards)).toEqual([3, 4]);
    const test = p.transform(TABLE, Int32Array.from([3, 6]));
    expect(cols(test)).toEqual([
      [1, 2],
      [3, 0],
    ]);
  });

  it("'available-case': missing stays MISSING in train and test, no extra category", () => {
    const p = fitPreprocessor(TABLE, TRAIN, median('available-case'));
    const train = p.transform(TABLE, p.trainRows());
    expect(Array.from(train.cards)).toEqual([2, 3]);
    expect(cols(train)).toEqual([
      [0, 0, 1, 1, MISSING],
      [0, 0, 1, MISSING, 0],
    ]);
    expect(p.describe().missingCategory).toEqual([]);
  });

  it("'drop-rows': training rows with a missing value are removed before fitting; test rows keep MISSING", () => {
    const p = fitPreprocessor(TABLE, TRAIN, median('drop-rows'));
    // Rows 3 (c missing) and 6 (x missing) go; x values 1,2,3 → median 2.
    expect(Array.from(p.trainRows())).toEqual([0, 1, 2]);
    expect(p.describe().cuts).toEqual({ x: [2] });
    expect(p.describe().droppedTrainRows).toBe(2);
    const train = p.transform(TABLE, p.trainRows());
    expect(cols(train)).toEqual([
      [0, 0, 1],
      [0, 0, 1],
    ]);
    const test = p.transform(TABLE, Int32Array.from([3, 6]));
    expect(cols(test)).toEqual([
      [1, MISSING],
      [MISSING, 0],
    ]);
  });

  it("'drop-rows' with every training row incomplete is a UserError", () => {
    expect(() => fitPreprocessor(TABLE, Int32Array.from([3, 6]), median('drop-rows'))).toThrow(
      'dataset t: missing: drop-rows leaves no training rows (every training row has a missing value)',
    );
  });

  it('MDL cuts come from the training rows only', () => {
    // x = 1..10 with classes A×4, B×4, C×2: on all rows MDL cuts at 4.5 and 8.5 (see discretize.test.ts);
    // trained on the first 8 rows only (no C) the single cut is 4.5, and 9.5 falls in the last bin.
    const rows = Array.from({ length: 10 }, (_, i) => `${i + 1},${i < 4 ? 'A' : i < 8 ? 'B' : 'C'}`);
    const t = parseCsv(['x,class', ...rows].join('\n'), { file: 'm.csv' });
    const opts: PreprocessOptions = { discretize: { method: 'mdl' }, missing: 'as-value' };
    const all = fitPreprocessor(
      t,
      Int32Array.from({ length: 10 }, (_, i) => i),
      opts,
    );
    expect(all.describe().cuts).toEqual({ x: [4.5, 8.5] });
    const p = fitPreprocessor(
      t,
      Int32Array.from({ length: 8 }, (_, i) => i),
      opts,
    );
    expect(p.describe().cuts).toEqual({ x: [4.5] });
    const test = p.transform(t, Int32Array.from([8, 9]));
    expect(test.labels[0]).toEqual(['(-inf,4.5]', '(4.5,inf)']);
    expect(cols(test)).toEqual([[1, 1]]);
    expect(Array.from(test.classColumn)).toEqual([2, 2]);
  });

  it('equal-frequency records its bin count; a single-valued result is kept as one "All" value', () => {
    const t = parseCsv('x,k,class\n1,5,A\n2,5,B\n3,5,A\n4,5,B\n', { file: 'e.csv' });
    const p = fitPreprocessor(t, Int32Array.from([0, 1, 2, 3]), {
      discretize: { method: 'equal-frequency', bins: 2 },
      missing: 'as-value',
    });
    expect(p.describe().discretize).toEqual({ method: 'equal-frequency', bins: 2 });
    expect(p.describe().cuts).toEqual({ x: [2.5], k: [] });
    const d = p.transform(t, p.trainRows());
    expect(d.labels[1]).toEqual(['All']);
    expect(cols(d)).toEqual([
      [0, 0, 1, 1],
      [0, 0, 0, 0],
    ]);
  });

  it("a numeric column with discretize 'none' is a UserError; categorical-only data is fine", () => {
    expect(() => fitPreprocessor(TABLE, TRAIN, { discretize: { method: 'none' }, missing: 'as-value' })).toThrow(
      new UserError(
        "dataset t: column 'x' is numeric; set preprocessing.discretize to mdl, median or equal-frequency, or, if its numbers are category codes, declare it in the dataset entry: {file: ..., categorical: [x]}",
      ),
    );
    const t = parseCsv('c,class\nu,A\nv,B\n', { file: 'c.csv' });
    const d = fitPreprocessor(t, Int32Array.from([0, 1]), {
      discretize: { method: 'none' },
      missing: 'as-value',
    }).transform(t, [1, 0]);
    expect(cols(d)).toEqual([[1, 0]]);
    expect(Array.from(d.cards)).toEqual([2]);
  });

  it('rejects bad options with UserErrors', () => {
    const bad = [
      { discretize: { method: 'mdlx' }, missing: 'as-value' },
      { discretize: { method: 'equal-frequency', bins: 1 }, missing: 'as-value' },
      { discretize: { method: 'mdl' }, missing: 'impute' },
    ] as unknown as PreprocessOptions[];
    for (const o of bad) expect(() => fitPreprocessor(TABLE, TRAIN, o)).toThrow(UserError);
  });

  it('transform accepts a table with the same schema and refuses a different one', () => {
    const p = fitPreprocessor(TABLE, TRAIN, median('as-value'));
    const copy = parseCsv(['x,c,class', '9,w,B', '1,u,A', '0,v,A'].join('\n'), {
      file: 'copy.csv',
      columnTypes: { x: 'numeric' },
    });
    // Same labels (u,v,w and A,B) → same codes.
    expect(() => p.transform(copy, [0])).not.toThrow();
    const other = parseCsv('x,c,class\n1,u,A\n', { file: 'o.csv' });
    expect(() => p.transform(other, [0])).toThrow(/columns or labels differ/);
  });
});
