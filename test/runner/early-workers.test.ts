/**
 * A run into a new database starts its workers before it registers the plan (they load their code
 * meanwhile); a run into a database that exists, a shard or an --only run starts them when its jobs are
 * known (all done: none), and a run whose database cannot be made ends the workers it started. The results
 * are the same either way.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { METRIC_SQL, readDb } from '../helpers/db.js';
import { runExperiment } from '../../src/runner/run.js';
import { WorkerPool } from '../../src/runner/pool.js';
import { ResultStore } from '../../src/store/db.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const SPEC =
  'name: early\nseed: 2\ndatasets: [iris, car]\nresampling: { method: cv, folds: 3 }\nstructures: [nb, tan]\nestimators: [dirichlet]\n';

describe('workers started early', () => {
  it('start before the plan is registered on a new database, not on one that exists, with the same results', async () => {
    const dir = tempDir('bnclab-early-');
    const spec = join(dir, 's.yaml');
    writeFileSync(spec, SPEC);
    const spied = vi.spyOn(WorkerPool.prototype, 'startWorkers');
    const register = vi.spyOn(ResultStore.prototype, 'upsertExperiment');

    const first = join(dir, 'first.duckdb');
    const a = await runExperiment(spec, { db: first, workers: 2, quiet: true });
    expect(a.succeeded).toBe(12);
    expect(spied).toHaveBeenCalledTimes(1);
    expect(spied.mock.invocationCallOrder[0]).toBeLessThan(register.mock.invocationCallOrder[0]);

    // Every job done: no worker is started at all.
    const again = await runExperiment(spec, { db: first, workers: 2, quiet: true });
    expect(again.alreadyDone).toBe(12);
    expect(spied).toHaveBeenCalledTimes(1);

    // --only and a shard choose their jobs first (one job runs in this thread).
    await runExperiment(spec, {
      db: join(dir, 'shard.duckdb'),
      workers: 2,
      quiet: true,
      shard: { index: 1, count: 2 },
    });
    expect(spied).toHaveBeenCalledTimes(1);

    // The same numbers as a run whose workers start with its first job (a database that exists, empty).
    const later = join(dir, 'later.duckdb');
    (await ResultStore.open(later)).close();
    await runExperiment(spec, { db: later, workers: 2, quiet: true });
    expect(spied).toHaveBeenCalledTimes(1);
    const [x, y] = await Promise.all([
      readDb(first, (s) => s.query(METRIC_SQL, ['early'])),
      readDb(later, (s) => s.query(METRIC_SQL, ['early'])),
    ]);
    expect(x).toHaveLength(12);
    expect(x).toEqual(y);
  });

  it('are ended when the database cannot be made', async () => {
    const dir = tempDir('bnclab-early-');
    const spec = join(dir, 's.yaml');
    writeFileSync(spec, SPEC);
    // A database in a folder below a file: it cannot be made.
    writeFileSync(join(dir, 'file'), '');
    const db = join(dir, 'file', 'x.duckdb');
    const close = vi.spyOn(WorkerPool.prototype, 'close');
    const started = vi.spyOn(WorkerPool.prototype, 'startWorkers');
    await expect(runExperiment(spec, { db, workers: 2, quiet: true })).rejects.toThrow(/x\.duckdb/);
    expect(started).toHaveBeenCalledTimes(1);
    expect(close).toHaveBeenCalledTimes(1);
  });
});
