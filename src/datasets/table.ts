/**
 * RawTable: a dataset as read from CSV/ARFF, before preprocessing. Every column is coded: categorical
 * columns hold codes into `labels`, numeric columns hold ids into their ascending distinct values, both in
 * the narrowest signed typed array that fits (see CodeColumn) with -1 for missing. So a table of 10^7 rows
 * whose attributes have few values (or few distinct numbers) costs about one byte per cell, and numeric
 * columns come sorted for free: discretization counts rows per distinct value instead of sorting rows.
 * The class is always categorical and kept separately; rows whose class is missing are dropped by the reader
 * (and counted in `droppedRows`).
 */
import { codeColumn, type CodeColumn } from '../bn/data.js';

interface NumericColumn {
  readonly name: string;
  readonly type: 'numeric';
  /** Per row: the index of its value in `distinct`, or -1 when missing. */
  readonly ids: CodeColumn;
  /** The column's distinct values (finite numbers), ascending, each once (0 and -0 are one value). */
  readonly distinct: Float64Array;
}

interface CategoricalColumn {
  readonly name: string;
  readonly type: 'categorical';
  readonly codes: CodeColumn;
  readonly labels: string[];
}

export type RawColumn = NumericColumn | CategoricalColumn;

export interface RawTable {
  readonly name: string;
  readonly n: number;
  readonly columns: readonly RawColumn[];
  readonly className: string;
  readonly classLabels: readonly string[];
  /** Class codes (never missing), in the narrowest width that holds them, as the attribute columns. */
  readonly classColumn: CodeColumn;
  /** Rows removed because their class value was missing. */
  readonly droppedRows: number;
}

/**
 * Whether every column of t is in shared memory (a CSV table): then a worker thread can be handed the table
 * itself, uncopied, instead of reading the file again.
 */
export function isSharedTable(t: RawTable): boolean {
  const shared = (a: ArrayBufferView): boolean => a.buffer instanceof SharedArrayBuffer;
  return shared(t.classColumn) && t.columns.every((c) => shared(c.type === 'numeric' ? c.ids : c.codes));
}

/** A numeric column from per-row values (NaN = missing). */
export function numericColumn(name: string, values: Float64Array): NumericColumn {
  const distinct = sortedDistinct(values.filter((v) => !Number.isNaN(v)));
  const ids = codeColumn(distinct.length, values.length, true);
  for (let r = 0; r < values.length; r++) ids[r] = Number.isNaN(values[r]) ? -1 : rankOf(distinct, values[r]);
  return { name, type: 'numeric', ids, distinct };
}

/** The distinct numbers of values (no NaN), ascending; 0 and -0 count as one (kept as 0). Sorts values in place. */
export function sortedDistinct(values: Float64Array): Float64Array {
  values.sort();
  let d = 0;
  for (let i = 0; i < values.length; i++) {
    // x + 0 is x, except that -0 becomes 0.
    if (i === 0 || values[i] !== values[d - 1]) values[d++] = values[i] + 0;
  }
  return values.slice(0, d);
}

/** Index of v in the ascending array a (v must be in it). */
export function rankOf(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The column's value per row (NaN = missing): for tests and writers; the pipeline reads ids. */
export function numericValues(c: NumericColumn): Float64Array {
  const out = new Float64Array(c.ids.length);
  for (let r = 0; r < out.length; r++) out[r] = c.ids[r] < 0 ? NaN : c.distinct[c.ids[r]];
  return out;
}
