/**
 * CSV reader (RFC 4180 with the usual relaxations) producing a RawTable.
 *
 * - The first non-blank record is the header; at least one data row must follow.
 * - Fields may be quoted with "..." ("" inside is a literal quote; commas and line breaks inside are kept).
 *   Unquoted fields are trimmed; quoted fields are kept verbatim (spaces around the quotes are ignored).
 * - LF, CRLF and lone CR line ends; a leading UTF-8 byte-order mark is ignored; blank lines are skipped.
 * - A field whose value is in `missing` (default '?' and the empty string) is missing, quoted or not.
 * - Column types come from `columnTypes` when listed there (the registry), else numeric when every
 *   non-missing value is a plain decimal number, else categorical. The class is always categorical.
 * - Categorical labels are the distinct values in sorted order (see sortLabels), so codes do not depend on
 *   row order. Rows whose class is missing are dropped and counted in droppedRows.
 */
import { UserError } from '../util/errors.js';
import {
  baseName,
  distinct,
  encode,
  findClassColumn,
  listNames,
  makeTable,
  parseNumber,
  pick,
  rowsWithClass,
  sortLabels,
  type ColumnType,
} from './columns.js';
import type { RawColumn, RawTable } from './table.js';

export interface CsvOptions {
  /** Path shown in error messages. */
  readonly file: string;
  /** Table name; defaults to the file name without extension. */
  readonly name?: string;
  /** Class column; default 'class' if present, else the last column. */
  readonly classColumn?: string;
  /** Declared types (from the registry); columns not listed are inferred. */
  readonly columnTypes?: Readonly<Record<string, ColumnType>>;
  /** Values meaning "missing"; default ['?', '']. */
  readonly missing?: readonly string[];
}

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;
const SPACE = 32;
const TAB = 9;

/** One record: field values and the 1-based line where it starts. */
type RecordSink = (fields: string[], line: number) => void;

/** Split text into records of unquoted fields; calls sink for every non-blank record. */
function tokenize(text: string, file: string, sink: RecordSink): void {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < n) {
    const recLine = line;
    const fields: string[] = [];
    let blank = true;
    for (;;) {
      let j = i;
      while (j < n && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) j++;
      if (j < n && text.charCodeAt(j) === QUOTE) {
        blank = false;
        const quoteLine = line;
        j++;
        let value = '';
        let seg = j;
        for (;;) {
          if (j >= n) throw new UserError(`${file}:${quoteLine}: unterminated quoted field`);
          const c = text.charCodeAt(j);
          if (c === QUOTE) {
            if (j + 1 < n && text.charCodeAt(j + 1) === QUOTE) {
              value += text.slice(seg, j + 1);
              j += 2;
              seg = j;
              continue;
            }
            value += text.slice(seg, j);
            j++;
            break;
          }
          if (c === LF || (c === CR && text.charCodeAt(j + 1) !== LF)) line++;
          j++;
        }
        while (j < n && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) j++;
        fields.push(value);
      } else {
        let k = j;
        for (; k < n; k++) {
          const c = text.charCodeAt(k);
          if (c === COMMA || c === CR || c === LF) break;
        }
        const value = text.slice(j, k).trim();
        if (value !== '' || fields.length > 0 || (k < n && text.charCodeAt(k) === COMMA)) blank = false;
        fields.push(value);
        j = k;
      }
      if (j >= n) {
        i = n;
        break;
      }
      const c = text.charCodeAt(j);
      if (c === COMMA) {
        i = j + 1;
        continue;
      }
      if (c === CR || c === LF) {
        j += c === CR && text.charCodeAt(j + 1) === LF ? 2 : 1;
        line++;
        i = j;
        break;
      }
      throw new UserError(`${file}:${line}: unexpected character '${text[j]}' after a closing quote`);
    }
    if (!blank) sink(fields, recLine);
  }
}

export function parseCsv(text: string, opts: CsvOptions): RawTable {
  const file = opts.file;
  const missing = new Set(opts.missing ?? ['?', '']);
  // Held in an object so the closure's assignment is visible to the type checker after tokenize returns.
  const head: { names: string[] | null } = { names: null };
  let cells: (string | null)[][] = [];
  const lines: number[] = [];
  tokenize(text, file, (fields, line) => {
    const header = head.names;
    if (header === null) {
      checkHeader(fields, file, line);
      head.names = fields;
      cells = fields.map(() => []);
      return;
    }
    if (fields.length !== header.length) {
      throw new UserError(`${file}:${line}: row has ${fields.length} fields, header has ${header.length}`);
    }
    for (let c = 0; c < fields.length; c++) {
      const v = fields[c]!;
      cells[c]!.push(missing.has(v) ? null : v);
    }
    lines.push(line);
  });
  const names = head.names;
  if (names === null) throw new UserError(`${file}: empty file (no header row)`);
  if (lines.length === 0) throw new UserError(`${file}: no data rows after the header`);

  const types = opts.columnTypes ?? {};
  for (const name of Object.keys(types)) {
    if (!names.includes(name)) {
      throw new UserError(`${file}: column '${name}' declared in the registry is not in the header (columns: ${listNames(names)})`);
    }
  }

  const classIdx = findClassColumn(names, file, opts.classColumn);
  const keep = rowsWithClass(cells[classIdx]!);
  if (keep.length === 0) throw new UserError(`${file}: every row has a missing class value in column '${names[classIdx]}'`);
  const dropped = lines.length - keep.length;
  const keptLines = pick(lines, keep);

  const columns: RawColumn[] = [];
  for (let c = 0; c < names.length; c++) {
    if (c === classIdx) continue;
    const name = names[c]!;
    const col = dropped > 0 ? pick(cells[c]!, keep) : cells[c]!;
    columns.push(buildColumn(name, col, types[name], file, keptLines));
  }
  const classCells = pick(cells[classIdx]!, keep);
  const classLabels = sortLabels(distinct(classCells));
  return makeTable(
    opts.name ?? baseName(file),
    columns,
    names[classIdx]!,
    classLabels,
    encode(classCells, classLabels),
    dropped,
  );
}

function checkHeader(names: string[], file: string, line: number): void {
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === '') throw new UserError(`${file}:${line}: header field ${i + 1} is empty (every column needs a name)`);
    if (seen.has(name)) throw new UserError(`${file}:${line}: duplicate column name '${name}' in the header`);
    seen.add(name);
  });
}

function buildColumn(
  name: string,
  col: (string | null)[],
  declared: ColumnType | undefined,
  file: string,
  lines: number[],
): RawColumn {
  const n = col.length;
  if (declared === 'categorical') return categorical(name, col);
  const values = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const s = col[r];
    if (s === null || s === undefined) {
      values[r] = NaN;
      continue;
    }
    const v = parseNumber(s);
    if (Number.isNaN(v)) {
      if (declared === 'numeric') {
        throw new UserError(`${file}:${lines[r]}: column '${name}' is numeric in the registry but has value '${s}'`);
      }
      return categorical(name, col);
    }
    values[r] = v;
  }
  return { name, type: 'numeric', values };
}

function categorical(name: string, col: (string | null)[]): RawColumn {
  const labels = sortLabels(distinct(col));
  return { name, type: 'categorical', codes: encode(col, labels), labels };
}
