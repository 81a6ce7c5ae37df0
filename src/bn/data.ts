/**
 * DiscreteData: the one representation every structure learner and estimator reads.
 * Columnar integer codes in typed arrays; attribute i takes values 0..cards[i]-1, or MISSING.
 * The class column is never missing (rows without a class are removed when a dataset is loaded).
 */
export const MISSING = -1;

/**
 * A column of codes (or MISSING): the narrowest signed typed array that holds the column's cardinality
 * (Int8Array up to 127 values, Int16Array up to 32,767, else Int32Array), so a table of 10^7 rows of small
 * attributes costs one byte per value. Signed, so MISSING stays -1 in every width. Learners only read
 * columns by index; every width reads the same numbers.
 */
export type CodeColumn = Int8Array | Int16Array | Int32Array;

/**
 * A zeroed code column of n rows, the narrowest that holds codes 0..card-1 and MISSING. `shared` puts it in
 * a SharedArrayBuffer, which worker threads receive without a copy (the runner's loaded tables).
 */
export function codeColumn(card: number, n: number, shared = false): CodeColumn {
  const width = card <= 128 ? 1 : card <= 32768 ? 2 : 4;
  const buffer = shared ? new SharedArrayBuffer(n * width) : new ArrayBuffer(n * width);
  if (width === 1) return new Int8Array(buffer);
  if (width === 2) return new Int16Array(buffer);
  return new Int32Array(buffer);
}

/** out[i] = col[rows[i]] for every i < out.length: rows picked out of a column (a fold's rows, a view's copy). */
function gatherRows<T extends CodeColumn>(out: T, col: CodeColumn, rows: ArrayLike<number>): T {
  for (let i = 0; i < out.length; i++) out[i] = col[rows[i]];
  return out;
}

/** A zeroed column of n rows of the same width as col. */
function columnLike(col: CodeColumn, n: number): CodeColumn {
  if (col instanceof Int8Array) return new Int8Array(n);
  if (col instanceof Int16Array) return new Int16Array(n);
  return new Int32Array(n);
}

export interface DiscreteData {
  /** Number of rows. */
  readonly n: number;
  /** Attribute names (the class excluded), in column order. */
  readonly names: readonly string[];
  /** Value labels per attribute; cards[i] === labels[i].length. */
  readonly labels: readonly (readonly string[])[];
  /** Cardinality per attribute. */
  readonly cards: Int32Array;
  /** One code column of length n per attribute; entries are codes or MISSING. */
  readonly columns: readonly CodeColumn[];
  /** Class name and labels; classCard === classLabels.length. */
  readonly className: string;
  readonly classLabels: readonly string[];
  readonly classCard: number;
  /** Class codes, length n, never MISSING. */
  readonly classColumn: Int32Array;
}

/** Number of attributes (class excluded); never builds the columns of a row view. */
export function attributeCount(d: DiscreteData): number {
  return d.cards.length;
}

/**
 * Some rows of longer columns: row i of the data set is row rows[i] of every column. A fold's training
 * rows are nine tenths of the table; counting them through their row numbers from columns the fold shares
 * with the table (or builds once for every row, the discretized ones) saves copying them.
 */
export interface RowView {
  /** One column per attribute, each at least as long as the largest row number, codes as the data set's. */
  readonly columns: readonly CodeColumn[];
  readonly classColumn: CodeColumn;
  /** Ascending row numbers; rows.length is the data set's n. */
  readonly rows: Int32Array;
  /** Bytes of the arrays made for this view alone (the row numbers and columns not shared with the table). */
  readonly ownBytes: number;
}

/** A view's data set → the view and the columns built from it so far. */
const rowViews = new WeakMap<DiscreteData, { view: RowView; columns?: CodeColumn[]; classColumn?: Int32Array }>();

/**
 * The row view `d` was made from (see viewedData), or undefined. Counting kernels that read a view
 * (familyCounts) ask for it first; everything else reads `d.columns` as usual. A view is kept aside rather
 * than as a property, so an object spread of `d` ({...d, n: 0}, selectAttributes) is plain data, never a
 * view whose columns no longer match.
 */
