/**
 * A spec run in phases under one experiment name (the cheap datasets first) loses nothing: registration adds
 * jobs to the experiment and forgets none, and `report`, `status` and `check` show the jobs of the spec they
 * are given, found by key. Before, a subset spec run last re-registered the experiment's job list, and the
 * report of the whole spec showed only the subset until the whole spec ran again.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { query } from '../helpers/db.js';
import { runExperiment } from '../../src/runner/run.js';
import { writeExperimentReport } from '../../src/report/index.js';
import { collectStatus } from '../../src/cluster/status.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { buildPlan } from '../../src/spec/plan.js';
import { recordBaseline } from '../../src/check/index.js';
import { ResultStore } from '../../src/store/db.js';
import { readCsv } from '../../src/report/csv.js';

const spec = (datasets: string): string => `name: phases
seed: 2
datasets: ${datasets}
resampling: { method: cv, folds: 3 }
structures: [nb, tan]
estimators: [dirichlet]
compare: { metrics: [accuracy], tests: [friedman, wilcoxon, sign] }
`;

/** report.csv's accuracy rows in file order: dataset, method, folds and planned folds (`folds/planned`). */
function reportRows(dir: string): string[] {
  const csv = readCsv(readFileSync(join(dir, 'report.csv'), 'utf8'), 'report.csv');
  return csv.records
    .map((r) => r.fields)
    .filter((r) => r[0] === 'accuracy')
    .map((r) => `${r[1]} ${r[2]} ${r[5]}/${r[6]}`);
}

describe('a spec run in phases under one name', () => {
  it('hides no result: report, status and check follow the spec they are given', async () => {
    const cwd = tempDir();
    const full = join(cwd, 'full.yaml');
    const cheap = join(cwd, 'cheap.yaml');
    // The whole spec lists zoo before iris (not name order): the tables follow the spec.
    writeFileSync(full, spec('[zoo, iris]'));
    writeFileSync(cheap, spec('[zoo]'));
    const db = join(cwd, 'phases.duckdb');
    const opts = { db, workers: 1, quiet: true };

    // Phase 1: the cheap dataset only. The whole spec's report shows it, and says what is not run yet.
    await runExperiment(cheap, opts);
    const early = await writeExperimentReport(full, { db, out: join(cwd, 'early') });
    expect(reportRows(early.dir)).toEqual(['zoo nb/dirichlet 3/3', 'zoo tan/dirichlet 3/3']);
    const earlyMd = readFileSync(early.markdown, 'utf8');
    expect(earlyMd).toContain('jobs: 6 done, 0 failed, 6 not run yet (of 12)');
    expect(earlyMd).toContain('Not in the table: 1 dataset of the spec with no finished fold of any method');

    // Phase 2: the whole spec, then the cheap one again (a rerun, say): the whole spec keeps every result.
    await runExperiment(full, opts);
    await runExperiment(cheap, opts);
    const members = await query(db, `SELECT count(*)::INTEGER AS n FROM experiment_jobs WHERE experiment = 'phases'`);
    expect(members[0]['n']).toBe(12);
    const all = await writeExperimentReport(full, { db, out: join(cwd, 'all') });
    expect(reportRows(all.dir)).toEqual([
      'zoo nb/dirichlet 3/3',
      'zoo tan/dirichlet 3/3',
      'iris nb/dirichlet 3/3',
      'iris tan/dirichlet 3/3',
    ]);
    expect(readFileSync(all.markdown, 'utf8')).toContain('jobs: 12 done, 0 failed (of 12)');
    // The cheap spec's report is about the cheap spec.
    const part = await writeExperimentReport(cheap, { db, out: join(cwd, 'part') });
    expect(reportRows(part.dir)).toEqual(['zoo nb/dirichlet 3/3', 'zoo tan/dirichlet 3/3']);

    // status of either spec counts that spec's jobs.
    const status = await collectStatus(buildPlan(loadSpecFile(full).spec), [db]);
    expect(status.total).toEqual({ done: 12, failed: 0, pending: 0 });
    expect((await collectStatus(buildPlan(loadSpecFile(cheap).spec), [db])).total.done).toBe(6);

    // A baseline of the cheap spec from the same database holds the cheap spec's entries only.
    const b = await recordBaseline(cheap, join(cwd, 'cheap.json'), opts);
    expect(b.baseline.results.map((e) => `${e.dataset} ${e.method}`)).toEqual([
      'zoo nb/dirichlet',
      'zoo tan/dirichlet',
    ]);
  });

  it('marks a cell whose folds are not all finished and leaves it out of the tests', async () => {
    const cwd = tempDir();
    const full = join(cwd, 'full.yaml');
    writeFileSync(full, spec('[zoo, iris, car]'));
    const db = join(cwd, 'phases.duckdb');
    await runExperiment(full, { db, workers: 1, quiet: true });
    // One fold of tan on iris is not finished (as if its job had not run yet).
    const store = await ResultStore.open(db);
    try {
      await store.query(
        `UPDATE jobs SET status = 'pending' WHERE job_key = (SELECT min(job_key) FROM experiment_jobs WHERE method = 'tan/dirichlet' AND dataset = 'iris')`,
      );
    } finally {
      store.close();
    }
    const r = await writeExperimentReport(full, { db, out: join(cwd, 'out') });
    expect(reportRows(r.dir)).toContain('iris tan/dirichlet 2/3');
    const md = readFileSync(r.markdown, 'utf8');
    expect(md).toContain('†');
    expect(md).toContain('tan/dirichlet on iris: 2 of 3 folds');
    // Averages, ranks and every test over the 2 datasets with all folds: zoo and car.
    expect(md).toContain('average (2)');
    const table = (f: string) => readCsv(readFileSync(join(r.dir, 'tables', f), 'utf8'), f).records[0].fields;
    expect(table('friedman.csv')[1]).toBe('2');
    expect(table('wilcoxon-accuracy.csv')[2]).toBe('2');
  });
});
