/**
 * `preprocessing.missing: remove-rows` through the CLI: house-votes-84 has 232 complete rows of 435 (counted
 * from the raw file in test/folds/remove-rows.test.ts); the stored split excludes the other 203 and every
 * job trains and tests on complete rows only.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { ResultStore } from '../../src/store/db.js';

async function query(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const s = await ResultStore.open(db, { readOnly: true });
  try {
    return await s.query(sql);
  } finally {
    s.close();
  }
}

describe('missing: remove-rows, through the CLI', () => {
  it('removes incomplete rows before the split; drop-rows keeps them as test rows', async () => {
    const dir = tempDir();
    const spec = (name: string, missing: string): string => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(
        file,
        `name: ${name}
datasets: [house-votes-84]
preprocessing: { missing: ${missing} }
resampling: { folds: 5 }
structures: [nb]
estimators: [dirichlet]
`,
      );
      return file;
    };
    const db = join(dir, 'r.duckdb');
    for (const [name, missing] of [
      ['removed', 'remove-rows'],
      ['dropped', 'drop-rows'],
    ]) {
      const r = cli(['run', spec(name, missing), '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      expect(r.stderr + r.stdout).toContain('5 jobs done, 0 failed');
      expect(r.code).toBe(0);
    }
    const jobs = async (name: string) =>
      query(
        db,
        `SELECT m.n_train, m.n_test, j.split_key FROM jobs j JOIN experiment_jobs e USING (job_key) JOIN job_metrics m USING (job_key)
         WHERE e.experiment = '${name}' ORDER BY j.fold`,
      );
    const removed = await jobs('removed');
    expect(removed.map((j) => Number(j['n_train']) + Number(j['n_test']))).toEqual([232, 232, 232, 232, 232]);
    expect(removed.reduce((s, j) => s + Number(j['n_test']), 0)).toBe(232);
    const folds = await query(
      db,
      `SELECT fold, count(*)::INTEGER AS n FROM folds WHERE split_key = '${String(removed[0]['split_key'])}' GROUP BY fold ORDER BY fold`,
    );
    expect(folds.map((f) => [f['fold'], f['n']])).toEqual([
      [-2, 203],
      [0, 47],
      [1, 47],
      [2, 46],
      [3, 46],
      [4, 46],
    ]);
    // drop-rows: every row is tested (435), training folds lose their incomplete rows.
    const dropped = await jobs('dropped');
    expect(dropped.reduce((s, j) => s + Number(j['n_test']), 0)).toBe(435);
    expect(dropped[0]['split_key']).not.toBe(removed[0]['split_key']);
  });

  it('is a one-line error with folds from a file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'folds.csv'), Array.from({ length: 435 }, (_, i) => i % 3).join('\n') + '\n');
    writeFileSync(
      join(dir, 'spec.yaml'),
      `name: bad
datasets: [house-votes-84]
preprocessing: { missing: remove-rows }
resampling: { folds: { file: folds.csv } }
structures: [nb]
estimators: [dirichlet]
`,
    );
    const r = cli(['plan', join(dir, 'spec.yaml')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/folds from a file cannot be combined with preprocessing\.missing: remove-rows/);
  });
});
