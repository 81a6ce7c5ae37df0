/**
 * Reads a registry entry or user file into a RawTable, verifying the registry's sha256 first.
 * Results are cached per process by path and content hash: a worker runs many jobs on the same data set,
 * and the returned table is shared between them, so callers must treat it as read-only.
 */
import { isUtf8 } from 'node:buffer';
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import { readFileHashed, readFileInPieces } from '../util/cache.js';
import { parseArff } from './arff.js';
import type { ColumnType } from './columns.js';
import { CsvPieceReader } from './csv.js';
import { packageRoot as findRepoRoot } from '../util/paths.js';
import type { DatasetFormat } from './registry.js';
import type { RawTable } from './table.js';
import { readTableCache, TABLE_CACHE_MIN_BYTES, tableCacheKey, writeTableCache } from './table-cache.js';

interface LoadedDataset {
  readonly table: RawTable;
  /** sha256 of the file's bytes (recorded with results for provenance). */
  readonly sha256: string;
}

/** What loading needs; a registry DatasetEntry qualifies, and so does a plain handle passed to a worker. */
interface LoadableDataset {
  readonly name: string;
  /** Path for messages; relative paths are relative to the repository root. */
  readonly file: string;
  /** Absolute path (default: file resolved against the repository root). */
  readonly path?: string;
  /** Default: from the file extension (.arff → arff, else csv). */
  readonly format?: DatasetFormat;
  /** Expected hash; undefined or '' means "not known, compute it". */
  readonly sha256?: string;
  readonly classColumn?: string;
  readonly columnTypes?: Readonly<Record<string, ColumnType>>;
  /** Columns to leave out. */
  readonly ignore?: readonly string[];
}

const cache = new Map<string, LoadedDataset>();

/** How a dataset's file is read: its declared format, else by its extension (.arff, anything else CSV). */
export function datasetFormat(entry: { readonly file: string; readonly format?: DatasetFormat }): DatasetFormat {
  return entry.format ?? (entry.file.toLowerCase().endsWith('.arff') ? 'arff' : 'csv');
}

export function loadDataset(entry: LoadableDataset): LoadedDataset {
  const path = entry.path ?? (isAbsolute(entry.file) ? entry.file : resolve(findRepoRoot(), entry.file));
  const format = datasetFormat(entry);
  const keyOf = (sha256: string): string =>
    JSON.stringify([
      path,
      sha256,
      entry.name,
      format,
      entry.classColumn ?? null,
      entry.columnTypes ?? null,
      entry.ignore ?? null,
    ]);
  const checkHash = (sha256: string): void => {
    if (entry.sha256 && entry.sha256 !== sha256) {
      throw new UserError(
        `${entry.file}: sha256 mismatch for data set '${entry.name}': registry expects ${entry.sha256.slice(0, 12)}..., file has ${sha256.slice(0, 12)}... (file modified or corrupt)`,
      );
    }
  };
  const cannotRead = (e: unknown): UserError => {
    const code = (e as NodeJS.ErrnoException).code;
    return new UserError(`${entry.file}: cannot read data set '${entry.name}' (${code ?? (e as Error).message})`);
  };
  let table: RawTable;
  let sha256: string;
  if (format === 'arff') {
    let bytes: Buffer;
    try {
      // The hash of an unchanged file (same size, inode and times) comes from the on-disk cache.
      ({ bytes, sha256 } = readFileHashed(path));
    } catch (e) {
      throw cannotRead(e);
    }
    checkHash(sha256);
    const hit = cache.get(keyOf(sha256));
    if (hit) return hit;
    checkText(bytes, entry.file);
    table = parseArff(bytes.toString('utf8'), {
      file: entry.file,
      name: entry.name,
      ...(entry.classColumn ? { classColumn: entry.classColumn } : {}),
    });
    if (entry.columnTypes) checkDeclaredTypes(table, entry.columnTypes, entry.file);
  } else {
    // Read from disk in pieces straight into coded columns: neither the file's bytes nor its text is ever
    // whole in memory. A table this process already holds is not read again when the file's hash is cached.
    let hit: LoadedDataset | undefined;
    let bytes: number;
    try {
      bytes = statSync(path).size;
    } catch (e) {
      throw cannotRead(e);
    }
    // The file's size bounds its rows, so each column reserves its room once and grows in place.
    const reader = new CsvPieceReader(
      {
        file: entry.file,
        name: entry.name,
        ...(entry.classColumn ? { classColumn: entry.classColumn } : {}),
        ...(entry.columnTypes ? { columnTypes: entry.columnTypes } : {}),
      },
      { bytes },
    );
    // A piece that cannot be read as CSV stops parsing; its error is raised after the file's hash is checked
    // (a modified registry file is reported as such, not by what is wrong inside it).
    let failure: unknown;
    try {
      sha256 = readFileInPieces(
        path,
        (piece, offset) => {
          try {
            checkPiece(piece, offset, entry.file);
            reader.push(piece);
            return true;
          } catch (e) {
            failure = e;
            return false;
          }
        },
        (known) => {
          hit = cache.get(keyOf(known));
          if (hit === undefined && bytes >= TABLE_CACHE_MIN_BYTES) {
            // A table an earlier process coded from this very file: its columns, not the file, are read.
            const stored = readTableCache(tableCacheKey(known, settingsOf(entry, format)));
            if (stored !== undefined) {
              hit = { table: stored, sha256: known };
              cache.set(keyOf(known), hit);
            }
          }
          return hit !== undefined;
        },
      );
    } catch (e) {
      throw cannotRead(e);
    }
    checkHash(sha256);
    if (hit) return hit;
    if (failure !== undefined) throw failure;
    table = reader.finish();
  }
  if (entry.ignore && entry.ignore.length > 0) table = withoutColumns(table, entry.ignore, entry.file);
  if (table.columns.length === 0) {
    throw new UserError(
      `${entry.file}: data set '${entry.name}' has no attribute columns, only the class; a classifier needs at least one attribute`,
    );
  }
  // Only a table whose hash is recorded can be found again (readFileInPieces records it for an unchanged file).
  if (format === 'csv' && statSize(path) >= TABLE_CACHE_MIN_BYTES)
    writeTableCache(tableCacheKey(sha256, settingsOf(entry, format)), table);
  const loaded: LoadedDataset = { table, sha256 };
  cache.set(keyOf(sha256), loaded);
  return loaded;
}

