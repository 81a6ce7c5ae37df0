/**
 * The tables keyed by job (jobs, experiment_jobs, job_metrics, job_code) have no primary key in a new
 * database: registration adds rows by anti-join, a stored outcome replaces its job's rows, merge adds and
 * replaces by key. Nothing may ever be duplicated, and a database made with the keys (0.4.0 and before)
 * must work the same way.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ResultStore, type JobOutcome, type JobRow } from '../../src/store/db.js';
import { mergeShards } from '../../src/store/merge.js';
import { tempDir } from '../helpers/cli.js';
import { makeOldDatabase } from '../helpers/old-database.js';
import { doneOutcome, jobRow } from '../helpers/db.js';

const KEYED = ['jobs', 'experiment_jobs', 'job_metrics', 'job_code'];

const labelled = (key: string, method: string, dataset = 'd'): JobRow => ({ ...jobRow(key, dataset), method });

function outcome(key: string, accuracy: number, status: 'done' | 'error' = 'done'): JobOutcome {
  if (status === 'error') return { key, status, error: 'boom', preprocessMs: 0, trainMs: 1, predictMs: 0 };
  return doneOutcome(key, accuracy);
}

const CODE = { id: 'c1', bnclab: 't', code: 'h', node: 'n', duckdb: 'd', platform: 'p' };

/** Rows per table, and the largest number of rows any one job has in it (1 when nothing is duplicated). */
async function counts(store: ResultStore): Promise<Record<string, [number, number]>> {
  const out: Record<string, [number, number]> = {};
  for (const t of [...KEYED, 'structures']) {
    const by = t === 'experiment_jobs' ? 'experiment, job_key' : 'job_key';
    const [r] = await store.query(
      `SELECT count(*)::INTEGER AS n, coalesce(max(c), 0)::INTEGER AS most
       FROM (SELECT count(*) AS c FROM ${t} GROUP BY ${by})`,
    );
    out[t] = [Number(r['n']), Number(r['most'])];
  }
  return out;
}

async function primaryKeys(store: ResultStore): Promise<string[]> {
  const rows = await store.query(
    `SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'
     AND table_name IN (${KEYED.map((t) => `'${t}'`).join(', ')}) ORDER BY table_name`,
  );
  return rows.map((r) => String(r['table_name']));
}

/** Register, store, register again under new labels, store again (a rerun): one row per job throughout. */
async function exercise(store: ResultStore): Promise<void> {
  await store.setCodeState(CODE);
  await store.registerJobs('e', [labelled('k1', 'nb'), labelled('k2', 'nb'), labelled('k1', 'twice')], 'v');
  await store.recordOutcomes([outcome('k1', 0.5), outcome('k2', 0, 'error')]);
  // A second registration of the same jobs (a resumed run), with one new job and new labels.
  await store.registerJobs('e', [labelled('k1', 'nb2', 'd2'), labelled('k2', 'nb'), labelled('k3', 'nb')], 'v');
  await store.registerJobs('other', [labelled('k1', 'mine')], 'v');
  // k2 failed before (--rerun-failed), k1 is run again (--save-predictions), k3 for the first time.
  await store.recordOutcomes([outcome('k1', 0.5), outcome('k2', 1), outcome('k3', 0.25)]);
  expect(await counts(store)).toEqual({
    jobs: [3, 1],
    experiment_jobs: [4, 1],
    job_metrics: [3, 1],
    job_code: [3, 1],
    structures: [3, 1],
  });
  const labels = await store.query(`SELECT experiment, job_key, method, dataset FROM experiment_jobs ORDER BY ALL`);
  expect(labels).toEqual([
    { experiment: 'e', job_key: 'k1', method: 'nb2', dataset: 'd2' },
    { experiment: 'e', job_key: 'k2', method: 'nb', dataset: 'd' },
    { experiment: 'e', job_key: 'k3', method: 'nb', dataset: 'd' },
    { experiment: 'other', job_key: 'k1', method: 'mine', dataset: 'd' },
  ]);
  const jobs = await store.query(`SELECT job_key, status, attempts FROM jobs ORDER BY job_key`);
  expect(jobs).toEqual([
    { job_key: 'k1', status: 'done', attempts: 2 },
    { job_key: 'k2', status: 'done', attempts: 2 },
    { job_key: 'k3', status: 'done', attempts: 1 },
  ]);
  // Ordered by dataset: k1 is now in d2.
  expect((await store.results('e')).map((r) => [r.job_key, r.dataset, r.accuracy])).toEqual([
    ['k2', 'd', 1],
    ['k3', 'd', 0.25],
    ['k1', 'd2', 0.5],
  ]);
}

