/**
 * The DuckDB store: the only code that writes SQL. One writer process per database file (DuckDB's rule);
 * worker threads hand their results to the coordinator, which writes them here one job per transaction,
 * so a killed run leaves every finished job complete and nothing half-written.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { UserError } from '../util/errors.js';

// @duckdb/node-api is CommonJS: require() loads it without the ES-module wrapper first scanning the exports of
// its ~120 files, which cost about 0.1 s of CPU in every process that opens a database.
const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');
const { listValue } = duckdb;

export interface JobRow {
  readonly key: string;
  readonly dataset: string;
  readonly datasetHash: string;
  readonly splitKey: string;
  readonly repeat: number;
  readonly fold: number;
  readonly structure: string;
  readonly structureParams: string;
  /** null for a baseline. */
  readonly estimator: string | null;
  readonly estimatorParams: string | null;
  readonly preprocessing: string;
  readonly seed: string;
  readonly method: string;
}

export interface JobMetrics {
  readonly accuracy: number;
  readonly zero_one_loss: number;
  readonly rmse: number;
  readonly log_loss: number;
  readonly auc: number;
  readonly auc_ovr: number;
  readonly brier: number;
  readonly balanced_accuracy: number;
  readonly macro_f1: number;
  /** counts[true][predicted], classes in the order of class_labels. */
  readonly confusion: readonly (readonly number[])[];
  readonly class_labels: readonly string[];
  readonly n_train: number;
  readonly n_test: number;
}

export interface JobOutcome {
  readonly key: string;
  readonly status: 'done' | 'error';
  readonly error?: string;
  /** The run was stopped before this job finished: nothing is recorded, it runs next time. */
  readonly cancelled?: boolean;
  readonly metrics?: JobMetrics;
  readonly preprocessMs: number;
  readonly trainMs: number;
  readonly predictMs: number;
  /** Arcs of the learned structure as [parent, child] names (the class by its column name). */
  readonly arcs?: readonly (readonly [string, string])[];
  /** How many of those arcs join two attributes (not from the class): bnclassify's and the papers' count. */
  readonly featureArcs?: number;
  readonly structureInfo?: Record<string, unknown>;
  readonly predictions?: {
    readonly rows: Int32Array;
    readonly truth: Int32Array;
    readonly probs: Float64Array;
    readonly classCard: number;
  };
}

