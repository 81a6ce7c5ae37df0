/**
 * `missing: remove-rows`: rows with a missing value are removed from the whole data set before the split
 * (Sugahara et al. 2022, §5.1), unlike `drop-rows`, which drops them from training folds only.
 *
 * Complete-row counts of the shipped files are counted here straight from the CSV text (a row is complete
 * when no field is empty), independently of the loader: house-votes-84 232 of 435, hepatitis 80 of 155,
 * breast-cancer 277 of 286 (the complete-case counts usually quoted for these UCI sets).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDataset } from '../../src/datasets/load.js';
import { loadRegistry } from '../../src/datasets/registry.js';
import { completeRows, fitPreprocessor } from '../../src/datasets/preprocess.js';
import type { RawTable } from '../../src/datasets/table.js';
import { MISSING } from '../../src/bn/data.js';
import { EXCLUDED, testRows, trainRows } from '../../src/folds/split.js';
import { defaultResampling, instantiateSplit, type ResamplingSpec } from '../../src/spec/resampling.js';
import { UserError } from '../../src/util/errors.js';
import { ROOT, tempDir } from '../helpers/cli.js';

function load(name: string): { table: RawTable; sha256: string } {
  return loadDataset(loadRegistry().get(name));
}

/** Indices of the data lines of a shipped CSV with no empty field (the files mark missing values so). */
function completeLines(name: string): number[] {
  const lines = readFileSync(join(ROOT, 'data', 'uci', `${name}.csv`), 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l !== '');
  return lines.flatMap((l, i) => (l.split(',').some((f) => f.trim() === '' || f.trim() === '?') ? [] : [i]));
}

function hasMissing(table: RawTable, r: number): boolean {
  return table.columns.some((c) => (c.type === 'numeric' ? c.ids : c.codes)[r] === -1);
}

function split(name: string, resampling: ResamplingSpec, keep: boolean) {
  const { table, sha256 } = load(name);
  const k = keep ? completeRows(table) : undefined;
  return {
    table,
    keep: k,
    split: instantiateSplit(
      resampling,
      { name, sha256, classes: table.classColumn, classCard: table.classLabels.length, keep: k },
      '1',
      ROOT,
    ),
  };
}

describe('missing: remove-rows', () => {
  it('completeRows finds the complete rows of shipped data sets with missing values', () => {
    for (const [name, n, complete] of [
      ['house-votes-84', 435, 232],
      ['hepatitis', 155, 80],
      ['breast-cancer', 286, 277],
    ] as const) {
      const { table } = load(name);
      expect(table.n, name).toBe(n);
      const rows = completeRows(table);
      expect(rows.length, name).toBe(complete);
      expect(Array.from(rows), name).toEqual(completeLines(name)); // the same rows as the raw text says
    }
  });

  it('splits only the complete rows: excluded rows are in no fold, test and training rows have no missing value', () => {
    const { table, keep, split: s } = split('house-votes-84', defaultResampling, true);
    const a = s.assignment[0];
    expect(a.filter((f) => f === EXCLUDED).length).toBe(435 - 232);
    let tested = 0;
    for (let f = 0; f < s.folds; f++) {
      const test = testRows(s, 0, f);
      const train = trainRows(s, 0, f);
      tested += test.length;
      expect(train.length + test.length).toBe(232);
      // Stratified 10-fold over 232 rows: 23 or 24 test rows per fold.
      expect([23, 24]).toContain(test.length);
      for (const r of [...test, ...train]) expect(hasMissing(table, r)).toBe(false);
    }
    expect(tested).toBe(232);
    for (let r = 0; r < table.n; r++) expect(a[r] === EXCLUDED).toBe(hasMissing(table, r));
    // The split of the complete rows is the split of a data set made of them alone (same seed derivation).
    const { sha256 } = load('house-votes-84');
    const alone = instantiateSplit(
      defaultResampling,
      { name: 'x', sha256, classes: keep!.map((r) => table.classColumn[r]), classCard: 2 },
      '1',
      ROOT,
    );
    expect(Array.from(keep!, (r) => a[r])).toEqual(Array.from(alone.assignment[0]));
  });

  it('holdout and repeats: every repeat excludes the same rows and tests round(n_complete × fraction) rows', () => {
    const { table, split: s } = split(
      'hepatitis',
      { ...defaultResampling, method: 'holdout', repeats: 3, test_fraction: 0.25 },
      true,
    );
    expect(s.repeats).toBe(3);
    for (let r = 0; r < 3; r++) {
      const test = testRows(s, r, 0);
      expect(test.length).toBe(Math.round(80 * 0.25));
      expect(trainRows(s, r, 0).length).toBe(80 - 20);
      for (const row of test) expect(hasMissing(table, row)).toBe(false);
    }
  });

  it('training rows then need no further dropping; test rows carry no MISSING code', () => {
    const { table, split: s } = split('breast-cancer', defaultResampling, true);
    const pre = fitPreprocessor(table, trainRows(s, 0, 0), {
      discretize: { method: 'median' },
      missing: 'remove-rows',
    });
    expect(pre.describe()).toMatchObject({ missing: 'remove-rows', droppedTrainRows: 0 });
    const test = pre.transform(table, testRows(s, 0, 0));
    expect(test.columns.every((c) => !c.includes(MISSING))).toBe(true);
    // Under drop-rows the same data keeps incomplete test rows (some fold has one).
    const { split: d } = split('breast-cancer', defaultResampling, false);
    const incompleteTests = Array.from({ length: d.folds }, (_, f) => testRows(d, 0, f))
      .flatMap((t) => Array.from(t))
      .filter((r) => hasMissing(table, r));
    expect(incompleteTests.length).toBe(286 - 277);
  });

  it('cannot be combined with folds from a file, and needs some complete row', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'f.csv'), Array.from({ length: 155 }, (_, i) => i % 5).join('\n') + '\n');
    const { table, sha256 } = load('hepatitis');
    const base = { name: 'hepatitis', sha256, classes: table.classColumn, classCard: 2 };
    const call =
      (keep: Int32Array, spec: ResamplingSpec = defaultResampling) =>
      () =>
        instantiateSplit(spec, { ...base, keep }, '1', dir);
    expect(call(completeRows(table), { ...defaultResampling, folds: { file: 'f.csv' } })).toThrow(UserError);
    expect(call(completeRows(table), { ...defaultResampling, folds: { file: 'f.csv' } })).toThrow(
      /folds from a file cannot be combined with preprocessing\.missing: remove-rows/,
    );
    expect(call(new Int32Array(0))).toThrow(/missing: remove-rows leaves no rows/);
  });
});
