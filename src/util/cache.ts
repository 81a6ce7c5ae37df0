/**
 * A small on-disk cache that lets a short process skip work an earlier process already did: parsing the
 * dataset registry, compiling the spec validator, rendering an unchanged figure, hashing an unchanged data
 * file. Every entry is keyed so that it can never give a wrong answer:
 *
 * - content entries (`readContent` / `writeContent`) are keyed by the sha256 of everything their value is
 *   computed from (the input text itself, plus a kind and the producing code's version), so a changed
 *   input is simply a different key;
 * - file-hash entries (`readFileHashed`) are keyed by the file's absolute path and hold its size, inode,
 *   modification and status-change times in nanoseconds; any difference means the file is read and hashed
 *   again. (The status-change time cannot be set back by a program, so rewriting a file with the same size
 *   and a restored modification time still invalidates the entry.)
 *
 * Folder: `$BNCLAB_CACHE_DIR` if set, else `node_modules/.cache/bnclab/` under bnclab's package root (the
 * conventional place for tool caches, ignored by git). `BNCLAB_CACHE_DIR=off` disables the cache. Deleting
 * the folder is always safe. A cache that cannot be written (read-only install, full disk) only costs
 * speed: the value was computed and is used either way, so a failed write is not an error.
 */
import { createHash, type Hash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BNCLAB_VERSION } from '../version.js';
import { packageRoot } from './paths.js';

let dirMemo: string | null | undefined;

/** The cache folder, or null when caching is off. */
export function cacheDir(): string | null {
  if (dirMemo !== undefined) return dirMemo;
  const env = process.env['BNCLAB_CACHE_DIR'];
  dirMemo = env === 'off' || env === '0' ? null : env ? env : join(packageRoot(), 'node_modules', '.cache', 'bnclab');
  return dirMemo;
}

/** Forget the memoized folder (tests that point BNCLAB_CACHE_DIR somewhere else). */
export function resetCacheDir(): void {
  dirMemo = undefined;
}

function entryPath(kind: string, key: string): string | null {
  const dir = cacheDir();
  return dir === null ? null : join(dir, kind, key);
}

/** The sha256 key of a content entry: kind, bnclab's version and every input that determines the value. */
export function contentCacheKey(kind: string, ...inputs: (string | Uint8Array)[]): string {
  const h = createHash('sha256').update(`${kind}\0${BNCLAB_VERSION}\0`);
  for (const x of inputs) feedInput(h, x);
  return h.digest('hex');
}

/**
 * `contentCacheKey(kind, ...first, ...rest)` as a function of `rest`: the first inputs are hashed once (the
 * hash's state copied for each key), for many keys that begin with the same large input (a module's text).
 */
export function contentCacheKeyer(
  kind: string,
  ...first: (string | Uint8Array)[]
): (...rest: (string | Uint8Array)[]) => string {
  const h = createHash('sha256').update(`${kind}\0${BNCLAB_VERSION}\0`);
  for (const x of first) feedInput(h, x);
  return (...rest) => {
    const c = h.copy();
    for (const x of rest) feedInput(c, x);
    return c.digest('hex');
  };
}

/**
 * `contentCacheKeyer(kind, <the texts of modules>)`, the texts read once per process and per kind; null (the
 * caller then does not cache) when a module's file cannot be read. `modules` are paths from the root of the
 * running code without extension ('datasets/csv'): tsc's output in dist/src/ (every file of dist/ stays tsc's
 * output, beside the bundle), or the TypeScript sources in src/ when running from them (the tests). So an
 * entry computed by other code (a changed module in a working tree, where bnclab's version is the same) is a
 * different key and never read.
 */
