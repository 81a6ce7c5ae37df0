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
import { SCORE_METRICS, type ScoreId } from '../metrics/all.js';

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A metric's value times `scale` (Weka's percentages), as stored when the scale is 1. */
function scaled(id: ScoreId, scale: number): (r: ResultRow) => number | null | undefined {
  return (r) => {
    const v = r[id];
    return scale === 1 || v === null || v === undefined ? v : scale * v;
  };
}

function num(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '?' : String(x);
}

/** The ARFF text of the results of one experiment (rows as ResultStore.results or resultsOf give them). */
export function resultsArff(relation: string, rows: readonly ResultRow[]): string {
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  const methods = [...new Set(rows.map((r) => r.method))];
  const measures: (readonly [string, (r: ResultRow) => number | null | undefined])[] = [
    ['Number_of_training_instances', (r) => r.n_train],
    ['Number_of_testing_instances', (r) => r.n_test],
    ...SCORE_METRICS.flatMap((m) => (m.weka ? [[m.weka.name, scaled(m.id, m.weka.scale)] as const] : [])),
    ['Elapsed_Time_training', (r) => r.train_ms / 1000],
    ['Elapsed_Time_testing', (r) => r.predict_ms / 1000],
    ...SCORE_METRICS.map((m) => [m.id, (r: ResultRow) => r[m.id]] as const),
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
