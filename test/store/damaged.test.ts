/** A damaged database or shard is one line and exit 4 (the documented code), for merge and sql alike. */
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');
const dir = tempDir('bnclab-damaged-');
const good = join(dir, 'good.duckdb');

/** A copy of the good database with bytes [from, to) overwritten by a pattern (no block checksum survives). */
function damaged(name: string, from: number, to: number): string {
  const file = join(dir, name);
  copyFileSync(good, file);
  const b = readFileSync(file);
  for (let i = from; i < Math.min(to, b.length); i++) b[i] = (i * 7919) & 0xff;
  writeFileSync(file, b);
  return file;
}

beforeAll(() => {
  const r = cli(['run', SMALL, '--db', good, '--quiet', '--no-report', '--save-predictions', '--workers', '2']);
  expect(r.code, r.stderr).toBe(0);
}, 600_000);

describe('damaged databases', () => {
  it('merge: a shard whose data blocks are damaged exits 4 with one line naming it, and merges nothing of it', () => {
    const size = readFileSync(good).length;
    for (const [name, from] of [
      ['blocks.duckdb', 12_288 + 262_144],
      ['half.duckdb', Math.floor(size / 2)],
      ['all.duckdb', 12_288],
    ] as const) {
      const shard = damaged(name, from, size);
      const into = join(dir, `into-${name}`);
      const r = cli(['merge', into, shard]);
      expect(r.code, `${name}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toMatch(
        new RegExp(`^bnclab: .*${name}: (the shard database is damaged|cannot open the shard database)`),
      );
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      const n = cli(['sql', into, 'SELECT count(*) AS n FROM jobs', '--csv']);
      expect(n.stdout).toBe('n\n0\n');
    }
  });

  it('sql: a damaged database exits 4 with one line, whether found on opening or on reading a block', () => {
    const size = readFileSync(good).length;
    for (const [name, from] of [
      ['s-blocks.duckdb', 12_288 + 262_144],
      ['s-all.duckdb', 12_288],
    ] as const) {
      const db = damaged(name, from, size);
      // Every table read in full: a damaged block is met wherever it is.
      const results = ['folds', 'jobs', 'job_metrics', 'structures', 'predictions', 'datasets', 'experiments'].map(
        (t) => cli(['sql', db, `SELECT * FROM ${t}`, '--csv']),
      );
      const bad = results.filter((r) => r.code !== 0);
      expect(bad.length, name).toBeGreaterThan(0);
      for (const r of bad) {
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toMatch(
          /^bnclab: .*\.duckdb: (the results database is damaged|cannot open the results database read-only)/,
        );
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
    }
  });
});
