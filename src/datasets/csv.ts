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
import { isUtf8 } from 'node:buffer';
import { UserError } from '../util/errors.js';
import {
  baseName,
  findClassColumn,
  listNames,
  makeTable,
  parseNumber,
  sortLabels,
  type ColumnType,
} from './columns.js';
import { codeColumn, type CodeColumn } from '../bn/data.js';
import { rankOf, sortedDistinct, type RawColumn, type RawTable } from './table.js';

interface CsvOptions {
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

/**
 * A short unquoted field of printable ASCII without spaces (1 to 7 bytes, codes 33–126), which the byte
 * reader looks up without making a string: its first 4 bytes packed in base 128 as `lo`, the rest as `hi`
 * (0 when there are none). No byte is 0 in base 128, so every such field has its own pair, and lo > 0.
 */
const PACKED_MAX = 7;

/** The text of a packed field. */
function unpack(lo: number, hi: number): string {
  let out = '';
  for (let key = hi; key > 0; key >>>= 7) out = String.fromCharCode(key & 127) + out;
  for (let key = lo; key > 0; key >>>= 7) out = String.fromCharCode(key & 127) + out;
  return out;
}

/** Where tokenizeBytes stopped: the start of the first record not yet added, and its line. */
interface TokenizeEnd {
  readonly index: number;
  readonly line: number;
}

/** A CSV text (tests, small inputs): the table of its UTF-8 bytes, read as a file is. */
export function parseCsv(text: string, opts: CsvOptions): RawTable {
  return parseCsvBytes(Buffer.from(text, 'utf8'), opts);
}

/**
 * A file of at most this many bytes that arrives whole, with no quote character, is read by the string
 * built-ins (CsvPieceReader.parseText) instead of byte by byte: the byte reader is fast once V8 has
 * optimised it, but a short command reads small files before it has (the six files of the quickstart, about
 * 130 kB: 45–50 ms of CPU byte by byte in a new process, about 10 ms as text; docs/performance.md).
 */
const TEXT_PATH_MAX_BYTES = 1 << 20;
const LINE_END = /\r\n|\r|\n/;

/** Bytes parsed per step by parseCsvBytes. */
const CHUNK_BYTES = 16 << 20;

/**
 * The table of a CSV file's bytes, read in one pass over pieces of them: the whole text is never one string and no cell is kept as a string (each column is coded against its own
 * dictionary of distinct values as it is read), so a file of 10^7 rows reads in memory proportional to the
 * coded table.
 */
export function parseCsvBytes(
  bytes: Uint8Array,
  opts: CsvOptions,
  chunkBytes = CHUNK_BYTES,
  layout?: IdLayout,
): RawTable {
  const reader = new CsvPieceReader(opts, layout ?? { bytes: bytes.length });
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    reader.push(bytes.subarray(at, Math.min(at + chunkBytes, bytes.length)));
  }
  return reader.finish();
}

/**
 * parseCsvBytes for a file that arrives in pieces (src/datasets/load.ts reads it from disk 1 MiB at a
 * time, so the file's bytes are never all in memory either): push each piece in order, then finish().
 * Bytes that are not UTF-8 are a UserError naming the file.
 *
 * The bytes are split into records as they are (tokenizeBytes), not decoded into text first: a field
 * becomes a string only when it is not a short printable ASCII field (see PACKED_MAX) or when its value is new
 * to its column. Decoding each piece into a string and splitting that made several strings the size of the
 * piece per megabyte read, garbage that only a full collection frees (about 130 MiB of the peak of reading
 * 10^7 rows), and cost most of the reading time.
 */
export class CsvPieceReader {
  private readonly acc: CsvAccumulator;
  /** The bytes of a record not yet complete at the end of the last piece, then room for the next piece. */
  private work = Buffer.alloc(0);
  private carried = 0;
  private started = false;
  private line = 1;
  /** The file's size when known (-1 otherwise). */
  private readonly fileBytes: number;
  /** A small file that came whole in its first piece, kept for finish() (see TEXT_PATH_MAX_BYTES). */
  private whole: Buffer | undefined;

