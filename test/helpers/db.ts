/** Read a results database in a test, read-only, closing it afterwards. */
import { ResultStore, type JobOutcome, type JobRow } from '../../src/store/db.js';

export async function readDb<T>(path: string, fn: (s: ResultStore) => Promise<T>): Promise<T> {
  const s = await ResultStore.open(path, { readOnly: true });
  try {
    return await fn(s);
  } finally {
    s.close();
  }
}

/** One SQL query on a results database, opened read-only and closed again. */
export async function query(db: string, sql: string): Promise<Record<string, unknown>[]> {
  return readDb(db, (s) => s.query(sql));
}

/** Every stored metric of an experiment, by job key: two runs agree when these rows are equal. */
export const METRIC_SQL = `SELECT job_key, dataset, method, "repeat", fold, accuracy, zero_one_loss, rmse, log_loss, n_train, n_test, n_arcs, n_feature_arcs
                    FROM results WHERE experiment = $1 ORDER BY job_key`;

/** A minimal registered job (nb, one fold) for store tests: only the key and the dataset name vary. */
export function jobRow(key: string, dataset = 'd'): JobRow {
  return {
    key,
    dataset,
    datasetHash: 'h',
    splitKey: 's',
    repeat: 0,
    fold: 0,
    structure: 'nb',
    structureParams: '{}',
    estimator: null,
    estimatorParams: null,
    preprocessing: '{}',
    seed: '1',
    method: 'nb',
  };
}

/** A finished job's outcome for store tests: its accuracy and arcs vary, every other metric is fixed. */
export function doneOutcome(key: string, accuracy: number, arcs: [string, string][] = [['class', 'a']]): JobOutcome {
  return {
    key,
    status: 'done',
    preprocessMs: 0,
    trainMs: 1,
    predictMs: 1,
    arcs,
    featureArcs: arcs.filter(([p]) => p !== 'class').length,
    metrics: {
      accuracy,
      zero_one_loss: 1 - accuracy,
      rmse: 0.5,
      log_loss: 0.7,
      n_train: 9,
      n_test: 1,
      auc: Number.NaN,
      auc_ovr: Number.NaN,
      brier: 0.2,
      balanced_accuracy: accuracy,
      macro_f1: accuracy,
      confusion: [
        [1, 0],
        [0, 0],
      ],
      class_labels: ['x', 'y'],
    },
  };
}
