/**
 * The DuckDB store: the only code that writes SQL. One writer process per database file (DuckDB's rule);
 * worker threads hand their results to the coordinator, which writes them here in batches, one transaction
 * per batch, so a killed run leaves every stored job complete and nothing half-written.
 */
import { existsSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { DatabaseInUseError, StoreError, UserError } from '../util/errors.js';
import { describeFsError, makeFolder } from '../util/output.js';
import { lockHolder, openSnapshot, type SnapshotCopy } from './snapshot.js';
import { RecordedKeys } from './recorded-keys.js';
import type { FoldColumn } from '../folds/split.js';
import type { CodeState } from '../util/provenance.js';
import type { ScoreColumns } from '../metrics/all.js';
import { BNCLAB_VERSION } from '../version.js';
import {
  ADDED_METRIC_COLUMNS,
  FIRST_SCORE_COLUMNS,
  JOB_METRICS_TABLE,
  jobMetricsWriter,
  type JobMetricsWriter,
  LATER_RESULT_COLUMNS,
  VIEW_FIRST_COLUMNS,
  VIEW_LATER_COLUMNS,
  type JobMetrics,
} from './metric-columns.js';

export type { JobMetrics };

// The CLI runs a bundle (scripts/bundle.mjs) that holds @duckdb/node-api's ~180 CommonJS files in one chunk;
// loaded file by file they cost about 0.04 s of CPU in every process that opens a database.
import * as duckdb from '@duckdb/node-api';
import { codeOrder } from '../util/text.js';
const { DOUBLE, INTEGER, LIST, SMALLINT, TINYINT, VARCHAR, listValue } = duckdb;

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

/** A planned job as a spec names it: its key, the dataset name and the method label. */
export interface JobRef {
  readonly key: string;
  readonly dataset: string;
  readonly method: string;
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

/**
 * The layout of the database file this code writes, recorded in its `store_format` table: 1, the job-keyed
 * tables with primary keys (bnclab 0.4.0 and before, which do not record it); 2, without them (0.5.0). Raise it
 * when a change to the tables means older code would damage a file made by the new code (or fail on it); a
 * bnclab that meets a file of a higher format refuses to write to it, with one line naming both versions.
 * Reading is unaffected.
 */
export const STORE_FORMAT = 2;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS experiments (
     name VARCHAR PRIMARY KEY, spec_file VARCHAR, spec_hash VARCHAR, spec_text VARCHAR, seed VARCHAR,
     bnclab_version VARCHAR, created_at TIMESTAMP DEFAULT current_timestamp, updated_at TIMESTAMP)`,
  `CREATE TABLE IF NOT EXISTS datasets (
     dataset_hash VARCHAR PRIMARY KEY, name VARCHAR, file VARCHAR, rows INTEGER, attributes INTEGER, classes INTEGER)`,
  // Each experiment's datasets as it read them: the class column, its labels in code order (the order of
  // predictions.probs and of predictions.truth codes) and the attribute names in order.
  `CREATE TABLE IF NOT EXISTS experiment_datasets (
     experiment VARCHAR, dataset VARCHAR, dataset_hash VARCHAR, class_column VARCHAR, class_labels VARCHAR[],
     attribute_names VARCHAR[], PRIMARY KEY (experiment, dataset))`,
  `CREATE TABLE IF NOT EXISTS splits (
     split_key VARCHAR PRIMARY KEY, dataset_hash VARCHAR, resampling VARCHAR, repeats INTEGER, folds INTEGER)`,
  // No primary key: a split's rows are written once, in the transaction that adds its `splits` row (whose
  // key refuses a second one), and merge copies a split's rows only when the target has none of them. The
  // key's index cost more than the rows: storing the split of 10^7 rows took 13 s of CPU and 400 MB with it,
  // 5.7 s and 240 MB without. Databases made with the key keep it.
  `CREATE TABLE IF NOT EXISTS folds (split_key VARCHAR, "repeat" INTEGER, "row" INTEGER, fold INTEGER)`,
  // The four tables keyed by job (jobs, experiment_jobs, job_metrics, job_code) have no primary key in new
  // databases: each key's index (DuckDB's ART) stays in memory whenever its table is written, about 280 bytes
  // a job in all, 270 MiB of a 10^6-job run. Their rows are added by anti-joins (registerJobs), replaced by
  // delete and insert (recordOutcomes, merge), never duplicated. Databases made with the keys keep them;
  // every statement here works on both.
  `CREATE TABLE IF NOT EXISTS jobs (
     job_key VARCHAR, dataset VARCHAR, dataset_hash VARCHAR, split_key VARCHAR, "repeat" INTEGER,
     fold INTEGER, structure VARCHAR, structure_params VARCHAR, estimator VARCHAR, estimator_params VARCHAR,
     preprocessing VARCHAR, seed VARCHAR, status VARCHAR, error VARCHAR, attempts INTEGER DEFAULT 0,
     preprocess_ms DOUBLE, train_ms DOUBLE, predict_ms DOUBLE, structure_info VARCHAR,
     finished_at TIMESTAMP, bnclab_version VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS experiment_jobs (
     experiment VARCHAR, job_key VARCHAR, method VARCHAR, dataset VARCHAR)`,
  // Databases made before dataset names belonged to the experiment (a shared job keeps jobs.dataset from
  // the experiment that registered it first).
  `ALTER TABLE experiment_jobs ADD COLUMN IF NOT EXISTS dataset VARCHAR`,
  JOB_METRICS_TABLE,
  // n_arcs counts every arc, class arcs included (nb on autos: 25); n_feature_arcs only attribute-to-attribute
  // arcs. Databases written before n_feature_arcs existed get the column (NULL for their jobs).
  `ALTER TABLE job_metrics ADD COLUMN IF NOT EXISTS n_feature_arcs INTEGER`,
  // Metrics added later: a database written before has NULL for its older jobs (never a guessed value).
  ...ADDED_METRIC_COLUMNS.map(([c, t]) => `ALTER TABLE job_metrics ADD COLUMN IF NOT EXISTS ${c} ${t}`),
  `CREATE TABLE IF NOT EXISTS structures (job_key VARCHAR, parent VARCHAR, child VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS predictions (job_key VARCHAR, "row" INTEGER, truth INTEGER, probs DOUBLE[])`,
  // What computed each finished job (src/util/provenance.ts): each code state once, and per job its id.
  `CREATE TABLE IF NOT EXISTS code_states (
     code_state VARCHAR PRIMARY KEY, bnclab_version VARCHAR, code VARCHAR, node VARCHAR, duckdb VARCHAR, platform VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS job_code (job_key VARCHAR, code_state VARCHAR)`,
  // One row: the format of the file (STORE_FORMAT), detected for a file made before it was recorded.
  `CREATE TABLE IF NOT EXISTS store_format (format INTEGER, bnclab_version VARCHAR)`,
  `INSERT INTO store_format SELECT
     CASE WHEN EXISTS (SELECT 1 FROM duckdb_constraints() WHERE database_name = current_database()
       AND schema_name = 'main' AND table_name = 'jobs' AND constraint_type = 'PRIMARY KEY') THEN 1 ELSE ${STORE_FORMAT} END,
     '${BNCLAB_VERSION.replace(/'/g, "''")}'
   WHERE NOT EXISTS (SELECT 1 FROM store_format)`,
  `CREATE OR REPLACE VIEW results AS
     SELECT e.experiment, j.job_key, coalesce(e.dataset, j.dataset) AS dataset, e.method, j.structure, j.structure_params, j.estimator,
            j.estimator_params, j."repeat", j.fold, ${VIEW_FIRST_COLUMNS},
            m.n_train, m.n_test, m.n_arcs, m.n_feature_arcs, j.preprocess_ms, j.train_ms, j.predict_ms,
            ${VIEW_LATER_COLUMNS}
     FROM experiment_jobs e JOIN jobs j USING (job_key) JOIN job_metrics m USING (job_key)
     WHERE j.status = 'done'`,
];

/** A finished job as reports read it; its compared metrics (ScoreColumns) are those of the registry. */
export interface ResultRow extends ScoreColumns {
  experiment: string;
  job_key: string;
  dataset: string;
  method: string;
  structure: string;
  estimator: string;
  repeat: number;
  fold: number;
  n_train: number;
  n_test: number;
  n_arcs: number;
  /** Arcs between attributes only (n_arcs also counts the class arcs); NULL for jobs stored before it existed. */
  n_feature_arcs?: number | null;
  train_ms: number;
  predict_ms: number;
}

/**
 * A database (or ATTACHed shard: `schema` its name) whose recorded format is above STORE_FORMAT was made by a
 * newer bnclab: writing to it could damage it, so this stops with one line (exit 4) naming both versions.
 */
export async function refuseNewerFormat(conn: DuckDBConnection, path: string, schema?: string): Promise<void> {
  const where = schema === undefined ? 'current_database()' : `'${schema.replace(/'/g, "''")}'`;
  const has = await conn.runAndReadAll(
    `SELECT 1 FROM information_schema.tables WHERE table_catalog = ${where} AND table_schema = 'main' AND table_name = 'store_format'`,
  );
  if (has.currentRowCount === 0) return;
  const table = schema === undefined ? 'store_format' : `"${schema.replace(/"/g, '""')}".main.store_format`;
  const row = (
    await conn.runAndReadAll(`SELECT max(format) AS f, arg_max(bnclab_version, format) AS v FROM ${table}`)
  ).getRowObjects()[0];
  const format = Number(row?.['f'] ?? 0);
  if (format > STORE_FORMAT) {
    throw new StoreError(
      `${path}: made by bnclab ${String(row?.['v'])} in store format ${format}; this bnclab (${BNCLAB_VERSION}) ` +
        `writes format ${STORE_FORMAT} and would damage it: update bnclab, or use --db <another file>`,
    );
  }
}

