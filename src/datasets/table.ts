/**
 * RawTable: a dataset as read from CSV/ARFF, before preprocessing. Numeric columns hold Float64Array with
 * NaN for missing; categorical columns hold codes (Int32Array, -1 for missing) into `labels`.
 * The class is always categorical and kept separately; rows whose class is missing are dropped by the reader
 * (and counted in `droppedRows`).
 */
export type RawColumn =
  | { readonly name: string; readonly type: 'numeric'; readonly values: Float64Array }
  | { readonly name: string; readonly type: 'categorical'; readonly codes: Int32Array; readonly labels: string[] };

export interface RawTable {
  readonly name: string;
  readonly n: number;
  readonly columns: readonly RawColumn[];
  readonly className: string;
  readonly classLabels: readonly string[];
  readonly classColumn: Int32Array;
  /** Rows removed because their class value was missing. */
  readonly droppedRows: number;
}
