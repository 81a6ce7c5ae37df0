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
  const missing = Buffer.from(format === 'csv' ? '' : '?');
  // Per column, the quoted text of each id and its length; index texts.length holds the missing value.
  const bytes = cols.map((c) => [...c.texts.map((t) => Buffer.from(quote(t))), missing]);
  const lengths = bytes.map((b) => Int32Array.from(b, (x) => x.length));
  const ids = cols.map((c) => c.ids);
  const m = cols.length;
  const at = (j: number, r: number): number => {
    const id = ids[j][r];
    return id < 0 ? bytes[j].length - 1 : id;
  };
  let size = header.length + n * m; // m - 1 commas and a newline per row
  for (let j = 0; j < m; j++) for (let i = 0; i < n; i++) size += lengths[j][at(j, rows ? rows[i] : i)];
  const out = Buffer.allocUnsafe(size);
  let p = header.copy(out, 0);
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i] : i;
    for (let j = 0; j < m; j++) {
      if (j > 0) out[p++] = 0x2c;
      const b = bytes[j][at(j, r)];
      if (b.length === 1) out[p++] = b[0];
      else p += b.copy(out, p);
    }
    out[p++] = 0x0a;
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
