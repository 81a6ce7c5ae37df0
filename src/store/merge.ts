/**
 * `bnclab merge`: join shard databases into one, by job key. Each shard is ATTACHed read-only and merged
 * in one transaction, so a failed merge changes nothing and the same shard merged twice adds nothing.
 *
 * Tables and columns are read from the databases' own catalog, not from a list here: a table or a column
 * that a later bnclab adds (a new metric, a new per-job table) merges too. The rules:
 *   - jobs: a shard's finished job (done, or error with its message) is taken when the target does not
 *     have it finished; a job done in both is compared on every job_metrics column: identical, or a
 *     conflict (the same content key gave different numbers: nondeterminism), which stops the merge
 *     naming the jobs; a shard's failure never replaces a target's done job; a shard's pending job is
 *     added as pending when the target does not know it (so status counts the whole plan).
 *   - every other table with a job_key column (job_metrics, structures, predictions, …) holds per-job
 *     outcome rows: for each job taken, the target's rows are replaced by the shard's.
 *   - experiment_jobs (membership): rows whose (experiment, job_key) the target lacks are inserted.
 *   - tables without job_key (experiments, datasets, splits, folds, …): rows the target lacks are inserted
 *     (by primary key where the table has one, else by whole row; folds, which new databases create without
 *     a key, by split: the rows of a split the target has no row of).
 * New databases have no primary key on the tables keyed by job (src/store/db.ts), older ones do: rows are
 * replaced by delete and insert and added by anti-join, which means the same on both.
 * The experiment rows must agree on the bnclab version unless forced; another spec hash under the same name
 * (a spec run in phases) merges with a note, since reports are driven by the spec they are given.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { StoreError, UserError } from '../util/errors.js';
import { refuseNewerFormat, ResultStore } from './db.js';

interface MergeOptions {
  /** Merge shards of a different spec hash or bnclab version, and keep the target's rows on conflicts. */
  readonly force?: boolean;
}

interface ShardMergeCounts {
  readonly shard: string;
  /** Jobs finished in the shard and not in the target (done + failed). */
  readonly newDone: number;
  readonly newFailed: number;
  /** Finished in both with the same metrics (or failed in both). */
  readonly identical: number;
  /** Done in both with different metrics (merged only with --force, keeping the target's). */
  readonly conflicting: number;
  /** Failed in the shard but done in the target: the target's result is kept. */
  readonly failedButDone: number;
  /** Jobs the shard had not run (pending or not in its part). */
  readonly notRun: number;
  readonly conflicts: readonly ConflictingJob[];
  readonly warnings: readonly string[];
}

interface ConflictingJob {
  readonly job_key: string;
  readonly dataset: string;
  readonly method: string;
  readonly repeat: number;
  readonly fold: number;
}

const q = (id: string): string => `"${id.replace(/"/g, '""')}"`;
const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

async function rows(conn: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const r = await conn.runAndReadAll(sql);
  return r.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'bigint' ? Number(v) : v;
    return out;
  });
}

interface TableInfo {
  readonly name: string;
  readonly columns: readonly { name: string; type: string }[];
  readonly primaryKey: boolean;
}

