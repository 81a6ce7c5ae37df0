/**
 * A test oracle for src/datasets/arff.ts, written from the ARFF format as that module documents it and
 * sharing none of its code: lines split first, each line tokenised with regular expressions, every row kept
 * as strings, then checked and coded column by column. Slow and plain on purpose. The only imports from
 * src/ build the table's column type (`numericColumn`) and the error class; the one-line messages are the
 * documented interface, so they are written out here as the reader words them.
 *
 * The order of errors is the documented one: the header as it is read; then any structural error of any
 * data row (a bad quote, sparse rows, weights, a wrong count); then no rows; then the class column; then
 * rows that all lack a class; then value errors column by column, each at its first offending kept row.
 */
import { basename } from 'node:path';
import type { RawColumn, RawTable } from '../../src/datasets/table.js';
import { numericColumn } from '../../src/datasets/table.js';
import { UserError } from '../../src/util/errors.js';

export interface OracleOptions {
  readonly file: string;
  readonly name?: string;
  readonly classColumn?: string;
}

type Kind = { kind: 'numeric' } | { kind: 'nominal'; labels: string[] } | { kind: 'string' };

interface Cell {
  readonly text: string;
  readonly quoted: boolean;
}

/** A quoted string at the start of s (quote ' or "), backslash escapes decoded; null when it never closes. */
const QUOTED = {
  "'": /^'((?:\\[\s\S]|[^'\\])*)'/,
  '"': /^"((?:\\[\s\S]|[^"\\])*)"/,
} as const;

