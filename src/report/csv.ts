/**
 * A small CSV reader for reference files of published numbers: RFC 4180 quoting, LF/CRLF, a leading BOM,
 * blank lines skipped, and lines starting with '#' kept apart as comments (provenance notes).
 */
import { UserError } from '../util/errors.js';

export interface CsvDocument {
  readonly header: readonly string[];
  /** Data records with the 1-based line where each starts. */
  readonly records: readonly { readonly fields: readonly string[]; readonly line: number }[];
  readonly comments: readonly string[];
}

export function readCsv(text: string, file: string): CsvDocument {
  const records: { fields: string[]; line: number }[] = [];
  const comments: string[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    // A comment or blank line (outside quotes) is skipped whole.
    if (text[i] === '#') {
      let j = i;
      while (j < n && text[j] !== '\n' && text[j] !== '\r') j++;
      comments.push(text.slice(i + 1, j).trim());
      i = j;
    }
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let any = false;
    for (;;) {
      if (i >= n) break;
      const ch = text[i];
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          quoted = false;
          i++;
          continue;
        }
        if (ch === '\n') line++;
        field += ch;
        i++;
        continue;
      }
      if (ch === '"' && field.trim() === '') {
        quoted = true;
        field = '';
        any = true;
        i++;
        continue;
      }
      if (ch === ',') {
        fields.push(field.trim());
        field = '';
        any = true;
        i++;
        continue;
      }
      if (ch === '\r' || ch === '\n') {
        i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
        line++;
        break;
      }
      field += ch;
      if (ch.trim() !== '') any = true;
      i++;
    }
    if (quoted) throw new UserError(`${file}:${start}: unterminated quoted field`);
    if (any || field.trim() !== '') {
      fields.push(field.trim());
      records.push({ fields, line: start });
    }
  }
  if (records.length === 0) throw new UserError(`${file}: no header line`);
  const [head, ...rest] = records;
  const header = head.fields.map((h) => h.toLowerCase());
  for (const r of rest) {
    if (r.fields.length !== header.length) {
      throw new UserError(`${file}:${r.line}: ${r.fields.length} fields, the header has ${header.length}`);
    }
  }
  return { header, records: rest, comments };
}
