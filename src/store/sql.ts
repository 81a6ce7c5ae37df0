/**
 * `bnclab sql`: run a user's SQL on a results database, read-only in every sense, as DuckDB's own CLI in
 * `-readonly -safe` mode would:
 * - the file is opened with `access_mode: READ_ONLY`, so nothing can change it (INSERT, CREATE, CHECKPOINT …);
 * - `enable_external_access: false` closes every other file: no COPY … TO, EXPORT DATABASE, ATTACH,
 *   read_csv/read_text/read_parquet/glob/…, INSTALL (the database opened at start-up stays readable);
 * - `autoinstall/autoload_known_extensions: false` and `lock_configuration: true`: no extension is fetched or
 *   loaded behind the query's back, and no SET/RESET/PRAGMA can undo the above;
 * - the text must be exactly one statement, and one that only reads (SELECT, which covers WITH, VALUES,
 *   FROM-first, DESCRIBE, SHOW, SUMMARIZE and PRAGMA table_info, or EXPLAIN): LOAD, SET, CALL, CHECKPOINT,
 *   VACUUM, temporary tables and macros are refused before anything runs. One statement, so the one result
 *   printed is the result of everything that ran.
 * A file a run holds is queried through a snapshot copy in the system's temporary folder (store/snapshot.ts),
 * the only file this writes, removed when the query ends; the database itself is never opened for writing.
 */
import { existsSync, statSync } from 'node:fs';
import { DuckDBInstance, StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { StoreError, UserError } from '../util/errors.js';
import { lockHolder, openSnapshot, type SnapshotCopy } from './snapshot.js';

export interface SqlResult {
  readonly columns: readonly string[];
  /** Values as JavaScript values: numbers, strings, booleans, null, arrays (lists), objects (structs). */
  readonly rows: readonly (readonly unknown[])[];
  /** Read from a snapshot copy because this process holds the file for writing ("process 123 (…)"). */
  readonly snapshotOf?: string | undefined;
}

/** The settings the database is opened with (exported for the test that checks each of them is in force). */
const READ_ONLY_CONFIG: Readonly<Record<string, string>> = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
  lock_configuration: 'true',
};

/** Statement kinds that only read: a query, or the plan of one. */
const READS = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN]);

function oneLine(e: unknown): string {
  return (e as Error).message.split('\n').filter(Boolean).join(' ');
}

function kindName(t: StatementType): string {
  return (StatementType[t] ?? String(t)).replace(/_/g, ' ');
}

export async function readOnlyQuery(dbPath: string, sql: string): Promise<SqlResult> {
  if (sql.trim() === '') throw new UserError('sql: the query is empty');
  if (!existsSync(dbPath)) throw new UserError(`${dbPath}: no such results database`);
  if (statSync(dbPath).isDirectory()) throw new UserError(`${dbPath}: a directory, not a results database`);
  let instance: DuckDBInstance;
  let copy: SnapshotCopy | undefined;
  let snapshotOf: string | undefined;
  try {
    instance = await DuckDBInstance.create(dbPath, { ...READ_ONLY_CONFIG });
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0] ?? '';
    snapshotOf = lockHolder(msg);
    // Not a DuckDB file, damaged, unreadable: the database cannot be opened (exit 4, as documented).
    if (!snapshotOf) throw new StoreError(`${dbPath}: cannot open the results database read-only: ${msg}`);
    // A running task holds it: query a snapshot copy of what it has stored (store/snapshot.ts).
    ({ opened: instance, copy } = await openSnapshot(dbPath, (copyPath) =>
      DuckDBInstance.create(copyPath, { ...READ_ONLY_CONFIG }),
    ));
  }
  let conn: DuckDBConnection | undefined;
  try {
    conn = await instance.connect();
    let extracted;
    try {
      extracted = await conn.extractStatements(sql);
    } catch (e) {
      throw new UserError(`sql: ${oneLine(e)}`);
    }
    if (extracted.count === 0) throw new UserError('sql: the query is empty');
    if (extracted.count > 1) {
      throw new UserError(
        `sql: ${extracted.count} statements given; bnclab sql runs one query and prints its result (run each in its own call)`,
      );
    }
    let prepared;
    try {
      prepared = await extracted.prepare(0);
    } catch (e) {
      throw new UserError(`sql: ${oneLine(e)}`);
    }
    try {
      if (!READS.has(prepared.statementType)) {
        throw new UserError(
          `sql: ${/^[AEIOU]/.test(kindName(prepared.statementType)) ? 'an' : 'a'} ${kindName(prepared.statementType)} statement is not allowed: the database is opened read-only and only queries (SELECT, WITH, DESCRIBE, SHOW, EXPLAIN) run`,
        );
      }
      let r;
      try {
        r = await prepared.runAndReadAll();
      } catch (e) {
        // DuckDB's message names the problem (unknown column, read-only database, file access); one line of
        // it. A block that fails its checksum is a damaged database, not a wrong query (exit 4).
        if (/^IO Error: Corrupt database file|checksum .* does not match/.test(oneLine(e)))
          throw new StoreError(`${dbPath}: the results database is damaged: ${oneLine(e)}`);
        throw new UserError(`sql: ${oneLine(e)}`);
      }
      return { columns: r.columnNames(), rows: r.getRowsJS() as unknown[][], snapshotOf };
    } finally {
      prepared.destroySync();
    }
  } finally {
    conn?.closeSync();
    instance.closeSync();
    copy?.dispose();
  }
}
