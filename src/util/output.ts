/**
 * Files a command writes for the user (`fit --out`, `export --out`, the report's files): never over the
 * results database or an input, never over another existing file without `--force` (as git refuses to
 * overwrite), and always through a temporary file in the same folder renamed into place, so a full disk, a
 * kill or a failed write leaves the old file (or none) and never a partial one.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EXIT, UserError } from './errors.js';

/** The cause of a failed file operation in words, with its code: "read-only file system (EROFS)". */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOSPC: 'no space left on the disk',
    EDQUOT: 'disk quota exceeded',
    ENOENT: 'no such file or folder',
    ENOTDIR: 'a part of the path is not a folder',
    EISDIR: 'is a folder',
    EMFILE: 'too many open files',
    EFBIG: 'file too large',
    EIO: 'input/output error',
  };
  if (err?.code && words[err.code]) return `${words[err.code]} (${err.code})`;
  const msg = err instanceof Error ? err.message.split('\n')[0] : String(e);
  // DuckDB's file errors carry the system's text ("No space left on device", "Read-only file system").
  if (/no space left/i.test(msg)) return `no space left on the disk (${msg})`;
  if (/read-only file system/i.test(msg)) return `read-only file system (${msg})`;
  if (/permission denied/i.test(msg)) return `permission denied (${msg})`;
  return msg;
}

/** Whether two paths name the same file (following symbolic links where the file exists). */
export function sameFile(a: string, b: string): boolean {
  return realPath(a) === realPath(b);
}

/**
 * The absolute path of a file with every symbolic link followed, or its absolute path as given where it does
 * not exist. The C library's realpath (one system call) rather than Node's, which examines each component
 * of the path in turn.
 */
export function realPath(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
}

interface OutputCheck {
  /** The option that named the file, for the messages ("--out"). */
  readonly option: string;
  /** Overwrite an existing file (never a protected one). */
  readonly force?: boolean;
  /** Files that must never be overwritten: the results database, the spec, the data. */
  readonly protect?: readonly { readonly path: string; readonly what: string }[];
  readonly exitCode?: number;
}

/**
 * Check, before any work, that `file` may be written: its folder exists, it is not a folder, not a protected
 * file, and not an existing file unless --force. Returns the absolute path.
 */
export function checkOutputFile(file: string, c: OutputCheck): string {
  const path = resolve(file);
  const code = c.exitCode ?? EXIT.usage;
  for (const p of c.protect ?? []) {
    if (sameFile(path, p.path))
      throw new UserError(`${c.option} ${file}: that is ${p.what}; refusing to overwrite it`, code);
  }
  const dir = dirname(path);
  let dirStat;
  try {
    dirStat = statSync(dir);
  } catch (e) {
    throw new UserError(`${c.option} ${file}: the folder ${dir} cannot be used: ${describeFsError(e)}`, code);
  }
  if (!dirStat.isDirectory()) throw new UserError(`${c.option} ${file}: ${dir} is not a folder`, code);
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw new UserError(`${c.option} ${file}: is a folder, not a file`, code);
    if (!c.force) throw new UserError(`${c.option} ${file}: the file exists; use --force to overwrite it`, code);
  }
  return path;
}

/** A temporary name beside `path` (same folder, so the rename is atomic on the same file system). */
function temporaryBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
}

/**
 * Produce `path` through a temporary file: `write(tmp)` writes it, then it is renamed over `path`. On any
 * failure the temporary file is removed and the failure is one line naming the file and the cause.
 */
export async function writeThroughTemporary(
  path: string,
  write: (tmp: string) => void | Promise<void>,
  exitCode: number = EXIT.usage,
): Promise<void> {
  const tmp = temporaryBeside(path);
  try {
    await write(tmp);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (e instanceof UserError) throw e;
    throw new UserError(`cannot write ${path}: ${describeFsError(e)}`, exitCode);
  }
}

/**
 * Write `data` to `path` through a temporary file, synced to disk before the rename unless `sync` is false
 * (the report's many files: a failed write still leaves no partial file, only a power cut could).
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  exitCode: number = EXIT.usage,
  sync = true,
): void {
  const tmp = temporaryBeside(path);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'w');
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    if (sync) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw new UserError(`cannot write ${path}: ${describeFsError(e)}`, exitCode);
  }
}

/**
 * Whether `path` is a file that already holds exactly `bytes`, so that writing them again would change
 * nothing but its time. A missing or unreadable file, or one of another size, does not.
 */
export function holdsBytes(path: string, bytes: Uint8Array): boolean {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isFile() === true && stat.size === bytes.byteLength && readFileSync(path).equals(bytes);
  } catch {
    return false; // unreadable: written as any other file, which reports its own failure
  }
}

/**
 * Create a folder and its parents. Node's recursive mkdir reports a read-only or forbidden parent as ENOENT
 * (it retries the parent, which exists); the error thrown here carries the real cause: the nearest existing
 * ancestor that cannot be written (EROFS, EACCES) or is a file (ENOTDIR).
 */
export function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw explainMkdirFailure(dir, e);
  }
}

function explainMkdirFailure(dir: string, e: unknown): unknown {
  const err = e as NodeJS.ErrnoException;
  if (err.code !== 'ENOENT' && err.code !== 'EEXIST') return e;
  let at = resolve(dir);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    if (!statSync(at).isDirectory()) {
      return Object.assign(new Error(`${at} is a file`), { code: 'ENOTDIR', path: at });
    }
    accessSync(at, constants.W_OK);
  } catch (inner) {
    const c = (inner as NodeJS.ErrnoException).code;
    if (c) return Object.assign(new Error(`${at}: ${c}`), { code: c, path: at });
  }
  return e;
}
