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

/** Number of attributes (class excluded). */
export function attributeCount(d: DiscreteData): number {
  return d.columns.length;
}

/** Rows [rows] of d as a new DiscreteData sharing labels and cardinalities. */
export function selectRows(d: DiscreteData, rows: ArrayLike<number>): DiscreteData {
  const n = rows.length;
  const columns = d.columns.map((col) => {
    const out = columnLike(col, n);
    for (let r = 0; r < n; r++) out[r] = col[rows[r]!]!;
    return out;
  });
  const classColumn = new Int32Array(n);
  for (let r = 0; r < n; r++) classColumn[r] = d.classColumn[rows[r]!]!;
  return { ...d, n, columns, classColumn };
}

/** Keep only attributes [attrs] (in that order). */
export function selectAttributes(d: DiscreteData, attrs: readonly number[]): DiscreteData {
  return {
    ...d,
    names: attrs.map((a) => d.names[a]!),
    labels: attrs.map((a) => d.labels[a]!),
    cards: Int32Array.from(attrs.map((a) => d.cards[a]!)),
    columns: attrs.map((a) => d.columns[a]!),
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
  const columns = Array.from({ length: m }, (_, a) => Int32Array.from(opts.rows.map((r) => r[a]!)));
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
