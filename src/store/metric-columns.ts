/**
 * The job_metrics table, from the metric registry (src/metrics/all.ts): its first schema, the columns added
 * since, the `results` view's metric columns, and the appender row of one finished job, written in the
 * column order of the database at hand (read from its catalog, so a file whose columns were added in
 * another order, or by a later bnclab, is written correctly too).
 */
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { METRICS, SCORE_METRICS, type FirstSchemaId, type MetricValues } from '../metrics/all.js';
import type { ColumnType, ColumnValues, Metric } from '../metrics/registry.js';

const FIRST = METRICS.filter((m: Metric) => m.firstSchema);
const LATER = METRICS.filter((m: Metric) => !m.firstSchema);

/**
 * A finished job's metric values and the facts stored beside them. A metric added after the first schema
 * may be absent (a test's hand-made outcome): it is stored as NULL, as for jobs stored before it existed.
 */
export type JobMetrics = Pick<MetricValues, FirstSchemaId> &
  Partial<Omit<MetricValues, FirstSchemaId>> & {
    /** Classes in code order: the rows and columns of `confusion`. */
    readonly class_labels: readonly string[];
    readonly n_train: number;
    readonly n_test: number;
  };

/**
 * job_metrics as first created: the key, the first schema's metrics, the job's sizes and arc counts. No
 * primary key in new databases (src/store/db.ts says why); older ones keep theirs.
 */
export const JOB_METRICS_TABLE = `CREATE TABLE IF NOT EXISTS job_metrics (
     job_key VARCHAR, ${FIRST.map((m) => `${m.id} ${m.column}`).join(', ')},
     n_train INTEGER, n_test INTEGER, n_arcs INTEGER, n_feature_arcs INTEGER)`;

/**
 * class_labels was added with the confusion matrix, right after it; a metric registered since then comes
 * after class_labels, where ALTER TABLE puts it in a database that has class_labels already, so new and old
 * databases have the same column order.
 */
const LABELS_AFTER = LATER.findIndex((m) => m.id === 'confusion') + 1;

/** job_metrics columns added after the first schema, with their types, in the order they are added. */
export const ADDED_METRIC_COLUMNS: readonly (readonly [string, string])[] = [
  ...LATER.slice(0, LABELS_AFTER).map((m) => [m.id, m.column] as const),
  ['class_labels', 'VARCHAR[]'],
  ...LATER.slice(LABELS_AFTER).map((m) => [m.id, m.column] as const),
];

/** Result columns a database written by an older bnclab may lack: read as typed NULLs there. */
export const LATER_RESULT_COLUMNS: readonly (readonly [string, string])[] = [
  ['n_feature_arcs', 'INTEGER'],
  ...SCORE_METRICS.filter((m) => !m.firstSchema).map((m) => [m.id, m.column] as const),
];

/** The compared metrics every stored job has, as the result queries list them. */
export const FIRST_SCORE_COLUMNS: readonly string[] = SCORE_METRICS.filter((m) => m.firstSchema).map((m) => m.id);

/** The `results` view's job_metrics columns before the job's sizes, and after its timings. */
export const VIEW_FIRST_COLUMNS = FIRST.map((m) => `m.${m.id}`).join(', ');
export const VIEW_LATER_COLUMNS = ADDED_METRIC_COLUMNS.map(([c]) => `m.${c}`).join(', ');

/** A finished job as job_metrics stores it. */
interface MetricsRow {
  readonly key: string;
  readonly metrics: JobMetrics;
  readonly arcs?: readonly unknown[];
  readonly featureArcs?: number;
}

type Write = (a: DuckDBAppender, o: MetricsRow) => void;

function nullable<T>(get: (o: MetricsRow) => T | null | undefined, put: (a: DuckDBAppender, v: T) => void): Write {
  return (a, o) => {
    const v = get(o);
    if (v === null || v === undefined) a.appendNull();
    else put(a, v);
  };
}

/**
 * How a value of each column type goes into the appender of the staging table (jobMetricsWriter). A matrix
 * goes in as its text, `[[5,0],[1,4]]`, which DuckDB casts to INTEGER[][] when the batch's rows are
 * inserted: appended as nested lists, each row and count was a DuckDB value made one at a time, about half
 * of a trivial job's cost of storing.
 */
