import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ResultStore } from '../../src/store/db.js';

const dir = mkdtempSync(join(tmpdir(), 'bnclab-lock-wait-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A reader in another process (DuckDB's file lock is per process), as the explorer is while it refreshes:
 * it opens the file read-only, says "held", and closes it when a line arrives on its stdin.
 */
function startReader(file: string) {
  const code = `
    const duckdb = await import('@duckdb/node-api');
    const instance = await duckdb.DuckDBInstance.create(${JSON.stringify(file)}, { access_mode: 'READ_ONLY' });
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
    const reader = startReader(file);
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
});