export function codeCacheKeyer(
  kind: string,
  modules: readonly string[],
): ((...rest: (string | Uint8Array)[]) => string) | null {
  let keyer = codeKeyers.get(kind);
  if (keyer === undefined) {
    const fromSource = fileURLToPath(import.meta.url).endsWith('.ts');
    const base = join(packageRoot(), fromSource ? 'src' : join('dist', 'src'));
    try {
      const texts = modules.map((m) => readFileSync(join(base, `${m}${fromSource ? '.ts' : '.js'}`), 'utf8'));
      keyer = contentCacheKeyer(kind, ...texts);
    } catch {
      keyer = null; // not a file layout bnclab knows: compute every time, as without the cache
    }
    codeKeyers.set(kind, keyer);
  }
  return keyer;
}
const codeKeyers = new Map<string, ((...rest: (string | Uint8Array)[]) => string) | null>();

function feedInput(h: Hash, x: string | Uint8Array): void {
  h.update(String(typeof x === 'string' ? x.length : x.byteLength));
  h.update('\0');
  h.update(x);
}

/**
 * The folder of content entries made by `npm run build` (scripts/prebuild-cache.mjs): the spec validators and
 * the parsed dataset registry, which depend only on what the package ships. Read after the cache folder, never
 * written at run time, so a fresh clone, a CI job or an emptied cache starts as fast as a warm one. Only
 * content entries live there (their key is the sha256 of their inputs, so they hold wherever they are read).
 */
export const SHIPPED_CACHE = join('dist', 'cache');
let shippedMemo: string | undefined;
function shippedDir(): string {
  shippedMemo ??= join(packageRoot(), SHIPPED_CACHE);
  return shippedMemo;
}

/** The cached text under (kind, key), or undefined on a miss. */
export function readContent(kind: string, key: string): string | undefined {
  const file = entryPath(kind, key);
  if (file === null) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // a miss: nothing cached yet (or the folder was removed); the build's entries may have it
  }
  try {
    return readFileSync(join(shippedDir(), kind, key), 'utf8');
  } catch {
    return undefined;
  }
}

/** Store text under (kind, key): written to a temporary name and renamed, so readers never see half a file. */
// Folders of kinds this process already made (a cold command writes a dozen entries; one mkdir a kind).
const madeDirs = new Set<string>();
let tmpSerial = 0;

export function writeContent(kind: string, key: string, text: string): void {
  const file = entryPath(kind, key);
  if (file === null) return;
  try {
    const dir = join(cacheDir()!, kind);
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    // Unique among processes (pid) and among one process's threads (the clock, in ns, and a serial
    // number); `process.hrtime` rather than `performance.now()`, which loads perf_hooks on first use.
    const tmp = `${file}.${process.pid}.${process.hrtime.bigint()}.${++tmpSerial}.tmp`;
    try {
      writeFileSync(tmp, text);
    } catch {
      // The folder was removed since this process made it: made again, once.
      madeDirs.delete(dir);
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
      writeFileSync(tmp, text);
    }
    renameSync(tmp, file);
  } catch {
    // Not cached: the caller already has the value; only a later process's speed is affected.
  }
}

/** JSON value cached under a content key; `compute` runs on a miss and its result is stored. */
export function cachedJson<T>(kind: string, key: string, compute: () => T): T {
  const hit = readContent(kind, key);
  if (hit !== undefined) {
    try {
      return JSON.parse(hit) as T;
    } catch {
      // A damaged entry (e.g. a disk filled mid-write on a system without atomic rename): recompute.
    }
  }
  const value = compute();
  writeContent(kind, key, JSON.stringify(value));
  return value;
}

interface FileStamp {
  readonly size: string;
  readonly ino: string;
  readonly mtimeNs: string;
  readonly ctimeNs: string;
}

