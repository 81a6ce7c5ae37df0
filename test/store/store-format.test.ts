/**
 * The database records its layout (store_format): 2 for a new file, 1 detected for a file made with the
 * job-keyed primary keys (0.4.0 and before). A file of a higher format, made by a newer bnclab, is read but
 * never written: opening it for writing and merging it as a shard stop with one line, exit 4.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ResultStore, STORE_FORMAT } from '../../src/store/db.js';
import { mergeShards } from '../../src/store/merge.js';
import { StoreError } from '../../src/util/errors.js';
import { BNCLAB_VERSION } from '../../src/version.js';
import { tempDir } from '../helpers/cli.js';
import { makeOldDatabase } from '../helpers/old-database.js';

async function exec(path: string, sql: string): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  await conn.run(sql);
  conn.closeSync();
  instance.closeSync();
}

async function formats(path: string): Promise<number[]> {
  const store = await ResultStore.open(path, { readOnly: true });
  try {
    return (await store.query('SELECT format FROM store_format')).map((r) => Number(r['format']));
  } finally {
    store.close();
  }
}

describe('store format', () => {
  it('a new database records this format once, however often it is opened', async () => {
    const db = join(tempDir('bnclab-format-'), 'new.duckdb');
    (await ResultStore.open(db)).close();
    (await ResultStore.open(db)).close();
    expect(await formats(db)).toEqual([STORE_FORMAT]);
  });

  it('a database made with the job keys is recorded as format 1', async () => {
    const db = join(tempDir('bnclab-format-'), 'old.duckdb');
    await makeOldDatabase(db);
    (await ResultStore.open(db)).close();
    expect(await formats(db)).toEqual([1]);
  });

  it('a database of a newer format is read, but neither written nor merged', async () => {
    const dir = tempDir('bnclab-format-');
    const newer = join(dir, 'newer.duckdb');
    (await ResultStore.open(newer)).close();
    await exec(newer, `UPDATE store_format SET format = ${STORE_FORMAT + 1}, bnclab_version = '9.0.0'`);
    const refusal = await ResultStore.open(newer).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(StoreError);
    expect((refusal as Error).message).toBe(
      `${newer}: made by bnclab 9.0.0 in store format ${STORE_FORMAT + 1}; this bnclab (${BNCLAB_VERSION}) ` +
        `writes format ${STORE_FORMAT} and would damage it: update bnclab, or use --db <another file>`,
    );
    expect(await formats(newer)).toEqual([STORE_FORMAT + 1]);
    const merged = join(dir, 'merged.duckdb');
    const mergeRefusal = await mergeShards(merged, [newer]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(mergeRefusal).toBeInstanceOf(StoreError);
    expect((mergeRefusal as Error).message).toMatch(/newer\.duckdb: made by bnclab 9\.0\.0 in store format 3;/);
    expect(await formats(merged)).toEqual([STORE_FORMAT]);
  });
});
