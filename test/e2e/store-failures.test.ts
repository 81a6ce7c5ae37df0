/** A database that cannot be used, or a report that cannot be written: one line and a documented exit code. */
import { describe, expect, it } from 'vitest';
import {
  copyFileSync,
  mkdirSync,
  openSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');
const run = (db: string, cwd: string, extra: string[] = ['--no-report']) =>
  cli(['run', SMALL, '--db', db, '--workers', '2', '--quiet', ...extra], { cwd });

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/internal error| {4}at /);
  return lines[0];
}

describe('results database failures', () => {
  it('treats a 0-byte database file (a kill the instant it was created) as absent', () => {
    const cwd = tempDir();
    const db = join(cwd, 'empty.duckdb');
    writeFileSync(db, '');
    const r = run(db, cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('30 jobs done');
  });

  it('refuses a file that is not a DuckDB database, damaged or truncated one, with exit 4 and one line', () => {
    const cwd = tempDir();
    const good = join(cwd, 'good.duckdb');
    expect(run(good, cwd, ['--no-report', '--save-predictions']).code).toBe(0);
    const size = statSync(good).size;

    const garbage = join(cwd, 'garbage.duckdb');
    writeFileSync(garbage, Buffer.alloc(100_000, 0x5a));
    let r = run(garbage, cwd);
    expect(r.code).toBe(4);
    expect(oneLine(r.stderr)).toBe(
      `bnclab: ${garbage}: cannot open the results database: the file is not a DuckDB database; move it aside or use --db <other file>`,
    );

    const truncated = join(cwd, 'truncated.duckdb');
    copyFileSync(good, truncated);
    truncateSync(truncated, Math.floor(size / 4));
    r = run(truncated, cwd);
    expect(r.code).toBe(4);
    expect(oneLine(r.stderr)).toMatch(
      /truncated\.duckdb: .*the file is truncated or damaged \(IO Error: .*\); move it aside or use --db <other file>$/,
    );

    // Overwrite the data blocks (not the header): found only when read, during registration.
    const damaged = join(cwd, 'damaged.duckdb');
    copyFileSync(good, damaged);
    const fd = openSync(damaged, 'r+');
    writeSync(fd, Buffer.alloc(size - 3 * 4096 - 262144, 0x5a), 0, undefined, 262144 + 3 * 4096);
    closeSync(fd);
    r = run(damaged, cwd);
    expect(r.code).toBe(4);
    expect(oneLine(r.stderr)).toMatch(/damaged\.duckdb: .*(truncated or damaged|cannot be used)/);
  });

  it('names a --db path that runs through a regular file, exit 4, no EEXIST stack trace', () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'afile'), 'x');
    const db = join(cwd, 'afile', 'x.duckdb');
    const r = run(db, cwd);
    expect(r.code).toBe(4);
    expect(oneLine(r.stderr)).toBe(
      `bnclab: ${db}: cannot create the folder ${join(cwd, 'afile')}: a part of that path is a file, not a folder`,
    );
  });

  it('a report that cannot be written after a finished run: results kept, one line, exit 5', () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'results'));
    writeFileSync(join(cwd, 'results', 'e2e-small'), 'a file where the report folder goes');
    const db = join(cwd, 'r.duckdb');
    const r = run(db, cwd, []);
    expect(r.code).toBe(5);
    expect(r.stdout).toContain('30 jobs done, 0 failed');
    expect(oneLine(r.stderr)).toMatch(
      /^bnclab: the results are stored, but the report could not be written: .*e2e-small.*; fix that and run 'bnclab report .*e2e-small\.yaml'$/,
    );
    const again = run(db, cwd);
    expect(again.stdout).toContain('30 already done');
  });
});
