/**
 * The line-splitting ARFF reader that src/datasets/arff.ts replaced (bnclab before the single-pass scanner),
 * kept verbatim as an oracle: test/datasets/arff-scan.test.ts checks that the new reader returns the same
 * table, or throws the same message, on real and randomly generated files.
 */
import { UserError } from '../../src/util/errors.js';
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
} from '../../src/datasets/columns.js';
import { numericColumn, type RawColumn, type RawTable } from '../../src/datasets/table.js';

// The header helpers (tokenising, quoting, @attribute parsing) did not change and are shared with the
// new reader; the oracle is the old line-splitting data section below.
import {
  firstToken,
  parseAttribute,
  splitValues,
  stripComment,
  type ArffOptions,
  type Attr,
} from '../../src/datasets/arff.js';

export function parseArffOracle(text: string, opts: ArffOptions): RawTable {
  const file = opts.file;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = src.split(/\r\n|\n|\r/);
  const attrs: Attr[] = [];
  let dataStart = -1;
  for (let li = 0; li < lines.length; li++) {
    const lineNo = li + 1;
    const s = stripComment(lines[li]!).trim();
    if (s === '') continue;
    if (!s.startsWith('@'))
      throw new UserError(`${file}:${lineNo}: expected @relation, @attribute or @data, got '${s.slice(0, 40)}'`);
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
    if (s.startsWith('{'))
      throw new UserError(`${file}:${lineNo}: sparse ARFF rows are not supported; save the data as dense ARFF or CSV`);
    const tokens = splitValues(s, file, lineNo);
    const last = tokens[tokens.length - 1];
    if (tokens.length === m + 1 && last && !last.quoted && last.value.startsWith('{')) {
      throw new UserError(`${file}:${lineNo}: instance weights ({w}) are not supported`);
    }
    if (tokens.length !== m)
      throw new UserError(`${file}:${lineNo}: row has ${tokens.length} values, ${m} attributes declared`);
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
  if (keep.length === 0)
    throw new UserError(`${file}: every row has a missing class value in attribute '${names[classIdx]}'`);
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
          throw new UserError(
            `${file}:${keptLines[r]}: value '${v}' is not declared for nominal attribute '${attr.name}'`,
          );
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
        if (Number.isNaN(x))
          throw new UserError(`${file}:${keptLines[r]}: attribute '${attr.name}' is numeric but has value '${v}'`);
        values[r] = x;
      }
      columns.push(numericColumn(attr.name, values));
      continue;
    } else {
      if (attr.type.kind === 'numeric') {
        for (let r = 0; r < col.length; r++) {
          if (Number.isNaN(parseNumber(col[r]!))) {
            throw new UserError(
              `${file}:${keptLines[r]}: class attribute '${attr.name}' is numeric but has value '${col[r]}'`,
            );
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
