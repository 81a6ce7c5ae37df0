/**
 * ARFF reader (Weka's attribute-relation file format) producing a RawTable.
 *
 * Supported: @relation, @attribute with numeric/real/integer, nominal {a, b, 'c d'} and string types,
 * @data with dense comma-separated rows, '%' comments, blank lines, names and values quoted with ' or "
 * (backslash escapes as Weka writes them), '?' for missing (a quoted '?' is the literal value).
 * Nominal labels keep their declaration order (including values that never occur); string attributes
 * become categorical with sorted labels like CSV columns. A numeric class is turned into a categorical one
 * (labels = distinct values in numeric order), as the CSV reader does. Sparse rows, instance weights, date
 * and relational attributes are rejected with a UserError.
 */
import { UserError } from '../util/errors.js';
import {
  baseName,
  distinct,
  encode,
  findClassColumn,
  makeTable,
  parseNumber,
  pick,
  rowsWithClass,
  sortLabels,
} from './columns.js';
import type { RawColumn, RawTable } from './table.js';

export interface ArffOptions {
  readonly file: string;
  /** Table name; defaults to the file name without extension. */
  readonly name?: string;
  /** Class attribute; default 'class' if present, else the last attribute. */
  readonly classColumn?: string;
}

type AttrKind = { kind: 'numeric' } | { kind: 'nominal'; labels: string[] } | { kind: 'string' };

interface Attr {
  readonly name: string;
  readonly type: AttrKind;
  readonly line: number;
}

interface Token {
  readonly value: string;
  readonly quoted: boolean;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r' };

/** Read a quoted token starting at s[i] (the quote); returns the value and the index after the closing quote. */
function readQuoted(s: string, i: number, file: string, line: number): [string, number] {
  const q = s[i]!;
  let out = '';
  let j = i + 1;
  while (j < s.length) {
    const c = s[j]!;
    if (c === '\\' && j + 1 < s.length) {
      const e = s[j + 1]!;
      out += ESCAPES[e] ?? e;
      j += 2;
      continue;
    }
    if (c === q) return [out, j + 1];
    out += c;
    j++;
  }
  throw new UserError(`${file}:${line}: unterminated quoted value`);
}

/** Split a comma-separated list (a data row or the inside of {...}); an unquoted '%' ends the line. */
function splitValues(s: string, file: string, line: number): Token[] {
  const out: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    if (i < s.length && (s[i] === "'" || s[i] === '"')) {
      const [v, j] = readQuoted(s, i, file, line);
      out.push({ value: v, quoted: true });
      i = j;
      while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    } else {
      let j = i;
      while (j < s.length && s[j] !== ',' && s[j] !== '%') j++;
      out.push({ value: s.slice(i, j).trim(), quoted: false });
      i = j;
    }
    if (i >= s.length || s[i] === '%') return out;
    if (s[i] !== ',') throw new UserError(`${file}:${line}: unexpected '${s[i]}' after a quoted value`);
    i++;
  }
}

/** First word of s (quoted or up to whitespace) and the rest. */
function firstToken(s: string, file: string, line: number): [string, string] {
  const t = s.trimStart();
  if (t[0] === "'" || t[0] === '"') {
    const [v, j] = readQuoted(t, 0, file, line);
    return [v, t.slice(j)];
  }
  const m = /^(\S+)(.*)$/s.exec(t);
  return m ? [m[1]!, m[2]!] : ['', ''];
}

/** Strip an unquoted trailing '%' comment from a header line. */
function stripComment(s: string): string {
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (q) {
      if (c === '\\') i++;
      else if (c === q) q = null;
    } else if (c === "'" || c === '"') q = c;
    else if (c === '%') return s.slice(0, i);
  }
  return s;
}

function parseAttribute(rest: string, file: string, line: number): Attr {
  const [name, typeText] = firstToken(rest, file, line);
  if (name === '') throw new UserError(`${file}:${line}: @attribute without a name`);
  const t = typeText.trim();
  if (t.startsWith('{')) {
    const close = t.lastIndexOf('}');
    if (close < 0) throw new UserError(`${file}:${line}: nominal attribute '${name}' has no closing '}'`);
    const inner = t.slice(1, close);
    const labels = inner.trim() === '' ? [] : splitValues(inner, file, line).map((tk) => tk.value);
    if (new Set(labels).size !== labels.length) {
      throw new UserError(`${file}:${line}: nominal attribute '${name}' declares a value twice`);
    }
    return { name, type: { kind: 'nominal', labels }, line };
  }
  const kw = (/^\S+/.exec(t)?.[0] ?? '').toLowerCase();
  if (kw === 'numeric' || kw === 'real' || kw === 'integer') return { name, type: { kind: 'numeric' }, line };
  if (kw === 'string') return { name, type: { kind: 'string' }, line };
  if (kw === 'date' || kw === 'relational') {
    throw new UserError(`${file}:${line}: attribute '${name}': ${kw} attributes are not supported`);
  }
  throw new UserError(`${file}:${line}: attribute '${name}' has unknown type '${t}'`);
}

