/**
 * The coordinator: plan → store (experiment, datasets, splits, jobs) → run the jobs not yet done on the
 * worker pool → write each outcome as it arrives. Only this process writes the database.
 */
import os from 'node:os';
import { resolve } from 'node:path';
import { buildPlan, specHash, type Plan, type PlannedJob } from '../spec/plan.js';
import { loadSpecFile } from '../spec/load.js';
import { ResultStore, type JobRow } from '../store/db.js';
import { canonicalJson } from '../util/hash.js';
import { packageRoot } from '../util/paths.js';
import { BNCLAB_VERSION } from '../version.js';
import { WorkerPool } from './pool.js';
import { Progress } from './progress.js';
import type { JobPayload } from './job.js';

export interface RunOptions {
  readonly db?: string;
  readonly workers?: number;
  /** Per-job limit in seconds; 0 = none. */
  readonly jobTimeout?: number;
  readonly failFast?: boolean;
  readonly rerunFailed?: boolean;
  readonly savePredictions?: boolean;
  /** Where progress goes (stderr by default). */
  readonly progress?: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean };
  readonly quiet?: boolean;
}

export interface RunSummary {
  readonly experiment: string;
  readonly dbPath: string;
  readonly total: number;
  readonly alreadyDone: number;
  readonly ran: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Failed jobs left from earlier runs and not retried (see --rerun-failed). */
  readonly previouslyFailed: number;
  readonly interrupted: boolean;
}

export function defaultDbPath(name: string): string {
  return resolve(process.cwd(), 'results', `${name}.duckdb`);
}

export function jobRow(plan: Plan, j: PlannedJob): JobRow {
  return {
    key: j.key,
    dataset: j.dataset.handle.name,
    datasetHash: j.dataset.handle.sha256,
    splitKey: j.dataset.splitKey,
    repeat: j.repeat,
    fold: j.fold,
    structure: j.method.structure.id,
    structureParams: canonicalJson(j.method.structure.params),
    estimator: j.method.estimator?.id ?? null,
    estimatorParams: j.method.estimator ? canonicalJson(j.method.estimator.params) : null,
    preprocessing: canonicalJson(plan.spec.preprocessing),
    seed: j.seed,
    method: j.method.label,
  };
}

/** Write the experiment, its datasets, splits and job list; returns the open store. */
export async function registerPlan(plan: Plan, specText: string, dbPath: string): Promise<ResultStore> {
  const store = await ResultStore.open(dbPath);
  try {
    const spec = plan.spec;
    await store.upsertExperiment({
      name: spec.name,
      specFile: spec.file,
      specHash: specHash(spec),
      specText,
      seed: spec.seed,
      version: BNCLAB_VERSION,
    });
    for (const d of plan.datasets) {
      await store.upsertDataset({
        hash: d.handle.sha256,
        name: d.handle.name,
        file: d.handle.file.startsWith(packageRoot()) ? d.handle.file.slice(packageRoot().length + 1) : d.handle.file,
        rows: d.rows,
        attributes: d.attributes,
        classes: d.classes,
      });
      await store.saveSplit({
        key: d.splitKey,
        datasetHash: d.handle.sha256,
        resampling: canonicalJson(spec.resampling),
        repeats: d.split.repeats,
        folds: d.split.folds,
        assignment: d.split.assignment,
      });
    }
    await store.registerJobs(spec.name, plan.jobs.map((j) => jobRow(plan, j)), BNCLAB_VERSION);
    return store;
  } catch (e) {
    store.close();
    throw e;
  }
}

export async function runExperiment(specFile: string, opts: RunOptions = {}): Promise<RunSummary> {
  const { spec, text } = loadSpecFile(specFile);
  const plan = buildPlan(spec);
  const dbPath = opts.db ? resolve(opts.db) : defaultDbPath(spec.name);
  const store = await registerPlan(plan, text, dbPath);
  const out = opts.progress ?? process.stderr;
  let interrupted = false;
  let pool: WorkerPool | undefined;
  const onSignal = (): void => {
    interrupted = true;
    void pool?.close();
  };
  try {
    const statuses = await store.jobStatuses(spec.name);
    const todo = plan.jobs.filter((j) => {
      const s = statuses.get(j.key);
      return s !== 'done' && (s !== 'error' || opts.rerunFailed);
    });
    const alreadyDone = plan.jobs.filter((j) => statuses.get(j.key) === 'done').length;
    const previouslyFailed = opts.rerunFailed ? 0 : plan.jobs.filter((j) => statuses.get(j.key) === 'error').length;
    const workers = Math.max(1, Math.min(opts.workers ?? os.availableParallelism(), todo.length || 1));
    if (!opts.quiet) {
      out.write(
        `${spec.name}: ${plan.jobs.length} jobs (${plan.datasets.length} datasets × ${spec.methods.length} methods × ${foldCountText(plan.jobs)}), ` +
          `${alreadyDone} already done, ${todo.length} to run on ${workers} worker${workers > 1 ? 's' : ''}\n`,
      );
    }
    let succeeded = 0;
    let failed = 0;
    if (todo.length > 0) {
      pool = new WorkerPool(workers, (opts.jobTimeout ?? 0) * 1000);
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const progress = opts.quiet ? undefined : new Progress(todo.length, out);
      // Outcomes are written one at a time, in arrival order; each write is its own transaction.
      let writes: Promise<void> = Promise.resolve();
      const savePredictions = opts.savePredictions ?? spec.savePredictions;
      await Promise.all(
        todo.map((j) =>
          pool!.run(payloadOf(plan, j, savePredictions)).then((outcome) => {
            if (outcome.cancelled) return;
            if (outcome.status === 'done') succeeded++;
            else {
              failed++;
              if (opts.failFast) {
                pool!.stop();
              }
            }
            progress?.tick(outcome.status === 'done');
            writes = writes.then(() => store.recordOutcome(outcome));
          }),
        ),
      );
      await writes;
      progress?.finish();
    }
    return {
      experiment: spec.name,
      dbPath,
      total: plan.jobs.length,
      alreadyDone,
      ran: succeeded + failed,
      succeeded,
      failed,
      previouslyFailed,
      interrupted,
    };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool?.close();
    store.close();
  }
}

function payloadOf(plan: Plan, j: PlannedJob, savePredictions: boolean): JobPayload {
  return {
    key: j.key,
    seed: j.seed,
    dataset: j.dataset.handle,
    preprocessing: plan.spec.preprocessing,
    splitKey: j.dataset.splitKey,
    repeat: j.repeat,
    assignment: j.dataset.split.assignment[j.repeat]!,
    fold: j.fold,
    kind: j.method.kind,
    structure: { id: j.method.structure.id, params: j.method.structure.params },
    estimator: j.method.estimator ? { id: j.method.estimator.id, params: j.method.estimator.params } : null,
    savePredictions,
    specDir: plan.spec.dir,
    select: j.method.select,
  };
}

/** '10 folds', '5 repeats × 2 folds': the resampling units per dataset × method, as the run header shows them. */
function foldCountText(jobs: readonly { readonly repeat: number; readonly fold: number }[]): string {
  const repeats = new Set(jobs.map((j) => j.repeat)).size;
  const folds = new Set(jobs.map((j) => j.fold)).size;
  return `${repeats > 1 ? `${repeats} repeats × ` : ''}${folds} fold${folds === 1 ? '' : 's'}`;
}
