/**
 * Every metric, in order. The order is that of the store's columns for the metrics added after the first
 * schema, of report.csv's rows, of `compare.metrics` in the JSON Schema and of docs/metrics.md: append a new
 * metric at the end, never reorder. docs/extending.md, "Adding a metric", says what else to do.
 */
import { accuracy, zeroOneLoss } from './accuracy.js';
import { auc, aucOvr } from './auc.js';
import { balancedAccuracy, confusion, macroF1 } from './confusion.js';
import { brier, logLoss, rmse } from './probability.js';
import { isScore, nameKey, scoreTestSet, type ColumnValues, type Metric, type ScoreMetric } from './registry.js';

export const METRICS = [
  accuracy,
  zeroOneLoss,
  rmse,
  logLoss,
  auc,
  aucOvr,
  brier,
  balancedAccuracy,
  macroF1,
  confusion,
] as const;

type Declared = (typeof METRICS)[number];
/** The metrics compared as numbers: report tables and tests, `check`, baselines, claims, the browser view. */
export type ScoreId = Extract<Declared, { direction: 'higher' | 'lower' }>['id'];
/** The metrics of job_metrics' first schema: every stored job has them. */
export type FirstSchemaId = Extract<Declared, { firstSchema: true }>['id'];

/** A job's metric values, as the runner computes them and the store writes them. */
export type MetricValues = { readonly [M in Declared as M['id']]: ColumnValues[M['column']] };

/**
 * The compared metrics of a stored result row: those of the first schema always hold a number; a later one
 * is NULL (null) for jobs stored before it existed.
 */
export type ScoreColumns = { [K in FirstSchemaId]: number } & {
  [K in Exclude<ScoreId, FirstSchemaId>]?: number | null;
};

export const SCORE_METRICS: readonly ScoreMetric<ScoreId>[] = METRICS.filter(isScore) as ScoreMetric<ScoreId>[];
export const SCORE_IDS: readonly ScoreId[] = SCORE_METRICS.map((m) => m.id);

const byId = new Map<string, Metric>(METRICS.map((m) => [m.id, m]));

export function scoreMetric(id: ScoreId): ScoreMetric<ScoreId> {
  return byId.get(id) as ScoreMetric<ScoreId>;
}

/** Every metric of a test set (the runner's outcome): n × classCard posteriors and true class codes. */
export function computeMetricValues(
  posteriors: Float64Array,
  truth: ArrayLike<number>,
  classCard: number,
): MetricValues {
  return scoreTestSet(METRICS, posteriors, truth, classCard) as unknown as MetricValues;
}

const byName = new Map<string, ScoreId>();
for (const m of SCORE_METRICS) {
  for (const n of [m.id, m.name ?? m.id, ...(m.aliases ?? [])]) byName.set(nameKey(n), m.id);
}

/** A published metric name ('0/1-loss', 'RMSE', 'zero_one_loss', 'error rate', …) as one of ours, or undefined. */
export function metricFromName(name: string): ScoreId | undefined {
  return byName.get(nameKey(name));
}

/** The compared metrics as a message lists them: "accuracy, 0-1 loss, rmse, …". */
export function metricNames(): string {
  return SCORE_METRICS.map((m) => m.name ?? m.id).join(', ');
}
