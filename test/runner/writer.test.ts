import { describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { OutcomeWriter, type OutcomeSink } from '../../src/runner/writer.js';
import { ResultStore, type JobOutcome } from '../../src/store/db.js';
import { tempDir } from '../helpers/cli.js';
import { jobRow } from '../helpers/db.js';

function outcome(i: number, status: 'done' | 'error' = 'done'): JobOutcome {
  return {
    key: `k${i}`,
    status,
    preprocessMs: 0,
    trainMs: 1,
    predictMs: 0,
    ...(status === 'error' ? { error: 'boom' } : {}),
  };
}

/** A sink that stores keys, fails on chosen keys, and lets the test release each write by hand. */
class ManualSink implements OutcomeSink {
  readonly stored: string[] = [];
  readonly batches: number[] = [];
  private release: (() => void)[] = [];
  constructor(
    private readonly failOn = new Set<string>(),
    private readonly manual = false,
  ) {}
  async recordOutcomes(batch: readonly JobOutcome[]): Promise<void> {
    if (this.manual) await new Promise<void>((r) => this.release.push(r));
    if (batch.some((o) => this.failOn.has(o.key))) throw new Error(`IO Error: No space left on device`);
    this.batches.push(batch.length);
    for (const o of batch) this.stored.push(o.key);
  }
  releaseOne(): boolean {
    const r = this.release.shift();
    r?.();
    return r !== undefined;
  }
}

describe('OutcomeWriter', () => {
  it('batches whatever finished during the previous write, bounded by maxBatch, in arrival order', async () => {
    const sink = new ManualSink(new Set(), true);
    const w = new OutcomeWriter(sink, { maxBatch: 3, maxQueued: 100 });
    for (let i = 0; i < 8; i++) w.push(outcome(i));
    const flushed = w.flush();
    while (sink.stored.length < 8) {
      sink.releaseOne();
      await new Promise((r) => setImmediate(r));
    }
    await flushed;
    expect(sink.stored).toEqual(Array.from({ length: 8 }, (_, i) => `k${i}`));
    expect(sink.batches).toEqual([1, 3, 3, 1]); // the first write starts at once with one outcome
    expect(w.stored).toEqual({ done: 8, failed: 0 });
  });

  it('with holdMs holds outcomes that arrive while nothing is written, so they share a transaction; maxBatch and flush write at once', async () => {
    vi.useFakeTimers();
    try {
      const sink = new ManualSink();
      const w = new OutcomeWriter(sink, { holdMs: 250, maxBatch: 4 });
      w.push(outcome(0));
      w.push(outcome(1));
      await vi.advanceTimersByTimeAsync(249);
      expect(sink.batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(sink.batches).toEqual([2]);
      // the fourth held outcome starts a write at once; k6, pushed while it is written, follows it
      for (let i = 2; i < 7; i++) w.push(outcome(i));
      await vi.advanceTimersByTimeAsync(0);
      expect(sink.batches).toEqual([2, 4, 1]);
      w.push(outcome(7));
      w.push(outcome(8));
      await w.flush(); // no time passes: flush does not wait for the hold
      expect(sink.batches).toEqual([2, 4, 1, 2]);
      expect(sink.stored).toEqual(Array.from({ length: 9 }, (_, i) => `k${i}`));
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends the hold once holdCount outcomes wait, however short the jobs', async () => {
    vi.useFakeTimers();
    try {
      const sink = new ManualSink();
      const w = new OutcomeWriter(sink, { holdMs: 1000, holdCount: 3, maxBatch: 100 });
      w.push(outcome(0));
      w.push(outcome(1));
      await vi.advanceTimersByTimeAsync(0);
      expect(sink.batches).toEqual([]);
      w.push(outcome(2)); // the third: written at once, before the second is up
      await vi.advanceTimersByTimeAsync(0);
      expect(sink.batches).toEqual([3]);
      w.push(outcome(3));
      await vi.advanceTimersByTimeAsync(999);
      expect(sink.batches).toEqual([3]);
      await vi.advanceTimersByTimeAsync(1);
      expect(sink.batches).toEqual([3, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('applies back-pressure: room() waits while the queue is full and resolves as writes commit', async () => {
    const sink = new ManualSink(new Set(), true);
    const w = new OutcomeWriter(sink, { maxBatch: 2, maxQueued: 4 });
    for (let i = 0; i < 5; i++) w.push(outcome(i)); // k0 is being written, k1..k4 wait: the queue is full
    let roomy = false;
    void w.room().then(() => (roomy = true));
    await new Promise((r) => setImmediate(r));
    expect(w.queued).toBe(4);
    expect(roomy).toBe(false);
    sink.releaseOne(); // k0 commits, the next batch (k1, k2) leaves the queue
    await new Promise((r) => setImmediate(r));
    expect(roomy).toBe(true);
    while (sink.releaseOne() || w.queued > 0) await new Promise((r) => setImmediate(r));
    await w.flush();
    expect(sink.stored).toHaveLength(5);
  });

  it('on a failed batch stores the outcomes it can one by one and names the one it cannot; then writes nothing', async () => {
    const sink = new ManualSink(new Set(['k5']), true);
    const failures: string[] = [];
    const w = new OutcomeWriter(sink, {
      maxBatch: 100,
      onFailure: (f) => failures.push(`${f.outcome.key}: ${f.cause.message}`),
    });
    w.push(outcome(0));
    for (let i = 1; i < 10; i++) w.push(outcome(i, i % 2 ? 'done' : 'error'));
    const flushed = w.flush();
    while (sink.releaseOne() || !w.failure) await new Promise((r) => setImmediate(r));
    await flushed; // never rejects
    expect(failures).toEqual(['k5: IO Error: No space left on device']);
    expect(sink.stored).toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);
    expect(w.stored).toEqual({ done: 3, failed: 2 });
    w.push(outcome(11));
    await w.flush();
    expect(w.queued).toBe(0);
    expect(sink.stored).toHaveLength(5);
    await expect(w.room()).resolves.toBeUndefined(); // a lane waiting for room wakes and sees the failure
  });

  it('bounds the prediction rows per batch', async () => {
    const sink = new ManualSink(new Set(), true);
    const w = new OutcomeWriter(sink, { maxBatchPredictionRows: 25 });
    const withRows = (i: number): JobOutcome => ({
      ...outcome(i),
      predictions: { rows: new Int32Array(10), truth: new Int32Array(10), probs: new Float64Array(20), classCard: 2 },
    });
    for (let i = 0; i < 7; i++) w.push(withRows(i));
    while (sink.releaseOne() || w.queued > 0) await new Promise((r) => setImmediate(r));
    await w.flush();
    expect(sink.batches).toEqual([1, 2, 2, 2]);
  });
});

describe('ResultStore.recordOutcomes', () => {
  async function storeWithJobs(keys: string[]): Promise<ResultStore> {
    const store = await ResultStore.open(join(tempDir(), 'w.duckdb'));
    await store.registerJobs(
      'x',
      keys.map((key) => jobRow(key)),
      'test',
    );
    return store;
  }

  it('stores a posterior of exactly 1 first (DuckDB would infer INTEGER from an untyped list) and reads back every value', async () => {
    const store = await storeWithJobs(['a', 'b']);
    try {
      const metrics = {
        accuracy: 1,
        zero_one_loss: 0,
        rmse: 0,
        log_loss: 0,
        n_train: 9,
        n_test: 2,
        auc: 1,
        auc_ovr: 1,
        brier: 0,
        balanced_accuracy: 1,
        macro_f1: 1,
        confusion: [
          [1, 0],
          [0, 1],
        ],
        class_labels: ['a', 'b'],
      };
      await store.recordOutcomes([
        {
          key: 'a',
          status: 'done',
          metrics,
          preprocessMs: 1,
          trainMs: 2,
          predictMs: 3,
          arcs: [['class', 'x']],
          predictions: {
            rows: new Int32Array([4, 9]),
            truth: new Int32Array([0, 1]),
            probs: new Float64Array([1, 6.19e-19, 0.25, 0.75]),
            classCard: 2,
          },
        },
        { key: 'b', status: 'error', error: 'bad', preprocessMs: 0, trainMs: 0, predictMs: 0 },
      ]);
      const rows = await store.query(`SELECT job_key, "row", truth, probs FROM predictions ORDER BY "row"`);
      expect(rows).toEqual([
        { job_key: 'a', row: 4, truth: 0, probs: [1, 6.19e-19] },
        { job_key: 'a', row: 9, truth: 1, probs: [0.25, 0.75] },
      ]);
      const jobs = await store.query(`SELECT job_key, status, error, attempts FROM jobs ORDER BY job_key`);
      expect(jobs).toEqual([
        { job_key: 'a', status: 'done', error: null, attempts: 1 },
        { job_key: 'b', status: 'error', error: 'bad', attempts: 1 },
      ]);
      expect(await store.query(`SELECT n_arcs, n_test FROM job_metrics`)).toEqual([{ n_arcs: 1, n_test: 2 }]);
      // Writing a key again replaces its rows.
      await store.recordOutcomes([{ key: 'a', status: 'done', metrics, preprocessMs: 1, trainMs: 2, predictMs: 3 }]);
      expect(await store.query(`SELECT count(*)::INTEGER AS n FROM predictions`)).toEqual([{ n: 0 }]);
      expect(await store.query(`SELECT count(*)::INTEGER AS n FROM job_metrics`)).toEqual([{ n: 1 }]);
    } finally {
      store.close();
    }
  });

  it('rejects an outcome for an unregistered job and stores nothing of its batch', async () => {
    const store = await storeWithJobs(['a']);
    try {
      await expect(
        store.recordOutcomes([
          { key: 'a', status: 'error', error: 'x', preprocessMs: 0, trainMs: 0, predictMs: 0 },
          { key: 'zzz', status: 'error', error: 'x', preprocessMs: 0, trainMs: 0, predictMs: 0 },
        ]),
      ).rejects.toThrow(/1 of 2 outcomes have no registered job/);
      expect(await store.query(`SELECT status FROM jobs`)).toEqual([{ status: 'pending' }]);
    } finally {
      store.close();
    }
  });

  it('reports the real cause when COMMIT fails and has already ended the transaction', async () => {
    const store = await storeWithJobs(['a']);
    try {
      // As on a full disk: COMMIT fails and the transaction is gone, so ROLLBACK would fail with
      // "no transaction is active". The caller must see the disk error.
      const conn = (store as unknown as { conn: { run: (sql: string, ...rest: unknown[]) => Promise<unknown> } }).conn;
      const run = conn.run.bind(conn);
      conn.run = async (sql: string, ...rest: unknown[]) => {
        if (sql === 'COMMIT') {
          await run('ROLLBACK');
          throw new Error('IO Error: Could not write file "w.duckdb.wal": No space left on device');
        }
        return run(sql, ...rest);
      };
      await expect(
        store.recordOutcomes([{ key: 'a', status: 'error', error: 'x', preprocessMs: 0, trainMs: 0, predictMs: 0 }]),
      ).rejects.toThrow(/No space left on device/);
      conn.run = run;
      expect(await store.query(`SELECT status FROM jobs`)).toEqual([{ status: 'pending' }]);
    } finally {
      store.close();
    }
  });
});
