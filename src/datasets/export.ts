/**
 * Writes rows of a data set as CSV (with a header) or ARFF, class last, for programs outside bnclab
 * (the `external` baseline). Two views:
 * - discrete: the preprocessed DiscreteData every bnclab learner sees (discretized labels, or their integer
 *   codes with `values: 'codes'`);
 * - raw: the rows of the RawTable as read (numbers as numbers, categories as labels or codes).
 * Missing values are an empty CSV cell and `?` in ARFF (both readers' conventions, as bnclab's own).
 */
import type { DiscreteData } from '../bn/data.js';
import type { RawTable } from './table.js';

export type ExportFormat = 'csv' | 'arff';
export type ExportValues = 'labels' | 'codes';

/**
 * One exported column: its name, its nominal values (undefined = numeric), and per row an id (< 0: missing)
 * into `texts`, the cell texts. Each text is quoted once per file, not once per cell.
 */
interface ExportColumn {
  readonly name: string;
  readonly nominal?: readonly string[];
  readonly ids: ArrayLike<number>;
  readonly texts: readonly string[];
}

/** CSV field quoting (RFC 4180): quote when the text holds a comma, quote, newline or surrounding space. */
function csvField(s: string): string {
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** ARFF quoting as Weka writes it: single quotes, backslash escapes, when the text is not a plain token. */
function arffField(s: string): string {
  return /^[A-Za-z0-9_.+-]+$/.test(s) && s !== '?' ? s : `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function discreteColumns(d: DiscreteData, values: ExportValues): ExportColumn[] {
  const texts = (labels: readonly string[]): string[] =>
    values === 'codes' ? labels.map((_, i) => String(i)) : [...labels];
  const cols: ExportColumn[] = d.columns.map((col, a) => ({
    name: d.names[a],
    nominal: texts(d.labels[a]),
    ids: col,
    texts: texts(d.labels[a]),
  }));
  cols.push({ name: d.className, nominal: texts(d.classLabels), ids: d.classColumn, texts: texts(d.classLabels) });
  return cols;
}

function rawColumns(t: RawTable, values: ExportValues): ExportColumn[] {
  const cols: ExportColumn[] = t.columns.map((c) => {
    if (c.type === 'numeric') return { name: c.name, ids: c.ids, texts: Array.from(c.distinct, (x) => String(x)) };
    const texts = values === 'codes' ? c.labels.map((_, i) => String(i)) : c.labels;
    return { name: c.name, nominal: texts, ids: c.codes, texts };
  });
  const classTexts = t.classLabels.map((l, i) => (values === 'codes' ? String(i) : l));
  cols.push({ name: t.className, nominal: classTexts, ids: t.classColumn, texts: classTexts });
  return cols;
}

/** The lines before the rows: CSV's header, or ARFF's relation, attributes and `@data`. */
function headerBytes(cols: readonly ExportColumn[], format: ExportFormat, relation: string): Buffer {
  const head: string[] = [];
  if (format === 'csv') head.push(cols.map((c) => csvField(c.name)).join(','));
  else {
    head.push(`@relation ${arffField(relation)}`, '');
    for (const c of cols) {
      head.push(`@attribute ${arffField(c.name)} ${c.nominal ? `{${c.nominal.map(arffField).join(',')}}` : 'numeric'}`);
    }
    head.push('', '@data');
  }
  return Buffer.from(`${head.join('\n')}\n`);
}

/**
 * Every column's every id (and the missing value, id texts.length for an id < 0) is one entry of one table
 * for the whole file, column j's from base[j]: the entry's quoted text followed by its separator (a comma,
 * or the newline after the last column), its length, where its bytes start in `flat`, and the same bytes as
 * little-endian 32-bit words (the last one padded) from wordStart[e], so a cell is written a word at a time
 * (writeWords): its last word may run up to 3 bytes past the cell, into bytes the next cell overwrites.
 */
interface EntryTable {
  readonly base: Int32Array;
  readonly len: Int32Array;
  readonly byteStart: Int32Array;
  readonly flat: Buffer;
  readonly wordStart: Int32Array;
  readonly words: Uint32Array;
}

function entryTable(cols: readonly ExportColumn[], format: ExportFormat): EntryTable {
  const quote = format === 'csv' ? csvField : arffField;
  const missing = format === 'csv' ? '' : '?';
  const m = cols.length;
  const base = new Int32Array(m + 1);
  cols.forEach((c, j) => (base[j + 1] = base[j] + c.texts.length + 1));
  const E = base[m];
  const parts: Buffer[] = [];
  cols.forEach((c, j) => {
    const sep = j === m - 1 ? '\n' : ',';
    for (const t of c.texts) parts.push(Buffer.from(quote(t) + sep));
    parts.push(Buffer.from(missing + sep));
  });
  const len = new Int32Array(E);
  const byteStart = new Int32Array(E + 1);
  const wordStart = new Int32Array(E + 1);
  for (let e = 0; e < E; e++) {
    len[e] = parts[e].length;
    byteStart[e + 1] = byteStart[e] + len[e];
    wordStart[e + 1] = wordStart[e] + Math.ceil(len[e] / 4);
  }
  const padded = Buffer.alloc(wordStart[E] * 4);
  parts.forEach((b, e) => b.copy(padded, wordStart[e] * 4));
  const words = new Uint32Array(wordStart[E]);
  for (let k = 0; k < words.length; k++) words[k] = padded.readUInt32LE(4 * k);
  return { base, len, byteStart, flat: Buffer.concat(parts), wordStart, words };
}

/**
 * The file's bytes. The rows are written straight into one buffer (each cell's quoted text encoded once per
 * file, see EntryTable), not built as strings: a fold of a large data set is millions of cells, and the
 * external baseline writes two files per job. A block of rows is first turned into entry numbers, a column
 * at a time (each column's loop reads one kind of typed array), so the loop that writes reads one
 * Int32Array in order; a cell too near the end of the file to be written a word at a time is copied as it is.
 */
function render(
  cols: readonly ExportColumn[],
  rows: ArrayLike<number> | undefined,
  n: number,
  format: ExportFormat,
  relation: string,
): Buffer {
  const header = headerBytes(cols, format, relation);
  const m = cols.length;
  const { base, len, byteStart, flat, wordStart, words } = entryTable(cols, format);
  const E = base[m];
  const count = new Float64Array(E);
  for (let j = 0; j < m; j++) countEntries(cols[j].ids, rows, n, base[j], cols[j].texts.length, count);
  let size = header.length;
  for (let e = 0; e < E; e++) size += count[e] * len[e];
  const out = Buffer.allocUnsafe(size);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const at = new Float64Array([header.copy(out, 0)]);
  const block = Math.max(1, Math.min(n, Math.floor(RENDER_BLOCK / m)));
  const cell = new Int32Array(block * m);
  for (let a = 0; a < n; a += block) {
    const b = Math.min(n, a + block);
    for (let j = 0; j < m; j++) entries(cols[j].ids, rows, a, b, j, m, base[j], cols[j].texts.length, cell);
    const cells = (b - a) * m;
    for (let x = writeWords(cell, 0, cells, wordStart, words, len, view, at); x < cells; ) {
      // A cell whose last word would run past the end of the file (one of its last cells): copied as it is.
      const e = cell[x];
      out.set(flat.subarray(byteStart[e], byteStart[e + 1]), at[0]);
      at[0] += len[e];
      x = writeWords(cell, x + 1, cells, wordStart, words, len, view, at);
    }
  }
  return out;
}

/**
 * Writes cells x, x + 1, … of a block a word at a time from byte at[0] on (leaving at[0] after the last one
 * written), up to the end of the block or the first cell whose last word would run past the end of the
 * buffer, and returns the index of the first cell not written. A function of its own: it is the loop V8
 * optimises, small enough to compile in a moment (render as a whole was compiled again and again).
 */
function writeWords(
  cell: Int32Array,
  x: number,
  cells: number,
  wordStart: Int32Array,
  words: Uint32Array,
  len: Int32Array,
  view: DataView,
  at: Float64Array,
): number {
  const size = view.byteLength;
  let p = at[0];
  for (; x < cells; x++) {
    const e = cell[x];
    let k = wordStart[e];
    const kEnd = wordStart[e + 1];
    if (p + (kEnd - k) * 4 > size) break;
    for (let q = p; k < kEnd; k++, q += 4) view.setUint32(q, words[k], true);
    p += len[e];
  }
  at[0] = p;
  return x;
}

/** Cells turned into entry numbers at a time by render (64 KiB of them). */
const RENDER_BLOCK = 1 << 14;

/** How many cells of a column hold each entry (base + id, base + k for a missing value). */
function countEntries(
  col: ArrayLike<number>,
  rows: ArrayLike<number> | undefined,
  n: number,
  base: number,
  k: number,
  count: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const id = col[rows ? rows[i] : i];
    count[base + (id < 0 ? k : id)]++;
  }
}

/** Column j's cells of rows a..b-1 as entry numbers (as countEntries) at cell[(i - a)·m + j]. */
function entries(
  col: ArrayLike<number>,
  rows: ArrayLike<number> | undefined,
  a: number,
  b: number,
  j: number,
  m: number,
  base: number,
  k: number,
  cell: Int32Array,
): void {
  for (let i = a, x = j; i < b; i++, x += m) {
    const id = col[rows ? rows[i] : i];
    cell[x] = base + (id < 0 ? k : id);
  }
}

/** Every row of the preprocessed data, class last. */
export function exportDiscrete(d: DiscreteData, format: ExportFormat, values: ExportValues, relation: string): string {
  return exportDiscreteBytes(d, format, values, relation).toString('utf8');
}

/** As exportDiscrete, the file's bytes. */
export function exportDiscreteBytes(
  d: DiscreteData,
  format: ExportFormat,
  values: ExportValues,
  relation: string,
): Buffer {
  return render(discreteColumns(d, values), undefined, d.n, format, relation);
}

/** Rows [rows] of the raw table, class last. */
export function exportRaw(
  t: RawTable,
  rows: ArrayLike<number>,
  format: ExportFormat,
  values: ExportValues,
  relation: string,
): string {
  return exportRawBytes(t, rows, format, values, relation).toString('utf8');
}

/** As exportRaw, the file's bytes. */
export function exportRawBytes(
  t: RawTable,
  rows: ArrayLike<number>,
  format: ExportFormat,
  values: ExportValues,
  relation: string,
): Buffer {
  return render(rawColumns(t, values), rows, rows.length, format, relation);
}

/** The class names as the exported files write them (labels, or codes 0..C-1). */
export function exportedClassNames(classLabels: readonly string[], values: ExportValues): string[] {
  return values === 'codes' ? classLabels.map((_, i) => String(i)) : [...classLabels];
}