function stampOf(s: { size: bigint; ino: bigint; mtimeNs: bigint; ctimeNs: bigint }): FileStamp {
  return { size: String(s.size), ino: String(s.ino), mtimeNs: String(s.mtimeNs), ctimeNs: String(s.ctimeNs) };
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/**
 * A file's bytes and their sha256. The hash comes from the cache when the file's size, inode, modification
 * and status-change times (nanoseconds), taken before and after reading it, both equal those recorded with
 * the hash; otherwise the bytes are hashed and the entry replaced. Throws what reading the file throws.
 */
export function readFileHashed(path: string): { bytes: Buffer; sha256: string } {
  const pieces: Buffer[] = [];
  const sha256 = readFileInPieces(path, (piece) => {
    pieces.push(Buffer.from(piece));
    return true;
  });
  return { bytes: Buffer.concat(pieces), sha256 };
}

/**
 * Bytes per piece of readFileInPieces. Small pieces keep the garbage of parsing small: each piece becomes a
 * string or two of twice its size, which only a full collection frees (measured on 10^6 rows × 21 columns:
 * peak RSS 339 MB with 16 MiB pieces, 227 MB with 1 MiB, at the same CPU time).
 */
const PIECE_BYTES = 1 << 20;

/**
 * Reads the file at path in pieces of 1 MiB, handing each to `onPiece` (valid only during the call), and
 * returns the file's sha256 (from the cache when the file's stamp matches a recorded hash); the file is
 * never whole in memory. `known(sha256)` is asked first when the hash is cached: when it returns true, the
 * file is not read at all (the caller already holds what it would make of it). `onPiece` returning false
 * stops it being called (the rest is still read for the hash).
 */
export function readFileInPieces(
  path: string,
  onPiece: (piece: Uint8Array, offset: number) => boolean,
  known?: (sha256: string) => boolean,
): string {
  const fd = openSync(path, 'r');
  try {
    const before = stampOf(fstatSync(fd, { bigint: true }));
    const cached = recordedHash(path, before);
    if (cached !== undefined && known?.(cached)) return cached;
    const hash = cached === undefined ? createHash('sha256') : null;
    const buf = Buffer.allocUnsafe(PIECE_BYTES);
    let offset = 0;
    let wanted = true;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const piece = buf.subarray(0, n);
      hash?.update(piece);
      if (wanted) wanted = onPiece(piece, offset);
      else if (!hash) break;
      offset += n;
    }
    const after = stampOf(fstatSync(fd, { bigint: true }));
    // A file that changed while it was read is hashed again next time (and its cached hash is not used).
    if (!sameStamp(before, after)) {
      if (cached !== undefined) throw new Error(`${path} changed while it was read`);
      return hash!.digest('hex');
    }
    if (cached !== undefined) return cached;
    const sha256 = hash!.digest('hex');
    // Only a file that did not change while it was read is recorded.
    writeContent(HASH_KIND, hashKey(path), JSON.stringify({ path, stamp: before, sha256 }));
    return sha256;
  } finally {
    closeSync(fd);
  }
}

const HASH_KIND = 'file-sha256';

function hashKey(path: string): string {
  return createHash('sha256').update(path).digest('hex');
}

/** The sha256 recorded for the file at path when it had exactly this stamp, or undefined. */
function recordedHash(path: string, stamp: FileStamp): string | undefined {
  const hit = readContent(HASH_KIND, hashKey(path));
  if (hit === undefined) return undefined;
  try {
    const e = JSON.parse(hit) as { path: string; stamp: FileStamp; sha256: string };
    if (e.path === path && sameStamp(e.stamp, stamp) && /^[0-9a-f]{64}$/.test(e.sha256)) return e.sha256;
  } catch {
    // damaged entry: the file is hashed afresh
  }
  return undefined;
}

/**
 * The sha256 of the file at path without reading it: the hash recorded when the file last had its present
 * size, inode and times, or undefined (never hashed, changed since, unreadable, or the cache is off).
 */
export function cachedFileHash(path: string): string | undefined {
  let stamp: FileStamp;
  try {
    stamp = stampOf(statSync(path, { bigint: true }));
  } catch {
    return undefined; // reading it reports the error
  }
  return recordedHash(path, stamp);
}