  /**
   * `size.bytes`, the file's size when known, bounds its rows (a row of c fields takes at least c bytes: c − 1
   * commas and a line end), so each column reserves room for that many rows up front and never moves; an
   * IdLayout instead sets the reservation and step (tests).
   */
  constructor(
    private readonly opts: CsvOptions,
    size: { readonly bytes: number } | IdLayout = { bytes: 0 },
  ) {
    this.acc = new CsvAccumulator(opts, size);
    this.fileBytes = 'bytes' in size ? size.bytes : -1;
  }

  push(bytes: Uint8Array): void {
    if (
      !this.started &&
      this.whole === undefined &&
      bytes.length === this.fileBytes &&
      bytes.length <= TEXT_PATH_MAX_BYTES
    ) {
      this.whole = Buffer.from(bytes); // a copy: the caller may reuse its buffer for the next piece
      return;
    }
    this.pushWhole();
    this.parse(bytes, false);
  }

  finish(): RawTable {
    const whole = this.whole;
    if (whole !== undefined && !whole.includes(QUOTE)) {
      this.whole = undefined;
      this.parseText(whole);
    } else {
      this.pushWhole();
      this.parse(new Uint8Array(0), true);
    }
    return this.acc.finish();
  }

  /** The file kept whole goes the usual way after all (it was not the whole file, or it has quotes). */
  private pushWhole(): void {
    const whole = this.whole;
    this.whole = undefined;
    if (whole !== undefined) this.parse(whole, false);
  }

  /**
   * A whole file without a quote character, read as text: decoded once, split into lines and fields by the
   * string built-ins, each field trimmed. Without quotes that is exactly what tokenizeBytes does (a field is
   * the text between commas and line ends, trimmed; a record of one empty field is blank), and it gives the
   * accumulator the same calls in the same order, so the table is the same (test/datasets/csv-stream.test.ts).
   */
  private parseText(buf: Buffer): void {
    this.started = true;
    const start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    if (!isUtf8(buf.subarray(start))) {
      throw new UserError(`${this.opts.file}: the file is not UTF-8 text; convert it (e.g. iconv -f latin1 -t utf-8)`);
    }
    const acc = this.acc;
    const lines = buf.toString('utf8', start).split(LINE_END);
    for (let l = 0; l < lines.length; l++) {
      const fields = lines[l].split(',');
      if (fields.length === 1 && fields[0].trim() === '') continue; // blank
      const line = this.line + l;
      if (!acc.hasHeader()) {
        acc.header(
          fields.map((f) => f.trim()),
          line,
        );
        continue;
      }
      const row = acc.rowIds();
      const width = Math.min(fields.length, row.length);
      for (let c = 0; c < width; c++) row[c] = acc.idOf(c, fields[c].trim());
      acc.addRow(fields.length, line);
    }
  }

  private parse(bytes: Uint8Array, last: boolean): void {
    // The piece goes after the carried bytes; with none carried it is read where it is.
    let buf: Buffer;
    if (this.carried === 0) {
      buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    } else {
      const need = this.carried + bytes.length;
      if (this.work.length < need) {
        const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * this.work.length));
        grown.set(this.work.subarray(0, this.carried));
        this.work = grown;
      }
      this.work.set(bytes, this.carried);
      buf = this.work.subarray(0, need);
    }
    const n = buf.length;
    let start = 0;
    if (!this.started) {
      // A leading byte-order mark is not data (as TextDecoder drops it); wait for 3 bytes to tell.
      if (n < 3 && !last) {
        this.carry(buf, 0, this.carried > 0);
        return;
      }
      this.started = true;
      if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
    }
    // Records end at an ASCII byte, so checking up to the last one never splits a character; the bytes after
    // it are carried and checked with the next piece.
    let checked = n;
    if (!last) while (checked > start && buf[checked - 1] >= 0x80) checked--;
    if (!isUtf8(buf.subarray(start, checked))) {
      throw new UserError(`${this.opts.file}: the file is not UTF-8 text; convert it (e.g. iconv -f latin1 -t utf-8)`);
    }
    const end = tokenizeBytes(buf, start, this.opts.file, this.acc, this.line, last);
    this.line = end.line;
    this.carry(buf, end.index, this.carried > 0);
  }

  /** Keep buf[from..] for the next piece; `inWork`: buf is the start of this.work (bytes were carried). */
  private carry(buf: Buffer, from: number, inWork: boolean): void {
    const rest = buf.length - from;
    if (rest > 0) {
      if (inWork) {
        this.work.copyWithin(0, from, buf.length);
      } else {
        if (this.work.length < rest) this.work = Buffer.allocUnsafeSlow(Math.max(rest, 2 * this.work.length, 1 << 16));
        this.work.set(buf.subarray(from));
      }
    }
    this.carried = rest;
  }
}

