/** A report's input built in memory (no database): result rows, one BNC method per label, quiet comparisons. */
import type { ReportInput } from '../../src/report/build.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';

/**
 * Rows and labels as a report input: experiment 'x', every label an nb/<estimator> method, no statistical tests
 * and no scatter plots unless `overrides` sets `compare`; any other field can be overridden too.
 */
export function reportInput(
  rows: ResultRow[],
  labels: readonly string[],
  overrides: Partial<ReportInput> = {},
  estimator = 'dirichlet',
): ReportInput {
  return {
    experiment: 'x',
    specFile: 'x.yaml',
    specHash: '0'.repeat(64),
    settings: {},
    rows,
    expectedJobs: rows.length,
    failed: [],
    methods: labels.map((label) => ({
      kind: 'bnc' as const,
      label,
      structure: { id: 'nb', params: {}, given: {} },
      estimator: { id: estimator, params: {}, given: {} },
    })),
    compare: { ...DEFAULT_COMPARE, scatter: false, tests: [] },
    reference: [],
    ...overrides,
  };
}

/**
 * One fold's result row of experiment 'x' (nb/dirichlet, repeat 0): accuracy as given, 0-1 loss its complement,
 * RMSE and log loss `rmse`; any other field through `extra`.
 */
export function resultRow(
  dataset: string,
  method: string,
  fold: number,
  accuracy: number,
  rmse: number,
  extra: Partial<ResultRow> = {},
): ResultRow {
  return {
    experiment: 'x',
    job_key: `${dataset}${method}${fold}`,
    dataset,
    method,
    structure: 'nb',
    estimator: 'dirichlet',
    repeat: 0,
    fold,
    accuracy,
    zero_one_loss: 1 - accuracy,
    rmse,
    log_loss: rmse,
    n_train: 1,
    n_test: 1,
    n_arcs: 0,
    train_ms: 0,
    predict_ms: 0,
    ...extra,
  } as ResultRow;
}
