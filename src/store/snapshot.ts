/**
 * A copy of a results database that a running task holds, for reading while it writes: DuckDB allows one
 * process to hold a file that is being written, so a reader (the explorer, `status`, `report`, `sql`,
 * `export`, `plan --estimate --db`, `check`) copies the file and its write-ahead log to a temporary folder
 * and reads the copy. The copy is what the writer had committed when it was taken (file first, then the log:
 * a checkpoint between the two leaves an earlier committed state, never a mixed one); a copy that cannot be
 * read is named as such by the caller, never guessed at.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface SnapshotCopy {
  /** The copy's path (its write-ahead log beside it). */
  readonly path: string;
  /** Delete the copy and its folder. */
  dispose(): void;
}

export function snapshotCopy(file: string): SnapshotCopy {
  const dir = mkdtempSync(join(tmpdir(), 'bnclab-snapshot-'));
  try {
    const path = join(dir, basename(file));
    copyFileSync(file, path);
    if (existsSync(`${file}.wal`)) copyFileSync(`${file}.wal`, `${path}.wal`);
    return { path, dispose: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The line a command prints (to stderr) when it read a snapshot. */
export function snapshotNote(file: string, holder: string): string {
  return `note: ${file} is being written by ${holder}; read from a snapshot copy of what it had stored`;
}