/**
 * Splits UTF-8 bytes (already checked to be UTF-8) into records from buf[start..] and adds them to acc, by the
 * rules at the top of this file. The header record goes to acc.header as a list of fields; each data record's
 * fields are looked up in their columns' dictionaries one by one and the record's ids are added when its
 * line end is reached (a record cut off by the end of a piece that is not the last is left for the next).
 */
function tokenizeBytes(
  buf: Buffer,
  start: number,
  file: string,
  acc: CsvAccumulator,
  firstLine: number,
  final: boolean,
): TokenizeEnd {
  const n = buf.length;
  let i = start;
  let line = firstLine;
  let row = acc.rowIds();
  while (i < n) {
    const recStart = i;
    const recLine = line;
    const header: string[] | null = acc.hasHeader() ? null : [];
    const width = row.length;
    let count = 0;
    let blank = true;
    for (;;) {
      let j = i;
      while (j < n && (buf[j] === SPACE || buf[j] === TAB)) j++;
      let lo = 0;
      let hi = 0;
      let value = '';
      if (j < n && buf[j] === QUOTE) {
        blank = false;
        const quoteLine = line;
        j++;
        let seg = j;
        for (;;) {
          if (j >= n) {
            if (!final) return { index: recStart, line: recLine };
            throw new UserError(`${file}:${quoteLine}: unterminated quoted field`);
          }
          const c = buf[j];
          if (c === QUOTE) {
            if (!final && j + 1 >= n) return { index: recStart, line: recLine };
            if (j + 1 < n && buf[j + 1] === QUOTE) {
              value += buf.toString('utf8', seg, j + 1);
              j += 2;
              seg = j;
              continue;
            }
            value += buf.toString('utf8', seg, j);
            j++;
            break;
          }
          if (c === LF || (c === CR && buf[j + 1] !== LF)) line++;
          j++;
        }
        while (j < n && (buf[j] === SPACE || buf[j] === TAB)) j++;
      } else {
        let k = j;
        let packable = header === null;
        for (; k < n; k++) {
          const c = buf[k];
          if (c === COMMA || c === CR || c === LF) break;
          if (packable) {
            if (c < 33 || c > 126 || k - j >= PACKED_MAX) packable = false;
            else if (k - j < 4) lo = (lo << 7) | c;
            else hi = (hi << 7) | c;
          }
        }
        if (packable && k > j) {
          // Nothing to trim: no byte of the field is whitespace.
          blank = false;
        } else {
          lo = 0;
          value = buf.toString('utf8', j, k).trim();
          if (value !== '' || count > 0 || (k < n && buf[k] === COMMA)) blank = false;
        }
        j = k;
      }
      // A record cut off by the end of a piece that is not the last is read again with the next piece; its
      // fields' new values are already in their dictionaries then, in the same order of first appearance.
      if (j >= n && !final) return { index: recStart, line: recLine };
      // A blank record (one empty field) adds nothing, not even '' to a dictionary.
      if (header) header.push(value);
      else if (!blank && count < width) row[count] = lo > 0 ? acc.packedId(count, lo, hi) : acc.idOf(count, value);
      count++;
      if (j >= n) {
        i = n;
        break;
      }
      const c = buf[j];
      if (!final && c === CR && j + 1 >= n) return { index: recStart, line: recLine };
      if (c === COMMA) {
        i = j + 1;
        continue;
      }
      if (c === CR || c === LF) {
        j += c === CR && buf[j + 1] === LF ? 2 : 1;
        line++;
        i = j;
        break;
      }
      // The character's bytes may run past the piece: read it with the next one.
      if (!final && j + 4 > n) return { index: recStart, line: recLine };
      throw new UserError(
        `${file}:${line}: unexpected character '${buf.toString('utf8', j, Math.min(n, j + 4))[0]}' after a closing quote`,
      );
    }
    if (blank) continue;
    if (header) {
      acc.header(header, recLine);
      row = acc.rowIds();
    } else {
      acc.addRow(count, recLine);
    }
  }
  return { index: n, line };
}

