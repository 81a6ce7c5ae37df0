/** One stored result row for report tests: every metric derived from an accuracy, fixed sizes and timings. */
import type { ResultRow } from '../../src/store/db.js';

export function accuracyRow(
  experiment: string,
  dataset: string,
  method: string,
  fold: number,
  accuracy: number,
  jobKey: string,
): ResultRow {
  return {
    experiment,
    job_key: jobKey,
    dataset,
    method,
    structure: 'nb',
    estimator: 'dirichlet',
    repeat: 0,
    fold,
    accuracy,
    zero_one_loss: 1 - accuracy,
    rmse: 1 - accuracy,
    log_loss: 1 - accuracy,
    auc: accuracy,
    auc_ovr: accuracy,
    brier: 1 - accuracy,
    balanced_accuracy: accuracy,
    macro_f1: accuracy,
    n_train: 100,
    n_test: 10,
    n_arcs: 0,
    train_ms: 1,
    predict_ms: 1,
  };
}
