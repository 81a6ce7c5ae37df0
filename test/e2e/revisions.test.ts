/**
 * Stored results tied to the code that made them: each finished job names its code state, and a raised method
 * revision makes the stored results of the old revision stale: `run` keeps and counts them, `status` counts
 * them, the report leaves them out and says so, and `run --rerun-stale` recomputes exactly those.
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
import { buildPlanSummary } from '../../src/spec/plan.js';
import { getEstimator } from '../../src/registry.js';

const SPEC = `name: revisions
seed: 3
datasets: [zoo]
resampling: { method: cv, folds: 3 }
structures: [nb, tan]
estimators: [dirichlet]
compare: { metrics: [accuracy] }
`;

describe('method revisions and code states', () => {
  it('a raised revision leaves old results stale until --rerun-stale', { timeout: 120_000 }, async () => {
    const cwd = tempDir();
    const file = join(cwd, 'spec.yaml');
    writeFileSync(file, SPEC);
    const db = join(cwd, 'r.duckdb');
    const opts = { db, workers: 1, quiet: true };
    const first = await runExperiment(file, opts);
    expect(first.succeeded).toBe(6);
    const states = await query(
      db,
      `SELECT c.*, count(*)::INTEGER AS n FROM job_code JOIN code_states c USING (code_state) GROUP BY ALL`,
    );
    expect(states).toHaveLength(1);
    expect(states[0]['n']).toBe(6);
    expect(String(states[0]['node'])).toBe(process.version);
    expect(String(states[0]['duckdb'])).toMatch(/^v\d/);
    expect(String(states[0]['code'])).toMatch(/^([0-9a-f]{40}(\+dirty)?|build:[0-9a-f]{16})$/);
    const md = readFileSync((await writeExperimentReport(file, { db, out: join(cwd, 'r1') })).markdown, 'utf8');
    expect(md).toMatch(/- code: bnclab \S+, (commit|built code) [0-9a-f]{12}/);

    // The estimator's revision raised, as a change to its numbers requires.
    const dirichlet = getEstimator('dirichlet')! as { revision: number };
    const was = dirichlet.revision;
    dirichlet.revision = was + 1;
    try {
      const again = await runExperiment(file, opts);
      expect([again.ran, again.alreadyDone, again.stale]).toEqual([0, 0, 6]);
      const plan = buildPlanSummary(loadSpecFile(file).spec);
      const st = await collectStatus(plan, [db]);
      expect(st.total).toEqual({ done: 0, failed: 0, pending: 6 });
      expect(st.stale).toBe(6);
      const staleMd = readFileSync((await writeExperimentReport(file, { db, out: join(cwd, 'r2') })).markdown, 'utf8');
      expect(staleMd).toContain('- stale results: 6 jobs have only a result made by an older revision');
      expect(staleMd).toContain('jobs: 0 done, 0 failed, 6 not run yet (of 6)');

      const rerun = await runExperiment(file, { ...opts, rerunStale: true });
      expect([rerun.ran, rerun.stale]).toEqual([6, 0]);
      expect((await collectStatus(plan, [db])).stale).toBe(0);
      // Both revisions' results are stored; the new keys differ from the old ones, and nothing ran twice.
      const jobs = await query(db, `SELECT count(*)::INTEGER AS n FROM jobs WHERE status = 'done'`);
      expect(jobs[0]['n']).toBe(12);
      // The results view holds one result per job: the older revision's left the experiment's list.
      const view = await query(db, `SELECT count(*)::INTEGER AS n FROM results WHERE experiment = 'revisions'`);
      expect(view[0]['n']).toBe(6);
      const third = await runExperiment(file, opts);
      expect([third.ran, third.alreadyDone, third.stale]).toEqual([0, 6, 0]);
    } finally {
      dirichlet.revision = was;
    }
  });
});
