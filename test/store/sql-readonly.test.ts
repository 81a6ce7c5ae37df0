/**
 * `bnclab sql` is read-only in every sense: each escape found against the first version (which opened the file
 * with access_mode READ_ONLY only) is tried here, and each must fail with one line and leave every file as it was.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { existsSync, readFileSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { ResultStore } from '../../src/store/db.js';
import { readOnlyQuery } from '../../src/store/sql.js';
import { UserError } from '../../src/util/errors.js';

const dir = tempDir('bnclab-sql-');
const sub = join(dir, 'sub');
const db = join(sub, 'q.duckdb');
const secret = join(dir, 'secret.csv');

beforeAll(async () => {
  mkdirSync(sub);
  const s = await ResultStore.open(db);
  await s.checkpoint();
  s.close();
  writeFileSync(secret, 'a,b\n1,2\n');
}, 60_000);

/** The query fails with a UserError (one line) and the database file is byte for byte as before. */
async function refused(sql: string, pattern: RegExp): Promise<void> {
  const before = readFileSync(db);
  const err = await readOnlyQuery(db, sql).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, sql).toBeInstanceOf(UserError);
  expect((err as Error).message).toMatch(pattern);
  expect((err as Error).message).not.toContain('\n');
  expect(readFileSync(db).equals(before), `${sql} changed the database`).toBe(true);
}

describe('bnclab sql is read-only', () => {
  it('reads: SELECT, WITH, FROM-first, DESCRIBE, SHOW, SUMMARIZE and EXPLAIN run', async () => {
    expect((await readOnlyQuery(db, 'SELECT count(*)::INTEGER AS n FROM jobs')).rows).toEqual([[0]]);
    expect((await readOnlyQuery(db, 'WITH a AS (SELECT 1 AS x) SELECT x FROM a')).rows).toEqual([[1]]);
    expect((await readOnlyQuery(db, 'FROM experiments')).columns).toContain('name');
    expect((await readOnlyQuery(db, 'DESCRIBE jobs')).rows.length).toBeGreaterThan(3);
    expect((await readOnlyQuery(db, 'SHOW TABLES')).rows.flat()).toContain('jobs');
    expect((await readOnlyQuery(db, 'SUMMARIZE jobs')).columns).toContain('column_name');
    expect((await readOnlyQuery(db, 'EXPLAIN SELECT 1')).rows.length).toBe(1);
    expect((await readOnlyQuery(db, 'SELECT 1 AS x;')).rows).toEqual([[1]]);
  });

  it('COPY … TO the database itself is refused and the database is kept (it was replaced by a 7-byte CSV)', async () => {
    await refused(`COPY (SELECT 'gone' AS x) TO '${db}' (FORMAT csv)`, /COPY statement is not allowed/);
    expect(readFileSync(db).length).toBeGreaterThan(7);
  });

  it('COPY … TO another file is refused and writes nothing', async () => {
    const out = join(dir, 'x.csv');
    await refused(
      `COPY (SELECT 1 AS x) TO '${join(sub, '..', 'x.csv')}'`,
      /COPY statement is not allowed|disabled by configuration/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('EXPORT DATABASE is refused and writes nothing', async () => {
    await refused(`EXPORT DATABASE '${join(dir, 'exported')}'`, /not allowed|disabled/);
    expect(existsSync(join(dir, 'exported'))).toBe(false);
  });

  it('SET, RESET and PRAGMA settings are refused', async () => {
    await refused('SET threads = 1', /SET statement is not allowed/);
    await refused('RESET threads', /SET statement is not allowed/);
    await refused('PRAGMA threads = 1', /SET statement is not allowed/);
    await refused('SET enable_external_access = true', /SET statement is not allowed/);
  });

  it('LOAD and INSTALL are refused', async () => {
    await refused('LOAD json', /LOAD statement is not allowed/);
    await refused('INSTALL json', /not allowed|disabled/);
  });

  it('read_csv, read_text, read_parquet, read_json, sniff_csv and glob read no file', async () => {
    for (const f of [
      `read_csv('${secret}')`,
      `read_csv('/etc/passwd')`,
      `read_text('${secret}')`,
      `read_blob('${secret}')`,
      `read_json('${secret}')`,
      `read_parquet('${secret}')`,
      `sniff_csv('${secret}')`,
      `glob('${dir}/*')`,
      `glob('/root/*')`,
    ]) {
      await refused(`SELECT * FROM ${f}`, /file system operations are disabled|Permission Error/);
    }
    await refused(`SELECT * FROM '${secret}'`, /does not exist|disabled|Permission/);
  });

  it('ATTACH is refused, another database file and an in-memory one alike', async () => {
    const other = join(dir, 'other.duckdb');
    await refused(`ATTACH '${other}' AS o`, /an ATTACH statement is not allowed/);
    await refused(`ATTACH ':memory:' AS m`, /an ATTACH statement is not allowed/);
    expect(existsSync(other)).toBe(false);
  });

  it('statements that change the session or the file are refused: CREATE (temporary too), CHECKPOINT, CALL, VACUUM', async () => {
    await refused('DELETE FROM jobs', /DELETE statement is not allowed/);
    await refused('CREATE TEMP TABLE t AS SELECT 1', /CREATE statement is not allowed/);
    await refused('CREATE TEMP MACRO m() AS 1', /CREATE statement is not allowed/);
    await refused('CHECKPOINT', /not allowed/);
    await refused('VACUUM', /not allowed/);
  });

  it("'SELECT 1; COPY …; SELECT 2' runs nothing (it printed only the first result and ran all three)", async () => {
    const out = join(dir, 'y.csv');
    await refused(`SELECT 1; COPY (SELECT 1) TO '${out}'; SELECT 2`, /3 statements given/);
    await refused('SELECT 1; SELECT 2', /2 statements given/);
    expect(existsSync(out)).toBe(false);
  });

  it('the CLI: COPY onto the database exits 2 with one line; a damaged database exits 4 with one line', () => {
    const before = readFileSync(db);
    const r = cli(['sql', db, `COPY (SELECT 'gone' AS x) TO '${db}' (FORMAT csv)`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^bnclab: sql: a COPY statement is not allowed/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(db).equals(before)).toBe(true);

    const damaged = join(dir, 'damaged.duckdb');
    copyFileSync(db, damaged);
    const bytes = readFileSync(damaged);
    bytes.fill(0x5a, 0, 4096); // the main header: no longer a DuckDB file
    writeFileSync(damaged, bytes);
    const d = cli(['sql', damaged, 'SELECT 1']);
    expect(d.code).toBe(4);
    expect(d.stderr).toMatch(/^bnclab: .*damaged\.duckdb: cannot open the results database read-only: /);
    expect(d.stderr.trim().split('\n')).toHaveLength(1);

    const notDb = join(dir, 'text.duckdb');
    writeFileSync(notDb, 'hello\n');
    const t = cli(['sql', notDb, 'SELECT 1']);
    expect(t.code).toBe(4);
    expect(t.stderr).toContain('not a valid DuckDB database file');
  });
});
