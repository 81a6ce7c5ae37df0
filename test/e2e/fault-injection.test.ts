/**
 * Fault injection on the write path. (1) The store fails on the k-th outcome it is given (k drawn from a
 * seeded stream), with writes slower than jobs (outcomes queue up and go in batches) and with jobs slower
 * than writes (the writer is idle when the failure comes). (2) The CLI is killed with SIGKILL at random
 * moments with --save-predictions. In every trial: no outcome reported as stored is missing, none is
 * duplicated, the rerun completes exactly the rest, and the final tables equal an uninterrupted run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, cliSpawn, ROOT, tempDir } from '../helpers/cli.js';
import { ResultStore, type JobOutcome } from '../../src/store/db.js';
import { runExperiment } from '../../src/runner/run.js';
import { WorkerPool } from '../../src/runner/pool.js';
import { StoreError } from '../../src/util/errors.js';
import { Rng } from '../../src/util/rng.js';
import { METRIC_SQL, readDb } from '../helpers/db.js';

const FAULTS = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-faults.yaml');
const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');
const FAULT_TRIALS = Number(process.env['FAULT_TRIALS'] ?? 24);
const KILL_TRIALS = Number(process.env['KILL_TRIALS'] ?? 8);
// Dozens of whole runs: minutes on a loaded machine. A limit only to stop a hang, not a speed assertion.
const TRIALS_TIMEOUT_MS = 1_200_000;

const PREDICTIONS = `SELECT count(*)::INTEGER AS n, count(DISTINCT (job_key, "row"))::INTEGER AS distinct_rows,
                       md5(string_agg(job_key || ':' || "row" || ':' || truth || ':' || probs::VARCHAR, ',' ORDER BY job_key, "row")) AS digest
                     FROM predictions`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a write failure on the k-th outcome', () => {
  it(
    `stops the run, names the job and the cause, loses nothing stored, and the rerun completes the grid (${FAULT_TRIALS} trials)`,
    async () => {
      const dir = tempDir();
      const cleanDb = join(dir, 'clean.duckdb');
      const clean = await runExperiment(FAULTS, { db: cleanDb, workers: 2, quiet: true, savePredictions: true });
      expect(clean.succeeded).toBe(20);
      const cleanMetrics = await readDb(cleanDb, (s) => s.query(METRIC_SQL, ['e2e-faults']));
      const cleanPredictions = await readDb(cleanDb, (s) => s.query(PREDICTIONS));

      const rng = new Rng('fault-injection');
      const original = ResultStore.prototype.recordOutcomes;
      const originalRun = WorkerPool.prototype.run;
      let batchesOfMoreThanOne = 0;
      for (let t = 0; t < FAULT_TRIALS; t++) {
        const k = 1 + rng.int(20);
        const slowJobs = t % 2 === 1;
        const db = join(dir, `t${t}.duckdb`);
        const seen = new Set<string>();
        const acknowledged = new Set<string>();
        let failKey: string | undefined;
        vi.spyOn(ResultStore.prototype, 'recordOutcomes').mockImplementation(async function (
          this: ResultStore,
          batch: readonly JobOutcome[],
        ) {
          for (const o of batch) {
            if (!seen.has(o.key)) {
              seen.add(o.key);
              if (seen.size === k) failKey = o.key;
            }
          }
          if (batch.length > 1) batchesOfMoreThanOne++;
          if (!slowJobs) await sleep(10); // writes slower than jobs
          if (failKey !== undefined && batch.some((o) => o.key === failKey)) {
            throw new Error('IO Error: Could not write file: No space left on device (injected)');
          }
          await original.call(this, batch);
          for (const o of batch) acknowledged.add(o.key);
        });
        if (slowJobs) {
          vi.spyOn(WorkerPool.prototype, 'run').mockImplementation(async function (this: WorkerPool, payload) {
            const o = await originalRun.call(this, payload);
            await sleep(15);
            return o;
          });
        }
        const err = await runExperiment(FAULTS, { db, workers: 2, quiet: true, savePredictions: true }).then(
          () => undefined,
          (e: unknown) => e,
        );
        vi.restoreAllMocks();
        expect(err, `trial ${t} (k=${k})`).toBeInstanceOf(StoreError);
        const msg = (err as Error).message;
        expect(msg.split('\n')).toHaveLength(1);
        expect(msg).toMatch(
          /storing the result of (iris|zoo) (nb|tan)\/dirichlet repeat 0 fold \d failed: IO Error: Could not write file: No space left on device \(injected\)/,
        );
        expect(msg).toContain(
          `${acknowledged.size} results stored this run, ${20 - acknowledged.size} jobs left for the next run`,
        );
        expect(acknowledged.has(failKey!)).toBe(false);

        // Exactly the acknowledged outcomes are stored, each once, with all their predictions.
        const stored = await readDb(db, (s) =>
          s.query(`SELECT job_key, status FROM jobs WHERE status <> 'pending' ORDER BY job_key`),
        );
        expect(new Set(stored.map((r) => r['job_key']))).toEqual(acknowledged);
        const perJob = await readDb(db, (s) =>
          s.query(
            `SELECT m.job_key, m.n_test, (SELECT count(*)::INTEGER FROM predictions p WHERE p.job_key = m.job_key) AS n_pred FROM job_metrics m`,
          ),
        );
        expect(perJob).toHaveLength(acknowledged.size);
        for (const r of perJob) expect(r['n_pred']).toBe(r['n_test']);

        // The rerun runs exactly the rest and ends equal to the uninterrupted run.
        const rerun = await runExperiment(FAULTS, { db, workers: 2, quiet: true, savePredictions: true });
        expect(rerun.alreadyDone).toBe(acknowledged.size);
        expect(rerun.ran).toBe(20 - acknowledged.size);
        expect(await readDb(db, (s) => s.query(METRIC_SQL, ['e2e-faults']))).toEqual(cleanMetrics);
        expect(await readDb(db, (s) => s.query(PREDICTIONS))).toEqual(cleanPredictions);
      }
      // The slow-write trials did exercise multi-outcome batches.
      expect(batchesOfMoreThanOne).toBeGreaterThan(0);
    },
    TRIALS_TIMEOUT_MS,
  );
});

describe('SIGKILL at random moments with --save-predictions', () => {
  it(
    `leaves only complete jobs, and the rerun equals an uninterrupted run (${KILL_TRIALS} trials)`,
    async () => {
      const dir = tempDir();
      const cleanDb = join(dir, 'clean.duckdb');
      expect(
        cli(['run', SMALL, '--db', cleanDb, '--workers', '2', '--no-report', '--save-predictions'], { cwd: dir }).code,
      ).toBe(0);
      const cleanMetrics = await readDb(cleanDb, (s) => s.query(METRIC_SQL, ['e2e-small']));
      const cleanPredictions = await readDb(cleanDb, (s) => s.query(PREDICTIONS));
      const rng = new Rng('kill-moments');
      const storedBeforeKill: number[] = [];
      for (let t = 0; t < KILL_TRIALS; t++) {
        const db = join(dir, `k${t}.duckdb`);
        const child = cliSpawn(['run', SMALL, '--db', db, '--workers', '2', '--no-report', '--save-predictions'], {
          cwd: dir,
        });
        const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
        if (t % 2 === 0) {
          // Early: while starting, creating the file, registering the plan.
          await Promise.race([sleep(rng.int(1000)), exited]);
        } else {
          // While results are being stored: a moment after the first progress line.
          let err = '';
          const storing = new Promise<void>((resolve) =>
            child.stderr.on('data', (d: Buffer) => {
              err += d.toString();
              if (/progress: [1-9]/.test(err)) resolve();
            }),
          );
          await Promise.race([storing, exited]);
          await Promise.race([sleep(rng.int(300)), exited]);
        }
        child.kill('SIGKILL');
        await exited;
        let storedBefore = 0;
        if (existsSync(db)) {
          const check = await readDb(db, async (s) => {
            const tables = await s.query(
              `SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = 'job_metrics'`,
            );
            if (tables[0]['n'] === 0) return undefined;
            return {
              done: await s.query(`SELECT count(*)::INTEGER AS n FROM jobs WHERE status = 'done'`),
              incomplete: await s.query(
                `SELECT j.job_key FROM jobs j LEFT JOIN job_metrics m USING (job_key)
               WHERE j.status = 'done' AND (m.job_key IS NULL OR m.n_test <> (SELECT count(*) FROM predictions p WHERE p.job_key = j.job_key))`,
              ),
              predictions: await s.query(PREDICTIONS),
            };
          }).catch((e: unknown) => {
            // A kill the instant the file is created leaves it empty; the next run treats it as absent.
            if (/no results database|not a DuckDB database/.test((e as Error).message)) return undefined;
            throw e;
          });
          if (check) {
            expect(check.incomplete, `trial ${t}`).toEqual([]);
            expect(check.predictions[0]['n']).toBe(check.predictions[0]['distinct_rows']);
            storedBefore = check.done[0]['n'] as number;
          }
        }
        storedBeforeKill.push(storedBefore);
        const r = cli(['run', SMALL, '--db', db, '--workers', '2', '--no-report', '--save-predictions'], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain(`${storedBefore} already done, ${30 - storedBefore} to run`);
        expect(await readDb(db, (s) => s.query(METRIC_SQL, ['e2e-small']))).toEqual(cleanMetrics);
        expect(await readDb(db, (s) => s.query(PREDICTIONS))).toEqual(cleanPredictions);
      }
      // The kills landed before the end of the run (the early ones cannot be later than 1 s after start).
      expect(storedBeforeKill.filter((n) => n < 30).length).toBeGreaterThan(0);
      process.stderr.write(`jobs stored at each kill: ${storedBeforeKill.join(' ')}\n`);
    },
    TRIALS_TIMEOUT_MS,
  );
});
