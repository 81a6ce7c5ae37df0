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
 * Rows of a table, ascending: a list of row numbers, or every row whose label (a split's fold of each row) is
 * neither of two values: a fold's training rows, nine tenths of the table, without a list of 4 bytes a row.
 */
export type RowSet = Int32Array | LabelledRows;

export interface LabelledRows {
  readonly labels: Int8Array | Int16Array | Int32Array;
  /** A row labelled with either value is not in the set. */
  readonly skip: readonly [number, number];
  /** Rows in the set. */
  readonly count: number;
  /** The rows not in the set, ascending (a tenth of the table for a fold of 10-fold cross-validation). */
  readonly others: Int32Array;
}

/** Every row r with labels[r] not one of `skip` (counted, and the others listed, once here). */
export function labelledRows(labels: LabelledRows['labels'], skip: readonly [number, number]): LabelledRows {
  const [s0, s1] = skip;
  let count = 0;
  for (let r = 0; r < labels.length; r++) {
    const l = labels[r];
    if (l !== s0 && l !== s1) count++;
  }
  const others = new Int32Array(labels.length - count);
  let k = 0;
  for (let r = 0; r < labels.length; r++) {
    const l = labels[r];
    if (l === s0 || l === s1) others[k++] = r;
  }
  return { labels, skip, count, others };
}

/** How many rows a set holds. */
export function rowCount(rows: RowSet): number {
  return rows instanceof Int32Array ? rows.length : rows.count;
}

/** The set's row numbers as a list (the list itself when it is one). */
export function rowList(rows: RowSet): Int32Array {
  if (rows instanceof Int32Array) return rows;
  const out = new Int32Array(rows.count);
  let k = 0;
  forEachRowChunk(rows, (chunk) => {
    out.set(chunk, k);
    k += chunk.length;
  });
  return out;
}

/** Rows per chunk (forEachRowChunk) and table rows per block (forEachViewChunk): a block's row numbers and coded columns stay in the CPU's cache. */
const ROW_CHUNK = 1 << 14;

/**
 * f(chunk, offset) for the set's rows in ascending runs of at most ROW_CHUNK: chunk holds row numbers (in a
 * buffer reused from one call of f to the next), offset how many rows of the set came before it. Chunks may
 * be shorter than ROW_CHUNK anywhere, never empty.
 */
export function forEachRowChunk(rows: RowSet, f: (chunk: Int32Array, offset: number) => void): void {
  if (rows instanceof Int32Array) {
    for (let off = 0; off < rows.length; off += ROW_CHUNK) f(rows.subarray(off, off + ROW_CHUNK), off);
    return;
  }
  const { labels } = rows;
  const [s0, s1] = rows.skip;
  // Chunks of the rows of ROW_CHUNK rows of the table each (shorter by the rows skipped).
  const buf = new Int32Array(Math.min(ROW_CHUNK, labels.length));
  let off = 0;
  for (let start = 0; start < labels.length; start += ROW_CHUNK) {
    const end = Math.min(labels.length, start + ROW_CHUNK);
    let k = 0;
    for (let r = start; r < end; r++) {
      const l = labels[r];
      if (l !== s0 && l !== s1) buf[k++] = r;
    }
    if (k > 0) {
      f(k === buf.length ? buf : buf.subarray(0, k), off);
      off += k;
    }
  }
}

/**
 * Some rows of longer columns, each read through a code map where its codes are not the data set's: row i
 * of the data set is row i of `rows` in every column. A fold's training rows are nine tenths of the table;
 * reading them from the table's own columns (categorical ones as they are, numeric ones through the bin of
 * each distinct value) saves copying them, and saves coding a column for every row of the table.
 */
export interface RowView {
  /** One source column per attribute (the table's), at least as long as the largest row number. */
  readonly columns: readonly CodeColumn[];
  /**
   * Per attribute, undefined when the source codes are the data set's codes (MISSING included), else the
   * map from source to code: source value v (MISSING is -1) has code maps[a][v + 1].
   */
  readonly maps: readonly (CodeColumn | undefined)[];
  readonly classColumn: CodeColumn;
  /** Cardinality per attribute (the data set's), which sets the width of a chunk's column. */
  readonly cards: Int32Array;
  readonly rows: RowSet;
  /** Bytes of the arrays made for this view alone (a list of row numbers, the code maps). */
  readonly ownBytes: number;
}

/**
 * f(start, end, rows, offset) for the set's rows in blocks of ROW_CHUNK rows of the table: rows holds the
 * set's rows in [start, end) as positions in the block (row start + rows[i]), offset how many rows of the
 * set came before. Blocks without a row of the set are skipped.
 */
function forEachRowBlock(
  set: RowSet,
  tableRows: number,
  f: (start: number, end: number, rows: Int32Array, offset: number) => void,
): void {
  const buf = new Int32Array(Math.min(ROW_CHUNK, tableRows));
  let off = 0;
  if (set instanceof Int32Array) {
    let i = 0;
    while (i < set.length) {
      const start = set[i] - (set[i] % ROW_CHUNK);
      const end = Math.min(tableRows, start + ROW_CHUNK);
      let k = 0;
      for (; i < set.length && set[i] < end; i++) buf[k++] = set[i] - start;
      f(start, end, buf.subarray(0, k), off);
      off += k;
    }
    return;
  }
  // The runs of rows between two of the others, written without a test per row.
  const others = set.others;
  let o = 0;
  for (let start = 0; start < tableRows; start += ROW_CHUNK) {
    const end = Math.min(tableRows, start + ROW_CHUNK);
    let k = 0;
    let r = start;
    while (r < end) {
      const stop = o < others.length && others[o] < end ? others[o] : end;
      for (; r < stop; r++) buf[k++] = r - start;
      if (stop < end) {
        r = stop + 1;
        o++;
      }
    }
    if (k > 0) {
      f(start, end, k === buf.length ? buf : buf.subarray(0, k), off);
      off += k;
    }
  }
}

/**
 * f(chunk, rows, offset) for the view's rows, a block of the table at a time (forEachRowBlock): chunk[k]
 * holds the data set's codes of column cols[k] (an attribute, or cards.length for the class) for every row
 * of the block, rows the view's rows in it as positions in the block, offset how many rows of the view came
 * before them. A column whose codes are the table's is a window on it; a mapped one is coded for the block.
 * Kernels read chunk[k][rows[i]] in order, so a view gives the same counts as the copy (whole numbers, added
 * in the same order) with no per-row array of its own. A small view (DENSE_VIEW_BYTES) is one block, the
 * whole table: its mapped columns coded once and its rows listed once, kept with the view.
 */
export function forEachViewChunk(
  view: RowView,
  cols: readonly number[],
  f: (chunk: readonly CodeColumn[], rows: Int32Array, offset: number) => void,
): void {
  const m = view.columns.length;
  const dense = denseView(view);
  if (dense) {
    // A small view: its mapped columns coded over the whole table once, its rows listed once, and the
    // kernels run once over them (one block, rows as table row numbers, offset 0).
    f(
      cols.map((a) => (a === m ? view.classColumn : denseColumn(view, dense, a))),
      dense.rows,
      0,
    );
    return;
  }
  const srcs = cols.map((a) => (a === m ? view.classColumn : view.columns[a]));
  const maps = cols.map((a) => (a === m ? undefined : view.maps[a]));
  const tableRows = srcs.length > 0 ? srcs[0].length : 0;
  const size = Math.min(ROW_CHUNK, tableRows);
  const bufs = cols.map((a, k) => (maps[k] ? codeColumn(view.cards[a], size) : undefined));
  const out: CodeColumn[] = new Array(cols.length);
  forEachRowBlock(view.rows, tableRows, (start, end, rows, offset) => {
    for (let k = 0; k < cols.length; k++) {
      const map = maps[k];
      out[k] = map ? codeBlock(bufs[k]!, srcs[k], map, start, end) : srcs[k].subarray(start, end);
    }
    f(out, rows, offset);
  });
}

/**
 * Bytes a view may take, coded whole, for forEachViewChunk to read it in one block: every mapped column
 * coded over the table's rows and the list of its rows. Reading a view block by block (listing a block's
 * rows and coding its mapped columns again for every count) cost 1.4× the learning CPU of copied rows on
 * the UCI data sets (docs/performance.md); coded once per view, counting reads plain arrays as it did on
 * copied rows. 32 MiB keeps a 10^7-row fold on the block path whatever its columns (the list of its nine
 * million training rows alone takes 36 MB), and holds a fold of 10^5 rows and a few hundred attributes.
 */
export const DENSE_VIEW_BYTES = 32 << 20;
let denseViewBytes = DENSE_VIEW_BYTES;

/**
 * Sets the limit of denseView (tests: 0 forces the block path, Infinity the whole one; both give the same
 * numbers) and returns the previous one.
 */
export function setDenseViewBytes(bytes: number): number {
  const previous = denseViewBytes;
  denseViewBytes = bytes;
  return previous;
}

interface DenseView {
  /** The view's rows as a list of table row numbers. */
  readonly rows: Int32Array;
  /** Per attribute, its mapped column coded over the whole table (built when first read). */
  readonly columns: (CodeColumn | undefined)[];
}

const denseViews = new WeakMap<RowView, DenseView | null>();

/** Bytes of a view coded whole (see DENSE_VIEW_BYTES): its mapped columns over the table's rows, its row list. */
function wholeViewBytes(view: RowView): number {
  const tableRows = view.classColumn.length;
  let bytes = view.rows instanceof Int32Array ? 0 : 4 * rowCount(view.rows);
  view.maps.forEach((map, a) => {
    if (map) bytes += tableRows * codeColumn(view.cards[a], 0).BYTES_PER_ELEMENT;
  });
  return bytes;
}

/** The bytes a view is read with coded whole (0 when it is read block by block): see DENSE_VIEW_BYTES. */
export function denseViewByteCount(view: RowView): number {
  const bytes = wholeViewBytes(view);
  return bytes <= denseViewBytes ? bytes : 0;
}

/** The view coded whole when it is small enough (DENSE_VIEW_BYTES), else null; decided once per view. */
function denseView(view: RowView): DenseView | null {
  let dense = denseViews.get(view);
  if (dense === undefined) {
    dense =
      wholeViewBytes(view) <= denseViewBytes
        ? { rows: rowList(view.rows), columns: new Array(view.columns.length) }
        : null;
    denseViews.set(view, dense);
  }
  return dense;
}

/** Attribute a of a whole view: the table's column, or the column coded through its map once. */
function denseColumn(view: RowView, dense: DenseView, a: number): CodeColumn {
  const map = view.maps[a];
  if (!map) return view.columns[a];
  let col = dense.columns[a];
  if (!col) {
    const src = view.columns[a];
    col = codeBlock(codeColumn(view.cards[a], src.length), src, map, 0, src.length);
    dense.columns[a] = col;
  }
  return col;
}

/** buf[j] = map[src[start + j] + 1] for the rows start..end-1 of src. */
function codeBlock(buf: CodeColumn, src: CodeColumn, map: CodeColumn, start: number, end: number): CodeColumn {
  for (let r = start; r < end; r++) buf[r - start] = map[src[r] + 1];
  return buf;
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
  const n = rowCount(view.rows);
  const state: { view: RowView; columns?: CodeColumn[]; classColumn?: Int32Array } = { view };
  const d = { ...meta, n } as DiscreteData;
  const copy = <T extends CodeColumn>(out: T, col: number): T => {
    forEachViewChunk(view, [col], ([c], rows, off) => {
      for (let i = 0; i < rows.length; i++) out[off + i] = c[rows[i]];
    });
    return out;
  };
  // Once built, each becomes a plain property: a learner that reads d.classColumn[r] row by row then pays
  // no getter call per row.
  Object.defineProperty(d, 'columns', {
    enumerable: true,
    configurable: true,
    get(): readonly CodeColumn[] {
      state.columns = view.columns.map((_, a) => copy(codeColumn(meta.cards[a], n), a));
      Object.defineProperty(d, 'columns', { value: state.columns, enumerable: true });
      return state.columns;
    },
  });
  Object.defineProperty(d, 'classColumn', {
    enumerable: true,
    configurable: true,
    get(): Int32Array {
      const built = copy(new Int32Array(n), view.columns.length);
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
    denseViewByteCount(state.view) +
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