/**
 * How IdColumns grow: each column reserves room for `reserveRows` rows of address space (none of it memory
 * until written) and makes `stepRows` more rows usable at a time; a column that outgrows its reservation
 * moves to one four times larger. Reading a file, the reservation is the most rows it can hold (see
 * CsvPieceReader), so no column moves. Tests pass small numbers to exercise every path.
 */
interface IdLayout {
  readonly reserveRows: number;
  readonly stepRows: number;
}

/** A growable SharedArrayBuffer (ES2024; Node 20 has it, TypeScript's ES2022 library does not declare it). */
interface GrowableSab extends SharedArrayBuffer {
  grow(byteLength: number): void;
}
const GrowableSab = SharedArrayBuffer as unknown as new (
  length: number,
  opts: { maxByteLength: number },
) => GrowableSab;

const DEFAULT_LAYOUT: IdLayout = { reserveRows: 1 << 20, stepRows: 1 << 20 };

/**
 * A growable column of dictionary ids (-1 = missing) in a growable SharedArrayBuffer, in the narrowest
 * signed width the ids so far need (ids are handed out in increasing order, so it widens at most twice:
 * Int8 → Int16 → Int32). Growing the buffer in place copies nothing and leaves no garbage, and finish()
 * codes the column in place when the codes are as wide as the ids (always, unless rows were dropped), so
 * the table's column is this very buffer: reading a file of 10^7 rows never holds a column twice. The
 * buffer may end up to one step longer than the column; the bytes past the end are never touched, so they
 * take no memory.
 */
class IdColumn {
  length = 0;
  private max = 127;
  private reserve: number;
  private sab: GrowableSab;
  private data: CodeColumn;

  constructor(private readonly layout: IdLayout) {
    this.reserve = Math.max(1, layout.reserveRows);
    this.sab = this.allocate(this.reserve);
    this.data = this.view(0);
  }

  push(v: number): void {
    if (v > this.max) this.widen(v);
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }

  /** The ids of every row so far (a view: coding a column in place writes through it). */
  values(): CodeColumn {
    return this.view(this.length);
  }

  private grow(): void {
    const rows = this.length + Math.max(1, this.layout.stepRows);
    if (rows > this.reserve) this.move(this.data.subarray(0, this.length), Math.max(rows, 4 * this.reserve), rows);
    else this.sab.grow(rows * this.width());
    this.data = this.view(rows);
  }

  private widen(v: number): void {
    const old = this.data.subarray(0, this.length);
    const rows = this.data.length;
    this.max = v > 32767 ? 2147483647 : 32767;
    this.move(old, this.reserve, rows);
    this.data = this.view(rows);
  }

  /** Copy `old` into a new buffer of the current width reserving `reserve` rows, `rows` of them usable. */
  private move(old: CodeColumn, reserve: number, rows: number): void {
    this.reserve = reserve;
    this.sab = this.allocate(reserve);
    this.sab.grow(rows * this.width());
    this.view(old.length).set(old);
  }

  private allocate(reserve: number): GrowableSab {
    return new GrowableSab(0, { maxByteLength: reserve * this.width() });
  }

