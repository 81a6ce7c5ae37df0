import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../../src/store/db.js';
import { readOnlyQuery } from '../../src/store/sql.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'bnclab-lock-wait-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A process that holds the file (DuckDB's file lock is per process): read-only, as the explorer while it
 * refreshes; read-write, as a run. It says "held", and closes the file when a line arrives on its stdin.
 */
function startHolder(file: string, mode: 'READ_ONLY' | 'READ_WRITE') {
  const code = `
    const duckdb = await import('@duckdb/node-api');
    const instance = await duckdb.DuckDBInstance.create(${JSON.stringify(file)}, { access_mode: '${mode}' });
    const conn = await instance.connect();
    await conn.run('SELECT 1');
    process.stdout.write('held\\n');
    process.stdin.once('data', () => { conn.closeSync(); instance.closeSync(); process.stdout.write('released\\n'); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const said = (word: string) =>
    new Promise<void>((ok, fail) => {
      const check = () => (out.includes(word) ? ok() : undefined);
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        check();
      });
      child.on('exit', (c) => (out.includes(word) ? ok() : fail(new Error(`reader exited ${c}: ${out}`))));
      check();
    });
  return { child, said };
}

describe('a writer and a reader of the same database', () => {
  it('the writer waits for a reader that holds the file for its query, and opens it when the reader closes', async () => {
    const file = join(dir, 'results.duckdb');
    (await ResultStore.open(file)).close();
    const reader = startHolder(file, 'READ_ONLY');
    await reader.said('held');
    let settled: string | undefined;
    const writer = ResultStore.open(file).then(
      (s) => {
        settled = 'opened';
        return s;
      },
      (e: Error) => {
        settled = `refused: ${e.message}`;
        throw e;
      },
    );
    // While the reader holds the file the writer neither opens it nor gives up: it retries. (Without the
    // wait it would have been refused at its first try, long before this.)
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBeUndefined();
    reader.child.stdin.write('close\n');
    await reader.said('released');
    const store = await writer;
    expect(settled).toBe('opened');
    store.close();
  });

  it('a reader of a file a run holds reads a snapshot copy of what it stored, names the holder, and removes the copy', async () => {
    const file = join(dir, 'busy-database-held-by-a-run.duckdb');
    (await ResultStore.open(file)).close();
    const writer = startHolder(file, 'READ_WRITE');
    await writer.said('held');
    try {
      const store = await ResultStore.open(file, { readOnly: true });
      expect(store.snapshotOf).toBe(`process ${writer.child.pid} (${process.execPath})`);
      expect(store.path).toBe(file);
      expect(await store.finishedJobStates()).toEqual(new Map());
      // The copy is a folder of its own in the temporary directory, and goes with close().
      const copies = (): string[] =>
        readdirSync(tmpdir()).filter(
          (d) => d.startsWith('bnclab-snapshot-') && existsSync(join(tmpdir(), d, basename(file))),
        );
      expect(copies()).toHaveLength(1);
      store.close();
      expect(copies()).toEqual([]);

      const q = await readOnlyQuery(file, 'SELECT count(*) AS n FROM jobs');
      expect(q.rows).toEqual([[0n]]);
      expect(q.snapshotOf).toBe(`process ${writer.child.pid} (${process.execPath})`);
      // The command says so on stderr, and prints the result on stdout as for a file nobody holds.
      const r = cli(['sql', file, 'SELECT count(*) AS n FROM jobs', '--csv']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('n\n0\n');
      expect(r.stderr.trim()).toBe(
        `note: ${file} is being written by process ${writer.child.pid} (${process.execPath}); read from a snapshot copy of what it had stored`,
      );
      expect(existsSync(file)).toBe(true);
    } finally {
      writer.child.stdin.write('close\n');
      await writer.said('released');
    }
    // Nobody holds it now: read directly.
    const store = await ResultStore.open(file, { readOnly: true });
    expect(store.snapshotOf).toBeUndefined();
    store.close();
  });
});
