/**
 * Queries about a list of jobs (a report's results, failures, arcs, code states) join the keys from a
 * temporary table that is filled once per list: each query must still answer for its own list, whether the
 * lists come in turn or at once, and a database opened read-only must be left exactly as it was.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResultStore } from '../../src/store/db.js';
import { loadPredictionCurves } from '../../src/store/prediction-curves.js';
import { tempDir } from '../helpers/cli.js';
import { doneOutcome, jobRow } from '../helpers/db.js';

const ref = (key: string): { key: string; dataset: string; method: string } => ({ key, dataset: 'd', method: key });

/** A database of five jobs: k1–k4 done (k_i with accuracy i/10 and i arcs), k5 failed. */
async function fiveJobs(): Promise<string> {
  const db = join(tempDir('bnclab-key-queries-'), 'r.duckdb');
  const store = await ResultStore.open(db);
  try {
    await store.setCodeState({ id: 'c1', bnclab: 't', code: 'h', node: 'n', duckdb: 'd', platform: 'p' });
    await store.registerJobs(
      'e',
      ['k1', 'k2', 'k3', 'k4', 'k5'].map((k) => jobRow(k)),
      'v',
    );
    await store.recordOutcomes(
      [1, 2, 3, 4].map((i) =>
        doneOutcome(
          `k${i}`,
          i / 10,
          Array.from({ length: i }, (_, j) => ['class', `a${j}`] as [string, string]),
        ),
      ),
    );
    await store.recordOutcomes([
      { key: 'k5', status: 'error', error: 'boom', preprocessMs: 0, trainMs: 0, predictMs: 0 },
    ]);
  } finally {
    store.close();
  }
  return db;
}

const accuracies = (rows: readonly { job_key: string; accuracy: number }[]): Record<string, number> =>
  Object.fromEntries(rows.map((r) => [r.job_key, r.accuracy]));
const arcCounts = (m: Map<string, [string, string][]>): Record<string, number> =>
  Object.fromEntries([...m].map(([k, a]) => [k, a.length]));

describe('queries about a list of jobs', () => {
  it('answer for their own list, asked in turn or at once', async () => {
    const db = await fiveJobs();
    const store = await ResultStore.open(db, { readOnly: true });
    try {
      const a = ['k1', 'k3', 'k5'];
      const b = ['k4', 'k2'];
      // In turn: each list replaces the other in the table.
      expect(accuracies(await store.resultsOf('e', a.map(ref)))).toEqual({ k1: 0.1, k3: 0.3 });
      expect(accuracies(await store.resultsOf('e', b.map(ref)))).toEqual({ k4: 0.4, k2: 0.2 });
      expect(arcCounts(await store.learnedArcsOf(a))).toEqual({ k1: 1, k3: 3 });
      expect((await store.failedJobsOf(a.map(ref))).map((f) => f.job_key)).toEqual(['k5']);
      expect((await store.failedJobsOf(b.map(ref))).length).toBe(0);
      // The same list again (the table kept), then a list of the same length with other keys.
      expect(accuracies(await store.resultsOf('e', a.map(ref)))).toEqual({ k1: 0.1, k3: 0.3 });
      expect(accuracies(await store.resultsOf('e', ['k2', 'k4', 'k5'].map(ref)))).toEqual({ k2: 0.2, k4: 0.4 });
      // At once: every query still sees its own keys.
      const [ra, rb, arcsA, arcsB, doneB, failedA] = await Promise.all([
        store.resultsOf('e', a.map(ref)),
        store.resultsOf('e', b.map(ref)),
        store.learnedArcsOf(a),
        store.learnedArcsOf(b),
        store.doneKeysAmong(b),
        store.failedJobsOf(a.map(ref)),
      ]);
      expect(accuracies(ra)).toEqual({ k1: 0.1, k3: 0.3 });
      expect(accuracies(rb)).toEqual({ k4: 0.4, k2: 0.2 });
      expect(arcCounts(arcsA)).toEqual({ k1: 1, k3: 3 });
      expect(arcCounts(arcsB)).toEqual({ k4: 4, k2: 2 });
      expect([...doneB].sort()).toEqual(['k2', 'k4']);
      expect(failedA.map((f) => f.job_key)).toEqual(['k5']);
      // A key asked twice in a list is one job; an unknown key is none.
      expect(accuracies(await store.resultsOf('e', ['k1', 'nope'].map(ref)))).toEqual({ k1: 0.1 });
      expect((await store.codeStatesOf(['k1', 'k1', 'k2']))[0]?.jobs).toBe(2);
    } finally {
      store.close();
    }
  });

  it('leave a database opened read-only as it was, with nothing beside it', async () => {
    const db = await fiveJobs();
    const before = createHash('sha256').update(readFileSync(db)).digest('hex');
    const files = readdirSync(join(db, '..')).sort();
    const store = await ResultStore.open(db, { readOnly: true });
    try {
      expect(Object.keys(accuracies(await store.resultsOf('e', ['k1', 'k2'].map(ref))))).toHaveLength(2);
      expect(arcCounts(await store.learnedArcsOf(['k3']))).toEqual({ k3: 3 });
      // Nothing saved predictions: no curves, and no question about the jobs needed to say so.
      expect(await loadPredictionCurves(store, ['k1', 'k2'].map(ref))).toBeUndefined();
    } finally {
      store.close();
    }
    expect(createHash('sha256').update(readFileSync(db)).digest('hex')).toBe(before);
    expect(readdirSync(join(db, '..')).sort()).toEqual(files);
  });

  it("columnsOf lists a table's or view's columns, and none of a missing table", async () => {
    const db = await fiveJobs();
    const store = await ResultStore.open(db, { readOnly: true });
    try {
      const metrics = await store.columnsOf('job_metrics');
      expect(metrics.has('accuracy') && metrics.has('job_key')).toBe(true);
      const view = await store.columnsOf('results');
      expect(view.has('experiment') && view.has('accuracy')).toBe(true);
      expect((await store.columnsOf('no_such_table')).size).toBe(0);
      const same = await store.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'job_metrics' AND table_schema = 'main'`,
      );
      expect([...metrics].sort()).toEqual(same.map((r) => String(r['column_name'])).sort());
    } finally {
      store.close();
    }
  });
});