/** The table without the named attribute columns; naming a column that is not an attribute is an error. */
function withoutColumns(table: RawTable, ignore: readonly string[], file: string): RawTable {
  for (const name of ignore) {
    if (name === table.className) throw new UserError(`${file}: column '${name}' is the class; it cannot be ignored`);
    if (!table.columns.some((c) => c.name === name)) {
      throw new UserError(
        `${file}: ignored column '${name}' is not a column of the file (columns: ${table.columns.map((c) => c.name).join(', ')})`,
      );
    }
  }
  return { ...table, columns: table.columns.filter((c) => !ignore.includes(c.name)) };
}

/**
 * A one-line error for what is not text: compressed or binary data, or text that is not UTF-8, would otherwise
 * parse as a few rows of replacement characters ("2 rows, 0 attributes"). Checked on the bytes (the CSV reader
 * never makes the file one string); the message never echoes the bytes themselves.
 */
function checkText(bytes: Buffer, file: string): void {
  checkPiece(bytes, 0, file);
  if (!isUtf8(bytes))
    throw new UserError(`${file}: the file is not UTF-8 text; convert it (e.g. iconv -f latin1 -t utf-8)`);
}

/**
 * checkText for one piece of a file read in pieces, at byte `offset`: compressed archives by their first
 * bytes, and zero bytes. UTF-8 is checked by the CSV reader's decoder as it decodes.
 */
function checkPiece(bytes: Uint8Array, offset: number, file: string): void {
  if (offset === 0 && bytes[0] === 0x1f && bytes[1] === 0x8b)
    throw new UserError(`${file}: the file is gzip-compressed, not text; decompress it first (gunzip)`);
  if (offset === 0 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw new UserError(`${file}: the file is a zip archive, not text; extract the data file first`);
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0)
    throw new UserError(
      `${file}: the file holds binary data (a zero byte at offset ${offset + nul}), not CSV/ARFF text`,
    );
}

/** What shapes a table besides the file's bytes (the key of its stored columns, table-cache.ts). */
function settingsOf(entry: LoadableDataset, format: DatasetFormat): unknown {
  return [entry.name, format, entry.classColumn ?? null, entry.columnTypes ?? null, entry.ignore ?? null];
}

function statSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Forget cached tables (tests, or a long-lived process that changes files). */
export function clearDatasetCache(): void {
  cache.clear();
}

/** ARFF files declare their own types; a registry entry for one must agree with them. */
function checkDeclaredTypes(table: RawTable, types: Readonly<Record<string, ColumnType>>, file: string): void {
  for (const [name, t] of Object.entries(types)) {
    const col = table.columns.find((c) => c.name === name);
    if (!col)
      throw new UserError(
        `${file}: column '${name}', declared ${t} in the dataset's entry (its ${t}: list), is not an attribute of the file`,
      );
    if (col.type !== t)
      throw new UserError(
        `${file}: the dataset's entry declares column '${name}' ${t} but the file declares it ${col.type}`,
      );
  }
}
