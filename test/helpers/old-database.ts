/** A results database as bnclab 0.4.0 made it, for the tests of the store's compatibility with older files. */
import { DuckDBInstance } from '@duckdb/node-api';

/** The job-keyed tables as 0.4.0 created them (with their primary keys), before any later column. */
const OLD_SCHEMA = [
  `CREATE TABLE jobs (
     job_key VARCHAR PRIMARY KEY, dataset VARCHAR, dataset_hash VARCHAR, split_key VARCHAR, "repeat" INTEGER,
     fold INTEGER, structure VARCHAR, structure_params VARCHAR, estimator VARCHAR, estimator_params VARCHAR,
     preprocessing VARCHAR, seed VARCHAR, status VARCHAR, error VARCHAR, attempts INTEGER DEFAULT 0,
     preprocess_ms DOUBLE, train_ms DOUBLE, predict_ms DOUBLE, structure_info VARCHAR,
     finished_at TIMESTAMP, bnclab_version VARCHAR)`,
  `CREATE TABLE experiment_jobs (
     experiment VARCHAR, job_key VARCHAR, method VARCHAR, dataset VARCHAR, PRIMARY KEY (experiment, job_key))`,
  `CREATE TABLE job_metrics (
     job_key VARCHAR PRIMARY KEY, accuracy DOUBLE, zero_one_loss DOUBLE, rmse DOUBLE, log_loss DOUBLE,
     n_train INTEGER, n_test INTEGER, n_arcs INTEGER, n_feature_arcs INTEGER)`,
  `CREATE TABLE job_code (job_key VARCHAR PRIMARY KEY, code_state VARCHAR)`,
];

/** Creates `path` with the job-keyed tables of 0.4.0 (the rest of the schema comes when bnclab opens it). */
export async function makeOldDatabase(path: string): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  for (const s of OLD_SCHEMA) await conn.run(s);
  conn.closeSync();
  instance.closeSync();
}
