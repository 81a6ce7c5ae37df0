/**
 * Per-fold results as ARFF in the layout of Weka's Experimenter result files, so that Weka's Analyse tab
 * (or weka.experiment.PairedCorrectedTTester) can test them as it tests its own: the key fields Key_Dataset,
 * Key_Run (the repeat, 1-based), Key_Fold (1-based), Key_Scheme (the method), Key_Scheme_options (its
 * structure and estimator) and Key_Scheme_version_ID, then Weka's own names for the measures it also has
 * (Number_of_training_instances, Number_of_testing_instances, Percent_correct, Percent_incorrect,
 * Root_mean_squared_error, Area_under_ROC, Elapsed_Time_training and _testing in seconds), then bnclab's
 * other metrics under their own names. Missing values are '?'.
 */
import type { ResultRow } from '../store/db.js';

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function num(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '?' : String(x);
}

/** The ARFF text of the results of one experiment (rows as ResultStore.results or resultsOf give them). */
export function resultsArff(relation: string, rows: readonly ResultRow[]): string {
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  const methods = [...new Set(rows.map((r) => r.method))];
  const measures: [string, (r: ResultRow) => number | null | undefined][] = [
    ['Number_of_training_instances', (r) => r.n_train],
    ['Number_of_testing_instances', (r) => r.n_test],
    ['Percent_correct', (r) => 100 * r.accuracy],
    ['Percent_incorrect', (r) => 100 * r.zero_one_loss],
    ['Root_mean_squared_error', (r) => r.rmse],
    ['Area_under_ROC', (r) => r.auc],
    ['Elapsed_Time_training', (r) => r.train_ms / 1000],
    ['Elapsed_Time_testing', (r) => r.predict_ms / 1000],
    ['accuracy', (r) => r.accuracy],
    ['zero_one_loss', (r) => r.zero_one_loss],
    ['rmse', (r) => r.rmse],
    ['log_loss', (r) => r.log_loss],
    ['auc', (r) => r.auc],
    ['auc_ovr', (r) => r.auc_ovr],
    ['brier', (r) => r.brier],
    ['balanced_accuracy', (r) => r.balanced_accuracy],
    ['macro_f1', (r) => r.macro_f1],
    ['n_arcs', (r) => r.n_arcs],
  ];
  const out = [
    `% bnclab results: one instance per finished job (dataset × method × repeat × fold)`,
    `@relation ${quote(relation)}`,
    '',
    `@attribute Key_Dataset {${datasets.map(quote).join(',')}}`,
    '@attribute Key_Run numeric',
    '@attribute Key_Fold numeric',
    `@attribute Key_Scheme {${methods.map(quote).join(',')}}`,
    '@attribute Key_Scheme_options string',
    '@attribute Key_Scheme_version_ID string',
    ...measures.map(([n]) => `@attribute ${n} numeric`),
    '',
    '@data',
  ];
  for (const r of rows) {
    out.push(
      [
        quote(r.dataset),
        String(r.repeat + 1),
        String(r.fold + 1),
        quote(r.method),
        quote(`structure=${r.structure}${r.estimator ? ` estimator=${r.estimator}` : ''}`),
        quote('bnclab'),
        ...measures.map(([, f]) => num(f(r))),
      ].join(','),
    );
  }
  return out.join('\n') + '\n';
}