function decodeEscapes(body: string): string {
  return body.replace(/\\([\s\S])/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}

function quotedAtStart(s: string, where: string): { value: string; rest: string } | null {
  const q = s[0];
  if (q !== "'" && q !== '"') return null;
  const m = QUOTED[q].exec(s);
  if (!m) throw new UserError(`${where}: unterminated quoted value`);
  return { value: decodeEscapes(m[1]), rest: s.slice(m[0].length) };
}

/** Comma-separated cells; an unquoted '%' ends the list; blanks and tabs around a quoted cell are ignored. */
function cells(s: string, where: string): Cell[] {
  const out: Cell[] = [];
  let rest = s;
  for (;;) {
    rest = rest.replace(/^[ \t]*/, '');
    const quoted = quotedAtStart(rest, where);
    if (quoted) {
      out.push({ text: quoted.value, quoted: true });
      rest = quoted.rest.replace(/^[ \t]*/, '');
    } else {
      const m = /^[^,%]*/.exec(rest)!;
      out.push({ text: m[0].trim(), quoted: false });
      rest = rest.slice(m[0].length);
    }
    if (rest === '' || rest[0] === '%') return out;
    if (rest[0] !== ',') throw new UserError(`${where}: unexpected '${rest[0]}' after a quoted value`);
    rest = rest.slice(1);
  }
}

/** A header line without its trailing comment: a '%' outside quotes (a backslash escapes inside them). */
function withoutComment(line: string): string {
  // An unclosed quote runs to the end of the line, a backslash at its very end included.
  const m = /^(?:[^'"%]|'(?:\\[\s\S]?|[^'\\])*(?:'|$)|"(?:\\[\s\S]?|[^"\\])*(?:"|$))*/.exec(line)!;
  return m[0];
}

/** The first word (quoted, or up to white space) and what follows it. */
function word(s: string, where: string): [string, string] {
  const t = s.trimStart();
  const quoted = quotedAtStart(t, where);
  if (quoted) return [quoted.value, quoted.rest];
  const m = /^(\S+)([\s\S]*)$/.exec(t);
  return m ? [m[1], m[2]] : ['', ''];
}

function attributeKind(name: string, typeText: string, where: string): Kind {
  const t = typeText.trim();
  if (t.startsWith('{')) {
    const close = t.lastIndexOf('}');
    if (close < 0) throw new UserError(`${where}: nominal attribute '${name}' has no closing '}'`);
    const inside = t.slice(1, close);
    const labels = inside.trim() === '' ? [] : cells(inside, where).map((c) => c.text);
    if (new Set(labels).size < labels.length)
      throw new UserError(`${where}: nominal attribute '${name}' declares a value twice`);
    return { kind: 'nominal', labels };
  }
  const keyword = (t.split(/\s/)[0] ?? '').toLowerCase();
  if (['numeric', 'real', 'integer'].includes(keyword)) return { kind: 'numeric' };
  if (keyword === 'string') return { kind: 'string' };
  if (keyword === 'date' || keyword === 'relational')
    throw new UserError(`${where}: attribute '${name}': ${keyword} attributes are not supported`);
  throw new UserError(`${where}: attribute '${name}' has unknown type '${t}'`);
}

/** A plain decimal number (no hex, no Infinity, no blanks), finite; else NaN. */
function decimal(s: string): number {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s)) return NaN;
  const x = Number(s);
  return Number.isFinite(x) ? x : NaN;
}

/** Distinct labels by numeric value when all are numbers (ties by code units), else by code units. */
function orderLabels(values: Iterable<string>): string[] {
  const labels = [...new Set(values)];
  const byUnits = (a: string, b: string): number => (a === b ? 0 : a < b ? -1 : 1);
  if (labels.length > 0 && labels.every((l) => !Number.isNaN(decimal(l))))
    return labels.sort((a, b) => decimal(a) - decimal(b) || byUnits(a, b));
  return labels.sort(byUnits);
}

function classColumnOf(names: string[], file: string, requested: string | undefined): number {
  if (requested !== undefined) {
    const i = names.indexOf(requested);
    if (i >= 0) return i;
    const shown = names.slice(0, 12).join(', ') + (names.length > 12 ? `, ... (${names.length} in all)` : '');
    throw new UserError(`${file}: class column '${requested}' not found (columns: ${shown})`);
  }
  if (names.includes('class')) return names.indexOf('class');
  const folded = names.map((n, i) => [n.toLowerCase(), i] as const).filter(([n]) => n === 'class');
  return folded.length === 1 ? folded[0][1] : names.length - 1;
}

export function parseArffOracle(text: string, opts: OracleOptions): RawTable {
  const file = opts.file;
  const lines = text.replace(/^\ufeff/, '').split(/\r\n|\n|\r/);
  const attrs: { name: string; kind: Kind; line: number }[] = [];
  let data = -1; // index of the first line after @data
  for (let i = 0; i < lines.length && data < 0; i++) {
    const where = `${file}:${i + 1}`;
    const s = withoutComment(lines[i]).trim();
    if (s === '') continue;
    if (s[0] !== '@') throw new UserError(`${where}: expected @relation, @attribute or @data, got '${s.slice(0, 40)}'`);
    const [keyword, rest] = word(s, where);
    const k = keyword.toLowerCase();
    if (k === '@data') data = i + 1;
    else if (k === '@attribute') {
      const [name, typeText] = word(rest, where);
      if (name === '') throw new UserError(`${where}: @attribute without a name`);
      attrs.push({ name, kind: attributeKind(name, typeText, where), line: i + 1 });
    } else if (k !== '@relation') throw new UserError(`${where}: unknown declaration '${keyword}'`);
  }
  if (attrs.length === 0)
    throw new UserError(
      data < 0
        ? `${file}: empty file (no @attribute declarations)`
        : `${file}: no @attribute declarations before @data`,
    );
  if (data < 0) throw new UserError(`${file}: no @data section`);
  const names = attrs.map((a) => a.name);
  const duplicate = attrs.find((a, i) => names.indexOf(a.name) !== i);
  if (duplicate) throw new UserError(`${file}:${duplicate.line}: duplicate attribute name '${duplicate.name}'`);

  // Every data row as cells, with its line number.
  const rows: { line: number; cells: Cell[] }[] = [];
  for (let i = data; i < lines.length; i++) {
    const where = `${file}:${i + 1}`;
    const s = lines[i].trim();
    if (s === '' || s[0] === '%') continue;
    if (s[0] === '{')
      throw new UserError(`${where}: sparse ARFF rows are not supported; save the data as dense ARFF or CSV`);
    const row = cells(s, where);
    const last = row[row.length - 1];
    if (row.length === attrs.length + 1 && !last.quoted && last.text.startsWith('{'))
      throw new UserError(`${where}: instance weights ({w}) are not supported`);
    if (row.length !== attrs.length)
      throw new UserError(`${where}: row has ${row.length} values, ${attrs.length} attributes declared`);
    rows.push({ line: i + 1, cells: row });
  }
  if (rows.length === 0) throw new UserError(`${file}: no data rows after @data`);
  const classIndex = classColumnOf(names, file, opts.classColumn);
  const isMissing = (c: Cell): boolean => !c.quoted && c.text === '?';
  const kept = rows.filter((r) => !isMissing(r.cells[classIndex]));
  if (kept.length === 0)
    throw new UserError(`${file}: every row has a missing class value in attribute '${names[classIndex]}'`);

  const columns: RawColumn[] = [];
  let classLabels: string[] = [];
  let classCodes = new Int32Array(0);
  attrs.forEach((attr, a) => {
    const values = kept.map((r) => (isMissing(r.cells[a]) ? null : r.cells[a].text));
    const firstBad = (bad: (v: string) => boolean): number => values.findIndex((v) => v !== null && bad(v));
    if (attr.kind.kind === 'numeric' && a !== classIndex) {
      const at = firstBad((v) => Number.isNaN(decimal(v)));
      if (at >= 0)
        throw new UserError(
          `${file}:${kept[at].line}: attribute '${attr.name}' is numeric but has value '${values[at]}'`,
        );
      columns.push(
        numericColumn(
          attr.name,
          Float64Array.from(values, (v) => (v === null ? NaN : decimal(v))),
        ),
      );
      return;
    }
    let labels: string[];
    if (attr.kind.kind === 'nominal') {
      const declared = attr.kind.labels;
      const at = firstBad((v) => !declared.includes(v));
      if (at >= 0)
        throw new UserError(
          `${file}:${kept[at].line}: value '${values[at]}' is not declared for nominal attribute '${attr.name}'`,
        );
      labels = declared;
    } else {
      if (attr.kind.kind === 'numeric') {
        const at = firstBad((v) => Number.isNaN(decimal(v)));
        if (at >= 0)
          throw new UserError(
            `${file}:${kept[at].line}: class attribute '${attr.name}' is numeric but has value '${values[at]}'`,
          );
      }
      labels = orderLabels(values.filter((v): v is string => v !== null));
    }
    const codes = Int32Array.from(values, (v) => (v === null ? -1 : labels.indexOf(v)));
    if (a === classIndex) {
      classLabels = labels;
      classCodes = codes;
    } else columns.push({ name: attr.name, type: 'categorical', codes, labels });
  });
  const base = basename(file);
  const dot = base.lastIndexOf('.');
  return {
    name: opts.name ?? (dot > 0 ? base.slice(0, dot) : base),
    n: kept.length,
    columns,
    className: names[classIndex],
    classLabels,
    classColumn: classCodes,
    droppedRows: rows.length - kept.length,
  };
}
