/**
 * job_metrics from the metric registry: the columns and the `results` view of a new database are those
 * bnclab has always written, and a job's row goes in by column name, so a database whose columns were
 * added in another order, or that has a column this bnclab does not know, is written correctly.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ResultStore, type JobOutcome } from '../../src/store/db.js';
import { METRICS } from '../../src/metrics/all.js';
import { tempDir } from '../helpers/cli.js';
import { jobRow } from '../helpers/db.js';

const JOB_METRICS = [
  'job_key',
  'accuracy',
  'zero_one_loss',
  'rmse',
  'log_loss',
  'n_train',
  'n_test',
  'n_arcs',
  'n_feature_arcs',
  'auc',
  'auc_ovr',
  'brier',
  'balanced_accuracy',
  'macro_f1',
  'confusion',
  'class_labels',
];

const RESULTS_VIEW = [
  'experiment',
  'job_key',
  'dataset',
  'method',
  'structure',
  'structure_params',
  'estimator',
  'estimator_params',
  'repeat',
  'fold',
  'accuracy',
  'zero_one_loss',
  'rmse',
  'log_loss',
  'n_train',
  'n_test',
  'n_arcs',
  'n_feature_arcs',
  'preprocess_ms',
  'train_ms',
  'predict_ms',
  'auc',
  'auc_ovr',
  'brier',
  'balanced_accuracy',
  'macro_f1',
  'confusion',
  'class_labels',
];

function outcome(key: string, partial = false): JobOutcome {
  return {
    key,
    status: 'done',
    preprocessMs: 1,
    trainMs: 2,
    predictMs: 3,
    arcs: [
      ['c', 'a'],
      ['a', 'b'],
    ],
    featureArcs: 1,
    metrics: {
      accuracy: 0.75,
      zero_one_loss: 0.25,
      rmse: 0.3,
      log_loss: 0.4,
      ...(partial
        ? {}
        : {
            auc: 0.8,
            auc_ovr: 0.81,
            brier: 0.2,
            balanced_accuracy: 0.7,
            macro_f1: 0.65,
            confusion: [
              [3, 1],
              [0, 0],
            ],
          }),
      class_labels: ['x', 'y'],
      n_train: 36,
      n_test: 4,
    },
  };
}

async function columns(store: ResultStore, table: string): Promise<string[]> {
  const rows = await store.query(
    `SELECT column_name FROM duckdb_columns() WHERE table_name = $1 ORDER BY column_index`,
    [table],
  );
  return rows.map((r) => String(r['column_name']));
}

describe('job_metrics from the metric registry', () => {
  it('a new database has the columns and results view bnclab has always written', async () => {
    const store = await ResultStore.open(join(tempDir(), 'new.duckdb'));
    try {
      // A metric registered after the confusion matrix is a column after these, in the registry's order.
      const since = METRICS.slice(METRICS.findIndex((m) => m.id === 'confusion') + 1).map((m) => m.id);
      expect(await columns(store, 'job_metrics')).toEqual([...JOB_METRICS, ...since]);
      expect(await columns(store, 'results')).toEqual([...RESULTS_VIEW, ...since]);
    } finally {
      store.close();
    }
  });

  it('writes a job by column name, whatever the order of the columns, NULL where it has no value', async () => {
    const path = join(tempDir(), 'reordered.duckdb');
    let store = await ResultStore.open(path);
    // Another order (class_labels before the later metrics) and a column of a later bnclab.
    await store.query(`ALTER TABLE job_metrics DROP COLUMN class_labels`);
    await store.query(`ALTER TABLE job_metrics DROP COLUMN auc`);
    await store.query(`ALTER TABLE job_metrics ADD COLUMN class_labels VARCHAR[]`);
    await store.query(`ALTER TABLE job_metrics ADD COLUMN some_later_metric DOUBLE`);
    store.close();
    store = await ResultStore.open(path);
    try {
      expect((await columns(store, 'job_metrics')).slice(-3)).toEqual(['class_labels', 'some_later_metric', 'auc']);
      await store.registerJobs('e', [jobRow('k1', 'd'), jobRow('k2', 'd')], 'v');
      await store.recordOutcomes([outcome('k1'), outcome('k2', true)]);
      const rows = await store.query(
        `SELECT job_key, accuracy, zero_one_loss, n_train, n_test, n_arcs, n_feature_arcs, auc, auc_ovr, brier,
                macro_f1, confusion, class_labels, some_later_metric FROM job_metrics ORDER BY job_key`,
      );
      expect(rows).toEqual([
        {
          job_key: 'k1',
          accuracy: 0.75,
          zero_one_loss: 0.25,
          n_train: 36,
          n_test: 4,
          n_arcs: 2,
          n_feature_arcs: 1,
          auc: 0.8,
          auc_ovr: 0.81,
          brier: 0.2,
          macro_f1: 0.65,
          confusion: [
            [3, 1],
            [0, 0],
          ],
          class_labels: ['x', 'y'],
          some_later_metric: null,
        },
        {
          job_key: 'k2',
          accuracy: 0.75,
          zero_one_loss: 0.25,
          n_train: 36,
          n_test: 4,
          n_arcs: 2,
          n_feature_arcs: 1,
          auc: null,
          auc_ovr: null,
          brier: null,
          macro_f1: null,
          confusion: null,
          class_labels: ['x', 'y'],
          some_later_metric: null,
        },
      ]);
      const results = await store.results('e');
      expect(results.map((r) => [r.accuracy, r.auc, r.n_feature_arcs])).toEqual([
        [0.75, 0.8, 1],
        [0.75, null, 1],
      ]);
    } finally {
      store.close();
    }
  });

  it('stores any class label as it is, and NULL in a list column of a later bnclab', async () => {
    const path = join(tempDir(), 'labels.duckdb');
    let store = await ResultStore.open(path);
    await store.query(`ALTER TABLE job_metrics ADD COLUMN some_later_list VARCHAR[]`);
    store.close();
    store = await ResultStore.open(path);
    // Quotes, commas, brackets, spaces, backslashes, the words a list literal reads as NULL, the empty label.
    const labels = ['a"b', "c'd", 'e,f', '[g]', ' h ', 'i\\j', 'NULL', 'null', '', 'ünï', '{k: 1}'];
    try {
      await store.registerJobs('e', [jobRow('k1', 'd')], 'v');
      const o = outcome('k1');
      await store.recordOutcomes([{ ...o, metrics: { ...o.metrics!, class_labels: labels } }]);
      const rows = await store.query(`SELECT class_labels, some_later_list FROM job_metrics`);
      expect(rows).toEqual([{ class_labels: labels, some_later_list: null }]);
    } finally {
      store.close();
    }
  });
});