const PUT: { readonly [T in ColumnType]: (a: DuckDBAppender, v: ColumnValues[T]) => void } = {
  DOUBLE: (a, v) => a.appendDouble(v),
  'INTEGER[][]': (a, v) => a.appendVarchar(matrixText(v)),
};

/** An integer matrix as DuckDB reads a list literal; every entry must be an integer (a count). */
function matrixText(v: readonly (readonly number[])[]): string {
  for (const row of v) for (const x of row) if (!Number.isInteger(x)) throw new Error(`not an integer matrix: ${x}`);
  return JSON.stringify(v);
}

function metricWriter(m: Metric): Write {
  const put = PUT[m.column] as (a: DuckDBAppender, v: unknown) => void;
  return nullable((o) => (o.metrics as Readonly<Partial<Record<string, unknown>>>)[m.id], put);
}

const WRITERS = new Map<string, Write>([
  ['job_key', (a, o) => a.appendVarchar(o.key)],
  ['n_train', (a, o) => a.appendInteger(o.metrics.n_train)],
  ['n_test', (a, o) => a.appendInteger(o.metrics.n_test)],
  [
    'n_arcs',
    nullable(
      (o) => o.arcs?.length,
      (a, v) => a.appendInteger(v),
    ),
  ],
  [
    'n_feature_arcs',
    nullable(
      (o) => (o.arcs ? o.featureArcs : undefined),
      (a, v) => a.appendInteger(v),
    ),
  ],
  ['class_labels', (a, o) => a.appendVarchar(JSON.stringify(o.metrics.class_labels))],
  ...METRICS.map((m) => [m.id, metricWriter(m)] as const),
]);

/** The job_metrics rows of a batch: staged in a temporary table, then inserted into job_metrics. */
export interface JobMetricsWriter {
  /** Creates (afresh) the staging table, `metrics_batch`, with job_metrics' columns in its order. */
  readonly stage: string;
  /** One row of the staging table per call. */
  readonly write: (a: DuckDBAppender, o: MetricsRow) => void;
  /** Inserts the staged rows into job_metrics, lists cast from their text. */
  readonly insert: string;
}

const quoted = (id: string): string => `"${id.replace(/"/g, '""')}"`;

/**
 * List columns, staged as text and cast on insert: a list appended as a DuckDB value is made one value at a
 * time, a text is one call. A matrix's text is its JSON, which DuckDB also reads as a list literal (PUT); class
 * labels are JSON text read as JSON (its quoting holds for any label, a list literal's does not).
 */
const CAST_FROM_TEXT: ReadonlyMap<string, (column: string) => string> = new Map([
  ['INTEGER[][]', (c: string) => `${c}::INTEGER[][]`],
  ['VARCHAR[]', (c: string) => `CAST(${c}::JSON AS VARCHAR[])`],
]);

/**
 * The writer of job_metrics rows for this database: one value per column in the table's own order; a
 * column this bnclab does not know (added by a later version) gets NULL. A list column is staged as its text
 * and cast on insert (CAST_FROM_TEXT).
 */
export async function jobMetricsWriter(conn: DuckDBConnection): Promise<JobMetricsWriter> {
  const r = await conn.runAndReadAll(
    `SELECT column_name, data_type FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'job_metrics'
     ORDER BY column_index`,
  );
  const columns = r.getRows().map(([c, t]) => ({ name: String(c), type: String(t) }));
  const cast = (c: { type: string }): ((column: string) => string) | undefined => CAST_FROM_TEXT.get(c.type);
  const writes = columns.map((c) => WRITERS.get(c.name) ?? ((a: DuckDBAppender) => a.appendNull()));
  return {
    stage: `CREATE OR REPLACE TEMP TABLE metrics_batch (${columns
      .map((c) => `${quoted(c.name)} ${cast(c) ? 'VARCHAR' : c.type}`)
      .join(', ')})`,
    write: (a, o) => {
      for (const w of writes) w(a, o);
      a.endRow();
    },
    insert: `INSERT INTO job_metrics SELECT ${columns
      .map((c) => cast(c)?.(quoted(c.name)) ?? quoted(c.name))
      .join(', ')} FROM metrics_batch`,
  };
}
