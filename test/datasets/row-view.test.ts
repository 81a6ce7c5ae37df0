import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataBytes,
  denseViewByteCount,
  forEachRowChunk,
  labelledRows,
  rowList,
  rowViewOf,
  setDenseViewBytes,
  type DiscreteData,
} from '../../src/bn/data.js';
import {
  attributeClassCodes,
  attributeClassCounts,
  familyCounts,
  pairClassCounts,
  valueCounts,
} from '../../src/bn/counts.js';
import { pairwiseCmi } from '../../src/bn/information.js';
import { loadDataset } from '../../src/datasets/load.js';
import { fitPreprocessor, type PreprocessOptions } from '../../src/datasets/preprocess.js';
import { EXCLUDED, stratifiedKFold, testRows, trainRows } from '../../src/folds/split.js';
import { getEstimator, getStructure, withDefaults } from '../../src/registry.js';
import { loadRegistry } from '../../src/datasets/registry.js';
import { Rng } from '../../src/util/rng.js';
import '../../src/methods.js';

// hepatitis: numeric and categorical columns, missing values in both, two classes.
const entry = loadRegistry().get('hepatitis');
const { table } = loadDataset(entry);
const assignment = stratifiedKFold(table.classColumn, table.classLabels.length, 10, new Rng('row-view'));
const split = { repeats: 1, folds: 10, assignment: [assignment] };

function fold(missing: PreprocessOptions['missing'], f = 3) {
  const pre = fitPreprocessor(table, trainRows(split, 0, f), { discretize: { method: 'mdl' }, missing });
  return { pre, rows: pre.trainRows(), test: pre.transform(table, testRows(split, 0, f)) };
}

/** Every field of a DiscreteData, read as plain values (typed arrays keep their type). */
const fields = (d: DiscreteData) => ({ ...d });

describe('a preprocessor row view', () => {
  for (const missing of ['as-value', 'drop-rows', 'available-case'] as const) {
    it(`counts without copying and builds exactly transform's data on demand (missing: ${missing})`, () => {
      const { pre, rows } = fold(missing);
      const copy = pre.transform(table, rows);
      const view = pre.view(table, rows);
      expect(rowViewOf(view)).toBeDefined();
      expect(view.n).toBe(copy.n);
      const before = dataBytes(view);
      // Far less than the copy: the row numbers and the discretized (numeric) columns, over every row.
      expect(before).toBeLessThan(dataBytes(copy) + 4 * table.n);
      const m = copy.cards.length;
      const families: [number, number[]][] = [
        [m, []],
        [0, [m]],
        [5, [m, 2]],
        [14, [m, 2, 7]],
        [1, []],
        [17, [3, 12, 15, m]],
      ];
      for (const [child, parents] of families) {
        expect(familyCounts(view, child, parents), `${child} | ${parents}`).toEqual(familyCounts(copy, child, parents));
      }
      expect(dataBytes(view)).toBe(before); // counting built nothing
      // Reading the columns builds them: the same arrays, widths included, as transform gives.
      expect(fields(view)).toEqual(fields(copy));
      view.columns.forEach((c, a) => expect(c.constructor, `column ${a}`).toBe(copy.columns[a].constructor));
      expect(view.classColumn).toBeInstanceOf(Int32Array);
      expect(dataBytes(view)).toBe(before + dataBytes(copy));
    });
  }

  it('an object spread of a view is plain data (no view whose columns could differ)', () => {
    const { pre, rows } = fold('as-value');
    const view = pre.view(table, rows);
    const spread: DiscreteData = { ...view, columns: view.columns.slice(0, 3), cards: view.cards.slice(0, 3) };
    expect(rowViewOf(spread)).toBeUndefined();
    expect(familyCounts(spread, 2, [3])).toEqual(familyCounts(pre.transform(table, rows), 2, [m(view)]));
  });

  for (const structure of ['nb', 'tan', 'kdb', 'aode']) {
    for (const missing of ['as-value', 'available-case'] as const) {
      it(`${structure} with Laplace estimates (missing: ${missing}): the same posteriors bit for bit from the view as from the copy, and the view is never copied`, () => {
        const { pre, rows, test } = fold(missing, 7);
        const s = getStructure(structure)!;
        const e = getEstimator('dirichlet')!;
        const posteriors = (d: DiscreteData) => {
          const st = s.learn(d, withDefaults(s, {}), { rng: new Rng('a') });
          return e.fit(d, st, withDefaults(e, { alpha: 1 }), { rng: new Rng('b') }).posterior(test);
        };
        const view = pre.view(table, rows);
        const own = dataBytes(view);
        expect(posteriors(view)).toEqual(posteriors(pre.transform(table, rows)));
        // Structure learning and counting read the view through its row numbers: no column was built.
        expect(dataBytes(view)).toBe(own);
      });
    }
  }
});

