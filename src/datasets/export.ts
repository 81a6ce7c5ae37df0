/**
 * Writes rows of a data set as CSV (with a header) or ARFF, class last, for programs outside bnclab
 * (the `external` baseline). Two views:
 * - discrete: the preprocessed DiscreteData every bnclab learner sees (discretized labels, or their integer
 *   codes with `values: 'codes'`);
 * - raw: the rows of the RawTable as read (numbers as numbers, categories as labels or codes).
 * Missing values are an empty CSV cell and `?` in ARFF (both readers' conventions, as bnclab's own).
 */
import { MISSING, type DiscreteData } from '../bn/data.js';
import type { RawTable } from './table.js';

export type ExportFormat = 'csv' | 'arff';
export type ExportValues = 'labels' | 'codes';

/** One exported column: its name, its nominal values (undefined = numeric) and the cell text of a row. */
interface ExportColumn {
  readonly name: string;
  readonly nominal?: readonly string[];
  cell(row: number): string | undefined;
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
  const text = (labels: readonly string[], code: number): string => (values === 'codes' ? String(code) : labels[code]!);
  const nominal = (labels: readonly string[]): string[] =>
    values === 'codes' ? labels.map((_, i) => String(i)) : [...labels];
  const cols: ExportColumn[] = d.columns.map((col, a) => ({
    name: d.names[a]!,
    nominal: nominal(d.labels[a]!),
    cell: (r: number) => (col[r] === MISSING ? undefined : text(d.labels[a]!, col[r]!)),
  }));
  cols.push({
    name: d.className,
    nominal: nominal(d.classLabels),
    cell: (r) => text(d.classLabels, d.classColumn[r]!),
  });
  return cols;
}

function rawColumns(t: RawTable, values: ExportValues): ExportColumn[] {
  const cols: ExportColumn[] = t.columns.map((c) => {
    if (c.type === 'numeric') {
      return { name: c.name, cell: (r: number) => (c.ids[r]! < 0 ? undefined : String(c.distinct[c.ids[r]!]!)) };
    }
    return {
      name: c.name,
      nominal: values === 'codes' ? c.labels.map((_, i) => String(i)) : c.labels,
      cell: (r: number) =>
        c.codes[r]! < 0 ? undefined : values === 'codes' ? String(c.codes[r]!) : c.labels[c.codes[r]!]!,
    };
  });
  const classText = (code: number): string => (values === 'codes' ? String(code) : t.classLabels[code]!);
  cols.push({
    name: t.className,
    nominal: t.classLabels.map((_, i) => classText(i)),
    cell: (r) => classText(t.classColumn[r]!),
  });
  return cols;
}

function render(
  cols: readonly ExportColumn[],
  rows: ArrayLike<number>,
  format: ExportFormat,
  relation: string,
): string {
  const out: string[] = [];
  if (format === 'csv') {
    out.push(cols.map((c) => csvField(c.name)).join(','));
    for (let i = 0; i < rows.length; i++) out.push(cols.map((c) => csvField(c.cell(rows[i]!) ?? '')).join(','));
  } else {
    out.push(`@relation ${arffField(relation)}`, '');
    for (const c of cols) {
      out.push(`@attribute ${arffField(c.name)} ${c.nominal ? `{${c.nominal.map(arffField).join(',')}}` : 'numeric'}`);
    }
    out.push('', '@data');
    for (let i = 0; i < rows.length; i++) {
      out.push(
        cols
          .map((c) => {
            const v = c.cell(rows[i]!);
            return v === undefined ? '?' : arffField(v);
          })
          .join(','),
      );
    }
  }
  return out.join('\n') + '\n';
}

/** Every row of the preprocessed data, class last. */
export function exportDiscrete(d: DiscreteData, format: ExportFormat, values: ExportValues, relation: string): string {
  return render(
    discreteColumns(d, values),
    Int32Array.from({ length: d.n }, (_, i) => i),
    format,
    relation,
  );
}

/** Rows [rows] of the raw table, class last. */
export function exportRaw(
  t: RawTable,
  rows: ArrayLike<number>,
  format: ExportFormat,
  values: ExportValues,
  relation: string,
): string {
  return render(rawColumns(t, values), rows, format, relation);
}

/** The class names as the exported files write them (labels, or codes 0..C-1). */
export function exportedClassNames(classLabels: readonly string[], values: ExportValues): string[] {
  return values === 'codes' ? classLabels.map((_, i) => String(i)) : [...classLabels];
}
