import { describe, it, expect } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ResultStore } from '../../src/store/db.js';

describe('job_metrics.n_feature_arcs', () => {
  it('a database written before the column existed gains it (NULL for its jobs) when opened for writing', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bnclab-fa-')), 'old.duckdb');
    const old = await DuckDBInstance.create(path);
    const c = await old.connect();
    await c.run(`CREATE TABLE job_metrics (
      job_key VARCHAR PRIMARY KEY, accuracy DOUBLE, zero_one_loss DOUBLE, rmse DOUBLE, log_loss DOUBLE,
      n_train INTEGER, n_test INTEGER, n_arcs INTEGER)`);
    await c.run(`INSERT INTO job_metrics VALUES ('k', 0.9, 0.1, 0.2, 0.3, 90, 10, 25)`);
    c.closeSync();
    old.closeSync();
    const store = await ResultStore.open(path);
    try {
      const rows = await store.query(`SELECT n_arcs, n_feature_arcs FROM job_metrics`);
      expect(rows).toEqual([{ n_arcs: 25, n_feature_arcs: null }]);
    } finally {
      store.close();
    }
  });
});