function m(d: DiscreteData): number {
  return d.cards.length;
}

// adult: 48,842 rows, so a view is read in several chunks of rows; numeric and categorical columns, and
// missing values (workclass, occupation, native-country).
const adult = loadDataset(loadRegistry().get('adult')).table;
const folds = stratifiedKFold(adult.classColumn, adult.classLabels.length, 10, new Rng('row-set'));
const adultSplit = { repeats: 1, folds: 10, assignment: [folds] };

describe("a fold's training rows as the split labels them (no list of row numbers)", () => {
  const f = 4;
  // The block-by-block path of a large fold (a 10^7-row table's), forced on adult: nothing coded whole.
  let limit = 0;
  beforeAll(() => {
    limit = setDenseViewBytes(0);
  });
  afterAll(() => {
    setDenseViewBytes(limit);
  });

  it('labelledRows holds exactly trainRows, chunk by chunk in ascending order', () => {
    const set = labelledRows(folds, [f, EXCLUDED]);
    const list = trainRows(adultSplit, 0, f);
    expect(set.count).toBe(list.length);
    expect(rowList(set)).toEqual(list);
    const offsets: number[] = [];
    forEachRowChunk(set, (chunk, offset) => offsets.push(offset, chunk.length));
    expect(offsets.length).toBeGreaterThan(4); // more than two chunks
  });

  for (const missing of ['as-value', 'drop-rows', 'available-case'] as const) {
    it(`fits the same preprocessing and gives transform's data and counts (missing: ${missing})`, () => {
      const opts: PreprocessOptions = { discretize: { method: 'mdl' }, missing };
      const fromList = fitPreprocessor(adult, trainRows(adultSplit, 0, f), opts);
      const fromSet = fitPreprocessor(adult, labelledRows(folds, [f, EXCLUDED]), opts);
      expect(fromSet.describe()).toEqual(fromList.describe());
      expect(fromSet.trainRows()).toEqual(fromList.trainRows());
      const copy = fromList.transform(adult, fromList.trainRows());
      const view = fromSet.view(adult, fromSet.trainSet());
      // No row list (unless drop-rows made one) and no coded column: only the code maps.
      const own = dataBytes(view);
      expect(own).toBeLessThan(missing === 'drop-rows' ? 4 * copy.n + 100_000 : 100_000);
      const m = copy.cards.length;
      for (const [child, parents] of [
        [m, []],
        [0, [m]],
        [1, [m, 2]],
        [3, [m, 5, 6]],
        [13, [0, 2, 10, m]],
      ] as [number, number[]][]) {
        expect(familyCounts(view, child, parents), `${child} | ${parents}`).toEqual(familyCounts(copy, child, parents));
      }
      expect(dataBytes(view)).toBe(own);
      // Reading the columns builds transform's arrays (compared as bytes: 44,000 rows a column).
      const { columns, classColumn, ...rest } = fields(view);
      const { columns: copyColumns, classColumn: copyClass, ...copyRest } = fields(copy);
      expect(rest).toEqual(copyRest);
      expect([...columns, classColumn].map(bytesOf)).toEqual([...copyColumns, copyClass].map(bytesOf));
    });
  }

  for (const structure of ['nb', 'tan', 'kdb', 'aode']) {
    it(`${structure}: the same posteriors bit for bit from the view as from the copy`, () => {
      const opts: PreprocessOptions = { discretize: { method: 'mdl' }, missing: 'as-value' };
      const pre = fitPreprocessor(adult, labelledRows(folds, [f, EXCLUDED]), opts);
      const test = pre.transform(adult, testRows(adultSplit, 0, f));
      const s = getStructure(structure)!;
      const e = getEstimator('dirichlet')!;
      const posteriors = (d: DiscreteData) => {
        const st = s.learn(d, withDefaults(s, {}), { rng: new Rng('a') });
        return e.fit(d, st, withDefaults(e, { alpha: 1 }), { rng: new Rng('b') }).posterior(test);
      };
      const view = pre.view(adult, pre.trainSet());
      const own = dataBytes(view);
      expect(posteriors(view)).toEqual(posteriors(pre.transform(adult, pre.trainRows())));
      expect(dataBytes(view)).toBe(own);
    });
  }
});

