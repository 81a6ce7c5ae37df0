/**
 * The read queries of `bnclab ui` (src/ui/): per experiment the job counts and their finishing times, the
 * dataset × method grid of counts, one cell's jobs with metrics, timings and errors. Aggregation is done
 * here in DuckDB, so the server sends summaries, never a result table's rows. Read-only: nothing here writes.
 */
import type { ResultRow, ResultStore } from './db.js';
import { COMPARE_METRICS } from '../spec/report-sections.js';

export interface ExperimentCounts {
  readonly name: string;
  readonly specFile: string;
  readonly planned: number;
  readonly done: number;
  readonly failed: number;
  readonly pending: number;
  /** Seconds since the epoch of the first and last finished job (null when none finished). */
  readonly firstFinished: number | null;
  readonly lastFinished: number | null;
  readonly updated: number | null;
}

export interface GridCount {
  readonly dataset: string;
  readonly method: string;
  readonly planned: number;
  readonly done: number;
  readonly failed: number;
}

export interface CellJob {
  readonly jobKey: string;
  readonly repeat: number;
  readonly fold: number;
  readonly status: string;
  readonly error: string | null;
  readonly structure: string;
  readonly structureParams: string;
  readonly estimator: string | null;
  readonly estimatorParams: string | null;
  readonly preprocessing: string;
  readonly seed: string;
  readonly version: string | null;
  readonly finishedAt: string | null;
  readonly preprocessMs: number | null;
  readonly trainMs: number | null;
  readonly predictMs: number | null;
  readonly metrics: Readonly<Record<string, number | null>>;
  readonly confusion: readonly (readonly number[])[] | null;
  readonly classLabels: readonly string[] | null;
  readonly nTrain: number | null;
  readonly nTest: number | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const epoch = (v: unknown): number | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const t = v instanceof Date ? v.getTime() : Date.parse(String(v).replace(' ', 'T') + 'Z');
  return Number.isFinite(t) ? t / 1000 : null;
};

/** Every experiment of the database with its registered jobs counted by state. */
export async function experimentCounts(store: ResultStore): Promise<ExperimentCounts[]> {
  const rows = await store.query(
    `SELECT x.name, x.spec_file, epoch(x.updated_at) AS updated,
            count(e.job_key) AS planned,
            count(*) FILTER (WHERE j.status = 'done') AS done,
            count(*) FILTER (WHERE j.status = 'error') AS failed,
            epoch(min(j.finished_at)) AS first_finished, epoch(max(j.finished_at)) AS last_finished
     FROM experiments x LEFT JOIN experiment_jobs e ON e.experiment = x.name LEFT JOIN jobs j USING (job_key)
     GROUP BY x.name, x.spec_file, x.updated_at ORDER BY x.name`,
  );
  return rows.map((r) => {
    const planned = Number(r['planned']);
    const done = Number(r['done']);
    const failed = Number(r['failed']);
    return {
      name: String(r['name']),
      specFile: String(r['spec_file'] ?? ''),
      planned,
      done,
      failed,
      pending: planned - done - failed,
      firstFinished: epoch(r['first_finished']),
      lastFinished: epoch(r['last_finished']),
      updated: epoch(r['updated']),
    };
  });
}

/** Per dataset × method of an experiment: jobs registered, done and failed. */
export async function gridCounts(store: ResultStore, experiment: string): Promise<GridCount[]> {
  const rows = await store.query(
    `SELECT coalesce(e.dataset, j.dataset) AS dataset, e.method, count(*) AS planned,
            count(*) FILTER (WHERE j.status = 'done') AS done, count(*) FILTER (WHERE j.status = 'error') AS failed
     FROM experiment_jobs e JOIN jobs j USING (job_key) WHERE e.experiment = $1
     GROUP BY ALL ORDER BY 1, 2`,
    [experiment],
  );
  return rows.map((r) => ({
    dataset: String(r['dataset']),
    method: String(r['method']),
    planned: Number(r['planned']),
    done: Number(r['done']),
    failed: Number(r['failed']),
  }));
}

