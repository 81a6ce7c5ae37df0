/** Names belong to the experiment: a job shared by two experiments reports each one's dataset name. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ResultStore, type JobRow } from '../../src/store/db.js';
import { tempDir } from '../helpers/cli.js';
import { jobRow } from '../helpers/db.js';

const row = (key: string, dataset: string): JobRow => jobRow(key, dataset);

describe('dataset names per experiment', () => {
  it('a second experiment sharing a job reports its own dataset name', async () => {
    const store = await ResultStore.open(join(tempDir(), 'n.duckdb'));
    try {
      await store.registerJobs('first', [row('k1', 'iris')], 'v');
      await store.registerJobs('second', [row('k1', 'flowers')], 'v');
      await store.recordOutcomes([
        {
          key: 'k1',
          status: 'done',
          preprocessMs: 0,
          trainMs: 0,
          predictMs: 0,
          metrics: {
            accuracy: 1,
            zero_one_loss: 0,
            rmse: 0,
            log_loss: 0,
            n_train: 1,
            n_test: 1,
            auc: Number.NaN,
            auc_ovr: Number.NaN,
            brier: 0,
            balanced_accuracy: 1,
            macro_f1: 1,
            confusion: [[1]],
            class_labels: ['a'],
          },
        },
      ]);
      expect((await store.results('first')).map((r) => r.dataset)).toEqual(['iris']);
      expect((await store.results('second')).map((r) => r.dataset)).toEqual(['flowers']);
    } finally {
      store.close();
    }
  });
});
