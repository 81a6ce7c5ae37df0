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

/**
 * The file's bytes. The rows are written straight into one buffer (each cell's quoted text encoded once per
 * file), not built as strings: a fold of a large data set is millions of cells, and the external baseline
 * writes two files per job.
 */
function render(
  cols: readonly ExportColumn[],
  rows: ArrayLike<number> | undefined,
  n: number,
  format: ExportFormat,
  relation: string,
): Buffer {
  const head: string[] = [];
  const quote = format === 'csv' ? csvField : arffField;
  if (format === 'csv') head.push(cols.map((c) => csvField(c.name)).join(','));
  else {
    head.push(`@relation ${arffField(relation)}`, '');
    for (const c of cols) {
      head.push(`@attribute ${arffField(c.name)} ${c.nominal ? `{${c.nominal.map(arffField).join(',')}}` : 'numeric'}`);
    }
    head.push('', '@data');
  }
  const header = Buffer.from(`${head.join('\n')}\n`);
  const missing = format === 'csv' ? '' : '?';
  const m = cols.length;
  // Per column, each id's quoted text followed by its separator (a comma, or the newline after the last
  // column), end to end, with where each id's bytes start; id texts.length (an id < 0 in the column) is the
  // missing value. The same bytes also as little-endian 32-bit words (the last one padded), so a cell is
  // written a word at a time: its last word may run up to 3 bytes past the cell, into bytes the next cell
  // overwrites; a cell too near the end of the file to do that is written byte by byte.
  const flat: Uint8Array[] = [];
  const starts: Int32Array[] = [];
  const words: Uint32Array[] = [];
  const wordStarts: Int32Array[] = [];
  const ids = cols.map((c) => c.ids);
  let size = header.length;
  cols.forEach((c, j) => {
    const sep = j === m - 1 ? '\n' : ',';
    const parts = [...c.texts.map((t) => Buffer.from(quote(t) + sep)), Buffer.from(missing + sep)];
    const start = new Int32Array(parts.length + 1);
    const wordStart = new Int32Array(parts.length + 1);
    parts.forEach((b, id) => {
      start[id + 1] = start[id] + b.length;
      wordStart[id + 1] = wordStart[id] + Math.ceil(b.length / 4);
    });
    const bytes = Buffer.concat(parts);
    const padded = Buffer.alloc(wordStart[parts.length] * 4);
    parts.forEach((b, id) => b.copy(padded, wordStart[id] * 4));
    const w = new Uint32Array(wordStart[parts.length]);
    for (let k = 0; k < w.length; k++) w[k] = padded.readUInt32LE(4 * k);
    flat.push(bytes);
    starts.push(start);
    words.push(w);
    wordStarts.push(wordStart);
    // the column's bytes: rows per id times the id's length
    const k = c.texts.length;
    const count = new Float64Array(k + 1);
    const col = c.ids;
    if (rows) {
      for (let i = 0; i < n; i++) {
        const id = col[rows[i]];
        count[id < 0 ? k : id]++;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const id = col[i];
        count[id < 0 ? k : id]++;
      }
    }
    for (let id = 0; id <= k; id++) size += count[id] * (start[id + 1] - start[id]);
  });
  const out = Buffer.allocUnsafe(size);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let p = header.copy(out, 0);
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i] : i;
    for (let j = 0; j < m; j++) {
      const start = starts[j];
      const id = ids[j][r];
      const at = id < 0 ? start.length - 2 : id;
      const wordStart = wordStarts[j];
      let k = wordStart[at];
      const kEnd = wordStart[at + 1];
      if (p + (kEnd - k) * 4 <= size) {
        const w = words[j];
        for (let q = p; k < kEnd; k++, q += 4) view.setUint32(q, w[k], true);
      } else {
        const f = flat[j];
        for (let q = start[at], end = start[at + 1], o = p; q < end; q++) out[o++] = f[q];
      }
      p += start[at + 1] - start[at];
    }
  }
  return out;
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
