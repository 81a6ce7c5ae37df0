import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import { readOnlyQuery } from '../../src/store/sql.js';
import { formatSqlResult } from '../../src/cli/sql-format.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');

describe('stored classification metrics and bnclab sql', () => {
  const cwd = tempDir();
  const db = join(cwd, 'small.duckdb');

  it('stores AUC, Brier, balanced accuracy, macro F1 and the confusion matrix of every job, consistent with accuracy and RMSE', async () => {
    const r = cli(['run', SMALL, '--db', db, '--workers', '2', '--no-report'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('e2e-small: 30 jobs (3 datasets × 2 methods × 5 folds)');
    expect(cli(['report', SMALL, '--db', db, '--out', join(cwd, 'report')], { cwd }).code).toBe(0);
    expect(r.code).toBe(0);
    const q = await readOnlyQuery(
      db,
      `SELECT accuracy, rmse, n_test, auc, auc_ovr, brier, balanced_accuracy, macro_f1, confusion, class_labels FROM results ORDER BY job_key`,
    );
    expect(q.rows).toHaveLength(30);
    for (const row of q.rows) {
      const [acc, rmse, nTest, auc, aucOvr, brier, bacc, f1, confusion, labels] = row as [
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number[][],
        string[],
      ];
      const C = labels.length;
      expect(confusion).toHaveLength(C);
      const total = confusion.flat().reduce((a, b) => a + b, 0);
      const trace = confusion.reduce((a, rowC, i) => a + rowC[i], 0);
      expect(total).toBe(nTest);
      expect(trace / total).toBeCloseTo(acc, 12);
      expect(brier).toBeCloseTo(C * rmse * rmse, 12);
      for (const v of [auc, aucOvr, bacc, f1]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
    }
    const md = readFileSync(join(cwd, 'report', 'report.md'), 'utf8');
    expect(md).toContain('## AUC (Hand & Till) (higher is better)');
    expect(md).toContain('## Macro F1 (higher is better)');
  });

  it('bnclab sql prints a table, CSV or JSON, and refuses to change the database', () => {
    const sql = `SELECT dataset, count(*) AS jobs FROM results GROUP BY dataset ORDER BY dataset`;
    const t = cli(['sql', db, sql]);
    expect(t.code).toBe(0);
    expect(t.stdout.split('\n')[0]).toMatch(/^dataset\s+jobs$/);
    expect(t.stdout).toMatch(/^iris\s+10$/m);
    expect(t.stdout).toContain('(3 rows)');
    const c = cli(['sql', db, sql, '--csv']);
    expect(c.stdout).toBe('dataset,jobs\nbreast-cancer,10\niris,10\nzoo,10\n');
    const j = cli(['sql', db, `SELECT 'a,b' AS s, [1, 2] AS l`, '--json']);
    expect(j.stdout).toBe('{"s":"a,b","l":[1,2]}\n');
    const w = cli(['sql', db, 'DELETE FROM jobs']);
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(/^bnclab: sql: .*read-only/);
    expect(w.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli(['sql', db, sql, '--csv']).stdout).toContain('iris,10');
    const missing = cli(['sql', join(cwd, 'none.duckdb'), 'SELECT 1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('none.duckdb: no such results database');
  });

  it('formats lists as JSON and quotes CSV fields', () => {
    const r = {
      columns: ['name', 'v', 'l'],
      rows: [
        ['a "b"', 1.5, [1, 2]],
        ['c', null, []],
      ],
    };
    expect(formatSqlResult(r, 'csv')).toBe('name,v,l\n"a ""b""",1.5,"[1,2]"\nc,,[]\n');
    expect(formatSqlResult(r, 'table')).toBe(
      'name     v  l\n-----  ---  -----\na "b"  1.5  [1,2]\nc           []\n(2 rows)\n',
    );
  });
});
