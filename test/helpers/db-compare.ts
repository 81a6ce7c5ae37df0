/** Compare two results databases table by table, exactly (EXCEPT ALL both ways: doubles compared bit for bit). */
import { DuckDBInstance } from '@duckdb/node-api';

/** Rows of `a` not in `b` plus rows of `b` not in `a`, per table: 0 everywhere = identical, bit for bit. */
export async function differences(
  a: string,
  b: string,
  tables: Record<string, string>,
): Promise<Record<string, number>> {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  try {
    await c.run(`ATTACH '${a}' AS a (READ_ONLY)`);
    await c.run(`ATTACH '${b}' AS b (READ_ONLY)`);
    const out: Record<string, number> = {};
    for (const [t, cols] of Object.entries(tables)) {
      const r = await c.runAndReadAll(
        `SELECT (SELECT count(*) FROM (SELECT ${cols} FROM a.${t} EXCEPT ALL SELECT ${cols} FROM b.${t}))
              + (SELECT count(*) FROM (SELECT ${cols} FROM b.${t} EXCEPT ALL SELECT ${cols} FROM a.${t}))`,
      );
      out[t] = Number(r.getRows()[0][0]);
    }
    return out;
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}

/** Every table a run writes, with the columns that must not depend on where or when a job ran (not timings). */
export const SAME_TABLES = {
  job_metrics: '*',
  structures: '*',
  experiment_jobs: '*',
  folds: '*',
  splits: '*',
  datasets: '*',
  experiments: 'name, spec_hash, spec_text, seed, bnclab_version',
  jobs: 'job_key, dataset, dataset_hash, split_key, "repeat", fold, structure, structure_params, estimator, estimator_params, preprocessing, seed, status, error, attempts, structure_info, bnclab_version',
};