export function rowViewOf(d: DiscreteData): RowView | undefined {
  return rowViews.get(d)?.view;
}

/**
 * A DiscreteData over a row view. Its `columns` and `classColumn` are built (exactly what copying the rows
 * gives: each column in the width of its cardinality, the class as Int32) the first time something reads
 * them, so a learner that does not count through the view gets the same data as before; a learner that does
 * never pays for the copy.
 */
export function viewedData(meta: Omit<DiscreteData, 'n' | 'columns' | 'classColumn'>, view: RowView): DiscreteData {
  const rows = view.rows;
  const n = rows.length;
  const state: { view: RowView; columns?: CodeColumn[]; classColumn?: Int32Array } = { view };
  const d = { ...meta, n } as DiscreteData;
  // Once built, each becomes a plain property: a learner that reads d.classColumn[r] row by row then pays
  // no getter call per row.
  Object.defineProperty(d, 'columns', {
    enumerable: true,
    configurable: true,
    get(): readonly CodeColumn[] {
      state.columns = view.columns.map((col, a) => gatherRows(codeColumn(meta.cards[a], n), col, rows));
      Object.defineProperty(d, 'columns', { value: state.columns, enumerable: true });
      return state.columns;
    },
  });
  Object.defineProperty(d, 'classColumn', {
    enumerable: true,
    configurable: true,
    get(): Int32Array {
      const built = gatherRows(new Int32Array(n), view.classColumn, rows);
      state.classColumn = built;
      Object.defineProperty(d, 'classColumn', { value: built, enumerable: true });
      return built;
    },
  });
  rowViews.set(d, state);
  return d;
}

/** Bytes of the typed arrays d holds itself (for a row view: its own arrays and whatever was built from it). */
export function dataBytes(d: DiscreteData): number {
  const state = rowViews.get(d);
  if (!state) return d.classColumn.byteLength + d.columns.reduce((s, c) => s + c.byteLength, 0);
  return (
    state.view.ownBytes +
    (state.classColumn?.byteLength ?? 0) +
    (state.columns?.reduce((s, c) => s + c.byteLength, 0) ?? 0)
  );
}

/** Rows [rows] of d as a new DiscreteData sharing labels and cardinalities. */
export function selectRows(d: DiscreteData, rows: ArrayLike<number>): DiscreteData {
  const n = rows.length;
  const columns = d.columns.map((col) => gatherRows(columnLike(col, n), col, rows));
  const classColumn = gatherRows(new Int32Array(n), d.classColumn, rows);
  return { ...d, n, columns, classColumn };
}

/** Keep only attributes [attrs] (in that order). */
export function selectAttributes(d: DiscreteData, attrs: readonly number[]): DiscreteData {
  return {
    ...d,
    names: attrs.map((a) => d.names[a]),
    labels: attrs.map((a) => d.labels[a]),
    cards: Int32Array.from(attrs.map((a) => d.cards[a])),
    columns: attrs.map((a) => d.columns[a]),
  };
}

/** Build a DiscreteData from small literal arrays (tests, worked examples). Values are codes; -1 = missing. */
export function discreteFromArrays(opts: {
  names?: string[];
  cards: number[];
  rows: number[][];
  classes: number[];
  classCard: number;
}): DiscreteData {
  const m = opts.cards.length;
  const n = opts.rows.length;
  if (opts.classes.length !== n) throw new Error('discreteFromArrays: classes and rows differ in length');
  const columns = Array.from({ length: m }, (_, a) => Int32Array.from(opts.rows.map((r) => r[a])));
  return {
    n,
    names: opts.names ?? Array.from({ length: m }, (_, a) => `X${a + 1}`),
    labels: opts.cards.map((c) => Array.from({ length: c }, (_, v) => String(v))),
    cards: Int32Array.from(opts.cards),
    columns,
    className: 'class',
    classLabels: Array.from({ length: opts.classCard }, (_, v) => String(v)),
    classCard: opts.classCard,
    classColumn: Int32Array.from(opts.classes),
  };
}