/** job_metrics columns added after the first schema, with their types. */
const ADDED_METRIC_COLUMNS: readonly (readonly [string, string])[] = [
  ['auc', 'DOUBLE'],
  ['auc_ovr', 'DOUBLE'],
  ['brier', 'DOUBLE'],
  ['balanced_accuracy', 'DOUBLE'],
  ['macro_f1', 'DOUBLE'],
  ['confusion', 'INTEGER[][]'],
  ['class_labels', 'VARCHAR[]'],
];

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS experiments (
     name VARCHAR PRIMARY KEY, spec_file VARCHAR, spec_hash VARCHAR, spec_text VARCHAR, seed VARCHAR,
     bnclab_version VARCHAR, created_at TIMESTAMP DEFAULT current_timestamp, updated_at TIMESTAMP)`,
  `CREATE TABLE IF NOT EXISTS datasets (
     dataset_hash VARCHAR PRIMARY KEY, name VARCHAR, file VARCHAR, rows INTEGER, attributes INTEGER, classes INTEGER)`,
  `CREATE TABLE IF NOT EXISTS splits (
     split_key VARCHAR PRIMARY KEY, dataset_hash VARCHAR, resampling VARCHAR, repeats INTEGER, folds INTEGER)`,
  `CREATE TABLE IF NOT EXISTS folds (
     split_key VARCHAR, "repeat" INTEGER, "row" INTEGER, fold INTEGER, PRIMARY KEY (split_key, "repeat", "row"))`,
  `CREATE TABLE IF NOT EXISTS jobs (
     job_key VARCHAR PRIMARY KEY, dataset VARCHAR, dataset_hash VARCHAR, split_key VARCHAR, "repeat" INTEGER,
     fold INTEGER, structure VARCHAR, structure_params VARCHAR, estimator VARCHAR, estimator_params VARCHAR,
     preprocessing VARCHAR, seed VARCHAR, status VARCHAR, error VARCHAR, attempts INTEGER DEFAULT 0,
     preprocess_ms DOUBLE, train_ms DOUBLE, predict_ms DOUBLE, structure_info VARCHAR,
     finished_at TIMESTAMP, bnclab_version VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS experiment_jobs (
     experiment VARCHAR, job_key VARCHAR, method VARCHAR, PRIMARY KEY (experiment, job_key))`,
  `CREATE TABLE IF NOT EXISTS job_metrics (
     job_key VARCHAR PRIMARY KEY, accuracy DOUBLE, zero_one_loss DOUBLE, rmse DOUBLE, log_loss DOUBLE,
     n_train INTEGER, n_test INTEGER, n_arcs INTEGER, n_feature_arcs INTEGER)`,
  // n_arcs counts every arc, class arcs included (nb on autos: 25); n_feature_arcs only attribute-to-attribute
  // arcs. Databases written before n_feature_arcs existed get the column (NULL for their jobs).
  `ALTER TABLE job_metrics ADD COLUMN IF NOT EXISTS n_feature_arcs INTEGER`,
  // Metrics added later: a database written before has NULL for its older jobs (never a guessed value).
  ...ADDED_METRIC_COLUMNS.map(([c, t]) => `ALTER TABLE job_metrics ADD COLUMN IF NOT EXISTS ${c} ${t}`),
  `CREATE TABLE IF NOT EXISTS structures (job_key VARCHAR, parent VARCHAR, child VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS predictions (job_key VARCHAR, "row" INTEGER, truth INTEGER, probs DOUBLE[])`,
  `CREATE OR REPLACE VIEW results AS
     SELECT e.experiment, j.job_key, j.dataset, e.method, j.structure, j.structure_params, j.estimator,
            j.estimator_params, j."repeat", j.fold, m.accuracy, m.zero_one_loss, m.rmse, m.log_loss,
            m.n_train, m.n_test, m.n_arcs, m.n_feature_arcs, j.preprocess_ms, j.train_ms, j.predict_ms,
            m.auc, m.auc_ovr, m.brier, m.balanced_accuracy, m.macro_f1, m.confusion, m.class_labels
     FROM experiment_jobs e JOIN jobs j USING (job_key) JOIN job_metrics m USING (job_key)
     WHERE j.status = 'done'`,
];

export interface ResultRow {
  experiment: string;
  job_key: string;
  dataset: string;
  method: string;
  structure: string;
  estimator: string;
  repeat: number;
  fold: number;
  accuracy: number;
  zero_one_loss: number;
  rmse: number;
  log_loss: number;
  /** NULL (null) for jobs stored before these metrics existed. */
  auc: number | null;
  auc_ovr: number | null;
  brier: number | null;
  balanced_accuracy: number | null;
  macro_f1: number | null;
  n_train: number;
  n_test: number;
  n_arcs: number;
  /** Arcs between attributes only (n_arcs also counts the class arcs); NULL for jobs stored before it existed. */
  n_feature_arcs?: number | null;
  train_ms: number;
  predict_ms: number;
}

export class ResultStore {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    readonly path: string,
  ) {}

  /** Open (creating if needed) the database. A second writer gets a clear UserError, not corruption. */
  static async open(path: string, opts: { readOnly?: boolean } = {}): Promise<ResultStore> {
    if (!opts.readOnly) mkdirSync(dirname(path), { recursive: true });
    let instance: DuckDBInstance;
    try {
      instance = await duckdb.DuckDBInstance.create(path, opts.readOnly ? { access_mode: 'READ_ONLY' } : {});
    } catch (e) {
      const msg = (e as Error).message;
      const lock = /Could not set lock on file .*?(\(PID (\d+)\))?/.exec(msg);
      if (lock) {
        throw new UserError(
          `${path}: the results database is in use by another bnclab process${lock[2] ? ` (PID ${lock[2]})` : ''}; wait for it to finish or use --db <other file>`,
        );
      }
      if (opts.readOnly && /does not exist|No such file|Cannot open/i.test(msg)) {
        throw new UserError(`${path}: no results database (run the experiment first)`);
      }
      throw new UserError(`${path}: cannot open the results database: ${msg.split('\n')[0]}`);
    }
    const conn = await instance.connect();
    const store = new ResultStore(instance, conn, path);
    if (!opts.readOnly) for (const sql of SCHEMA) await conn.run(sql);
    return store;
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }

  async upsertExperiment(e: { name: string; specFile: string; specHash: string; specText: string; seed: string; version: string }): Promise<void> {
    await this.conn.run(
      `INSERT INTO experiments (name, spec_file, spec_hash, spec_text, seed, bnclab_version, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (name) DO UPDATE SET spec_file = excluded.spec_file, spec_hash = excluded.spec_hash,
         spec_text = excluded.spec_text, seed = excluded.seed, bnclab_version = excluded.bnclab_version,
         updated_at = now()`,
      [e.name, e.specFile, e.specHash, e.specText, e.seed, e.version],
    );
  }

  async upsertDataset(d: { hash: string; name: string; file: string; rows: number; attributes: number; classes: number }): Promise<void> {
    await this.conn.run(
      `INSERT INTO datasets VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (dataset_hash) DO NOTHING`,
      [d.hash, d.name, d.file, d.rows, d.attributes, d.classes],
    );
  }

  /** Store a split instance (row → test fold per repeat) once; later calls with the same key do nothing. */
  async saveSplit(s: { key: string; datasetHash: string; resampling: string; repeats: number; folds: number; assignment: readonly Int32Array[] }): Promise<void> {
    const exists = await this.conn.runAndReadAll(`SELECT 1 FROM splits WHERE split_key = $1`, [s.key]);
    if (exists.currentRowCount > 0) return;
    await this.conn.run('BEGIN TRANSACTION');
    try {
      await this.conn.run(`INSERT INTO splits VALUES ($1, $2, $3, $4, $5)`, [s.key, s.datasetHash, s.resampling, s.repeats, s.folds]);
      const app = await this.conn.createAppender('folds');
      s.assignment.forEach((a, r) => {
        for (let row = 0; row < a.length; row++) {
          app.appendVarchar(s.key);
          app.appendInteger(r);
          app.appendInteger(row);
          app.appendInteger(a[row]!);
          app.endRow();
        }
      });
      app.closeSync();
      await this.conn.run('COMMIT');
    } catch (e) {
      await this.conn.run('ROLLBACK');
      throw e;
    }
  }

  async loadSplit(key: string): Promise<Int32Array[] | undefined> {
    const meta = await this.conn.runAndReadAll(`SELECT repeats FROM splits WHERE split_key = $1`, [key]);
    if (meta.currentRowCount === 0) return undefined;
    const reader = await this.conn.runAndReadAll(
      `SELECT "repeat", "row", fold FROM folds WHERE split_key = $1 ORDER BY "repeat", "row"`,
      [key],
    );
    const repeats = Number(meta.getRows()[0]![0]);
    const rows = reader.getColumns();
    const n = reader.currentRowCount / repeats;
    const out = Array.from({ length: repeats }, () => new Int32Array(n));
    for (let i = 0; i < reader.currentRowCount; i++) out[Number(rows[0]![i])]![Number(rows[1]![i])] = Number(rows[2]![i]);
    return out;
  }

  /** Register the jobs of an experiment (pending unless already known) in one transaction. */
  async registerJobs(experiment: string, jobs: readonly JobRow[], version: string): Promise<void> {
    await this.conn.run('BEGIN TRANSACTION');
    try {
      await this.conn.run(`CREATE TEMP TABLE IF NOT EXISTS new_jobs AS SELECT * FROM jobs LIMIT 0`);
      await this.conn.run(`CREATE TEMP TABLE IF NOT EXISTS new_experiment_jobs AS SELECT * FROM experiment_jobs LIMIT 0`);
      await this.conn.run(`DELETE FROM new_jobs`);
      await this.conn.run(`DELETE FROM new_experiment_jobs`);
      const app = await this.conn.createAppender('new_jobs', 'main', 'temp');
      const appE = await this.conn.createAppender('new_experiment_jobs', 'main', 'temp');
      for (const j of jobs) {
        const values: DuckDBValue[] = [
          j.key, j.dataset, j.datasetHash, j.splitKey, j.repeat, j.fold, j.structure, j.structureParams,
          j.estimator, j.estimatorParams, j.preprocessing, j.seed, 'pending', null, 0, null, null, null, null, null, version,
        ];
        appendRow(app, values);
        appendRow(appE, [experiment, j.key, j.method]);
      }
      app.closeSync();
      appE.closeSync();
      await this.conn.run(`INSERT INTO jobs SELECT * FROM new_jobs ON CONFLICT (job_key) DO NOTHING`);
      // The experiment's job list is exactly this plan: a shrunk spec forgets jobs it no longer names.
      await this.conn.run(`DELETE FROM experiment_jobs WHERE experiment = $1`, [experiment]);
      await this.conn.run(`INSERT INTO experiment_jobs SELECT * FROM new_experiment_jobs`);
      await this.conn.run('COMMIT');
    } catch (e) {
      await this.conn.run('ROLLBACK');
      throw e;
    }
  }

  /** Status per job key, for the given keys' experiment. */
  async jobStatuses(experiment: string): Promise<Map<string, string>> {
    const r = await this.conn.runAndReadAll(
      `SELECT j.job_key, j.status FROM jobs j JOIN experiment_jobs e USING (job_key) WHERE e.experiment = $1`,
      [experiment],
    );
    const out = new Map<string, string>();
    for (const [k, s] of r.getRows()) out.set(String(k), String(s));
    return out;
  }

  /** Write one finished job (done or error) atomically. Rewriting the same key replaces, never duplicates. */
  async recordOutcome(o: JobOutcome): Promise<void> {
    const c = this.conn;
    await c.run('BEGIN TRANSACTION');
    try {
      await c.run(`DELETE FROM job_metrics WHERE job_key = $1`, [o.key]);
      await c.run(`DELETE FROM structures WHERE job_key = $1`, [o.key]);
      await c.run(`DELETE FROM predictions WHERE job_key = $1`, [o.key]);
      await c.run(
        `UPDATE jobs SET status = $2, error = $3, attempts = attempts + 1, preprocess_ms = $4, train_ms = $5,
           predict_ms = $6, structure_info = $7, finished_at = now() WHERE job_key = $1`,
        [o.key, o.status, o.error ?? null, o.preprocessMs, o.trainMs, o.predictMs, o.structureInfo ? JSON.stringify(o.structureInfo) : null],
      );
      if (o.status === 'done' && o.metrics) {
        const m = o.metrics;
        await c.run(
          `INSERT INTO job_metrics (job_key, accuracy, zero_one_loss, rmse, log_loss, n_train, n_test, n_arcs, n_feature_arcs,
             auc, auc_ovr, brier, balanced_accuracy, macro_f1, confusion, class_labels)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::INTEGER[][], $16::VARCHAR[])`,
          [
            o.key, m.accuracy, m.zero_one_loss, m.rmse, m.log_loss, m.n_train, m.n_test, o.arcs?.length ?? null,
            o.arcs ? (o.featureArcs ?? null) : null,
            m.auc, m.auc_ovr, m.brier, m.balanced_accuracy, m.macro_f1,
            listValue(m.confusion.map((row) => listValue([...row]))), listValue([...m.class_labels]),
          ],
        );
      }
      if (o.arcs && o.arcs.length > 0) {
        const app = await c.createAppender('structures');
        for (const [p, ch] of o.arcs) appendRow(app, [o.key, p, ch]);
        app.closeSync();
      }
      if (o.predictions) {
        const { rows, truth, probs, classCard } = o.predictions;
        await c.run(
          `INSERT INTO predictions SELECT $1, r, t, p FROM (SELECT unnest($2::INTEGER[]) AS r, unnest($3::INTEGER[]) AS t, unnest($4::DOUBLE[][]) AS p)`,
          [o.key, listValue(Array.from(rows)), listValue(Array.from(truth)), listValue(Array.from({ length: rows.length }, (_, i) => listValue(Array.from(probs.subarray(i * classCard, (i + 1) * classCard)))))],
        );
      }
      await c.run('COMMIT');
    } catch (e) {
      await c.run('ROLLBACK');
      throw e;
    }
  }

  async results(experiment: string): Promise<ResultRow[]> {
    // A database opened read-only keeps the view it was written with; metrics it predates read as NULL.
    const has = new Set(
      (await this.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'results'`)).map((r) => String(r['column_name'])),
    );
    const added = (
      [['n_feature_arcs', 'INTEGER'], ['auc', 'DOUBLE'], ['auc_ovr', 'DOUBLE'], ['brier', 'DOUBLE'], ['balanced_accuracy', 'DOUBLE'], ['macro_f1', 'DOUBLE']] as const
    ).map(([c, t]) => (has.has(c) ? c : `NULL::${t} AS ${c}`));
    return (await this.query(
      `SELECT experiment, job_key, dataset, method, structure, estimator, "repeat", fold, accuracy, zero_one_loss,
              rmse, log_loss, n_train, n_test, n_arcs, train_ms, predict_ms, ${added.join(', ')}
       FROM results WHERE experiment = $1 ORDER BY dataset, method, "repeat", fold`,
      [experiment],
    )) as unknown as ResultRow[];
  }

  /** Jobs of an experiment with their status and error, for summaries. */
  async jobSummary(experiment: string): Promise<{ status: string; n: number }[]> {
    return (await this.query(
      `SELECT j.status, count(*)::INTEGER AS n FROM jobs j JOIN experiment_jobs e USING (job_key)
       WHERE e.experiment = $1 GROUP BY j.status ORDER BY j.status`,
      [experiment],
    )) as { status: string; n: number }[];
  }

  async failedJobs(experiment: string): Promise<{ job_key: string; dataset: string; method: string; repeat: number; fold: number; error: string }[]> {
    return (await this.query(
      `SELECT j.job_key, j.dataset, e.method, j."repeat", j.fold, j.error FROM jobs j JOIN experiment_jobs e USING (job_key)
       WHERE e.experiment = $1 AND j.status = 'error' ORDER BY j.dataset, e.method, j."repeat", j.fold`,
      [experiment],
    )) as { job_key: string; dataset: string; method: string; repeat: number; fold: number; error: string }[];
  }

  /** Parameterized read query returning plain objects (numbers as JS numbers). */
  async query(sql: string, params: DuckDBValue[] = []): Promise<Record<string, unknown>[]> {
    const r = await this.conn.runAndReadAll(sql, params);
    return r.getRowObjectsJS().map((row) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'bigint' ? Number(v) : v;
      return out;
    });
  }
}


/** Append one row, converting each value to its column's type (the appender does not coerce). */
function appendRow(app: DuckDBAppender, values: readonly DuckDBValue[]): void {
  values.forEach((v, i) => {
    if (v === null) app.appendNull();
    else app.appendValue(v, app.columnType(i));
  });
  app.endRow();
}