  private width(): number {
    return this.max > 32767 ? 4 : this.max > 127 ? 2 : 1;
  }

  private view(rows: number): CodeColumn {
    const w = this.width();
    if (w === 1) return new Int8Array(this.sab, 0, rows);
    if (w === 2) return new Int16Array(this.sab, 0, rows);
    return new Int32Array(this.sab, 0, rows);
  }
}

/**
 * Line of each data row, for messages: row r starts on line r + offset, where the offset changes only at a
 * blank line or a quoted line break, so only those changes are kept (nothing per row).
 */
class RowLines {
  private readonly rows: number[] = [];
  private readonly offsets: number[] = [];
  count = 0;
  push(line: number): void {
    const offset = line - this.count;
    if (this.offsets.length === 0 || this.offsets[this.offsets.length - 1] !== offset) {
      this.rows.push(this.count);
      this.offsets.push(offset);
    }
    this.count++;
  }
  lineOf(r: number): number {
    let lo = 0;
    let hi = this.rows.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.rows[mid] <= r) lo = mid;
      else hi = mid - 1;
    }
    return r + this.offsets[lo];
  }
}

const ABSENT = -2;

/**
 * Ids of packed fields (see PACKED_MAX): an open-addressing hash table on typed arrays, keyed by the pair
 * (lo, hi), several times faster than a Map for the millions of lookups of a large file. lo > 0 for every
 * key, so lo = 0 marks an empty slot.
 */
class PackedIds {
  private lo = new Int32Array(64);
  private hi = new Int32Array(64);
  private ids = new Int32Array(64);
  private size = 0;

  private slot(lo: number, hi: number): number {
    const mask = this.lo.length - 1;
    let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const k = this.lo[h];
      if ((k === lo && this.hi[h] === hi) || k === 0) return h;
      h = (h + 1) & mask;
    }
  }

  get(lo: number, hi: number): number {
    const h = this.slot(lo, hi);
    return this.lo[h] === lo ? this.ids[h] : ABSENT;
  }

  set(lo: number, hi: number, id: number): void {
    if (2 * (this.size + 1) > this.lo.length) {
      const [los, his, ids] = [this.lo, this.hi, this.ids];
      this.lo = new Int32Array(los.length * 2);
      this.hi = new Int32Array(los.length * 2);
      this.ids = new Int32Array(los.length * 2);
      for (let i = 0; i < los.length; i++) {
        if (los[i] !== 0) {
          const h = this.slot(los[i], his[i]);
          this.lo[h] = los[i];
          this.hi[h] = his[i];
          this.ids[h] = ids[i];
        }
      }
    }
    const h = this.slot(lo, hi);
    if (this.lo[h] !== lo) this.size++;
    this.lo[h] = lo;
    this.hi[h] = hi;
    this.ids[h] = id;
  }
}

/**
 * Collects records column by column: each cell becomes the index of its value in the column's dictionary
 * of distinct values (in order of first appearance; -1 = missing). finish() then types and encodes each
 * column exactly as the rules at the top of this file say, from its distinct values alone.
 */
class CsvAccumulator {
  private names: string[] | null = null;
  private dicts: Map<string, number>[] = [];
  private distinctValues: string[][] = [];
  private ids: (IdColumn | null)[] = [];
  private packed: PackedIds[] = [];
  private readonly lines = new RowLines();
  private readonly missing: Set<string>;

  constructor(
    private readonly opts: CsvOptions,
    private readonly size: { readonly bytes: number } | IdLayout = { bytes: 0 },
  ) {
    this.missing = new Set(opts.missing ?? ['?', '']);
  }

  /** The header record: the column names, and a dictionary and id column per column. */
  header(names: string[], line: number): void {
    checkHeader(names, this.opts.file, line);
    this.names = names;
    this.dicts = names.map(() => new Map([...this.missing].map((m) => [m, -1])));
    this.distinctValues = names.map(() => []);
    const size = this.size;
    const layout =
      'reserveRows' in size
        ? size
        : {
            ...DEFAULT_LAYOUT,
            reserveRows: Math.max(DEFAULT_LAYOUT.reserveRows, Math.ceil(size.bytes / names.length)),
          };
    this.ids = names.map(() => new IdColumn(layout));
    this.packed = names.map(() => new PackedIds());
  }

