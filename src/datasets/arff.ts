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
 *
 * The few header lines go through the line-by-line declaration parser below; the @data section is scanned
 * once in place with charCodeAt/indexOf: a nominal or string value is hashed as it is scanned and interned
 * through its column's open-addressing table without slicing it (a string is made only for a value not seen
 * before) into a preallocated Int32Array; a number is parsed into a Float64Array. No per-row arrays or
 * per-line strings are built. Value errors (an undeclared nominal value, a non-number in a numeric column)
 * are remembered at their first offending row and reported after the scan, in the order a whole-file
 * reader checks them (structural errors on any row first, then the class column, then column by column),
 * so the messages and line numbers are those of the line-splitting reader this replaced.
 */
import { UserError } from '../util/errors.js';
import { baseName, findClassColumn, makeTable, parseNumber, sortLabels } from './columns.js';
import { numericColumn, type RawColumn, type RawTable } from './table.js';

interface ArffOptions {
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
  const q = s[i];
  let out = '';
  let j = i + 1;
  while (j < s.length) {
    const c = s[j];
    if (c === '\\' && j + 1 < s.length) {
      const e = s[j + 1];
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
  return m ? [m[1], m[2]] : ['', ''];
}

/** Strip an unquoted trailing '%' comment from a header line. */
function stripComment(s: string): string {
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
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

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const DQUOTE = 34;
const PERCENT = 37;
const SQUOTE = 39;
const COMMA = 44;
const QMARK = 63;
const BACKSLASH = 92;
const LBRACE = 123;

/** Exactly the characters String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator). */
function isTrimSpace(c: number): boolean {
  if (c <= SPACE) return c === SPACE || (c >= TAB && c <= CR);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** How a column's cells become codes: declared nominal labels, numbers, or interned strings sorted afterwards. */
const NOMINAL = 0;
const NUMERIC = 1;
const INTERNED = 2;

export function parseArff(text: string, opts: ArffOptions): RawTable {
  const file = opts.file;
  const n = text.length;
  // Line ends are \r\n, \n or \r; the next of each is cached so finding a line's end stays linear overall.
  let nextLf = -2;
  let nextCr = -2;
  const lineEnd = (pos: number): number => {
    if (nextLf !== -1 && nextLf < pos) nextLf = text.indexOf('\n', pos);
    if (nextCr !== -1 && nextCr < pos) nextCr = text.indexOf('\r', pos);
    const a = nextLf < 0 ? n : nextLf;
    const b = nextCr < 0 ? n : nextCr;
    return a < b ? a : b;
  };
  const afterEnd = (end: number): number =>
    text.charCodeAt(end) === CR && end + 1 < n && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;

  // Header: one declaration per line, up to @data.
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 0;
  const attrs: Attr[] = [];
  let dataStart = -1;
  while (pos <= n) {
    lineNo++;
    const end = lineEnd(pos);
    const s = stripComment(text.slice(pos, end)).trim();
    pos = end < n ? afterEnd(end) : n + 1;
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
        dataStart = pos;
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
  const names = attrs.map((a) => a.name);
  // A bad class column is reported after the rows are scanned (a malformed row is reported first).
  let classIdx = -1;
  let classError: unknown = null;
  try {
    classIdx = findClassColumn(names, file, opts.classColumn);
  } catch (e) {
    classError = e;
  }
  const kind = new Int8Array(m);
  const interners: Interner[] = [];
  for (let a = 0; a < m; a++) {
    const t = attrs[a].type;
    kind[a] = t.kind === 'nominal' ? NOMINAL : t.kind === 'numeric' && a !== classIdx ? NUMERIC : INTERNED;
    interners.push(new Interner(t.kind === 'nominal' ? t.labels : []));
  }
  // Rows to allocate for: the lines left (comment and blank lines included), so the columns rarely grow.
  let cap = 1;
  for (let k = text.indexOf('\n', pos); k >= 0; k = text.indexOf('\n', k + 1)) cap++;
  if (cap === 1) for (let k = text.indexOf('\r', pos); k >= 0; k = text.indexOf('\r', k + 1)) cap++;
  const scan = new DataScanner(
    text,
    file,
    names,
    kind,
    interners,
    classIdx,
    classIdx >= 0 && attrs[classIdx].type.kind === 'numeric',
    cap,
  );
  let rows = 0; // data rows, including those dropped for a missing class
  while (pos < n) {
    lineNo++;
    let ls = pos;
    let le = lineEnd(pos);
    pos = le < n ? afterEnd(le) : n;
    while (ls < le && isTrimSpace(text.charCodeAt(ls))) ls++;
    while (le > ls && isTrimSpace(text.charCodeAt(le - 1))) le--;
    if (ls === le) continue;
    const first = text.charCodeAt(ls);
    if (first === PERCENT) continue;
    if (first === LBRACE)
      throw new UserError(`${file}:${lineNo}: sparse ARFF rows are not supported; save the data as dense ARFF or CSV`);
    const count = scan.split(ls, le, lineNo);
    if (count === m + 1 && scan.lastIsWeight)
      throw new UserError(`${file}:${lineNo}: instance weights ({w}) are not supported`);
    if (count !== m) throw new UserError(`${file}:${lineNo}: row has ${count} values, ${m} attributes declared`);
    rows++;
    if (classIdx >= 0) scan.store(lineNo); // else only checking the rows; the class column error comes next
  }
  const kept = scan.kept;
  const errors = scan.errors;
  const codes = scan.codes;
  const nums = scan.nums;
  if (rows === 0) throw new UserError(`${file}: no data rows after @data`);
  if (classError !== null) throw classError;
  if (kept === 0) throw new UserError(`${file}: every row has a missing class value in attribute '${names[classIdx]}'`);
  for (let a = 0; a < m; a++) if (errors[a] !== null) throw new UserError(errors[a]!);

  const columns: RawColumn[] = [];
  let classLabels: string[] = [];
  let classColumn: Int32Array = new Int32Array(0);
  for (let a = 0; a < m; a++) {
    const attr = attrs[a];
    if (kind[a] === NUMERIC) {
      columns.push(numericColumn(attr.name, nums[a].length === kept ? nums[a] : nums[a].slice(0, kept)));
      continue;
    }
    const col = codes[a].length === kept ? codes[a] : codes[a].slice(0, kept);
    let labels: string[];
    if (attr.type.kind === 'nominal') {
      labels = attr.type.labels;
    } else {
      // Interned in order of appearance; relabel to the sorted order so codes do not depend on row order.
      const firstSeen = interners[a].labels;
      labels = sortLabels(firstSeen);
      const rank = new Int32Array(firstSeen.length);
      const at = new Map<string, number>();
      labels.forEach((l, i) => at.set(l, i));
      for (let i = 0; i < firstSeen.length; i++) rank[i] = at.get(firstSeen[i])!;
      for (let r = 0; r < kept; r++) {
        const c = col[r];
        if (c >= 0) col[r] = rank[c];
      }
    }
    if (a === classIdx) {
      classLabels = labels;
      classColumn = col;
    } else {
      columns.push({ name: attr.name, type: 'categorical', codes: col, labels });
    }
  }
  return makeTable(opts.name ?? baseName(file), columns, names[classIdx], classLabels, classColumn, rows - kept);
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of s[b, e). */
function hashOf(s: string, b: number, e: number): number {
  let h = FNV_OFFSET;
  for (let k = b; k < e; k++) h = Math.imul(h ^ s.charCodeAt(k), FNV_PRIME);
  return h;
}

/**
 * Strings to dense ids through an open-addressing table keyed by FNV-1a hashes, looked up by a span of
 * the text without slicing it: a value's string is built only the first time it is seen.
 */
class Interner {
  readonly labels: string[] = [];
  // Int32Array, not number[]: FNV hashes span all of int32, beyond V8's small integers.
  private hashes: Int32Array = new Int32Array(16);
  private slots: Int32Array;
  private mask: number;

  constructor(labels: readonly string[]) {
    let size = 16;
    while (size < labels.length * 4) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (const l of labels) this.add(l, hashOf(l, 0, l.length));
  }

  /** Id of s[b, e) (hash h), or -1. */
  find(s: string, b: number, e: number, h: number): number {
    const len = e - b;
    const slots = this.slots;
    const mask = this.mask;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = slots[slot] - 1;
      if (id < 0) return -1;
      if (this.hashes[id] !== h) continue;
      const l = this.labels[id];
      if (l.length !== len) continue;
      let k = 0;
      while (k < len && l.charCodeAt(k) === s.charCodeAt(b + k)) k++;
      if (k === len) return id;
    }
  }

  /** Add a value not present yet; returns its id. */
  add(v: string, h: number): number {
    const id = this.labels.length;
    this.labels.push(v);
    if (id === this.hashes.length) this.hashes = grow(this.hashes, id * 2);
    this.hashes[id] = h;
    if (this.labels.length * 2 > this.slots.length) {
      const size = this.slots.length * 2;
      this.slots = new Int32Array(size);
      this.mask = size - 1;
      for (let i = 0; i < this.labels.length; i++) this.place(i);
    } else this.place(id);
    return id;
  }

  private place(id: number): void {
    let slot = this.hashes[id] & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = id + 1;
  }
}

/**
 * The @data rows of one file: split() finds a row's fields in place (hashing each value as it goes),
 * store() interns them into the columns. Kept apart from parseArff so V8 optimizes these per-row methods
 * on their own rather than the whole reader through on-stack replacement.
 */
class DataScanner {
  // The current row's fields: text[begin, end) when the value is a plain span of the text (unquoted and
  // trimmed, or quoted without escapes), else the decoded string in decoded[] (quoted with escapes).
  private readonly begin: Int32Array;
  private readonly end: Int32Array;
  private readonly hashes: Int32Array;
  private readonly quoted: Uint8Array;
  private readonly decoded: (string | null)[];
  readonly errors: (string | null)[];
  codes: Int32Array[];
  nums: Float64Array[];
  lastIsWeight = false;
  kept = 0;
  private cap: number;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly names: readonly string[],
    private readonly kind: Int8Array,
    private readonly interners: readonly Interner[],
    private readonly classIdx: number,
    private readonly numericClass: boolean,
    cap: number,
  ) {
    const m = names.length;
    this.begin = new Int32Array(m);
    this.end = new Int32Array(m);
    this.hashes = new Int32Array(m);
    this.quoted = new Uint8Array(m);
    this.decoded = new Array<string | null>(m).fill(null);
    this.errors = new Array<string | null>(m).fill(null);
    this.cap = cap;
    this.codes = names.map((_, a) => new Int32Array(kind[a] === NUMERIC ? 0 : cap));
    this.nums = names.map((_, a) => new Float64Array(kind[a] === NUMERIC ? cap : 0));
  }

  /** Split the trimmed row text[ls, le) (an unquoted '%' ends it); returns the number of values. */
  split(ls: number, le: number, lineNo: number): number {
    const text = this.text;
    const m = this.names.length;
    let count = 0;
    let i = ls;
    for (;;) {
      let c = 0;
      while (i < le && ((c = text.charCodeAt(i)) === SPACE || c === TAB)) i++;
      let b: number;
      let e: number;
      let h = FNV_OFFSET;
      let dec: string | null = null;
      const q = i < le && (c === SQUOTE || c === DQUOTE);
      if (q) {
        b = i + 1;
        let j = b;
        let d = 0;
        while (j < le && (d = text.charCodeAt(j)) !== c && d !== BACKSLASH) {
          h = Math.imul(h ^ d, FNV_PRIME);
          j++;
        }
        if (j < le && d === c) {
          e = j;
          i = j + 1;
        } else {
          // An escape (or no closing quote on this line): decode as the header parser does.
          const [value, k] = readQuoted(text.slice(ls, le), i - ls, this.file, lineNo);
          dec = value;
          h = hashOf(value, 0, value.length);
          b = e = 0;
          i = ls + k;
        }
        while (i < le && ((c = text.charCodeAt(i)) === SPACE || c === TAB)) i++;
      } else {
        let j = i;
        while (j < le && (c = text.charCodeAt(j)) !== COMMA && c !== PERCENT) j++;
        b = i;
        e = j;
        while (e > b && isTrimSpace(text.charCodeAt(e - 1))) e--;
        while (b < e && isTrimSpace(text.charCodeAt(b))) b++;
        for (let k = b; k < e; k++) h = Math.imul(h ^ text.charCodeAt(k), FNV_PRIME);
        i = j;
      }
      if (count < m) {
        this.begin[count] = b;
        this.end[count] = e;
        this.hashes[count] = h;
        this.quoted[count] = q ? 1 : 0;
        this.decoded[count] = dec;
      }
      count++;
      this.lastIsWeight = !q && e > b && text.charCodeAt(b) === LBRACE;
      if (i >= le || text.charCodeAt(i) === PERCENT) return count;
      if (text.charCodeAt(i) !== COMMA)
        throw new UserError(`${this.file}:${lineNo}: unexpected '${text[i]}' after a quoted value`);
      i++;
    }
  }

  private missing(a: number): boolean {
    return this.quoted[a] === 0 && this.end[a] - this.begin[a] === 1 && this.text.charCodeAt(this.begin[a]) === QMARK;
  }

  private valueOf(a: number): string {
    return this.decoded[a] ?? this.text.slice(this.begin[a], this.end[a]);
  }

  /** Store the split row, unless its class is missing (then it is dropped). */
  store(lineNo: number): void {
    if (this.missing(this.classIdx)) return;
    const m = this.names.length;
    const r = this.kept;
    if (r === this.cap) {
      const cap = (this.cap *= 2);
      this.codes = this.codes.map((col) => (col.length === 0 ? col : grow(col, cap)));
      this.nums = this.nums.map((col) => (col.length === 0 ? col : growF(col, cap)));
    }
    const errors = this.errors;
    for (let a = 0; a < m; a++) {
      const missing = this.missing(a);
      const k = this.kind[a];
      if (k === NUMERIC) {
        let x = NaN;
        if (!missing) {
          const v = this.valueOf(a);
          x = parseNumber(v);
          if (Number.isNaN(x) && errors[a] === null) {
            errors[a] = `${this.file}:${lineNo}: attribute '${this.names[a]}' is numeric but has value '${v}'`;
          }
        }
        this.nums[a][r] = x;
        continue;
      }
      if (missing) {
        this.codes[a][r] = -1;
        continue;
      }
      const dec = this.decoded[a] ?? null;
      const h = this.hashes[a];
      const interner = this.interners[a];
      let code =
        dec === null ? interner.find(this.text, this.begin[a], this.end[a], h) : interner.find(dec, 0, dec.length, h);
      if (code < 0) {
        const v = this.valueOf(a);
        if (k === NOMINAL) {
          if (errors[a] === null)
            errors[a] = `${this.file}:${lineNo}: value '${v}' is not declared for nominal attribute '${this.names[a]}'`;
        } else {
          code = interner.add(v, h);
          // A numeric class: the first row with a new non-number is the first offending row.
          if (a === this.classIdx && this.numericClass && errors[a] === null && Number.isNaN(parseNumber(v))) {
            errors[a] = `${this.file}:${lineNo}: class attribute '${this.names[a]}' is numeric but has value '${v}'`;
          }
        }
      }
      this.codes[a][r] = code;
    }
    this.kept = r + 1;
  }
}

function grow(a: Int32Array, cap: number): Int32Array {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}

function growF(a: Float64Array, cap: number): Float64Array {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}
