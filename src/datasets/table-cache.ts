/**
 * A loaded, coded CSV table kept on disk in columnar binary form, so a later process reads its columns
 * straight into shared memory instead of parsing the file again: at 10^7 rows × 21 columns parsing costs
 * seconds of CPU, copying the ~260 MB of codes back a fraction of one (docs/performance.md).
 *
 * Entry `raw-table-1/<key>` in the cache folder (src/util/cache.ts), where key is the sha256 of the file's
 * sha256 and of everything else the table is made from (name, class column, declared types, ignored columns,
 * bnclab's version, this layout's, and the text of the modules that read and code the file: TABLE_CODE). So an
 * entry can never stand for another file, other settings or a table coded by other code; the
 * file's sha256 itself comes from the stamp-checked hash entry (a changed file is hashed, and so keyed, anew).
 * Layout: "BNCT" magic, a uint32 header length, the header (JSON: the table's names, labels, widths and
 * lengths), then the class column, each column's codes, and each numeric column's distinct values (float64),
 * in that order, byte for byte as in memory. A short or damaged entry is a miss. Only tables from files of at
 * least TABLE_CACHE_MIN_BYTES (64 KiB) are kept: below that, parsing is as cheap as reading the entry.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeColumn } from '../bn/data.js';
import { cacheDir, codeCacheKeyer } from '../util/cache.js';
import type { RawColumn, RawTable } from './table.js';

const KIND = 'raw-table-1';
const MAGIC = 0x54434e42; // "BNCT" little-endian
/** Files smaller than this (64 KiB, about 1,000 rows) are parsed each time. */
export const TABLE_CACHE_MIN_BYTES = 64 << 10;

interface Header {
  readonly name: string;
  readonly n: number;
  readonly className: string;
  readonly classLabels: readonly string[];
  readonly classWidth: number;
  readonly droppedRows: number;
  readonly columns: readonly {
    readonly name: string;
    readonly type: 'numeric' | 'categorical';
    readonly width: number;
    readonly labels?: readonly string[];
    readonly distinct?: number;
  }[];
}

/** The modules whose code turns a CSV file into the table, and this one (the entry's layout). */
const TABLE_CODE = ['datasets/csv', 'datasets/columns', 'datasets/table', 'bn/data', 'datasets/table-cache'];

/**
 * The entry's key: the file's content hash, every setting that shapes the table and the code that makes it;
 * undefined (the table is not kept) when that code cannot be read.
 */
export function tableCacheKey(sha256: string, settings: unknown): string | undefined {
  return codeCacheKeyer(KIND, TABLE_CODE)?.(sha256, JSON.stringify(settings));
}

function entryFile(key: string | undefined): string | null {
  const dir = cacheDir();
  return dir === null || key === undefined ? null : join(dir, KIND, key);
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function writeAll(fd: number, a: Uint8Array): void {
  for (let off = 0; off < a.length; ) off += writeSync(fd, a, off, a.length - off);
}

/** Store the table under key (temporary name, then rename); a failure only costs a later process time. */
export function writeTableCache(key: string | undefined, t: RawTable): void {
  const file = entryFile(key);
  if (file === null) return;
  const header: Header = {
    name: t.name,
    n: t.n,
    className: t.className,
    classLabels: t.classLabels,
    classWidth: t.classColumn.BYTES_PER_ELEMENT,
    droppedRows: t.droppedRows,
    columns: t.columns.map((c) =>
      c.type === 'numeric'
        ? { name: c.name, type: c.type, width: c.ids.BYTES_PER_ELEMENT, distinct: c.distinct.length }
        : { name: c.name, type: c.type, width: c.codes.BYTES_PER_ELEMENT, labels: c.labels },
    ),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const tmp = `${file}.${process.pid}.${Math.floor(performance.now() * 1000)}.tmp`;
  let fd: number | undefined;
  try {
    mkdirSync(join(cacheDir()!, KIND), { recursive: true });
    fd = openSync(tmp, 'w');
    const head = Buffer.alloc(8);
    head.writeUInt32LE(MAGIC, 0);
    head.writeUInt32LE(json.length, 4);
    writeAll(fd, head);
    writeAll(fd, json);
    writeAll(fd, bytesOf(t.classColumn));
    for (const c of t.columns) writeAll(fd, bytesOf(c.type === 'numeric' ? c.ids : c.codes));
    for (const c of t.columns) if (c.type === 'numeric') writeAll(fd, bytesOf(c.distinct));
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch {
    if (fd !== undefined) closeSync(fd);
  }
}

function sharedColumn(width: number, n: number): CodeColumn {
  const buffer = new SharedArrayBuffer(n * width);
  if (width === 1) return new Int8Array(buffer);
  if (width === 2) return new Int16Array(buffer);
  if (width === 4) return new Int32Array(buffer);
  throw new Error(`column width ${width}`);
}

/** The table stored under key, its columns in shared memory (as a CSV table read afresh), or undefined. */
export function readTableCache(key: string | undefined): RawTable | undefined {
  const file = entryFile(key);
  if (file === null) return undefined;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    let pos = 0;
    const fill = (a: ArrayBufferView): boolean => {
      const u = bytesOf(a);
      for (let off = 0; off < u.length; ) {
        const k = readSync(fd, u, off, u.length - off, pos);
        if (k === 0) return false;
        off += k;
        pos += k;
      }
      return true;
    };
    const head = Buffer.alloc(8);
    if (!fill(head) || head.readUInt32LE(0) !== MAGIC) return undefined;
    const json = Buffer.alloc(head.readUInt32LE(4));
    if (!fill(json)) return undefined;
    const h = JSON.parse(json.toString('utf8')) as Header;
    const expected =
      pos +
      h.n * h.classWidth +
      h.columns.reduce((s, c) => s + h.n * c.width + (c.type === 'numeric' ? 8 * c.distinct! : 0), 0);
    if (expected !== size) return undefined;
    const classColumn = sharedColumn(h.classWidth, h.n);
    if (!fill(classColumn)) return undefined;
    const codes = h.columns.map((c) => sharedColumn(c.width, h.n));
    for (const a of codes) if (!fill(a)) return undefined;
    const columns: RawColumn[] = [];
    for (let i = 0; i < h.columns.length; i++) {
      const c = h.columns[i];
      if (c.type === 'numeric') {
        const distinct = new Float64Array(c.distinct!);
        if (!fill(distinct)) return undefined;
        columns.push({ name: c.name, type: 'numeric', ids: codes[i], distinct });
      } else columns.push({ name: c.name, type: 'categorical', codes: codes[i], labels: [...c.labels!] });
    }
    return {
      name: h.name,
      n: h.n,
      columns,
      className: h.className,
      classLabels: h.classLabels,
      classColumn,
      droppedRows: h.droppedRows,
    };
  } catch {
    return undefined; // a damaged entry: the file is parsed afresh
  } finally {
    closeSync(fd);
  }
}