/** Facts of the experiment's datasets (rows, attributes, classes) by the experiment's dataset name. */
export async function datasetFacts(
  store: ResultStore,
  experiment: string,
): Promise<{ dataset: string; rows: number; attributes: number; classes: number }[]> {
  const rows = await store.query(
    `SELECT ed.dataset, d.rows, d.attributes, d.classes FROM experiment_datasets ed
     LEFT JOIN datasets d USING (dataset_hash) WHERE ed.experiment = $1 ORDER BY ed.dataset`,
    [experiment],
  );
  return rows.map((r) => ({
    dataset: String(r['dataset']),
    rows: Number(r['rows'] ?? 0),
    attributes: Number(r['attributes'] ?? 0),
    classes: Number(r['classes'] ?? 0),
  }));
}

/** The per-fold metrics a cell shows: those the report compares. */
const CELL_METRICS = COMPARE_METRICS;

/** One dataset × method of an experiment: every job (done, failed or pending) in (repeat, fold) order. */
export async function cellJobs(
  store: ResultStore,
  experiment: string,
  dataset: string,
  method: string,
): Promise<CellJob[]> {
  const have = await store.columnsOf('job_metrics');
  const metricCols = CELL_METRICS.map((c) => (have.has(c) ? `m.${c}` : `NULL::DOUBLE AS ${c}`));
  const confusion = have.has('confusion') ? 'm.confusion, m.class_labels' : 'NULL AS confusion, NULL AS class_labels';
  const rows = await store.query(
    `SELECT j.job_key, j."repeat", j.fold, j.status, j.error, j.structure, j.structure_params, j.estimator,
            j.estimator_params, j.preprocessing, j.seed, j.bnclab_version, CAST(j.finished_at AS VARCHAR) AS finished_at,
            j.preprocess_ms, j.train_ms, j.predict_ms, m.n_train, m.n_test, ${metricCols.join(', ')}, ${confusion}
     FROM experiment_jobs e JOIN jobs j USING (job_key) LEFT JOIN job_metrics m USING (job_key)
     WHERE e.experiment = $1 AND coalesce(e.dataset, j.dataset) = $2 AND e.method = $3
     ORDER BY j."repeat", j.fold`,
    [experiment, dataset, method],
  );
  return rows.map((r) => ({
    jobKey: String(r['job_key']),
    repeat: Number(r['repeat']),
    fold: Number(r['fold']),
    status: String(r['status']),
    error: r['error'] === null || r['error'] === undefined ? null : String(r['error']),
    structure: String(r['structure']),
    structureParams: String(r['structure_params'] ?? ''),
    estimator: r['estimator'] === null ? null : String(r['estimator']),
    estimatorParams: r['estimator_params'] === null ? null : String(r['estimator_params']),
    preprocessing: String(r['preprocessing'] ?? ''),
    seed: String(r['seed'] ?? ''),
    version: r['bnclab_version'] === null ? null : String(r['bnclab_version']),
    finishedAt: r['finished_at'] === null ? null : String(r['finished_at']),
    preprocessMs: num(r['preprocess_ms']),
    trainMs: num(r['train_ms']),
    predictMs: num(r['predict_ms']),
    metrics: Object.fromEntries(CELL_METRICS.map((c) => [c, num(r[c])])),
    confusion: Array.isArray(r['confusion'])
      ? (r['confusion'] as unknown[]).map((row) => (row as unknown[]).map(Number))
      : null,
    classLabels: Array.isArray(r['class_labels']) ? (r['class_labels'] as unknown[]).map(String) : null,
    nTrain: num(r['n_train']),
    nTest: num(r['n_test']),
  }));
}

/** Method labels of an experiment in the order its spec lists them (first registration). */
export async function methodOrder(store: ResultStore, experiment: string): Promise<string[]> {
  const rows = await store.query(
    `SELECT e.method FROM experiment_jobs e WHERE e.experiment = $1 GROUP BY e.method ORDER BY min(rowid)`,
    [experiment],
  );
  return rows.map((r) => String(r['method']));
}

/** The stored spec text of an experiment ('' when none). */
export async function specText(store: ResultStore, experiment: string): Promise<string> {
  const rows = await store.query(`SELECT spec_text FROM experiments WHERE name = $1`, [experiment]);
  return String(rows[0]?.['spec_text'] ?? '');
}

/**
 * The finished jobs of an experiment with some metrics: the `results` view's rows (as ResultStore.results
 * orders them: dataset, method, repeat, fold) with only the columns the statistics of those metrics read
 * (not the job key, timings, structures or confusion matrices: job_key is ''), so a 100,000-job experiment
 * converts a fraction of the values. Read by columns and assembled here: DuckDB's one-object-per-row conversion took most of the time.
 */