describe('a small view read whole and a large one block by block give the same numbers', () => {
  const f = 6;
  const opts: PreprocessOptions = { discretize: { method: 'mdl' }, missing: 'as-value' };
  const pre = fitPreprocessor(adult, labelledRows(folds, [f, EXCLUDED]), opts);
  const test = pre.transform(adult, testRows(adultSplit, 0, f));
  /** f on a new view of the fold read whole (limit Infinity) or block by block (limit 0). */
  const through = <T>(limit: number, g: (d: DiscreteData) => T): T => {
    const previous = setDenseViewBytes(limit);
    try {
      return g(pre.view(adult, pre.trainSet()));
    } finally {
      setDenseViewBytes(previous);
    }
  };

  it('the default limit reads an adult fold whole; its coded columns and row list are counted in its bytes', () => {
    const view = pre.view(adult, pre.trainSet());
    const whole = denseViewByteCount(rowViewOf(view)!);
    // The row list (4 bytes a row) and at least one coded numeric column (a byte a table row).
    expect(whole).toBeGreaterThanOrEqual(4 * view.n + adult.n);
    expect(through(0, (d) => dataBytes(d))).toBe(dataBytes(view) - whole);
  });

  it('every counting kernel: the same counts both ways and from the copy', () => {
    const copy = pre.transform(adult, pre.trainRows());
    const m = copy.cards.length;
    const kernels = (d: DiscreteData) => ({
      families: (
        [
          [m, []],
          [0, [m]],
          [1, [m, 2]],
          [3, [m, 5, 6]],
          [13, [0, 2, 10, m]],
        ] as [number, number[]][]
      ).map(([child, parents]) => familyCounts(d, child, parents)),
      attributeClass: Array.from({ length: m }, (_, a) => attributeClassCounts(d, a)),
      codes: Array.from({ length: m }, (_, a) => bytesOf(attributeClassCodes(d, a))),
      values: Array.from({ length: m }, (_, a) => valueCounts(d, a)),
      pairs: [pairClassCounts(d, 0, 2), pairClassCounts(d, 5, 12), pairClassCounts(d, 10, 11)],
      cmi: pairwiseCmi(d),
    });
    const whole = through(Infinity, kernels);
    expect(through(0, kernels)).toEqual(whole);
    expect(kernels(copy)).toEqual(whole);
  });

  for (const structure of ['nb', 'tan', 'kdb', 'aode']) {
    it(`${structure}: the same posteriors bit for bit both ways`, () => {
      const s = getStructure(structure)!;
      const e = getEstimator('dirichlet')!;
      const posteriors = (d: DiscreteData) => {
        const st = s.learn(d, withDefaults(s, {}), { rng: new Rng('a') });
        return e.fit(d, st, withDefaults(e, { alpha: 1 }), { rng: new Rng('b') }).posterior(test);
      };
      expect(bytesOf(through(0, posteriors))).toBe(bytesOf(through(Infinity, posteriors)));
    });
  }
});

/** A typed array's type and contents as one string, for a fast comparison of long columns. */
function bytesOf(a: ArrayBufferView): string {
  return `${a.constructor.name}:${Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64')}`;
}
