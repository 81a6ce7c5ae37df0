/**
 * `bnclab sql`: run a user's SQL on a results database opened read-only, so DuckDB itself refuses any
 * statement that would change it (INSERT, CREATE, …) while the file stays usable by a running writer's peers.
 */
import { existsSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { UserError } from '../util/errors.js';

export interface SqlResult {
  readonly columns: readonly string[];
  /** Values as JavaScript values: numbers, strings, booleans, null, arrays (lists), objects (structs). */
  readonly rows: readonly (readonly unknown[])[];
}

export async function readOnlyQuery(dbPath: string, sql: string): Promise<SqlResult> {
  if (!existsSync(dbPath)) throw new UserError(`${dbPath}: no such results database`);
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0];
    throw new UserError(`${dbPath}: cannot open the results database read-only: ${msg}`);
  }
  const conn = await instance.connect();
  try {
    const r = await conn.runAndReadAll(sql);
    return { columns: r.columnNames(), rows: r.getRowsJS() as unknown[][] };
  } catch (e) {
    // DuckDB's message names the problem (syntax, unknown column, read-only database); one line of it.
    throw new UserError(`sql: ${(e as Error).message.split('\n').filter(Boolean).join(' ')}`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