  /** Whether the header has been read (data records follow). */
  hasHeader(): boolean {
    return this.names !== null;
  }

  /** Where tokenizeBytes puts the ids of the record in hand, one per column (empty before the header). */
  private row = new Int32Array(0);
  rowIds(): Int32Array {
    if (this.names !== null && this.row.length !== this.names.length) this.row = new Int32Array(this.names.length);
    return this.row;
  }

  /** The id of a packed field (see PACKED_MAX) in column c. */
  packedId(c: number, lo: number, hi: number): number {
    const packed = this.packed[c];
    let id = packed.get(lo, hi);
    if (id === ABSENT) {
      id = this.idOf(c, unpack(lo, hi));
      packed.set(lo, hi, id);
    }
    return id;
  }

  /** Adds the record whose ids rowIds() holds: `fields` fields, starting on `line`. */
  addRow(fields: number, line: number): void {
    const row = this.row;
    if (fields !== row.length) {
      throw new UserError(`${this.opts.file}:${line}: row has ${fields} fields, header has ${row.length}`);
    }
    for (let c = 0; c < row.length; c++) this.ids[c]!.push(row[c]);
    this.lines.push(line);
  }

  /** The id of value v in column c's dictionary (added when new); -1 for a missing marker. */
  idOf(c: number, v: string): number {
    // The missing markers are in every dictionary as -1: one lookup per cell.
    const dict = this.dicts[c];
    let id = dict.get(v);
    if (id === undefined) {
      id = this.distinctValues[c].length;
      dict.set(v, id);
      this.distinctValues[c].push(v);
    }
    return id;
  }

  finish(): RawTable {
    const file = this.opts.file;
    const names = this.names;
    if (names === null) throw new UserError(`${file}: empty file (no header row)`);
    const total = this.lines.count;
    if (total === 0) throw new UserError(`${file}: no data rows after the header`);

    const types = this.opts.columnTypes ?? {};
    for (const name of Object.keys(types)) {
      if (!names.includes(name)) {
        throw new UserError(
          `${file}: column '${name}', declared ${types[name]} in the dataset's entry (its ${types[name]}: list), is not in the header (columns: ${listNames(names)})`,
        );
      }
    }

    const classIdx = findClassColumn(names, file, this.opts.classColumn);
    const classIds = this.ids[classIdx]!.values();
    let kept = 0;
    for (let r = 0; r < classIds.length; r++) if (classIds[r] >= 0) kept++;
    if (kept === 0) throw new UserError(`${file}: every row has a missing class value in column '${names[classIdx]}'`);
    const dropped = total - kept;
    // Kept rows are listed only when some are dropped (no row list for a complete file).
    let keep: Int32Array | null = null;
    if (dropped > 0) {
      keep = new Int32Array(kept);
      for (let r = 0, k = 0; r < classIds.length; r++) if (classIds[r] >= 0) keep[k++] = r;
    }

    const columns: RawColumn[] = [];
    for (let c = 0; c < names.length; c++) {
      if (c === classIdx) continue;
      columns.push(this.column(c, types[names[c]], keep));
      // This column's dictionary ids are done with: let them go before the next column is coded.
      this.ids[c] = null;
    }
    const cls = this.categorical(classIdx, keep);
    this.ids[classIdx] = null;
    if (cls.type !== 'categorical') throw new Error('unreachable: the class column is categorical');
    return makeTable(this.opts.name ?? baseName(file), columns, names[classIdx], cls.labels, cls.codes, dropped);
  }