async function tablesOf(conn: DuckDBConnection, catalog: string): Promise<Map<string, TableInfo>> {
  const cols = await rows(
    conn,
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_catalog = ${lit(catalog)} AND table_schema = 'main'
       AND table_name IN (SELECT table_name FROM information_schema.tables
                          WHERE table_catalog = ${lit(catalog)} AND table_schema = 'main' AND table_type = 'BASE TABLE')
     ORDER BY table_name, ordinal_position`,
  );
  const pks = await rows(
    conn,
    `SELECT DISTINCT table_name FROM duckdb_constraints() WHERE database_name = ${lit(catalog)} AND schema_name = 'main'
     AND constraint_type = 'PRIMARY KEY'`,
  );
  const withPk = new Set(pks.map((r) => String(r['table_name'])));
  const out = new Map<string, TableInfo>();
  for (const c of cols) {
    const t = String(c['table_name']);
    const info = out.get(t) ?? { name: t, columns: [], primaryKey: withPk.has(t) };
    (info.columns as { name: string; type: string }[]).push({
      name: String(c['column_name']),
      type: String(c['data_type']),
    });
    out.set(t, info);
  }
  return out;
}

export async function mergeShards(
  into: string,
  shards: readonly string[],
  opts: MergeOptions = {},
): Promise<ShardMergeCounts[]> {
  const target = resolve(into);
  for (const s of shards) {
    if (!existsSync(s)) throw new UserError(`${s}: no such shard database`);
    if (resolve(s) === target) throw new UserError(`${s}: is the target database itself`);
  }
  // Creates the file and the current schema when the target is new.
  (await ResultStore.open(target)).close();
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(target);
  } catch (e) {
    throw new UserError(
      `${into}: cannot open the target database for writing (${(e as Error).message.split('\n')[0]})`,
    );
  }
  const conn = await instance.connect();
  try {
    const self = String((await rows(conn, 'SELECT current_database() AS db'))[0]['db']);
    const out: ShardMergeCounts[] = [];
    for (const s of shards) {
      try {
        out.push(await mergeOne(conn, self, s, opts));
      } catch (e) {
        // A block of the shard that fails its checksum is found only when read, inside the merge's
        // transaction, which is rolled back: one line, exit 4, as for any database that cannot be read.
        if (e instanceof UserError || !/IO Error|Corrupt database|checksum/i.test((e as Error).message)) throw e;
        throw new StoreError(
          `${s}: the shard database is damaged (${(e as Error).message.split('\n')[0]}); nothing of it was merged` +
            (out.length ? ` (the ${out.length} shard(s) before it were)` : ''),
        );
      }
    }
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function mergeOne(
  conn: DuckDBConnection,
  self: string,
  shardPath: string,
  opts: MergeOptions,
): Promise<ShardMergeCounts> {
  try {
    await conn.run(`ATTACH ${lit(resolve(shardPath))} AS shard (READ_ONLY)`);
  } catch (e) {
    const msg = (e as Error).message;
    const pid = /PID (\d+)/.exec(msg)?.[1];
    // Not /lock/: "checksum … in block at location …" is a damaged shard, not a running writer.
    if (/Could not set lock|Conflicting lock/i.test(msg)) {
      throw new UserError(
        `${shardPath}: the shard is still being written by a running bnclab${pid ? ` (PID ${pid})` : ''}; merge it when its task has finished`,
      );
    }
    throw new StoreError(`${shardPath}: cannot open the shard database: ${msg.split('\n')[0]}`);
  }
  const warnings: string[] = [];
  try {
    const shardTables = await tablesOf(conn, 'shard');
    if (!shardTables.has('jobs') || !shardTables.has('experiments')) {
      throw new UserError(`${shardPath}: not a bnclab results database (no jobs or experiments table)`);
    }
    await refuseNewerFormat(conn, shardPath, 'shard');
    await checkExperiments(conn, shardPath, opts, warnings);

    await conn.run('BEGIN TRANSACTION');
    try {
      // Bring the target's schema up to the shard's: tables and columns it lacks.
      let targetTables = await tablesOf(conn, self);
      for (const t of shardTables.values()) {
        const mine = targetTables.get(t.name);
        if (!mine) {
          await conn.run(`CREATE TABLE ${q(t.name)} AS SELECT * FROM shard.${q(t.name)} LIMIT 0`);
          warnings.push(`table ${t.name} is new in the target (copied from the shard)`);
          continue;
        }
        for (const c of t.columns) {
          if (!mine.columns.some((m) => m.name === c.name)) {
            await conn.run(`ALTER TABLE ${q(t.name)} ADD COLUMN ${q(c.name)} ${c.type}`);
            warnings.push(`column ${t.name}.${c.name} added to the target`);
          }
        }
      }
      targetTables = await tablesOf(conn, self);

      // Classify the shard's jobs against the target's.
      await conn.run(`CREATE OR REPLACE TEMP TABLE merge_jobs AS
        SELECT s.job_key, s.status AS s_status, t.status AS t_status
        FROM shard.jobs s LEFT JOIN ${q(self)}.main.jobs t USING (job_key)`);
      const metricCols = (shardTables.get('job_metrics')?.columns ?? [])
        .map((c) => c.name)
        .filter((c) => c !== 'job_key');
      const same = metricCols.length
        ? metricCols.map((c) => `sm.${q(c)} IS NOT DISTINCT FROM tm.${q(c)}`).join(' AND ')
        : 'true';
      const conflictRows = await rows(
        conn,
        `SELECT m.job_key, j.dataset, coalesce(e.method, j.structure) AS method, j."repeat", j.fold
         FROM merge_jobs m JOIN shard.jobs j USING (job_key)
         LEFT JOIN (SELECT job_key, min(method) AS method FROM shard.experiment_jobs GROUP BY job_key) e USING (job_key)
         LEFT JOIN shard.job_metrics sm ON sm.job_key = m.job_key
         LEFT JOIN ${q(self)}.main.job_metrics tm ON tm.job_key = m.job_key
         WHERE m.s_status = 'done' AND m.t_status = 'done' AND NOT (${same})
         ORDER BY j.dataset, method, j."repeat", j.fold`,
      );
      const conflicts = conflictRows as unknown as ConflictingJob[];
      if (conflicts.length > 0 && !opts.force) {
        const list = conflicts
          .slice(0, 10)
          .map((c) => `${c.dataset} ${c.method} repeat ${c.repeat} fold ${c.fold} (${c.job_key})`);
        throw new UserError(
          `${shardPath}: ${conflicts.length} job(s) done in both with different metrics (nondeterminism; nothing from this shard merged): ` +
            list.join('; ') +
            (conflicts.length > 10 ? `; … ${conflicts.length - 10} more` : ''),
          1,
        );
      }
      const count = async (where: string): Promise<number> =>
        Number((await rows(conn, `SELECT count(*) AS n FROM merge_jobs WHERE ${where}`))[0]['n']);
      const takeWhere = `(s_status = 'done' AND (t_status IS NULL OR t_status <> 'done'))
                      OR (s_status = 'error' AND (t_status IS NULL OR t_status NOT IN ('done', 'error')))`;
      const newDone = await count(`s_status = 'done' AND (t_status IS NULL OR t_status <> 'done')`);
      const newFailed = await count(`s_status = 'error' AND (t_status IS NULL OR t_status NOT IN ('done', 'error'))`);
      const identical =
        (await count(`s_status = 'done' AND t_status = 'done'`)) -
        conflicts.length +
        (await count(`s_status = 'error' AND t_status = 'error'`));
      const failedButDone = await count(`s_status = 'error' AND t_status = 'done'`);
      const notRun = await count(`s_status NOT IN ('done', 'error')`);
      await conn.run(`CREATE OR REPLACE TEMP TABLE merge_take AS SELECT job_key FROM merge_jobs WHERE ${takeWhere}`);

      for (const t of shardTables.values()) {
        const cols = t.columns.map((c) => q(c.name)).join(', ');
        const into = `${q(self)}.main.${q(t.name)}`;
        const from = `shard.${q(t.name)}`;
        const hasPk = targetTables.get(t.name)?.primaryKey ?? false;
        const keyed = t.columns.some((c) => c.name === 'job_key');
        if (t.name === 'jobs') {
          // Delete and insert, not INSERT OR REPLACE: new databases have no key on jobs (src/store/db.ts).
          await conn.run(`DELETE FROM ${into} WHERE job_key IN (SELECT job_key FROM merge_take)`);
          await conn.run(
            `INSERT INTO ${into} (${cols}) SELECT ${cols} FROM ${from} WHERE job_key IN (SELECT job_key FROM merge_take)`,
          );
          await conn.run(`INSERT INTO ${into} (${cols}) SELECT ${cols} FROM ${from} s WHERE s.status NOT IN ('done', 'error')
                          AND NOT EXISTS (SELECT 1 FROM ${into} t WHERE t.job_key = s.job_key)`);
        } else if (keyed && t.name !== 'experiment_jobs') {
          await conn.run(`DELETE FROM ${into} WHERE job_key IN (SELECT job_key FROM merge_take)`);
          await conn.run(
            `INSERT ${hasPk ? 'OR REPLACE ' : ''}INTO ${into} (${cols}) SELECT ${cols} FROM ${from} WHERE job_key IN (SELECT job_key FROM merge_take)`,
          );
        } else if (t.name === 'experiment_jobs') {
          // Membership the target lacks, by (experiment, job_key), key or not: the target's labels are kept.
          await conn.run(`INSERT INTO ${into} (${cols}) SELECT ${cols} FROM ${from} s WHERE NOT EXISTS
                          (SELECT 1 FROM ${into} t WHERE t.experiment = s.experiment AND t.job_key = s.job_key)`);
        } else if (hasPk) {
          await conn.run(`INSERT OR IGNORE INTO ${into} (${cols}) SELECT ${cols} FROM ${from}`);
        } else if (t.name === 'folds') {
          // A split's rows are stored all at once, so a split the target has rows of is complete there.
          await conn.run(
            `INSERT INTO ${into} (${cols}) SELECT ${cols} FROM ${from} WHERE split_key NOT IN (SELECT DISTINCT split_key FROM ${into})`,
          );
        } else {
          await conn.run(
            `INSERT INTO ${into} (${cols}) SELECT ${cols} FROM ${from} EXCEPT SELECT ${cols} FROM ${into}`,
          );
        }
      }
      await conn.run('COMMIT');
      return {
        shard: shardPath,
        newDone,
        newFailed,
        identical,
        conflicting: conflicts.length,
        failedButDone,
        notRun,
        conflicts,
        warnings,
      };
    } catch (e) {
      await conn.run('ROLLBACK');
      throw e;
    }
  } finally {
    await conn.run('DETACH shard');
  }
}

/** The shard's experiments must have the target's bnclab version (unless forced); another spec hash is a note. */
async function checkExperiments(
  conn: DuckDBConnection,
  shardPath: string,
  opts: MergeOptions,
  warnings: string[],
): Promise<void> {
  const diffs = await rows(
    conn,
    `SELECT s.name, s.spec_hash AS s_hash, t.spec_hash AS t_hash, s.bnclab_version AS s_version, t.bnclab_version AS t_version
     FROM shard.experiments s JOIN experiments t USING (name)
     WHERE s.spec_hash IS DISTINCT FROM t.spec_hash OR s.bnclab_version IS DISTINCT FROM t.bnclab_version`,
  );
  for (const d of diffs) {
    const name = String(d['name']);
    if (d['s_version'] !== d['t_version']) {
      const line = `${shardPath}: experiment '${name}': bnclab version ${String(d['s_version'])} differs from the target's ${String(d['t_version'])}`;
      if (!opts.force) throw new UserError(`${line}; refusing to merge (--force to merge anyway)`);
      warnings.push(`${line}; merged because of --force`);
    } else {
      // Another spec under the same name (a phase of a spec run in parts, say): jobs merge by content key,
      // membership only grows, and `report <spec>` shows the jobs of the spec it is given, so nothing of
      // either spec is lost or mixed into the other's report. The target keeps its spec text.
      warnings.push(
        `experiment '${name}': spec hash ${String(d['s_hash']).slice(0, 12)} differs from the target's ${String(d['t_hash']).slice(0, 12)} (another spec under this name): its jobs are added by key; 'bnclab report <spec>' shows the jobs of the spec it is given`,
      );
    }
  }
}
