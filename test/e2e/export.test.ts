/** bnclab export predictions: one row per test row, the true label, one probability column per class label. */
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import { ResultStore } from '../../src/store/db.js';
import { METRIC_SQL, query } from '../helpers/db.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');

describe('bnclab export predictions', () => {
  it('writes CSV and Parquet that agree with the stored predictions and the stored class labels', async () => {
    const cwd = tempDir();
    const db = join(cwd, 'e.duckdb');
    const none = join(cwd, 'none.duckdb');
    expect(cli(['run', SMALL, '--db', none, '--quiet', '--no-report'], { cwd }).code).toBe(0);
    const empty = cli(['export', 'predictions', SMALL, '--db', none, '--out', join(cwd, 'x.csv')], { cwd });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(
      `has no saved predictions; 'bnclab run ${SMALL} --save-predictions --db ${none}' saves them`,
    );
    expect(existsSync(join(cwd, 'x.csv'))).toBe(false);
    // Doing so recomputes the predictions of the jobs done without them (it said "30 already done" and
    // stored nothing); their metrics are the same numbers.
    const before = await query(none, METRIC_SQL.replace('$1', "'e2e-small'"));
    const again = cli(['run', SMALL, '--db', none, '--no-report', '--save-predictions', '--workers', '2'], { cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      '0 already done, 30 to run on 2 workers (30 of them done before without saved predictions, run again to save them)',
    );
    expect(await query(none, METRIC_SQL.replace('$1', "'e2e-small'"))).toEqual(before);
    const x = join(cwd, 'x.csv');
    expect(cli(['export', 'predictions', SMALL, '--db', none, '--out', x], { cwd }).stdout).toBe(
      `${x}: 1074 predictions\n`,
    );
    // Never over the database or the spec; another existing file only with --force.
    const dbBytes = readFileSync(none);
    const asCsv = join(cwd, 'db.csv');
    copyFileSync(none, asCsv);
    const overDb = cli(['export', 'predictions', SMALL, '--db', asCsv, '--out', asCsv, '--force'], { cwd });
    expect(overDb.code).toBe(2);
    expect(overDb.stderr).toBe(`bnclab: --out ${asCsv}: that is the results database; refusing to overwrite it\n`);
    expect(readFileSync(asCsv).equals(dbBytes)).toBe(true);
    const exists = cli(['export', 'predictions', SMALL, '--db', none, '--out', x], { cwd });
    expect(exists.code).toBe(2);
    expect(exists.stderr).toBe(`bnclab: --out ${x}: the file exists; use --force to overwrite it\n`);
    expect(cli(['export', 'predictions', SMALL, '--db', none, '--out', x, '--force'], { cwd }).code).toBe(0);
    const missing = cli(['export', 'predictions', SMALL, '--db', none, '--out', join(cwd, 'no', 'x.csv')], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot be used: no such file or folder (ENOENT)');

    expect(cli(['run', SMALL, '--db', db, '--quiet', '--no-report', '--save-predictions'], { cwd }).code).toBe(0);
    const csv = join(cwd, 'p.csv');
    const parquet = join(cwd, 'p.parquet');
    expect(cli(['export', 'predictions', SMALL, '--db', db, '--out', csv], { cwd }).stdout).toBe(
      `${csv}: 1074 predictions\n`,
    );
    expect(cli(['export', 'predictions', SMALL, '--db', db, '--out', parquet], { cwd }).code).toBe(0);

    const labels = await (async () => {
      const s = await ResultStore.open(db, { readOnly: true });
      try {
        return await s.query(`SELECT dataset, class_labels, attribute_names FROM experiment_datasets ORDER BY dataset`);
      } finally {
        s.close();
      }
    })();
    expect(labels.map((l) => l['dataset'])).toEqual(['breast-cancer', 'iris', 'zoo']);
    expect(labels[1]['class_labels']).toEqual(['Iris-setosa', 'Iris-versicolor', 'Iris-virginica']);
    expect(labels[1]['attribute_names']).toEqual(['sepallength', 'sepalwidth', 'petallength', 'petalwidth']);

    const inst = await DuckDBInstance.create(':memory:');
    const c = await inst.connect();
    try {
      for (const file of [csv, parquet]) {
        const r = await c.runAndReadAll(
          `SELECT count(*)::INTEGER AS n, count(DISTINCT (dataset, method, fold, "row"))::INTEGER AS k,
                  max(abs(coalesce("p_Iris-setosa", 0) + coalesce("p_Iris-versicolor", 0) + coalesce("p_Iris-virginica", 0) - 1)) FILTER (WHERE dataset = 'iris') AS iris_sum_err,
                  count(*) FILTER (WHERE dataset = 'iris' AND truth NOT IN ('Iris-setosa', 'Iris-versicolor', 'Iris-virginica'))::INTEGER AS bad_truth,
                  count(*) FILTER (WHERE dataset = 'zoo' AND "p_Iris-setosa" IS NOT NULL)::INTEGER AS leaked
           FROM '${file}'`,
        );
        const [row] = r.getRowObjectsJS();
        expect(row).toMatchObject({ n: 1074, k: 1074, bad_truth: 0, leaked: 0 });
        expect(row['iris_sum_err'] as number).toBeLessThan(1e-12);
      }
      // Accuracy recomputed from the export equals the stored accuracy of nb/dirichlet on iris.
      const acc = await c.runAndReadAll(
        `SELECT avg((CASE WHEN greatest("p_Iris-setosa", "p_Iris-versicolor", "p_Iris-virginica") = "p_Iris-setosa" THEN 'Iris-setosa'
                          WHEN greatest("p_Iris-setosa", "p_Iris-versicolor", "p_Iris-virginica") = "p_Iris-versicolor" THEN 'Iris-versicolor'
                          ELSE 'Iris-virginica' END = truth)::INTEGER) AS a
         FROM '${parquet}' WHERE dataset = 'iris' AND method = 'nb/dirichlet'`,
      );
      const s = await ResultStore.open(db, { readOnly: true });
      try {
        const stored = await s.query(
          `SELECT sum(accuracy * n_test) / sum(n_test) AS a FROM results WHERE dataset = 'iris' AND method = 'nb/dirichlet'`,
        );
        expect(Number(acc.getRowObjectsJS()[0]['a'])).toBeCloseTo(stored[0]['a'] as number, 12);
        // The predicted column gives the stored accuracy of every dataset × method.
        const byPredicted = await c.runAndReadAll(
          `SELECT dataset, method, avg((predicted = truth)::INTEGER) AS a FROM '${csv}' GROUP BY ALL ORDER BY ALL`,
        );
        const storedAll = await s.query(
          `SELECT dataset, method, sum(accuracy * n_test) / sum(n_test) AS a FROM results GROUP BY ALL ORDER BY ALL`,
        );
        const got = byPredicted.getRowObjectsJS();
        expect(got).toHaveLength(storedAll.length);
        got.forEach((g, i) => expect(Number(g['a'])).toBeCloseTo(storedAll[i]['a'] as number, 12));
      } finally {
        s.close();
      }
      // Long form: one row per test row and class label, its prob the wide file's p_<label>.
      const long = join(cwd, 'long.csv');
      expect(cli(['export', 'predictions', SMALL, '--db', db, '--out', long, '--long'], { cwd }).code).toBe(0);
      const l = await c.runAndReadAll(
        `SELECT count(*)::INTEGER AS n,
                count(*) FILTER (WHERE w.dataset IS NULL)::INTEGER AS unmatched,
                max(abs(l.prob - CASE l.label WHEN 'Iris-setosa' THEN w."p_Iris-setosa" WHEN 'Iris-versicolor' THEN w."p_Iris-versicolor" ELSE w."p_Iris-virginica" END))
                  FILTER (WHERE l.dataset = 'iris') AS err
         FROM '${long}' l LEFT JOIN '${csv}' w ON w.dataset = l.dataset AND w.method = l.method AND w.fold = l.fold AND w."row" = l."row"
           AND w.truth = l.truth AND w.predicted = l.predicted`,
      );
      const [lr] = l.getRowObjectsJS();
      const perDataset = await c.runAndReadAll(
        `SELECT sum(CASE dataset WHEN 'iris' THEN 3 WHEN 'breast-cancer' THEN 2 ELSE 7 END)::INTEGER AS cells FROM '${csv}'`,
      );
      expect(lr['n']).toBe(perDataset.getRowObjectsJS()[0]['cells']);
      expect(lr['unmatched']).toBe(0);
      expect(Number(lr['err'])).toBeLessThan(1e-15);
    } finally {
      c.closeSync();
      inst.closeSync();
    }
  });
});
