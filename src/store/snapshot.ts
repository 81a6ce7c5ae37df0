/**
 * A copy of a results database that a running task holds, for reading while it writes: DuckDB allows one
 * process to hold a file that is being written, so a reader (the explorer, `status`, `report`, `sql`,
 * `export`, `plan --estimate --db`, `check`) copies the file and its write-ahead log to a temporary folder
 * and reads the copy: what the writer had committed when it was taken (file first, then the log). A copy
 * taken during a checkpoint may not open; it is tried afresh, and one that still cannot be read is named as
 * such, never guessed at.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { StoreError } from '../util/errors.js';
import { describeFsError } from '../util/output.js';

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

/**
 * Who holds a file, from DuckDB's error when another process holds its lock ("process 123 (/usr/bin/node)");
 * undefined when the error is not a lock conflict.
 */
export function lockHolder(message: string): string | undefined {
  if (!/Could not set lock on file/.test(message)) return undefined;
  const held = /Conflicting lock is held in (.*?) \(PID (\d+)\)/.exec(message);
  return held ? `process ${held[2]} (${held[1]})` : 'another process';
}

/** Snapshot copies tried before a reader gives up on a file a running task holds. */
const ATTEMPTS = 3;

/**
 * Copy `file` and open the copy with `open`. A copy taken while the writer checkpoints can be unreadable; a
 * checkpoint is brief, so a fresh copy is tried, up to 3 in all; then one line names the file (exit 4).
 * The caller disposes of the copy once it has closed what `open` returned.
 */
export async function openSnapshot<T>(
  file: string,
  open: (copyPath: string) => Promise<T>,
): Promise<{ opened: T; copy: SnapshotCopy }> {
  for (let attempt = 1; ; attempt++) {
    let copy: SnapshotCopy;
    try {
      copy = snapshotCopy(file);
    } catch (e) {
      throw new StoreError(
        `${file}: in use by a running task, and a snapshot copy could not be made: ${describeFsError(e)}`,
      );
    }
    try {
      return { opened: await open(copy.path), copy };
    } catch (e) {
      copy.dispose();
      if (attempt < ATTEMPTS) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      throw new StoreError(
        `${file}: in use by a running task, and ${ATTEMPTS} snapshot copies of it could not be read: ${(e as Error).message.split('\n')[0]}`,
      );
    }
  }
}
