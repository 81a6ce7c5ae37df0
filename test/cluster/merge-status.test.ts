import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli.js';
import { DuckDBInstance } from '@duckdb/node-api';
import { ResultStore } from '../../src/store/db.js';
import { SAME_TABLES, differences } from '../helpers/db-compare.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');
const RESUME = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-resume.yaml');

async function sql(path: string, text: string): Promise<Record<string, unknown>[]> {
  const s = await ResultStore.open(path);
  try {
    return await s.query(text);
  } finally {
    s.close();
  }
}

describe('shards, merge and status', () => {
  const cwd = tempDir();
  const local = join(cwd, 'local.duckdb');
  const shardDir = join(cwd, 'shards');
  mkdirSync(shardDir);
  const shard = (i: number): string => join(shardDir, `shard-${i}-of-3.duckdb`);

  it('three shards merged equal one local run bit for bit; merging again changes nothing', async () => {
    expect(cli(['run', SMALL, '--db', local, '--workers', '2', '--no-report', '--quiet'], { cwd }).code).toBe(0);
    const sizes: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = cli(['run', SMALL, '--shard', `${i}/3`, '--db', shard(i), '--workers', '1'], { cwd });
      expect(r.code).toBe(0);
      const m = /shard \d\/3: (\d+) jobs/.exec(r.stderr);
      sizes.push(Number(m![1]));
      expect(r.stdout).toContain('none for a shard');
    }
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(30);
    // Status before merging: the shard files together hold everything, each shard complete.
    const st = cli(['status', SMALL, '--shards', shardDir, '--by', 'method'], { cwd });
    expect(st.code).toBe(0);
    expect(st.stdout).toContain('30 jobs: 30 done, 0 failed, 0 pending');
    expect(st.stdout).toContain('shards: 3/3 complete');

    const merged = join(cwd, 'merged.duckdb');
    const m1 = cli(['merge', merged, shard(1), shard(2), shard(3)], { cwd });
    expect(m1.code).toBe(0);
    expect(m1.stdout).toContain('30 new done, 0 new failed, 0 identical, 0 conflicting');
    expect(await differences(local, merged, SAME_TABLES)).toEqual(
      Object.fromEntries(Object.keys(SAME_TABLES).map((t) => [t, 0])),
    );
    const m2 = cli(['merge', merged, shard(2)], { cwd });
    expect(m2.code).toBe(0);
    expect(m2.stdout).toMatch(/0 new done, 0 new failed, \d+ identical, 0 conflicting/);
    expect(await differences(local, merged, SAME_TABLES)).toEqual(
      Object.fromEntries(Object.keys(SAME_TABLES).map((t) => [t, 0])),
    );
    // The report reads the merged database like a local one.
    expect(cli(['report', SMALL, '--db', merged, '--out', join(cwd, 'rep')], { cwd }).code).toBe(0);
  });

  it('names conflicting jobs (nondeterminism) and merges nothing from that shard', async () => {
    const bad = join(cwd, 'bad.duckdb');
    copyFileSync(shard(1), bad);
    const [victim] = await sql(bad, `SELECT job_key, dataset FROM jobs WHERE status = 'done' ORDER BY job_key LIMIT 1`);
    await sql(bad, `UPDATE job_metrics SET accuracy = accuracy + 1e-15 WHERE job_key = '${String(victim['job_key'])}'`);
    const target = join(cwd, 'conflict.duckdb');
    expect(cli(['merge', target, shard(1)], { cwd }).code).toBe(0);
    const before = await sql(target, `SELECT count(*)::INTEGER AS n FROM job_metrics`);
    const r = cli(['merge', target, shard(2), bad], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('1 job(s) done in both with different metrics');
    expect(r.stderr).toContain(String(victim['job_key']));
    expect(r.stderr).toContain(String(victim['dataset']));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    // shard 2 went in (its own transaction) before the bad shard was refused.
    const after = await sql(target, `SELECT count(*)::INTEGER AS n FROM job_metrics`);
    expect((after[0]['n'] as number) - (before[0]['n'] as number)).toBeGreaterThan(0);
    const forced = cli(['merge', target, bad, '--force'], { cwd });
    expect(forced.code).toBe(1);
    expect(forced.stdout).toContain('conflict kept from the target');
  });

  it('refuses a shard of another bnclab version unless --force; merges one of another spec under the name, with a note', async () => {
    const target = join(cwd, 'refuse.duckdb');
    expect(cli(['merge', target, shard(1)], { cwd }).code).toBe(0);
    const v = join(cwd, 'version.duckdb');
    copyFileSync(shard(3), v);
    await sql(v, `UPDATE experiments SET bnclab_version = '0.0.0-other'`);
    const r = cli(['merge', target, v], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /version\.duckdb: experiment 'e2e-small': bnclab version 0\.0\.0-other differs .*refusing to merge \(--force/,
    );
    // Another spec under the same name (a phase of a spec run in parts): jobs merge by key, and the report
    // of a spec shows that spec's jobs, so nothing is refused.
    const other = join(cwd, 'other.duckdb');
    copyFileSync(shard(3), other);
    await sql(other, `UPDATE experiments SET spec_hash = 'f00d' || spec_hash`);
    const o = cli(['merge', target, other], { cwd });
    expect(o.code).toBe(0);
    expect(o.stdout).toMatch(/note: experiment 'e2e-small': spec hash f00d\w* differs .*its jobs are added by key/);
    expect(cli(['merge', target, v, '--force'], { cwd }).code).toBe(0);
  });

  it('keeps failures with their errors, lets a done job replace a failure, never the reverse, and merges new columns', async () => {
    const failed = join(cwd, 'failed.duckdb');
    copyFileSync(shard(1), failed);
    const [job] = await sql(failed, `SELECT job_key FROM jobs WHERE status = 'done' ORDER BY job_key LIMIT 1`);
    const key = String(job['job_key']);
    await sql(failed, `UPDATE jobs SET status = 'error', error = 'out of memory on node 7' WHERE job_key = '${key}'`);
    await sql(failed, `DELETE FROM job_metrics WHERE job_key = '${key}'`);
    // A column a later version adds (say, a new metric) must merge too.
    await sql(failed, `ALTER TABLE job_metrics ADD COLUMN future_metric DOUBLE`);
    await sql(failed, `UPDATE job_metrics SET future_metric = 0.25`);
    const target = join(cwd, 'failures.duckdb');
    const r = cli(['merge', target, failed], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ new done, 1 new failed/);
    expect(r.stdout).toContain('column job_metrics.future_metric added to the target');
    expect(await sql(target, `SELECT status, error FROM jobs WHERE job_key = '${key}'`)).toEqual([
      { status: 'error', error: 'out of memory on node 7' },
    ]);
    const added = await sql(target, `SELECT count(*)::INTEGER AS n FROM job_metrics WHERE future_metric = 0.25`);
    expect(added[0]['n']).toBeGreaterThan(0);
    // The real shard has the job done: it replaces the failure.
    expect(cli(['merge', target, shard(1)], { cwd }).code).toBe(0);
    expect(await sql(target, `SELECT status, error FROM jobs WHERE job_key = '${key}'`)).toEqual([
      { status: 'done', error: null },
    ]);
    // And the failure merged again does not replace the done job.
    const again = cli(['merge', target, failed], { cwd });
    expect(again.stdout).toContain('1 failed here but done in the target (kept done)');
    expect(await sql(target, `SELECT status FROM jobs WHERE job_key = '${key}'`)).toEqual([{ status: 'done' }]);
  });

  it("stores each split's fold rows once, also into a database made when folds had a primary key", async () => {
    const rowsOf = async (db: string) => (await sql(db, `SELECT count(*)::INTEGER AS n FROM folds`))[0]['n'] as number;
    const perShard = await rowsOf(shard(1));
    expect(perShard).toBeGreaterThan(0);
    // Every shard stored the same splits; merged, each row is there once.
    const target = join(cwd, 'folds-once.duckdb');
    expect(cli(['merge', target, shard(1), shard(2), shard(3)], { cwd }).code).toBe(0);
    expect(await rowsOf(target)).toBe(perShard);
    // A database from before: folds with its primary key (the schema leaves an existing table as it is).
    const old = join(cwd, 'old-schema.duckdb');
    const inst = await DuckDBInstance.create(old);
    const conn = await inst.connect();
    await conn.run(`CREATE TABLE folds (
      split_key VARCHAR, "repeat" INTEGER, "row" INTEGER, fold INTEGER, PRIMARY KEY (split_key, "repeat", "row"))`);
    conn.closeSync();
    inst.closeSync();
    expect(cli(['merge', old, shard(1), shard(2)], { cwd }).code).toBe(0);
    expect(await rowsOf(old)).toBe(perShard);
    expect(await differences(local, old, { folds: '*' })).toEqual({ folds: 0 });
    // A run into it stores nothing twice either (its splits are there already).
    expect(cli(['run', SMALL, '--db', old, '--workers', '1', '--no-report', '--quiet'], { cwd }).code).toBe(0);
    expect(await rowsOf(old)).toBe(perShard);
  });

  it('status reads a shard that a running task holds open, read-only', async () => {
    const running = join(cwd, 'running.duckdb');
    // 20 seeds (2,400 jobs in the shard) so that the run is still going once its first batch is stored: the
    // writer holds outcomes up to a second, and on a fast machine one seed's 120 jobs fit in that second.
    const long = ['--seeds', '20'];
    const child = cliSpawn(
      ['run', RESUME, '--shard', '1/2', '--db', running, '--workers', '1', '--no-report', ...long],
      { cwd },
    );
    let err = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/progress: [1-9]/.test(err)) resolve();
      });
      child.on('exit', () => resolve());
    });
    const st = cli(['status', RESUME, '--db', running, '--by', 'dataset'], { cwd });
    const stillRunning = child.exitCode === null;
    child.kill('SIGINT');
    await new Promise((r) => child.on('exit', r));
    expect(st.code).toBe(0);
    if (stillRunning) expect(st.stdout).toContain('in use by a running task; read from a snapshot copy');
    expect(st.stdout).toMatch(/e2e-resume: 240 jobs: [1-9]\d* done, 0 failed, \d+ pending/);
    // merge refuses a shard that is still being written, with one line.
    const child2 = cliSpawn(
      ['run', RESUME, '--shard', '2/2', '--db', join(cwd, 'r2.duckdb'), '--workers', '1', '--no-report', ...long],
      { cwd },
    );
    await new Promise<void>((resolve) =>
      child2.stderr.on('data', (d: Buffer) => (/to run/.test(d.toString()) ? resolve() : undefined)),
    );
    const m = cli(['merge', join(cwd, 'm3.duckdb'), join(cwd, 'r2.duckdb')], { cwd });
    child2.kill('SIGINT');
    await new Promise((r) => child2.on('exit', r));
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/r2\.duckdb: the shard is still being written by a running bnclab/);
  });

  it('plan --estimate and --shards print per-method core-hours and per-shard costs', () => {
    const r = cli(['plan', SMALL, '--estimate', '--cores', '4', '--shards', '3'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/nb\/dirichlet\s+15\s+\S+\s+\S+%\s+static/);
    expect(r.stdout).toMatch(/total\s+30/);
    expect(r.stdout).toContain('wall time on 4 cores');
    expect(r.stdout).toMatch(/shard 1\/3:\s+\d+ jobs/);
    expect(r.stdout).toMatch(/max\/mean 1\.\d{3}/);
    const cal = cli(['plan', SMALL, '--estimate', '--db', local], { cwd });
    expect(cal.stdout).toContain('calibrated with 30 finished jobs');
    expect(cal.stdout).toMatch(/nb\/dirichlet\s+15\s+\S+\s+\S+%\s+observed/);
    expect(cli(['run', SMALL, '--shard', '4/3'], { cwd }).stderr).toContain('shard 4 of 3 does not exist');
  });
});
