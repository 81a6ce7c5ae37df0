/**
 * A run of one job without --job-timeout runs it in the coordinator's own thread (no worker to start). It
 * must store exactly what a worker thread stores: the same metrics, arcs, structure info and predictions.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { query } from '../helpers/db.js';
import { InlineRunner } from '../../src/runner/pool.js';
import type { JobPayload } from '../../src/runner/job.js';

// breast-cancer has missing values; TAN with a sweep-free estimator and saved predictions exercises the
// preprocessing, the structure, the estimator and every stored table.
const SPEC = `name: inline-one
seed: 3
datasets: [breast-cancer]
resampling: { method: holdout, test_fraction: 0.3 }
structures: [tan]
estimators: [{ id: dirichlet, params: { alpha: 0.5 } }]
save_predictions: true
`;

async function stored(db: string): Promise<unknown[]> {
  return Promise.all([
    query(db, `SELECT job_key, status, error, attempts, structure_info FROM jobs ORDER BY job_key`),
    query(db, `SELECT * FROM job_metrics ORDER BY job_key`),
    query(db, `SELECT * FROM structures ORDER BY job_key, parent, child`),
    query(db, `SELECT * FROM predictions ORDER BY job_key, "row"`),
  ]);
}

describe('one job runs in the coordinator', () => {
  it('stores the same outcome as a worker thread, bit for bit', async () => {
    const cwd = tempDir();
    const spec = join(cwd, 'inline.yaml');
    writeFileSync(spec, SPEC);
    const inline = join(cwd, 'inline.duckdb');
    const worker = join(cwd, 'worker.duckdb');
    const a = cli(['run', spec, '--db', inline, '--no-report'], { cwd });
    expect(a.stderr).toContain('1 to run on 1 worker');
    expect(a.code).toBe(0);
    // A time limit needs a thread that can be terminated, so --job-timeout runs the job on a worker.
    const b = cli(['run', spec, '--db', worker, '--no-report', '--job-timeout', '3600'], { cwd });
    expect(b.code).toBe(0);
    const [x, y] = await Promise.all([stored(inline), stored(worker)]);
    const [jobs, metrics, arcs, predictions] = x as Record<string, unknown>[][];
    expect(jobs).toHaveLength(1);
    expect(jobs[0]['status']).toBe('done');
    expect(metrics).toHaveLength(1);
    expect(arcs.length).toBeGreaterThan(9); // 9 class arcs and the tree's attribute arcs
    expect(predictions.length).toBe(metrics[0]['n_test']);
    expect(x).toEqual(y);
  });

  it('InlineRunner: after stop() a job is cancelled, not run', async () => {
    const r = new InlineRunner();
    r.stop();
    const o = await r.run({ key: 'k' } as JobPayload);
    expect(o).toMatchObject({ key: 'k', status: 'error', cancelled: true });
  });
});
