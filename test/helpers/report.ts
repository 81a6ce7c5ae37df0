/** A report's input built in memory (no database): result rows, one BNC method per label, quiet comparisons. */
import type { ReportInput } from '../../src/report/build.js';
import { DEFAULT_COMPARE, type ReferenceSpec } from '../../src/spec/report-sections.js';
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

/**
 * A run that has not finished: methods a, b, c on d1…d5, 3 folds planned each; b has 2 of 3 folds on d2 and
 * none on d4. Accuracy of method j on dataset i, fold f: 0.6 + 0.1·(2 for b, else j) + 0.01·i + 0.001·f, so b is
 * the best method on every dataset. `extra` adds fields to a row (e.g. an AUC).
 */
export const UNFINISHED_RUN = { methods: ['a', 'b', 'c'], datasets: ['d1', 'd2', 'd3', 'd4', 'd5'], folds: 3 } as const;

export function unfinishedRunRows(
  extra: (dataset: string, method: string, fold: number, accuracy: number) => Partial<ResultRow> = () => ({}),
): ResultRow[] {
  const { methods, datasets, folds } = UNFINISHED_RUN;
  const out: ResultRow[] = [];
  datasets.forEach((dataset, i) =>
    methods.forEach((method, j) => {
      for (let fold = 0; fold < folds; fold++) {
        if (method === 'b' && ((dataset === 'd2' && fold === 2) || dataset === 'd4')) continue;
        const acc = 0.6 + 0.1 * (j === 1 ? 2 : j) + 0.01 * i + 0.001 * fold;
        out.push(resultRow(dataset, method, fold, acc, 1 - acc, extra(dataset, method, fold, acc)));
      }
    }),
  );
  return out;
}

/** The planned folds of {@link UNFINISHED_RUN}: every dataset × method, 3 folds. */
export function unfinishedRunPlan(): Map<string, number> {
  const { methods, datasets, folds } = UNFINISHED_RUN;
  return new Map(datasets.flatMap((d) => methods.map((m) => [`${d}\u0000${m}`, folds] as const)));
}

/** A `reference:` entry for a file, as the spec loader makes it with nothing but the file given. */
export function referenceSpec(file: string, extra: Partial<ReferenceSpec> = {}): ReferenceSpec {
  return {
    file,
    path: file.replace(/^.*[\\/]/, ''),
    title: null,
    methods: {},
    datasets: {},
    substitutes: {},
    scale: 1,
    tolerance: 0.01,
    ...extra,
  };
}
