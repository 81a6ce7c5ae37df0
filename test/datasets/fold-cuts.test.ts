import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/datasets/csv.js';
import {
  foldCutsEntryKey,
  hasNumericColumn,
  readFoldCuts,
  writeFoldCuts,
  type FoldCutsKey,
} from '../../src/datasets/fold-cuts.js';
import { fitPreprocessor, type PreprocessOptions } from '../../src/datasets/preprocess.js';
import { cacheDir, contentCacheKey } from '../../src/util/cache.js';
import { packageRoot } from '../../src/util/paths.js';
import { useTempCacheDir } from '../helpers/cache-dir.js';

// x and y numeric (x missing in one row), c categorical.
const rows = ['x,y,c,class'];
for (let i = 0; i < 60; i++)
  rows.push(`${i % 17 === 5 ? '?' : (i * 7) % 23},${(i * 0.37) % 5},${'uvw'[i % 3]},${(i * 7) % 23 > 11 ? 'A' : 'B'}`);
const TABLE = parseCsv(rows.join('\n'), { file: 't.csv' });
const TRAIN = Int32Array.from({ length: 48 }, (_, i) => i);
const TEST = Int32Array.from({ length: 12 }, (_, i) => 48 + i);
const OPTS: PreprocessOptions = { discretize: { method: 'mdl' }, missing: 'available-case' };
const KEY: FoldCutsKey = {
  sha256: 'ab'.repeat(32),
  format: '.csv',
  classColumn: undefined,
  columnTypes: undefined,
  ignore: undefined,
  splitKey: 'split',
  repeat: 0,
  fold: 3,
  preprocessing: OPTS,
};

describe('fold cuts kept in the cache folder', () => {
  useTempCacheDir('bnclab-fold-cuts-');

  it('cuts given to fitPreprocessor preprocess exactly as fitted ones', () => {
    const fitted = fitPreprocessor(TABLE, TRAIN, OPTS);
    const cuts = fitted.cuts();
    expect(cuts).toHaveLength(3);
    expect(cuts[2]).toBeNull();
    expect(cuts[0]!.length).toBeGreaterThan(0);
    const given = fitPreprocessor(TABLE, TRAIN, OPTS, cuts);
    expect(given.describe()).toEqual(fitted.describe());
    expect(given.transform(TABLE, TEST)).toEqual(fitted.transform(TABLE, TEST));
    expect(given.view(TABLE, TRAIN).columns).toEqual(fitted.view(TABLE, TRAIN).columns);
    // Other cuts are used as given (so the cache's key must name everything they come from).
    const other = fitPreprocessor(TABLE, TRAIN, OPTS, [[3.5], [], null]);
    expect(other.describe().cuts).toEqual({ x: [3.5], y: [] });
  });

  it('stores and reads back the cuts under the fold, and nothing under another fold or options', () => {
    expect(hasNumericColumn(TABLE)).toBe(true);
    const cuts = fitPreprocessor(TABLE, TRAIN, OPTS).cuts();
    expect(readFoldCuts(TABLE, KEY)).toBeUndefined();
    writeFoldCuts(KEY, cuts);
    expect(readFoldCuts(TABLE, KEY)).toEqual(cuts);
    expect(readFoldCuts(TABLE, { ...KEY, fold: 4 })).toBeUndefined();
    expect(readFoldCuts(TABLE, { ...KEY, repeat: 1 })).toBeUndefined();
    expect(readFoldCuts(TABLE, { ...KEY, splitKey: 'other' })).toBeUndefined();
    expect(readFoldCuts(TABLE, { ...KEY, sha256: 'cd'.repeat(32) })).toBeUndefined();
    expect(readFoldCuts(TABLE, { ...KEY, classColumn: 'c' })).toBeUndefined();
    expect(readFoldCuts(TABLE, { ...KEY, preprocessing: { ...OPTS, missing: 'drop-rows' } })).toBeUndefined();
    // No file hash, no entry.
    writeFoldCuts({ ...KEY, sha256: '' }, cuts);
    expect(readFoldCuts(TABLE, { ...KEY, sha256: '' })).toBeUndefined();
  });

  it("keys an entry by the discretizer's code too, so cuts fitted by other code are never read", () => {
    const withoutCode = contentCacheKey(
      'fold-cuts-1',
      JSON.stringify([KEY.sha256, KEY.format, null, null, null]),
      JSON.stringify([KEY.splitKey, KEY.repeat, KEY.fold, KEY.preprocessing]),
    );
    const src = (m: string) => readFileSync(join(packageRoot(), 'src', m), 'utf8');
    const withCode = contentCacheKey(
      'fold-cuts-1',
      src('datasets/discretize.ts'),
      src('datasets/preprocess.ts'),
      src('bn/data.ts'),
      JSON.stringify([KEY.sha256, KEY.format, null, null, null]),
      JSON.stringify([KEY.splitKey, KEY.repeat, KEY.fold, KEY.preprocessing]),
    );
    expect(foldCutsEntryKey(KEY)).toBe(withCode);
    expect(withCode).not.toBe(withoutCode);
  });

  it('ignores an entry that does not fit the table, and stores no cut JSON would change', () => {
    const key = { ...KEY, fold: 7 };
    const file = join(cacheDir()!, 'fold-cuts-1', foldCutsEntryKey(key)!);
    writeFoldCuts(key, [[1], [2], null]);
    expect(readFoldCuts(TABLE, key)).toEqual([[1], [2], null]);
    for (const bad of [
      '[[1],[2]]',
      '[[1],[2],null,null]',
      '[[1],null,null]',
      '[[1],[2],[3]]',
      '[[1],["2"],null]',
      '{',
    ]) {
      writeFileSync(file, bad);
      expect(readFoldCuts(TABLE, key)).toBeUndefined();
    }
    const negZero = { ...KEY, fold: 8 };
    writeFoldCuts(negZero, [[-0], [2], null]);
    expect(readFoldCuts(TABLE, negZero)).toBeUndefined();
  });
});