export async function metricRows(
  store: ResultStore,
  experiment: string,
  metrics: string | readonly string[],
): Promise<ResultRow[]> {
  const wanted = typeof metrics === 'string' ? [metrics] : [...metrics];
  for (const m of wanted) if (!METRIC_COLUMNS.includes(m)) throw new Error(`not a metric column: ${m}`);
  const has = await store.columnsOf('results');
  const cols = wanted.map((m) => (has.has(m) ? m : `NULL::DOUBLE AS ${m}`));
  const c = await store.queryColumns(
    `SELECT dataset, method, "repeat", fold, ${cols.join(', ')}
     FROM results WHERE experiment = $1 ORDER BY dataset, method, "repeat", fold`,
    [experiment],
  );
  const [datasets, methods, repeats, folds] = [c['dataset'], c['method'], c['repeat'], c['fold']];
  const values = wanted.map((m) => c[m]);
  const out: ResultRow[] = new Array(datasets.length);
  for (let i = 0; i < datasets.length; i++) {
    const row: Record<string, unknown> = {
      job_key: '',
      dataset: datasets[i],
      method: methods[i],
      repeat: Number(repeats[i]),
      fold: Number(folds[i]),
    };
    wanted.forEach((m, k) => {
      const v = values[k][i];
      row[m] = v === null || v === undefined ? null : Number(v);
    });
    out[i] = row as unknown as ResultRow;
  }
  return out;
}

const METRIC_COLUMNS: readonly string[] = [...CELL_METRICS, 'train_ms', 'predict_ms'];

export interface CodeStateCount {
  /** code_states.code_state; null for finished jobs without a recorded code state (an older database). */
  readonly id: string | null;
  readonly bnclab: string | null;
  readonly code: string | null;
  /** Finished jobs of the experiment computed by this code state. */
  readonly jobs: number;
}

async function hasTable(store: ResultStore, table: string): Promise<boolean> {
  const r = await store.query(`SELECT 1 FROM information_schema.tables WHERE table_name = $1`, [table]);
  return r.length > 0;
}

/** The code states that computed an experiment's finished jobs, the most used first. */
export async function experimentCodeStates(store: ResultStore, experiment: string): Promise<CodeStateCount[]> {
  if (!(await hasTable(store, 'job_code'))) return [];
  const rows = await store.query(
    `SELECT jc.code_state AS id, c.bnclab_version AS bnclab, c.code, count(*) AS jobs
     FROM results r LEFT JOIN job_code jc USING (job_key) LEFT JOIN code_states c ON c.code_state = jc.code_state
     WHERE r.experiment = $1 GROUP BY ALL ORDER BY jobs DESC, id`,
    [experiment],
  );
  return rows.map((r) => ({
    id: r['id'] === null || r['id'] === undefined ? null : String(r['id']),
    bnclab: r['bnclab'] === null || r['bnclab'] === undefined ? null : String(r['bnclab']),
    code: r['code'] === null || r['code'] === undefined ? null : String(r['code']),
    jobs: Number(r['jobs']),
  }));
}

/**
 * One method's finished jobs in an experiment with one metric (dataset, repeat, fold, value), optionally only
 * those a code state computed: one side of the Compare page.
 */
export async function methodMetricRows(
  store: ResultStore,
  experiment: string,
  method: string,
  metric: string,
  codeState: string | null,
): Promise<{ dataset: string; repeat: number; fold: number; value: number | null }[]> {
  if (!METRIC_COLUMNS.includes(metric)) throw new Error(`not a metric column: ${metric}`);
  const has = await store.columnsOf('results');
  const col = has.has(metric) ? `r.${metric}` : 'NULL::DOUBLE';
  const byCode = codeState !== null && (await hasTable(store, 'job_code'));
  if (codeState !== null && !byCode) return [];
  const rows = await store.query(
    `SELECT r.dataset, r."repeat", r.fold, ${col} AS value FROM results r
     ${byCode ? 'JOIN job_code jc USING (job_key)' : ''}
     WHERE r.experiment = $1 AND r.method = $2 ${byCode ? 'AND jc.code_state = $3' : ''}
     ORDER BY r.dataset, r."repeat", r.fold`,
    byCode ? [experiment, method, codeState] : [experiment, method],
  );
  return rows.map((r) => ({
    dataset: String(r['dataset']),
    repeat: Number(r['repeat']),
    fold: Number(r['fold']),
    value: num(r['value']),
  }));
}