/**
 * How long a writer waits for a lock held by someone else before it gives up (exit 2). A reader (the
 * explorer refreshing its page, `status`, `sql`) holds the file only for its query; a `run` started while the
 * explorer watches would otherwise fail when it opens the file in the instant of a refresh. A second writer
 * holds it for its whole run, and is refused after this wait.
 */
const WRITER_LOCK_WAIT_MS = 5000;

async function createInstance(path: string, opts: OpenOptions): Promise<DuckDBInstance> {
  const readOnly = opts.readOnly === true;
  const giveUpAt = Date.now() + (readOnly ? 0 : WRITER_LOCK_WAIT_MS);
  const config: Record<string, string> = {
    ...(readOnly ? { access_mode: 'READ_ONLY' } : {}),
    ...(opts.oneThread ? { threads: '1' } : {}),
  };
  for (;;) {
    try {
      return await duckdb.DuckDBInstance.create(path, config);
    } catch (e) {
      if (!lockHolder((e as Error).message) || Date.now() >= giveUpAt) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** How a store is opened. */
interface OpenOptions {
  /** Read only: DuckDB's read-only mode, no schema written, a file a running task holds read from a copy. */
  readonly readOnly?: boolean;
  /**
   * DuckDB on one thread from the start (no pool of threads made): for a process whose queries are few and
   * small, such as `report`, where DuckDB's threads cost more than they return (see oneThread).
   */
  readonly oneThread?: boolean;
}

/** DuckDB's version, as the library reports it ("v1.1.3"). */
export function duckdbVersion(): string {
  return duckdb.version();
}

export class ResultStore {
  /** The code state recorded with every outcome written from now on (setCodeState). */
  private codeStateId: string | undefined;
  /** job_metrics rows in this database's column order (read on the first write). */
  private metricsWriter: JobMetricsWriter | undefined;
  /** DuckDB's memory is limited (boundMemory). */
  private memoryBounded = false;
  /**
   * The keys this store has recorded, kept while no other job's rows can be in the per-job tables: they were
   * empty when it first recorded, and only recordOutcomes writes them (one writer per file). A job then has rows
   * to replace only if its key is here, so a batch needs no scan of `jobs` to find the jobs recorded before
   * (at 10^6 jobs that scan cost 27–36 ms a batch, docs/performance.md). null: the tables held rows
   * (each batch asks the database); undefined: nothing recorded yet.
   */
  private recordedKeys: RecordedKeys | null | undefined;
  /** The keys the temporary table KEY_LIST holds, in order (keyTable); undefined before it is filled. */
  private heldKeys: readonly string[] | undefined;
  /** The last query that reads KEY_LIST: the next waits for it (queryKeys). */
  private keyQueries: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    readonly path: string,
    /** Read from a snapshot copy: who holds the file ("process 123 (/usr/bin/node)"); undefined when not. */
    readonly snapshotOf?: string,
  ) {}

  /** The snapshot copy this store reads, deleted by close(). */
  private copy: SnapshotCopy | undefined;

  /**
   * Open (creating if needed) the database. Every failure is one line naming the file: a second writer
   * (exit 2, naming the process that holds the lock), a file that is not a DuckDB database or is damaged,
   * a directory that cannot be created (exit 4, StoreError). A 0-byte file, left by a kill the instant the
   * file was created, holds nothing and is treated as absent. Read-only, a file a running task holds is read
   * from a snapshot copy (`snapshotOf` names the holder; the copy goes with `close`).
   */
  static async open(path: string, opts: OpenOptions = {}): Promise<ResultStore> {
    try {
      return await ResultStore.openFile(path, opts);
    } catch (e) {
      // A reader of a file a running task holds reads a snapshot copy of it (store/snapshot.ts).
      if (!(e instanceof DatabaseInUseError) || !opts.readOnly) throw e;
      const holder = e.holder;
      const { opened, copy } = await openSnapshot(path, (copyPath) =>
        ResultStore.openFile(copyPath, opts, { shownAs: path, holder }),
      );
      opened.copy = copy; // removed by close()
      return opened;
    }
  }

  private static async openFile(
    path: string,
    opts: OpenOptions,
    snapshot?: { shownAs: string; holder: string },
  ): Promise<ResultStore> {
    if (!opts.readOnly) {
      prepareDirectory(path);
      removeEmptyDatabase(path);
    }
    let instance: DuckDBInstance;
    try {
      instance = await createInstance(path, opts);
    } catch (e) {
      const msg = (e as Error).message;
      const holder = lockHolder(msg);
      if (holder) {
        throw new DatabaseInUseError(
          `${path}: the results database is in use by ${holder}; DuckDB allows one writer: wait for it to finish, ` +
            `or use --db <other file> (other programs should open it with read_only=True, and not while bnclab runs)`,
          holder,
        );
      }
      if (opts.readOnly && /does not exist|No such file|Cannot open/i.test(msg)) {
        throw new UserError(`${path}: no results database (run the experiment first)`);
      }
      throw new StoreError(`${path}: cannot open the results database: ${describeOpenFailure(msg)}`);
    }
    const conn = await instance.connect();
    const store = snapshot
      ? new ResultStore(instance, conn, snapshot.shownAs, snapshot.holder)
      : new ResultStore(instance, conn, path);
    try {
      // One transaction for the whole schema: each statement committed alone writes the catalog to the
      // write-ahead log again, and the 20 of them cost about 3× the CPU of one commit (0.019 s vs 0.006 s).
      if (!opts.readOnly) {
        await refuseNewerFormat(conn, path);
        await conn.run(`BEGIN TRANSACTION;\n${SCHEMA.join(';\n')};\nCOMMIT`);
      }
    } catch (e) {
      store.close();
      throw storeFailure(path, e);
    }
    return store;
  }

  /** Record a code state (once) and name it on every outcome this connection writes from now on. */
  async setCodeState(c: CodeState): Promise<void> {
    await this.conn.run(
      `INSERT INTO code_states VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (code_state) DO NOTHING`,
      [c.id, c.bnclab, c.code, c.node, c.duckdb, c.platform],
      [VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR],
    );
    this.codeStateId = c.id;
  }

  /**
   * The code states that computed the finished jobs among `keys`, with how many jobs each (most first); jobs
   * stored before code states were recorded count under a state with every field null. Empty in a database
   * that predates them.
   */
  async codeStatesOf(
    keys: readonly string[],
  ): Promise<(Omit<CodeState, 'id'> & { id: string | null; jobs: number })[]> {
    const has = await this.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'job_code'`);
    if (has.length === 0) return [];
    const rows = await this.queryKeys(
      `SELECT c.code_state AS id, c.bnclab_version AS bnclab, c.code, c.node, c.duckdb, c.platform, count(*)::INTEGER AS jobs
       FROM jobs j JOIN ${KEY_LIST} k USING (job_key)
       LEFT JOIN job_code jc USING (job_key) LEFT JOIN code_states c ON c.code_state = jc.code_state
       WHERE j.status = 'done' GROUP BY ALL ORDER BY jobs DESC, id`,
      [...new Set(keys)],
    );
    return rows as unknown as (Omit<CodeState, 'id'> & { id: string | null; jobs: number })[];
  }

  /**
   * Take jobs out of an experiment's list (their rows stay in `jobs`): the results of an older method revision
   * once the current revision's are stored, so the `results` view holds one result per job.
   */
  async forgetExperimentJobs(experiment: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.conn.run(
      `DELETE FROM experiment_jobs WHERE experiment = $1 AND job_key IN (SELECT unnest($2))`,
      [experiment, listValue([...keys])],
      [VARCHAR, VARCHAR_LIST],
    );
  }

  /** The keys among `keys` of finished (done) jobs. */
  async doneKeysAmong(keys: readonly string[]): Promise<Set<string>> {
    const rows = await this.queryKeys(
      `SELECT k.key_index FROM jobs j JOIN ${KEY_LIST} k USING (job_key) WHERE j.status = 'done'`,
      [...new Set(keys)],
    );
    return new Set(rows.map((r) => String(r['job_key'])));
  }

  /**
   * Limit DuckDB's memory to DUCKDB_MEMORY_MB while a run registers and stores its jobs, in a database
   * without primary keys on its job-keyed tables (made by this version: SCHEMA). Below DuckDB's default
   * limit (80 % of the machine's memory) every block of the file it has written stays cached, so a run's
   * memory grew with its database. Only for that part of a run: a query's materialized result must fit
   * under the limit (the `results` of 3·10^5 jobs did not fit in 128 MB), so unboundMemory lifts it before
   * the report reads. An older database keeps the default: its key indexes must be in memory whenever
   * their table is written (about 280 bytes a job), and a limit would refuse a write once they grew past
   * it. A limit DuckDB cannot reach at once (it evicts cached blocks to get under it) is left unset.
   */
  async boundMemory(): Promise<void> {
    // The file's recorded format says whether its tables have the keys (1) or not (2): SCHEMA records it when
    // the file is opened for writing, which a run's store was.
    const format = await this.conn.runAndReadAll('SELECT max(format) AS f FROM store_format');
    if (Number(format.getRowObjects()[0]?.['f']) < 2) return;
    try {
      await this.conn.run(`SET memory_limit = '${DUCKDB_MEMORY_MB}MB'`);
      this.memoryBounded = true;
    } catch (e) {
      // DuckDB holds more than the limit and cannot evict it: the run goes on under the default limit. Any
      // other failure is the store's, and stops the run as any other would.
      if (!/out of memory|memory limit/i.test(e instanceof Error ? e.message : String(e))) throw e;
    }
  }

  /** DuckDB's default memory limit again (after boundMemory). */
  async unboundMemory(): Promise<void> {
    if (!this.memoryBounded) return;
    await this.conn.run('RESET memory_limit');
    this.memoryBounded = false;
  }

  /**
   * DuckDB on one thread from now on, for this connection: a run's jobs and then its report. A run's
   * statements are small (a batch of outcomes, a chunk of the plan) and the worker threads hold the cores:
   * DuckDB's own threads then cost more than they return. Measured on a run of 20,000 short jobs on 2 cores
   * (docs/performance.md): 5 % less CPU, 5 % less wall time. The report's reads that follow in the same
   * process are a few small queries, which cost less CPU on one thread too (docs/performance.md, "The report's
   * reads"). Another connection (a later command) has DuckDB's default again.
   */
  async oneThread(): Promise<void> {
    await this.conn.run('SET threads = 1');
  }

  /** Move everything from the write-ahead log into the database file. */
  async checkpoint(): Promise<void> {
    await this.conn.run('CHECKPOINT');
  }

  close(): void {
    try {
      this.conn.closeSync();
      this.instance.closeSync();
    } finally {
      this.copy?.dispose();
    }
  }

  async upsertExperiment(e: {
    name: string;
    specFile: string;
    specHash: string;
    specText: string;
    seed: string;
    version: string;
  }): Promise<void> {
    await this.conn.run(
      `INSERT INTO experiments (name, spec_file, spec_hash, spec_text, seed, bnclab_version, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (name) DO UPDATE SET spec_file = excluded.spec_file, spec_hash = excluded.spec_hash,
         spec_text = excluded.spec_text, seed = excluded.seed, bnclab_version = excluded.bnclab_version,
         updated_at = now()`,
      [e.name, e.specFile, e.specHash, e.specText, e.seed, e.version],
      [VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR],
    );
  }

  async upsertDataset(d: {
    hash: string;
    name: string;
    file: string;
    rows: number;
    attributes: number;
    classes: number;
  }): Promise<void> {
    await this.conn.run(
      `INSERT INTO datasets VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (dataset_hash) DO NOTHING`,
      [d.hash, d.name, d.file, d.rows, d.attributes, d.classes],
      [VARCHAR, VARCHAR, VARCHAR, INTEGER, INTEGER, INTEGER],
    );
  }

  /**
   * Record the experiment's datasets (names, class labels and attribute names in order): added to those of
   * earlier runs, a dataset already recorded under this name updated (as registerJobs adds jobs).
   */
  async saveExperimentDatasets(
    experiment: string,
    datasets: readonly {
      name: string;
      hash: string;
      classColumn: string;
      classLabels: readonly string[];
      attributeNames: readonly string[];
    }[],
  ): Promise<void> {
    await this.conn.run('BEGIN TRANSACTION');
    try {
      for (const d of datasets) {
        await this.conn.run(
          `INSERT OR REPLACE INTO experiment_datasets VALUES ($1, $2, $3, $4, $5, $6)`,
          [experiment, d.name, d.hash, d.classColumn, listValue([...d.classLabels]), listValue([...d.attributeNames])],
          [VARCHAR, VARCHAR, VARCHAR, VARCHAR, LIST(VARCHAR), LIST(VARCHAR)],
        );
      }
      await this.conn.run('COMMIT');
    } catch (e) {
      await this.rollbackKeeping(e);
    }
  }

  /** Store a split instance (row → test fold per repeat) once; later calls with the same key do nothing. */
  async saveSplit(s: {
    key: string;
    datasetHash: string;
    resampling: string;
    repeats: number;
    folds: number;
    assignment: readonly FoldColumn[];
  }): Promise<void> {
    const exists = await this.conn.runAndReadAll(`SELECT 1 FROM splits WHERE split_key = $1`, [s.key], [VARCHAR]);
    if (exists.currentRowCount > 0) return;
    // The fold numbers of every repeat, one after another, are staged as whole chunks in a one-column
    // temporary table as narrow as the assignment; DuckDB then writes the folds rows from it in the
    // transaction below, the split key as a constant and (repeat, row) from the staged row's position
    // (rowid: 0, 1, … in the order appended, the table being fresh and committed). Appending the folds
    // rows value by value, the key's string in each, took 4.9 s of CPU for 10^7 rows; staging three
    // integer columns inside the transaction kept 120 MB more in DuckDB for the rest of the run. The
    // temporary table belongs to this connection: a process killed midway leaves nothing of it.
    const n = s.assignment[0]?.length ?? 0;
    const type = s.assignment.some((a) => a instanceof Int32Array)
      ? INTEGER
      : s.assignment.some((a) => a instanceof Int16Array)
        ? SMALLINT
        : TINYINT;
    await this.conn.run(`CREATE OR REPLACE TEMP TABLE folds_in (fold ${type.toString()})`);
    try {
      const app = await this.conn.createAppender('folds_in');
      const size = 2048; // DuckDB's vector size: the most rows a chunk holds (a larger one is refused)
      const chunk = duckdb.DuckDBDataChunk.create([type], size);
      for (const a of s.assignment) {
        if (a.length !== n) throw new StoreError(`split ${s.key}: repeats of different lengths (${a.length}, ${n})`);
        for (let from = 0; from < n; from += size) {
          const count = Math.min(size, n - from);
          if (count !== chunk.rowCount) chunk.rowCount = count;
          chunk.setColumnValues(0, Array.from(a.subarray(from, from + count)));
          app.appendDataChunk(chunk);
        }
      }
      app.closeSync();
      await this.conn.run('BEGIN TRANSACTION');
      try {
        await this.conn.run(
          `INSERT INTO splits VALUES ($1, $2, $3, $4, $5)`,
          [s.key, s.datasetHash, s.resampling, s.repeats, s.folds],
          [VARCHAR, VARCHAR, VARCHAR, INTEGER, INTEGER],
        );
        if (n > 0)
          await this.conn.run(
            `INSERT INTO folds SELECT $1, (rowid // $2)::INTEGER, (rowid % $2)::INTEGER, fold FROM folds_in`,
            [s.key, n],
            [VARCHAR, INTEGER],
          );
        await this.conn.run('COMMIT');
      } catch (e) {
        await this.rollbackKeeping(e);
      }
    } finally {
      await this.conn.run(`DROP TABLE IF EXISTS folds_in`);
    }
  }

  /**
   * Register the jobs of an experiment (pending unless already known) in one transaction. A key given twice
   * is registered once, as first given.
   */
  async registerJobs(experiment: string, jobs: readonly JobRow[], version: string): Promise<void> {
    await this.conn.run('BEGIN TRANSACTION');
    try {
      await this.conn.run(`CREATE OR REPLACE TEMP TABLE new_jobs AS SELECT * FROM jobs LIMIT 0`);
      await this.conn.run(`CREATE OR REPLACE TEMP TABLE new_experiment_jobs AS SELECT * FROM experiment_jobs LIMIT 0`);
      const app = await this.conn.createAppender('new_jobs', 'main', 'temp');
      const appE = await this.conn.createAppender('new_experiment_jobs', 'main', 'temp');
      // Typed appends: the generic appendValue (a DuckDB value made per field) cost most of registering.
      const text = (a: DuckDBAppender, v: string | null): void => (v === null ? a.appendNull() : a.appendVarchar(v));
      const seen = new Set<string>();
      for (const j of jobs) {
        if (seen.has(j.key)) continue;
        seen.add(j.key);
        for (const v of [j.key, j.dataset, j.datasetHash, j.splitKey]) app.appendVarchar(v);
        app.appendInteger(j.repeat);
        app.appendInteger(j.fold);
        app.appendVarchar(j.structure);
        app.appendVarchar(j.structureParams);
        text(app, j.estimator);
        text(app, j.estimatorParams);
        app.appendVarchar(j.preprocessing);
        app.appendVarchar(j.seed);
        app.appendVarchar('pending');
        app.appendNull(); // error
        app.appendInteger(0); // attempts
        for (let k = 0; k < 5; k++) app.appendNull(); // timings, structure info, finished_at
        app.appendVarchar(version);
        app.endRow();
        for (const v of [experiment, j.key, j.method, j.dataset]) appE.appendVarchar(v);
        appE.endRow();
      }
      app.closeSync();
      appE.closeSync();
      // Rows are added by anti-join, not ON CONFLICT: new databases have no key to conflict on (the SCHEMA's
      // note), and the statements mean the same on older ones, which have it.
      await this.conn.run(
        `INSERT INTO jobs SELECT * FROM new_jobs n WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.job_key = n.job_key)`,
      );
      // Registration adds this plan's jobs to the experiment's list and forgets none: a spec run in phases
      // (the cheap datasets first, under the same name) must not hide the results of the earlier phases.
      // What a report, status or check shows is the plan of the spec it is given (resultsOf and friends),
      // not this list; the list says which jobs any spec of this name has registered (the results view).
      // A job already listed takes this plan's method label and dataset name.
      await this.conn.run(
        `UPDATE experiment_jobs e SET method = n.method, dataset = n.dataset FROM new_experiment_jobs n
         WHERE e.experiment = n.experiment AND e.job_key = n.job_key
           AND (e.method IS DISTINCT FROM n.method OR e.dataset IS DISTINCT FROM n.dataset)`,
      );
      await this.conn.run(
        `INSERT INTO experiment_jobs SELECT * FROM new_experiment_jobs n WHERE NOT EXISTS
           (SELECT 1 FROM experiment_jobs e WHERE e.experiment = n.experiment AND e.job_key = n.job_key)`,
      );
      await this.conn.run('COMMIT');
    } catch (e) {
      await this.rollbackKeeping(e);
    }
  }

  /** Status per job key, for the given keys' experiment. */
  async jobStatuses(experiment: string): Promise<Map<string, string>> {
    const r = await this.conn.runAndReadAll(
      `SELECT j.job_key, j.status FROM jobs j JOIN experiment_jobs e USING (job_key) WHERE e.experiment = $1`,
      [experiment],
      [VARCHAR],
    );
    const out = new Map<string, string>();
    for (const [k, s] of r.getRows()) out.set(String(k), String(s));
    return out;
  }

  /** Status per job key among `keys` that the experiment has registered (jobStatuses for part of a plan). */
  async jobStatusesAmong(experiment: string, keys: readonly string[]): Promise<Map<string, string>> {
    const r = await this.conn.runAndReadAll(
      `SELECT j.job_key, j.status FROM jobs j JOIN experiment_jobs e USING (job_key)
       JOIN (SELECT DISTINCT unnest($2) AS job_key) k USING (job_key) WHERE e.experiment = $1`,
      [experiment, listValue([...keys])],
      [VARCHAR, VARCHAR_LIST],
    );
    const out = new Map<string, string>();
    for (const [k, s] of r.getRows()) out.set(String(k), String(s));
    return out;
  }

  /** Whether any job in the database has finished (done or failed), whichever experiment registered it. */
  async hasFinishedJobs(): Promise<boolean> {
    const r = await this.conn.runAndReadAll(`SELECT 1 FROM jobs WHERE status <> 'pending' LIMIT 1`);
    return r.currentRowCount > 0;
  }

  /** The jobs of the experiment that have saved predictions (`run --save-predictions` recomputes the others). */
  async jobsWithPredictions(experiment: string): Promise<Set<string>> {
    const r = await this.conn.runAndReadAll(
      `SELECT DISTINCT p.job_key FROM predictions p JOIN experiment_jobs e USING (job_key) WHERE e.experiment = $1`,
      [experiment],
      [VARCHAR],
    );
    return new Set(r.getRows().map(([k]) => String(k)));
  }

  /** Every finished job's status (done or error), whatever experiment registered it: what a shard holds. */
  async finishedJobStates(): Promise<Map<string, 'done' | 'error'>> {
    const r = await this.conn.runAndReadAll(`SELECT job_key, status FROM jobs WHERE status IN ('done', 'error')`);
    const out = new Map<string, 'done' | 'error'>();
    for (const [k, s] of r.getRows()) out.set(String(k), s === 'done' ? 'done' : 'error');
    return out;
  }

  /** Mean preprocess + train + predict ms and the count of finished jobs, per method × dataset file (the cost model's calibration). */
  async methodTimings(): Promise<Record<string, unknown>[]> {
    return this.query(
      `SELECT structure, structure_params, estimator, estimator_params, dataset_hash,
              avg(coalesce(preprocess_ms, 0) + coalesce(train_ms, 0) + coalesce(predict_ms, 0)) AS ms, count(*) AS n
       FROM jobs WHERE status = 'done' GROUP BY ALL`,
    );
  }

  /** Write one finished job (done or error) atomically; see recordOutcomes. */
  async recordOutcome(o: JobOutcome): Promise<void> {
    await this.recordOutcomes([o]);
  }

  /**
   * Write finished jobs (done or error) in one transaction: all of them or none. Every value goes in through
   * an appender with its column's type (an untyped bind lets DuckDB guess a type from the first value, e.g.
   * INTEGER for a posterior of exactly 1). Rewriting a key replaces its rows, never duplicates them. A key
   * that is not a registered job is an error, so no outcome is dropped without a word.
   */
  async recordOutcomes(outcomes: readonly JobOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    // One batch holds a job once: its rows are deleted before they are added, not after (the writer stores
    // a batch refused for this one outcome a transaction, the later replacing the earlier).
    if (new Set(outcomes.map((o) => o.key)).size !== outcomes.length) {
      throw new Error(`a batch of ${outcomes.length} outcomes holds a job twice`);
    }
    const c = this.conn;
    const appenders: DuckDBAppender[] = [];
    const appender = async (table: string, catalog?: string): Promise<DuckDBAppender> => {
      const a = catalog ? await c.createAppender(table, 'main', catalog) : await c.createAppender(table);
      appenders.push(a);
      return a;
    };
    await c.run('BEGIN TRANSACTION');
    try {
      // Made afresh for each batch: deleted rows of a reused table would pile up and slow every join.
      await c.run(`CREATE OR REPLACE TEMP TABLE outcome_batch (job_key VARCHAR, status VARCHAR, error VARCHAR,
                     preprocess_ms DOUBLE, train_ms DOUBLE, predict_ms DOUBLE, structure_info VARCHAR)`);
      const batch = await appender('outcome_batch', 'temp');
      for (const o of outcomes) {
        batch.appendVarchar(o.key);
        batch.appendVarchar(o.status);
        appendNullable(batch, o.error, (v) => batch.appendVarchar(v));
        batch.appendDouble(o.preprocessMs);
        batch.appendDouble(o.trainMs);
        batch.appendDouble(o.predictMs);
        appendNullable(batch, o.structureInfo ? JSON.stringify(o.structureInfo) : undefined, (v) =>
          batch.appendVarchar(v),
        );
        batch.endRow();
      }
      batch.closeSync();
      // Only a job recorded before (a retried failure, a done job run again) can have rows to replace;
      // skipping the deletes otherwise keeps a batch from scanning the ever-growing per-job tables. No
      // table keyed by job has a primary key in a new database, so these deletes are what keeps a job to
      // one row in each.
      if (await this.recordedBefore(outcomes)) {
        for (const table of JOB_ROW_TABLES) {
          await c.run(`DELETE FROM ${table} WHERE job_key IN (SELECT job_key FROM outcome_batch)`);
        }
      }
      const updated = await c.run(
        `UPDATE jobs SET status = b.status, error = b.error, attempts = jobs.attempts + 1, preprocess_ms = b.preprocess_ms,
           train_ms = b.train_ms, predict_ms = b.predict_ms, structure_info = b.structure_info, finished_at = now()
         FROM outcome_batch b WHERE jobs.job_key = b.job_key`,
      );
      if (updated.rowsChanged !== outcomes.length) {
        throw new Error(
          `${outcomes.length - updated.rowsChanged} of ${outcomes.length} outcomes have no registered job (first key ${outcomes[0].key})`,
        );
      }
      if (this.codeStateId !== undefined) {
        await c.run(`INSERT INTO job_code SELECT job_key, $1 FROM outcome_batch`, [this.codeStateId], [VARCHAR]);
      }
      this.metricsWriter ??= await jobMetricsWriter(c);
      const writeMetrics = this.metricsWriter;
      await c.run(writeMetrics.stage);
      const metrics = await appender('metrics_batch', 'temp');
      const arcs = await appender('structures');
      const predictions = await appender('predictions');
      for (const o of outcomes) {
        if (o.status === 'done' && o.metrics) writeMetrics.write(metrics, { ...o, metrics: o.metrics });
        for (const [parent, child] of o.arcs ?? []) {
          arcs.appendVarchar(o.key);
          arcs.appendVarchar(parent);
          arcs.appendVarchar(child);
          arcs.endRow();
        }
        if (o.predictions) {
          const { rows, truth, probs, classCard } = o.predictions;
          for (let i = 0; i < rows.length; i++) {
            predictions.appendVarchar(o.key);
            predictions.appendInteger(rows[i]);
            predictions.appendInteger(truth[i]);
            predictions.appendList(Array.from(probs.subarray(i * classCard, (i + 1) * classCard)), DOUBLE_LIST);
            predictions.endRow();
          }
        }
      }
      metrics.closeSync();
      arcs.closeSync();
      predictions.closeSync();
      await c.run(writeMetrics.insert);
      await c.run('COMMIT');
    } catch (e) {
      // An appender left open would flush its rows whenever it is collected, into a later transaction:
      // close every one now, inside the transaction about to be rolled back.
      for (const a of appenders) {
        try {
          a.closeSync();
        } catch {
          // already closed, or its flush failed: either way its rows go with the rollback
        }
      }
      await this.rollbackKeeping(e);
    }
  }

  /**
   * Whether any job of the batch (staged in outcome_batch) may have been recorded before, inside the batch's
   * transaction. Where the store keeps the keys it wrote (recordedKeys), it notes the batch's keys as it asks:
   * noted before the commit, a batch rolled back leaves keys with no rows, which costs a scan, never a duplicate.
   */
  private async recordedBefore(outcomes: readonly JobOutcome[]): Promise<boolean> {
    if (this.recordedKeys === undefined) {
      const held = await this.conn.runAndReadAll(
        `SELECT ${JOB_ROW_TABLES.map((t) => `EXISTS (SELECT 1 FROM ${t})`).join(' OR ')}`,
      );
      this.recordedKeys = held.getRows()[0][0] === true ? null : new RecordedKeys();
    }
    if (this.recordedKeys) {
      let again = false;
      for (const o of outcomes) if (this.recordedKeys.add(o.key)) again = true;
      return again;
    }
    const r = await this.conn.runAndReadAll(
      `SELECT count(*)::INTEGER FROM outcome_batch JOIN jobs USING (job_key)
       WHERE jobs.attempts > 0 OR jobs.status <> 'pending'`,
    );
    return Number(r.getRows()[0][0]) > 0;
  }

  /**
   * Roll back after `cause` and rethrow `cause`. A failed COMMIT (e.g. "No space left on device") has
   * already ended the transaction, so ROLLBACK then fails with "no transaction is active": that second
   * error must not hide the real one.
   */
  private async rollbackKeeping(cause: unknown): Promise<never> {
    try {
      await this.conn.run('ROLLBACK');
    } catch {
      // Nothing to roll back: the failure already ended the transaction. The cause below is what matters.
    }
    throw cause;
  }

  /**
   * Write an experiment's saved predictions to a CSV or Parquet file: one row per test row of each job, the
   * true class as its label and one column `p_<label>` per class label of the experiment's datasets (empty
   * where a dataset has no such label). Returns the number of rows written.
   */
  /**
   * Saved predictions to a file. Wide: one row per test row with truth, predicted (the most probable class,
   * the first of tied ones) and p_<label> per class. Long (`long`): one row per test row and class label,
   * with truth, predicted, label and prob (as mlr3's as.data.table(prediction) melted, or R's tidy form).
   */
  async exportPredictions(experiment: string, out: string, format: 'csv' | 'parquet', long = false): Promise<number> {
    const labels = await this.conn.runAndReadAll(
      `SELECT DISTINCT unnest(class_labels) AS label FROM experiment_datasets WHERE experiment = $1 ORDER BY label`,
      [experiment],
      [VARCHAR],
    );
    const columns = labels.getRows().map(([l]) => {
      const label = String(l);
      const at = `list_position(d.class_labels, ${sqlString(label)})`;
      return `CASE WHEN ${at} IS NULL THEN NULL ELSE p.probs[${at}] END AS ${sqlIdentifier(`p_${label}`)}`;
    });
    const predicted = `d.class_labels[list_position(p.probs, list_max(p.probs))] AS predicted`;
    const select = `SELECT e.experiment, d.dataset, e.method, j."repeat", j.fold, p."row", d.class_labels[p.truth + 1] AS truth, ${predicted}
                    ${long ? ', unnest(d.class_labels) AS label, unnest(p.probs) AS prob' : columns.map((c) => `, ${c}`).join('')}
                    FROM predictions p JOIN experiment_jobs e USING (job_key) JOIN jobs j USING (job_key)
                    JOIN experiment_datasets d ON d.experiment = e.experiment AND d.dataset = coalesce(e.dataset, j.dataset)
                    WHERE e.experiment = ${sqlString(experiment)}
                    ORDER BY d.dataset, e.method, j."repeat", j.fold, p."row"${long ? ', list_position(d.class_labels, label)' : ''}`;
    const r = await this.conn.run(
      `COPY (${select}) TO ${sqlString(out)} (FORMAT ${format === 'csv' ? 'csv, HEADER' : 'parquet'})`,
    );
    return r.rowsChanged;
  }

  /**
   * Every finished job registered under the experiment's name, by any spec of that name (the learning curve's
   * other experiments; a spec's own report reads resultsOf its plan).
   */
  async results(experiment: string): Promise<ResultRow[]> {
    // A database opened read-only keeps the view it was written with; metrics it predates read as NULL.
    const has = await this.columnsOf('results');
    const added = LATER_RESULT_COLUMNS.map(([c, t]) => (has.has(c) ? c : `NULL::${t} AS ${c}`));
    return (await this.query(
      `SELECT experiment, job_key, dataset, method, structure, estimator, "repeat", fold, ${FIRST_SCORE_COLUMNS.join(', ')}, n_train, n_test, n_arcs, train_ms, predict_ms, ${added.join(', ')}
       FROM results WHERE experiment = $1 ORDER BY dataset, method, "repeat", fold`,
      [experiment],
    )) as unknown as ResultRow[];
  }

  /**
   * The finished jobs among `jobs` (a spec's plan), whichever experiment registered them, named as the plan
   * names them: what `report <spec>` and `check` show. Ordered as results() orders them (dataset, method,
   * repeat, fold, by code point), so the statistics see the rows in the same order.
   */
  async resultsOf(experiment: string, jobs: readonly JobRef[]): Promise<ResultRow[]> {
    const byKey = refsByKey(jobs);
    const has = await this.columnsOf('job_metrics');
    // A database opened read-only keeps the schema it was written with; metrics it predates read as NULL.
    const added = LATER_RESULT_COLUMNS.map(([c, t]) => (has.has(c) ? `m.${c}` : `NULL::${t} AS ${c}`));
    const rows = await this.queryKeys(
      `SELECT k.key_index, j.structure, j.estimator, j."repeat", j.fold, ${FIRST_SCORE_COLUMNS.map((c) => `m.${c}`).join(', ')},
              m.n_train, m.n_test, m.n_arcs, j.train_ms, j.predict_ms, ${added.join(', ')}
       FROM jobs j JOIN job_metrics m USING (job_key) JOIN ${KEY_LIST} k USING (job_key)
       WHERE j.status = 'done'`,
      [...byKey.keys()],
    );
    const out = rows.map((r) => {
      const ref = byKey.get(String(r['job_key']))!;
      return { experiment, ...r, dataset: ref.dataset, method: ref.method } as unknown as ResultRow;
    });
    return out.sort(
      (a, b) =>
        codeOrder(a.dataset, b.dataset) || codeOrder(a.method, b.method) || a.repeat - b.repeat || a.fold - b.fold,
    );
  }

  /** The failed jobs among `jobs` (a spec's plan) with their error, named as the plan names them. */
  async failedJobsOf(
    jobs: readonly JobRef[],
  ): Promise<{ job_key: string; dataset: string; method: string; repeat: number; fold: number; error: string }[]> {
    const byKey = refsByKey(jobs);
    const rows = await this.queryKeys(
      `SELECT k.key_index, j."repeat", j.fold, j.error FROM jobs j JOIN ${KEY_LIST} k USING (job_key)
       WHERE j.status = 'error'`,
      [...byKey.keys()],
    );
    return rows
      .map((r) => {
        const ref = byKey.get(String(r['job_key']))!;
        return {
          job_key: String(r['job_key']),
          dataset: ref.dataset,
          method: ref.method,
          repeat: Number(r['repeat']),
          fold: Number(r['fold']),
          error: String(r['error']),
        };
      })
      .sort(
        (a, b) =>
          codeOrder(a.dataset, b.dataset) || codeOrder(a.method, b.method) || a.repeat - b.repeat || a.fold - b.fold,
      );
  }

  /** jobs.structure_info (JSON text) of the finished jobs among `keys` that stored one. */
  async structureInfoOf(keys: readonly string[]): Promise<{ job_key: string; structure_info: string }[]> {
    return (await this.queryKeys(
      `SELECT k.key_index, j.structure_info FROM jobs j JOIN ${KEY_LIST} k USING (job_key)
       WHERE j.status = 'done' AND j.structure_info IS NOT NULL`,
      [...new Set(keys)],
    )) as { job_key: string; structure_info: string }[];
  }

  /**
   * The learned arcs (parent → child) of the jobs among `keys`, by job key; a job without arcs is absent.
   * One JSON text per job rather than two strings per arc: DuckDB's client decodes every string on its own,
   * and a report reads some 10^4 arcs (docs/performance.md).
   */
  async learnedArcsOf(keys: readonly string[]): Promise<Map<string, [string, string][]>> {
    const rows = await this.queryKeys(
      `SELECT k.key_index, to_json(list([s.parent, s.child])) AS arcs FROM structures s JOIN ${KEY_LIST} k USING (job_key)
       GROUP BY k.key_index`,
      [...new Set(keys)],
    );
    return new Map(rows.map((r) => [String(r['job_key']), JSON.parse(String(r['arcs'])) as [string, string][]]));
  }

  /**
   * A read query that joins the job keys `keys` as KEY_LIST, as plain objects (BIGINT as number). A row that
   * selects `k.key_index` has its `job_key` from `keys` at that position instead: the key is not read back as
   * text. Read column by column, then made rows, which costs less than DuckDB's own row objects (with
   * learnedArcsOf's one text per job, a 960-job report's reads took about 18 ms of CPU instead of 105–170;
   * docs/performance.md). One query at a time holds the key table (keyTable).
   */
  private async queryKeys(sql: string, keys: readonly string[]): Promise<Record<string, unknown>[]> {
    const read = async (): Promise<Record<string, unknown>[]> => {
      await this.keyTable(keys);
      const r = await this.conn.runAndReadAll(sql).catch((e: unknown) => {
        this.heldKeys = undefined; // whatever failed, the next query fills the table afresh
        throw e;
      });
      const columns = Object.entries(r.getColumnsObjectJS() as Record<string, unknown[]>).map(
        ([name, values]) => [name, values.some((v) => typeof v === 'bigint') ? values.map(numberOf) : values] as const,
      );
      const rows: Record<string, unknown>[] = [];
      for (let i = 0; i < r.currentRowCount; i++) {
        const out: Record<string, unknown> = {};
        for (const [name, values] of columns) {
          if (name === 'key_index') out['job_key'] = keys[values[i] as number];
          else out[name] = values[i];
        }
        rows.push(out);
      }
      return rows;
    };
    const done = this.keyQueries.then(read, read);
    this.keyQueries = done.catch(() => undefined);
    return done;
  }

  /**
   * The temporary table KEY_LIST holding `keys` (and each one's position), filled only when it holds other
   * keys: a report asks five queries about the same plan's jobs. The keys go in as one JSON text, not as a
   * list parameter: binding a list makes a value object per key (a 960-job report spent 10–45 ms of CPU a
   * query on it; docs/performance.md). Not through an appender either: an appender's calls run at once, beside
   * a statement of this connection still pending (a report reads its seeds' results at once; the explorer
   * answers requests at once), and DuckDB refuses that. A temporary table lives in this connection's memory,
   * never in the database file, and DuckDB allows one on a database opened read-only.
   */
  private async keyTable(keys: readonly string[]): Promise<void> {
    const held = this.heldKeys;
    if (held !== undefined && held.length === keys.length && held.every((k, i) => k === keys[i])) return;
    this.heldKeys = undefined;
    await this.conn.run(
      `CREATE OR REPLACE TEMP TABLE ${KEY_LIST} AS
       SELECT unnest(l) AS job_key, (generate_subscripts(l, 1) - 1)::INTEGER AS key_index
       FROM (SELECT CAST($1::JSON AS VARCHAR[]) AS l)`,
      [JSON.stringify(keys)],
      [VARCHAR],
    );
    this.heldKeys = [...keys];
  }

  /**
   * The columns of a table or view of this database's main schema as the database has them (an older database
   * lacks the later metrics); none when it has no such table. From `duckdb_columns()`: the same answer as
   * `information_schema.columns`, whose view cost 15–20 ms of CPU more a query (docs/performance.md).
   */
  async columnsOf(table: string): Promise<Set<string>> {
    const r = await this.conn.runAndReadAll(
      `SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1`,
      [table],
    );
    return new Set(r.getColumnsObjectJS()['column_name'] as string[]);
  }

  /**
   * Parameterized read query returning its columns (values as JS values, BIGINT as bigint): read column by
   * column, several times faster than one object per row on 10^5 rows (the ui's metric columns).
   */
  async queryColumns(sql: string, params: DuckDBValue[] = []): Promise<Record<string, unknown[]>> {
    const r = await this.conn.runAndReadAll(sql, params);
    return r.getColumnsObjectJS() as Record<string, unknown[]>;
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

/** The tables that hold a finished job's rows, besides its row of `jobs`: only recordOutcomes writes them. */
const JOB_ROW_TABLES = ['job_metrics', 'job_code', 'structures', 'predictions'] as const;

/**
 * DuckDB's memory limit (MB) while a run registers and stores its jobs (ResultStore.boundMemory). 128 until
 * 0.5.4; at 32 a 10^6-job run's resident set is about 60 MiB lower for the same CPU (docs/performance.md),
 * and registering 10^6 jobs again and storing every prediction of adult (48,842 rows; folds of 4,885), letter
 * and shuttle still fit.
 */
export const DUCKDB_MEMORY_MB = 32;

/**
 * The temporary table of the job keys a query asks about (ResultStore.queryKeys): `job_key`, and `key_index`,
 * its position in the list from 0.
 */
const KEY_LIST = 'bnclab_asked_keys';

/** A BIGINT column's value as a number (null stays null). */
function numberOf(v: unknown): unknown {
  return typeof v === 'bigint' ? Number(v) : v;
}

const DOUBLE_LIST = LIST(DOUBLE);
const VARCHAR_LIST = LIST(VARCHAR);

/** Job refs by key (a key planned twice is one job: the first name wins, as the plan runs it once). */
function refsByKey(jobs: readonly JobRef[]): Map<string, JobRef> {
  const out = new Map<string, JobRef>();
  for (const j of jobs) if (!out.has(j.key)) out.set(j.key, j);
  return out;
}

/** A SQL string literal (COPY takes no bound parameters). */
function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function sqlIdentifier(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

function appendNullable<T>(app: DuckDBAppender, v: T | null | undefined, append: (v: T) => void): void {
  if (v === null || v === undefined) app.appendNull();
  else append(v);
}

/** Create the database's folder; a path through a regular file is a one-line StoreError, not a raw EEXIST. */
function prepareDirectory(path: string): void {
  try {
    makeFolder(dirname(path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // makeFolder names a read-only or forbidden parent as such (Node's own mkdir says ENOENT).
    const why =
      code === 'EEXIST' || code === 'ENOTDIR' ? 'a part of that path is a file, not a folder' : describeFsError(e);
    throw new StoreError(`${path}: cannot create the folder ${dirname(path)}: ${why}`);
  }
}

/** A 0-byte database file (and no write-ahead log) holds nothing: remove it so it is created afresh. */
function removeEmptyDatabase(path: string): void {
  try {
    if (statSync(path).isFile() && statSync(path).size === 0 && !existsSync(`${path}.wal`)) unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new StoreError(`${path}: ${(e as Error).message}`);
  }
}

function describeOpenFailure(msg: string): string {
  if (/not a valid DuckDB database/.test(msg))
    return 'the file is not a DuckDB database; move it aside or use --db <other file>';
  if (/Could not read enough bytes|Corrupt database|checksum/i.test(msg)) {
    return `the file is truncated or damaged (${msg.split('\n')[0]}); move it aside or use --db <other file>`;
  }
  return msg.split('\n')[0];
}

/**
 * DuckDB's own failures while using an open database (I/O, a damaged block found only when read) as a
 * one-line StoreError; anything else is passed on unchanged.
 */
export function storeFailure(path: string, e: unknown): unknown {
  if (e instanceof UserError || !(e instanceof Error)) return e;
  if (/^(IO Error|FATAL Error)|Corrupt database|checksum|No space left|Read-only file system/i.test(e.message)) {
    return new StoreError(`${path}: the results database cannot be used: ${describeOpenFailure(e.message)}`);
  }
  return e;
}
