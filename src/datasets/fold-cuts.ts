/**
 * The discretizer's cut points of a training fold, kept in the cache folder (util/cache.ts, kind
 * `fold-cuts-1`) so that a later run of the same fold does not fit them again: MDL's search over every
 * numeric column was about a fifth of a worker's CPU in bench/external-weka.ts. The key is the content the
 * cuts are computed from: the data file's sha256 and how it is read (format, class column, declared types,
 * ignored columns), the split's content key with the repeat and fold (so the training rows), the
 * preprocessing options, the text of the modules that compute the cuts (so cuts fitted by other code, a
 * changed discretizer in a working tree, are never reused) and, as for every content entry, bnclab's
 * version. A value is used only when it
 * has the table's shape (an array of cuts for each numeric column, null for each categorical one), and
 * stored only when every cut is a finite number other than -0 (which JSON would write as 0).
 */
import type { RawTable } from './table.js';
import { codeCacheKeyer, readContent, writeContent } from '../util/cache.js';

const KIND = 'fold-cuts-1';

/** The modules whose code decides a fold's cuts. */
const CUTS_CODE = ['datasets/discretize', 'datasets/preprocess', 'bn/data'];

/** What identifies a training fold's cuts, besides the table itself (its file's sha256 is one of them). */
export interface FoldCutsKey {
  readonly sha256: string | undefined;
  /** How the file is read (datasets/load.ts datasetFormat). */
  readonly format: string;
  readonly classColumn: string | undefined;
  readonly columnTypes: unknown;
  readonly ignore: readonly string[] | undefined;
  readonly splitKey: string;
  readonly repeat: number;
  readonly fold: number;
  readonly preprocessing: unknown;
}

/** The entry's name in the cache folder (undefined when the fold's cuts are not kept). */
export function foldCutsEntryKey(k: FoldCutsKey): string | undefined {
  if (!k.sha256) return undefined;
  const { sha256, format, classColumn, columnTypes, ignore, splitKey, repeat, fold, preprocessing } = k;
  const keyer = codeCacheKeyer(KIND, CUTS_CODE);
  if (!keyer) return undefined;
  return keyer(
    JSON.stringify([sha256, format, classColumn ?? null, columnTypes ?? null, ignore ?? null]),
    JSON.stringify([splitKey, repeat, fold, preprocessing]),
  );
}

/** Whether the table has a column the discretizer fits (else there is nothing to keep). */
export function hasNumericColumn(table: RawTable): boolean {
  return table.columns.some((c) => c.type === 'numeric');
}

/** The cuts kept for this fold, when they fit the table's columns. */
export function readFoldCuts(table: RawTable, k: FoldCutsKey): (number[] | null)[] | undefined {
  const key = foldCutsEntryKey(k);
  const text = key && readContent(KIND, key);
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== table.columns.length) return undefined;
  const ok = table.columns.every((c, a) =>
    c.type === 'numeric'
      ? Array.isArray(value[a]) && (value[a] as unknown[]).every((x) => typeof x === 'number' && Number.isFinite(x))
      : value[a] === null,
  );
  return ok ? (value as (number[] | null)[]) : undefined;
}

/** Keeps the fitted cuts for a later run (not when one cannot be written back exactly). */
export function writeFoldCuts(k: FoldCutsKey, cuts: readonly (readonly number[] | null)[]): void {
  const key = foldCutsEntryKey(k);
  if (!key) return;
  if (!cuts.every((c) => c === null || c.every((x) => Number.isFinite(x) && !Object.is(x, -0)))) return;
  writeContent(KIND, key, JSON.stringify(cuts));
}
