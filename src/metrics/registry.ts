/**
 * What a metric is: one declaration (`defineMetric`) gives its id, its column in the store, its label and
 * direction in reports, the names a reference file may use for it, when it is defined, and how it is
 * computed from a test set's posteriors. The ordered list of every metric is `src/metrics/all.ts`; the
 * store's schema, the runner's outcome, the report, `check`, baselines, claims and docs/metrics.md read it.
 */
import { validateScores } from './index.js';

/** The DuckDB type of a metric's column in job_metrics, and the JavaScript value it holds. */
export interface ColumnValues {
  readonly DOUBLE: number;
  /** A matrix of counts, rows by true class (the confusion matrix). */
  readonly 'INTEGER[][]': readonly (readonly number[])[];
}
export type ColumnType = keyof ColumnValues;

/**
 * One test set's posteriors and true classes, with the intermediate results several metrics share (the
 * confusion matrix, both AUCs from one pass) computed once.
 */
export interface Scoring {
  /** n × classCard, row-major. */
  readonly posteriors: Float64Array;
  readonly truth: ArrayLike<number>;
  readonly classCard: number;
  readonly n: number;
  /** How many classes occur among the test rows. */
  readonly classesPresent: number;
  /** `fn(posteriors, truth, classCard)`, computed once per test set whichever metric asks first. */
  shared<T>(fn: (posteriors: Float64Array, truth: ArrayLike<number>, classCard: number) => T): T;
}

interface MetricBase<Id extends string, T extends ColumnType> {
  /** The column of job_metrics and of the `results` view, and what a spec writes (`compare.metrics`). Stable. */
  readonly id: Id;
  /** The label of report tables, figures and `check` output. */
  readonly title: string;
  /** One or two sentences for docs/metrics.md: the definition, and whose program computes the same. */
  readonly description: string;
  readonly column: T;
  /**
   * The metric was a column of job_metrics' first schema (accuracy, 0-1 loss, RMSE, log loss): every stored
   * job has it. Any other metric is added to existing databases as a column and read as NULL for the jobs
   * stored before it existed. Never set it on a new metric.
   */
  readonly firstSchema?: true;
  readonly compute: (s: Scoring) => ColumnValues[T];
}

/** A number per job that reports compare across methods (tables, tests, check, baselines, claims). */
export interface ScoreMetric<Id extends string = string> extends MetricBase<Id, 'DOUBLE'> {
  readonly direction: 'higher' | 'lower';
  /**
   * When the metric is defined: outside it the stored value is NaN (compute is not called), and the report
   * counts the folds where it is undefined. Every score is NaN on an empty test set.
   */
  readonly applies?: { readonly when: (s: Scoring) => boolean; readonly otherwise: string };
  /** Decimals in report tables. */
  readonly digits: number;
  /** How a message lists it among the metrics ("0-1 loss"); the id when absent. */
  readonly name?: string;
  /**
   * Other names a reference file or a claim may use ("error rate", "AUC (Hand & Till)"); compared after
   * lower-casing and dropping everything but letters and digits, as the id and `name` are.
   */
  readonly aliases?: readonly string[];
  /** Weka Experimenter's name for the same measure in `export results` (ARFF), and its scale (100: percent). */
  readonly weka?: { readonly name: string; readonly scale: number };
}

/** A value stored with each job that is not compared as a number (the confusion matrix). */
interface StoredMetric<Id extends string = string, T extends ColumnType = ColumnType> extends MetricBase<Id, T> {
  readonly direction?: undefined;
}

export type Metric = ScoreMetric | StoredMetric;

/** Declare a metric (the declaration is returned with its literal types, for `all.ts`). */
export function defineMetric<const M extends ScoreMetric | StoredMetric<string, Exclude<ColumnType, 'DOUBLE'>>>(
  m: M,
): M {
  return m;
}

export function isScore(m: Metric): m is ScoreMetric {
  return m.direction !== undefined;
}

/** The name-matching key of metricFromName: lower case, letters and digits only. */
export function nameKey(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Every metric of `metrics` on one test set, in that order. Throws on posteriors and truths that do not
 * fit together (a programming error, never user input).
 */
export function scoreTestSet(
  metrics: readonly Metric[],
  posteriors: Float64Array,
  truth: ArrayLike<number>,
  classCard: number,
): Record<string, ColumnValues[ColumnType]> {
  const n = validateScores(posteriors, truth, classCard);
  const memo = new Map<unknown, unknown>();
  let present = -1;
  const s: Scoring = {
    posteriors,
    truth,
    classCard,
    n,
    get classesPresent() {
      if (present < 0) {
        const seen = new Uint8Array(classCard);
        for (let r = 0; r < n; r++) seen[truth[r]] = 1;
        present = seen.reduce((a, b) => a + b, 0);
      }
      return present;
    },
    shared(fn) {
      if (!memo.has(fn)) memo.set(fn, fn(posteriors, truth, classCard));
      return memo.get(fn) as ReturnType<typeof fn>;
    },
  };
  const out: Record<string, ColumnValues[ColumnType]> = {};
  for (const m of metrics) out[m.id] = isScore(m) && m.applies && !m.applies.when(s) ? NaN : m.compute(s);
  return out;
}
