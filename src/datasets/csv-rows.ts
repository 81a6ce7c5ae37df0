/**
 * A CSV text as rows of strings, with the rules of the table reader (csv.ts): RFC 4180 quoting ("" inside a
 * quoted field), CRLF or LF, a UTF-8 BOM skipped, unquoted fields trimmed, blank lines skipped. For inputs
 * read cell by cell against something fixed elsewhere (`bnclab predict` codes each cell against a model's
 * states), where the table reader's typing and its class column do not apply. Quoted cells are marked, so
 * a quoted "?" is a value, not a missing one, as in csv.ts.
 */
import { UserError } from '../util/errors.js';

export interface CsvRows {
  readonly header: readonly string[];
  /** rows[r][c]: the cell's text, or null when missing ('?' or empty, unquoted). */
  readonly rows: readonly (readonly (string | null)[])[];
}

export function csvRows(text: string, file: string, missing: readonly string[] = ['?', '']): CsvRows {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: { cells: (string | null)[]; line: number }[] = [];
  let cells: (string | null)[] = [];
  let line = 1;
  let startLine = 1;
  let i = 0;
  const n = src.length;
  const isMissing = new Set(missing);
  let blank = true;
  while (i <= n) {
    // one field
    while (i < n && (src[i] === ' ' || src[i] === '\t')) i++;
    let cell: string | null;
    if (src[i] === '"') {
      let out = '';
      i++;
      for (;;) {
        if (i >= n) throw new UserError(`${file}:${startLine}: a quoted field is not closed`);
        const ch = src[i];
        if (ch === '"') {
          if (src[i + 1] === '"') {
            out += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (ch === '\n') line++;
        out += ch;
        i++;
      }
      while (i < n && (src[i] === ' ' || src[i] === '\t')) i++;
      cell = out;
      blank = false;
    } else {
      let j = i;
      while (j < n && src[j] !== ',' && src[j] !== '\n' && src[j] !== '\r') j++;
      const raw = src.slice(i, j).trim();
      if (raw !== '') blank = false;
      cell = isMissing.has(raw) ? null : raw;
      i = j;
    }
    cells.push(cell);
    if (i < n && src[i] === ',') {
      i++;
      continue;
    }
    // end of record
    if (!(blank && cells.length === 1)) records.push({ cells, line: startLine });
    cells = [];
    blank = true;
    if (i < n && src[i] === '\r') i++;
    if (i < n && src[i] === '\n') i++;
    line++;
    startLine = line;
    if (i >= n) break;
  }
  if (records.length === 0) throw new UserError(`${file}: no header line`);
  const header = records[0].cells.map((c) => c ?? '');
  const rows = records.slice(1).map((r) => {
    if (r.cells.length !== header.length) {
      throw new UserError(`${file}:${r.line}: ${r.cells.length} fields, the header has ${header.length}`);
    }
    return r.cells;
  });
  return { header, rows };
}
