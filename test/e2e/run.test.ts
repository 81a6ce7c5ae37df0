import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli.js';
import { ResultStore } from '../../src/store/db.js';
import { METRIC_SQL, readDb } from '../helpers/db.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');
const RESUME = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-resume.yaml');

describe('bnclab run on real shipped data', () => {
  it('runs the grid, stores it in DuckDB, writes the report, and a second run runs nothing', async () => {
    const cwd = tempDir();
    const db = join(cwd, 'small.duckdb');
    const r1 = cli(['run', SMALL, '--db', db, '--workers', '2'], { cwd });
    expect(r1.stderr).toContain('30 to run');
    expect(r1.code).toBe(0);
    expect(r1.stdout).toContain('30 jobs done, 0 failed');

    const rows = await readDb(db, (s) => s.query(METRIC_SQL, ['e2e-small']));
    expect(rows).toHaveLength(3 * 2 * 5);
    for (const r of rows) {
      expect(r['accuracy'] as number).toBeGreaterThan(0.3);
      expect(r['accuracy'] as number).toBeLessThanOrEqual(1);
      expect((r['accuracy'] as number) + (r['zero_one_loss'] as number)).toBeCloseTo(1, 12);
      expect(r['rmse'] as number).toBeGreaterThan(0);
    }
    // Every fold of a dataset has the same test rows for both methods (one shared split), and the five
    // test folds of a dataset partition it: iris has 150 rows.
    const iris = rows.filter((r) => r['dataset'] === 'iris');
    const nbTest = iris.filter((r) => r['method'] === 'nb/dirichlet').reduce((a, r) => a + (r['n_test'] as number), 0);
    expect(nbTest).toBe(150);
    // TAN on iris has 4 class arcs + 3 tree arcs; NB has 4.
    expect(new Set(iris.filter((r) => r['method'] === 'tan/dirichlet').map((r) => r['n_arcs']))).toEqual(new Set([7]));
    expect(new Set(iris.filter((r) => r['method'] === 'nb/dirichlet').map((r) => r['n_arcs']))).toEqual(new Set([4]));
    // n_feature_arcs counts attribute-to-attribute arcs only (bnclassify's count): 3 for TAN, 0 for NB.
    expect(new Set(iris.filter((r) => r['method'] === 'tan/dirichlet').map((r) => r['n_feature_arcs']))).toEqual(
      new Set([3]),
    );
    expect(new Set(iris.filter((r) => r['method'] === 'nb/dirichlet').map((r) => r['n_feature_arcs']))).toEqual(
      new Set([0]),
    );
    // The fold assignment is stored as data.
    const folds = await readDb(db, (s) =>
      s.query(
        `SELECT count(*)::INTEGER AS n FROM folds f JOIN splits s USING (split_key) JOIN datasets d USING (dataset_hash) WHERE d.name = 'iris'`,
      ),
    );
    expect(folds[0]['n']).toBe(150);

    const report = readFileSync(join(cwd, 'results', 'e2e-small', 'report.md'), 'utf8');
    expect(report).toContain('## Accuracy');
    expect(report).toMatch(/\| iris \| .* ± .* \| .* ± .* \|/);
    expect(report).toContain('*average rank*');
    expect(existsSync(join(cwd, 'results', 'e2e-small', 'report.csv'))).toBe(true);

    const r2 = cli(['run', SMALL, '--db', db], { cwd });
    expect(r2.code).toBe(0);
    expect(r2.stderr).toContain('30 already done, 0 to run');
    const again = await readDb(db, (s) => s.query(METRIC_SQL, ['e2e-small']));
    expect(again).toEqual(rows);
  });

  it('gives identical results with 1 and 2 workers', async () => {
    const cwd = tempDir();
    const a = join(cwd, 'w1.duckdb');
    const b = join(cwd, 'w2.duckdb');
    expect(cli(['run', SMALL, '--db', a, '--workers', '1', '--no-report'], { cwd }).code).toBe(0);
    expect(cli(['run', SMALL, '--db', b, '--workers', '2', '--no-report'], { cwd }).code).toBe(0);
    const ra = await readDb(a, (s) => s.query(METRIC_SQL, ['e2e-small']));
    const rb = await readDb(b, (s) => s.query(METRIC_SQL, ['e2e-small']));
    expect(ra.length).toBe(30);
    expect(rb).toEqual(ra);
  });

  it('resumes after SIGKILL: no finished job recomputed, no duplicates, same final results', async () => {
    const cwd = tempDir();
    const killed = join(cwd, 'killed.duckdb');
    const child = cliSpawn(['run', RESUME, '--db', killed, '--workers', '2', '--no-report'], { cwd });
    let err = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        // Kill at the first progress line after at least 10% of the jobs are stored.
        if (/progress: [1-9]\d*\/240/.test(err) && child.exitCode === null) {
          setTimeout(() => child.kill('SIGKILL'), 150);
        }
      });
      child.on('exit', () => resolve());
    });
    expect(child.signalCode).toBe('SIGKILL');
    const before = await readDb(killed, (s) =>
      s.query(`SELECT job_key, finished_at::VARCHAR AS t, attempts FROM jobs WHERE status = 'done' ORDER BY job_key`),
    );
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(240);

    const r = cli(['run', RESUME, '--db', killed, '--workers', '2', '--no-report'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${before.length} already done, ${240 - before.length} to run`);
    const after = await readDb(killed, (s) =>
      s.query(`SELECT job_key, finished_at::VARCHAR AS t, attempts FROM jobs WHERE status = 'done' ORDER BY job_key`),
    );
    const afterByKey = new Map(after.map((x) => [x['job_key'], x]));
    for (const b of before) expect(afterByKey.get(b['job_key'])).toEqual(b); // untouched: not recomputed
    const counts = await readDb(killed, (s) =>
      s.query(
        `SELECT count(*)::INTEGER AS n, count(DISTINCT job_key)::INTEGER AS k FROM results WHERE experiment = 'e2e-resume'`,
      ),
    );
    expect(counts[0]).toEqual({ n: 240, k: 240 });

    const clean = join(cwd, 'clean.duckdb');
    expect(cli(['run', RESUME, '--db', clean, '--workers', '2', '--no-report'], { cwd }).code).toBe(0);
    const a = await readDb(killed, (s) => s.query(METRIC_SQL, ['e2e-resume']));
    const b = await readDb(clean, (s) => s.query(METRIC_SQL, ['e2e-resume']));
    expect(a).toEqual(b);
  });

  it('records failing jobs with their error, exits 1, and --rerun-failed retries them', async () => {
    const cwd = tempDir();
    const db = join(cwd, 'fail.duckdb');
    // Jobs of a tenth of a second and more (HDP's Gibbs iterations) under a limit of a millisecond: each
    // overruns it by a hundredfold or more, however the machine's load delays the pool's timer. (Jobs of a
    // millisecond, as e2e-small's are on a worker that has loaded its code, could beat the timer.)
    const spec = join(cwd, 'slow.yaml');
    writeFileSync(
      spec,
      'name: slow-jobs\nseed: 7\ndatasets: [iris, zoo]\nresampling: { folds: 3 }\nstructures: [nb]\n' +
        'estimators: [{ id: hdp, params: { iterations: 10000 } }]\n',
    );
    const r = cli(['run', spec, '--db', db, '--job-timeout', '0.001', '--workers', '2'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/0 jobs done, 6 failed/);
    const errors = await readDb(db, (s) => s.query(`SELECT DISTINCT error FROM jobs WHERE status = 'error'`));
    expect(errors.map((e) => e['error'])).toEqual(['timed out after 0.001 s (--job-timeout)']);
    const report = readFileSync(join(cwd, 'results', 'slow-jobs', 'report.md'), 'utf8');
    expect(report).toContain('## Failed jobs');

    const again = cli(['run', spec, '--db', db], { cwd });
    expect(again.code).toBe(1); // failures from before are reported, not retried
    expect(again.stdout).toContain('6 failed earlier (--rerun-failed to retry)');
    const retry = cli(['run', spec, '--db', db, '--rerun-failed'], { cwd });
    expect(retry.code).toBe(0);
    expect(retry.stdout).toContain('6 jobs done, 0 failed');
  });

  it('refuses a second writer on the same database with a one-line message', async () => {
    const cwd = tempDir();
    const db = join(cwd, 'locked.duckdb');
    const holder = await ResultStore.open(db);
    try {
      const r = cli(['run', SMALL, '--db', db], { cwd });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      // The lock holder is named by PID (this test process holds it), with how to read without blocking.
      expect(r.stderr).toContain(`locked.duckdb: the results database is in use by process ${process.pid} (`);
      expect(r.stderr).toContain('read_only=True');
    } finally {
      holder.close();
    }
  });
});

describe('bnclab CLI', () => {
  it('plan shows the grid and runs nothing', () => {
    const r = cli(['plan', SMALL]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('e2e-small: 30 jobs');
    expect(r.stdout).toMatch(/iris +150 rows, 4 attributes, 3 classes; 1 × 5 folds/);
    expect(r.stdout).toContain('tan/dirichlet');
  });

  it('datasets lists the registry', () => {
    const r = cli(['datasets', '--group', 'quickstart']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').length).toBe(1 + 6);
  });

  it('--help works for every command; an unknown command or option exits 2', () => {
    for (const c of ['run', 'plan', 'report', 'datasets', 'schema']) {
      const r = cli([c, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`bnclab ${c}`);
    }
    expect(cli(['frobnicate']).code).toBe(2);
    const bad = cli(['run', SMALL, '--wrokers', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown option --wrokers \(did you mean --workers\?\)/);
  });
});