  /** Which distinct values of column c the kept rows use. */
  private usedIds(c: number, keep: Int32Array | null): Uint8Array {
    const used = new Uint8Array(this.distinctValues[c].length);
    if (keep) {
      const all = this.ids[c]!.values();
      for (let k = 0; k < keep.length; k++) {
        const id = all[keep[k]];
        if (id >= 0) used[id] = 1;
      }
    } else {
      used.fill(1);
    }
    return used;
  }

  /**
   * Column c on the kept rows with each id replaced by remap[id] (-1 stays -1), as a column of `card`
   * values: written over the ids themselves when they are as wide as the codes need (kept row k comes from
   * row keep[k] >= k, so writing row k never overwrites an id still to be read), else into a new array.
   */
  private remapped(c: number, keep: Int32Array | null, remap: Int32Array, card: number): CodeColumn {
    const all = this.ids[c]!.values();
    const n = this.rowCount(keep);
    const fresh = codeColumn(card, 0, true);
    const out = fresh.BYTES_PER_ELEMENT === all.BYTES_PER_ELEMENT ? all.subarray(0, n) : codeColumn(card, n, true);
    if (keep) {
      for (let k = 0; k < n; k++) {
        const id = all[keep[k]];
        out[k] = id < 0 ? -1 : remap[id];
      }
    } else {
      for (let r = 0; r < n; r++) {
        const id = all[r];
        out[r] = id < 0 ? -1 : remap[id];
      }
    }
    return out;
  }

  private rowCount(keep: Int32Array | null): number {
    return keep ? keep.length : this.lines.count;
  }

  private column(c: number, declared: ColumnType | undefined, keep: Int32Array | null): RawColumn {
    const name = this.names![c];
    if (declared === 'categorical') return this.categorical(c, keep);
    const used = this.usedIds(c, keep);
    const distinctValues = this.distinctValues[c];
    const num = new Float64Array(distinctValues.length);
    let numeric = true;
    for (let d = 0; d < distinctValues.length; d++) {
      num[d] = parseNumber(distinctValues[d]);
      if (used[d] && Number.isNaN(num[d])) numeric = false;
    }
    if (!numeric) {
      if (declared === 'numeric') {
        // The first kept row with a value that is not a number, as a row-by-row reader would report it.
        const all = this.ids[c]!.values();
        const row = (k: number): number => (keep ? keep[k] : k);
        let k = 0;
        while (all[row(k)] < 0 || !Number.isNaN(num[all[row(k)]])) k++;
        throw new UserError(
          `${this.opts.file}:${this.lines.lineOf(row(k))}: column '${name}' is declared numeric in the dataset's entry but has value '${distinctValues[all[row(k)]]}'`,
        );
      }
      return this.categorical(c, keep);
    }
    // Ids become ranks among the distinct numbers the kept rows have ('1' and '1.0' are one number).
    const distinct = sortedDistinct(num.filter((_, d) => used[d] === 1));
    const remap = Int32Array.from(num, (v, d) => (used[d] ? rankOf(distinct, v) : -1));
    const ids = this.remapped(c, keep, remap, distinct.length);
    return { name, type: 'numeric', ids, distinct };
  }

  /** Column c as codes into its sorted labels (the class column too: one byte per row for up to 128 classes). */
  private categorical(c: number, keep: Int32Array | null): RawColumn {
    const used = this.usedIds(c, keep);
    const distinctValues = this.distinctValues[c];
    const labels = sortLabels(distinctValues.filter((_, d) => used[d]));
    const index = new Map(labels.map((l, i) => [l, i]));
    const remap = Int32Array.from(distinctValues, (v, d) => (used[d] ? index.get(v)! : -1));
    // Shared memory: the runner hands the table to its worker threads without copying it.
    const codes = this.remapped(c, keep, remap, labels.length);
    return { name: this.names![c], type: 'categorical', codes, labels };
  }
}

function checkHeader(names: string[], file: string, line: number): void {
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === '') throw new UserError(`${file}:${line}: header field ${i + 1} is empty (every column needs a name)`);
    if (seen.has(name)) throw new UserError(`${file}:${line}: duplicate column name '${name}' in the header`);
    seen.add(name);
  });
}