export function parseArff(text: string, opts: ArffOptions): RawTable {
  const file = opts.file;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = src.split(/\r\n|\n|\r/);
  const attrs: Attr[] = [];
  let dataStart = -1;
  for (let li = 0; li < lines.length; li++) {
    const lineNo = li + 1;
    const s = stripComment(lines[li]!).trim();
    if (s === '') continue;
    if (!s.startsWith('@')) throw new UserError(`${file}:${lineNo}: expected @relation, @attribute or @data, got '${s.slice(0, 40)}'`);
    const [kw, rest] = firstToken(s, file, lineNo);
    switch (kw.toLowerCase()) {
      case '@relation':
        break;
      case '@attribute':
        attrs.push(parseAttribute(rest, file, lineNo));
        break;
      case '@data':
        dataStart = li + 1;
        break;
      default:
        throw new UserError(`${file}:${lineNo}: unknown declaration '${kw}'`);
    }
    if (dataStart >= 0) break;
  }
  if (attrs.length === 0 && dataStart < 0) throw new UserError(`${file}: empty file (no @attribute declarations)`);
  if (attrs.length === 0) throw new UserError(`${file}: no @attribute declarations before @data`);
  if (dataStart < 0) throw new UserError(`${file}: no @data section`);
  const seen = new Set<string>();
  for (const a of attrs) {
    if (seen.has(a.name)) throw new UserError(`${file}:${a.line}: duplicate attribute name '${a.name}'`);
    seen.add(a.name);
  }

  const m = attrs.length;
  const cells: (string | null)[][] = attrs.map(() => []);
  const rowLines: number[] = [];
  for (let li = dataStart; li < lines.length; li++) {
    const lineNo = li + 1;
    const raw = lines[li]!;
    const s = raw.trim();
    if (s === '' || s.startsWith('%')) continue;
    if (s.startsWith('{')) throw new UserError(`${file}:${lineNo}: sparse ARFF rows are not supported; save the data as dense ARFF or CSV`);
    const tokens = splitValues(s, file, lineNo);
    const last = tokens[tokens.length - 1];
    if (tokens.length === m + 1 && last && !last.quoted && last.value.startsWith('{')) {
      throw new UserError(`${file}:${lineNo}: instance weights ({w}) are not supported`);
    }
    if (tokens.length !== m) throw new UserError(`${file}:${lineNo}: row has ${tokens.length} values, ${m} attributes declared`);
    for (let a = 0; a < m; a++) {
      const tk = tokens[a]!;
      cells[a]!.push(!tk.quoted && tk.value === '?' ? null : tk.value);
    }
    rowLines.push(lineNo);
  }
  if (rowLines.length === 0) throw new UserError(`${file}: no data rows after @data`);

  const names = attrs.map((a) => a.name);
  const classIdx = findClassColumn(names, file, opts.classColumn);
  const keep = rowsWithClass(cells[classIdx]!);
  if (keep.length === 0) throw new UserError(`${file}: every row has a missing class value in attribute '${names[classIdx]}'`);
  const dropped = rowLines.length - keep.length;
  const keptLines = pick(rowLines, keep);

  const columns: RawColumn[] = [];
  let classLabels: string[] = [];
  let classColumn: Int32Array = new Int32Array(0);
  for (let a = 0; a < m; a++) {
    const attr = attrs[a]!;
    const col = dropped > 0 ? pick(cells[a]!, keep) : cells[a]!;
    const isClass = a === classIdx;
    let labels: string[];
    if (attr.type.kind === 'nominal') {
      labels = attr.type.labels;
      const index = new Set(labels);
      for (let r = 0; r < col.length; r++) {
        const v = col[r];
        if (v !== null && v !== undefined && !index.has(v)) {
          throw new UserError(`${file}:${keptLines[r]}: value '${v}' is not declared for nominal attribute '${attr.name}'`);
        }
      }
    } else if (attr.type.kind === 'numeric' && !isClass) {
      const values = new Float64Array(col.length);
      for (let r = 0; r < col.length; r++) {
        const v = col[r];
        if (v === null || v === undefined) {
          values[r] = NaN;
          continue;
        }
        const x = parseNumber(v);
        if (Number.isNaN(x)) throw new UserError(`${file}:${keptLines[r]}: attribute '${attr.name}' is numeric but has value '${v}'`);
        values[r] = x;
      }
      columns.push({ name: attr.name, type: 'numeric', values });
      continue;
    } else {
      if (attr.type.kind === 'numeric') {
        for (let r = 0; r < col.length; r++) {
          if (Number.isNaN(parseNumber(col[r]!))) {
            throw new UserError(`${file}:${keptLines[r]}: class attribute '${attr.name}' is numeric but has value '${col[r]}'`);
          }
        }
      }
      labels = sortLabels(distinct(col));
    }
    const codes = encode(col, labels);
    if (isClass) {
      classLabels = labels;
      classColumn = codes;
    } else {
      columns.push({ name: attr.name, type: 'categorical', codes, labels });
    }
  }
  return makeTable(opts.name ?? baseName(file), columns, names[classIdx]!, classLabels, classColumn, dropped);
}