describe('tables keyed by job', () => {
  it('a new database has no primary key on them, and registering and storing again duplicates nothing', async () => {
    const store = await ResultStore.open(join(tempDir(), 'new.duckdb'));
    try {
      expect(await primaryKeys(store)).toEqual([]);
      await exercise(store);
    } finally {
      store.close();
    }
  });

  it('a database made with their primary keys keeps them and works the same way', async () => {
    const path = join(tempDir(), 'old.duckdb');
    await makeOldDatabase(path);
    const store = await ResultStore.open(path);
    try {
      expect(await primaryKeys(store)).toEqual(KEYED.slice().sort());
      await exercise(store);
    } finally {
      store.close();
    }
    const readOnly = await ResultStore.open(path, { readOnly: true });
    try {
      expect((await readOnly.results('e')).length).toBe(3);
    } finally {
      readOnly.close();
    }
  });

  it("DuckDB's memory is limited only between boundMemory and unboundMemory, and only without the keys", async () => {
    const limit = async (s: ResultStore): Promise<string> =>
      String((await s.query(`SELECT current_setting('memory_limit') AS m`))[0]['m']);
    const fresh = await ResultStore.open(join(tempDir(), 'bounded.duckdb'));
    try {
      const unbounded = await limit(fresh);
      await fresh.boundMemory();
      expect(await limit(fresh)).toBe('30.5 MiB');
      await fresh.unboundMemory();
      expect(await limit(fresh)).toBe(unbounded);
    } finally {
      fresh.close();
    }
    const path = join(tempDir(), 'keyed.duckdb');
    await makeOldDatabase(path);
    const old = await ResultStore.open(path);
    try {
      const unbounded = await limit(old);
      await old.boundMemory();
      expect(await limit(old)).toBe(unbounded);
    } finally {
      old.close();
    }
  });

  it('DuckDB runs on one thread after oneThread, and on its default again in the next process', async () => {
    const threads = async (s: ResultStore): Promise<number> =>
      Number((await s.query(`SELECT current_setting('threads') AS t`))[0]['t']);
    const file = join(tempDir(), 'threads.duckdb');
    let store = await ResultStore.open(file);
    let all = 0;
    try {
      all = await threads(store);
      await store.oneThread();
      expect(await threads(store)).toBe(1);
    } finally {
      store.close();
    }
    store = await ResultStore.open(file);
    try {
      expect(await threads(store)).toBe(all);
    } finally {
      store.close();
    }
    // Opened on one thread from the start (a `report`'s reads), read-only or not.
    for (const readOnly of [true, false]) {
      store = await ResultStore.open(file, { readOnly, oneThread: true });
      try {
        expect(await threads(store)).toBe(1);
      } finally {
        store.close();
      }
    }
  });

  it('a job recorded by an earlier process has its rows replaced, not added to (the store asks the database)', async () => {
    const path = join(tempDir(), 'earlier.duckdb');
    const first = await ResultStore.open(path);
    try {
      await first.registerJobs('e', [jobRow('k1'), jobRow('k2')], 'v');
      await first.recordOutcomes([outcome('k1', 0.5), outcome('k2', 0, 'error')]);
    } finally {
      first.close();
    }
    const second = await ResultStore.open(path);
    try {
      await second.registerJobs('e', [jobRow('k1'), jobRow('k2'), jobRow('k3')], 'v');
      // k3 alone first: the batch that follows must still find k1 and k2 recorded before.
      await second.recordOutcomes([outcome('k3', 0.25)]);
      await second.recordOutcomes([outcome('k1', 0.75), outcome('k2', 1)]);
      expect((await counts(second)).job_metrics).toEqual([3, 1]);
      expect((await second.results('e')).map((r) => [r.job_key, r.accuracy]).sort()).toEqual([
        ['k1', 0.75],
        ['k2', 1],
        ['k3', 0.25],
      ]);
    } finally {
      second.close();
    }
  });

  it('a batch that holds a job twice is refused whole', async () => {
    const store = await ResultStore.open(join(tempDir(), 'twice.duckdb'));
    try {
      await store.registerJobs('e', [jobRow('k1')], 'v');
      await expect(store.recordOutcomes([outcome('k1', 0.5), outcome('k1', 0.5)])).rejects.toThrow(/twice/);
      expect((await counts(store)).job_metrics).toEqual([0, 0]);
    } finally {
      store.close();
    }
  });

  it('a job finished with no attempts noted (attempts 0 or NULL) has its rows replaced, not added to', async () => {
    const store = await ResultStore.open(join(tempDir(), 'unnoted.duckdb'));
    try {
      await store.registerJobs('e', [jobRow('k1'), jobRow('k2'), jobRow('k3')], 'v');
      await store.recordOutcomes([outcome('k1', 0.5), outcome('k2', 0.5), outcome('k3', 0.5)]);
      await store.query(
        `UPDATE jobs SET attempts = CASE job_key WHEN 'k1' THEN 0 WHEN 'k2' THEN NULL ELSE attempts END`,
      );
      // Each alone, then together: a batch whose only job was recorded before must still find it.
      await store.recordOutcomes([outcome('k1', 0.75)]);
      await store.recordOutcomes([outcome('k2', 0.75), outcome('k3', 0.75)]);
      expect((await counts(store)).job_metrics).toEqual([3, 1]);
      expect((await store.results('e')).map((r) => r.accuracy)).toEqual([0.75, 0.75, 0.75]);
    } finally {
      store.close();
    }
  });

  for (const [name, oldTarget, oldShard] of [
    ['new shards into a new target', false, false],
    ['new shards into an old target', true, false],
    ['old shards into a new target', false, true],
  ] as const) {
    it(`merge: ${name}, each twice, duplicates nothing`, async () => {
      const dir = tempDir();
      const target = join(dir, 'target.duckdb');
      if (oldTarget) await makeOldDatabase(target);
      const shards = [join(dir, 'a.duckdb'), join(dir, 'b.duckdb')];
      for (const [i, shard] of shards.entries()) {
        if (oldShard) await makeOldDatabase(shard);
        const s = await ResultStore.open(shard);
        try {
          await s.upsertExperiment({
            name: 'e',
            specFile: 'e.yaml',
            specHash: 'h',
            specText: '',
            seed: '1',
            version: 'v',
          });
          await s.setCodeState(CODE);
          await s.registerJobs(
            'e',
            ['k1', 'k2', 'k3'].map((k) => labelled(k, 'nb')),
            'v',
          );
          // Shard a ran k1 and k2 (k2 failed); shard b ran k2 and k3.
          await s.recordOutcomes(
            i === 0 ? [outcome('k1', 0.5), outcome('k2', 0, 'error')] : [outcome('k2', 1), outcome('k3', 0.25)],
          );
        } finally {
          s.close();
        }
      }
      await mergeShards(target, shards);
      await mergeShards(target, [...shards].reverse());
      const store = await ResultStore.open(target);
      try {
        expect(await counts(store)).toEqual({
          jobs: [3, 1],
          experiment_jobs: [3, 1],
          job_metrics: [3, 1],
          job_code: [3, 1],
          structures: [3, 1],
        });
        expect(await store.query(`SELECT job_key, status FROM jobs ORDER BY job_key`)).toEqual([
          { job_key: 'k1', status: 'done' },
          { job_key: 'k2', status: 'done' },
          { job_key: 'k3', status: 'done' },
        ]);
        expect((await store.results('e')).map((r) => [r.job_key, r.accuracy])).toEqual([
          ['k1', 0.5],
          ['k2', 1],
          ['k3', 0.25],
        ]);
      } finally {
        store.close();
      }
    });
  }
});
