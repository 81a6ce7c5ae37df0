/**
 * The coordinator: plan → store (experiment, datasets, splits, jobs) → run the jobs not yet done on the
 * worker pool → store the outcomes in batches as they arrive (src/runner/writer.ts). Only this process
 * writes the database.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { buildPlan, describeColumns, specHash, type Plan, type PlannedJob } from '../spec/plan.js';
import { loadSpecFile, withSeedCount, type ExperimentSpec } from '../spec/load.js';
import { CostModel } from '../spec/cost.js';
import { partitionPlan, type ShardSpec } from '../spec/shard.js';
import { programsOf } from '../spec/programs.js';
import { selectJobs, type JobSubset } from '../spec/subset.js';
import { duckdbVersion, ResultStore, storeFailure, type JobOutcome, type JobRow } from '../store/db.js';
import { codeState } from '../util/provenance.js';
import { defaultDbPath } from '../store/location.js';
import { canonicalJson, canonicalJsonOnce } from '../util/hash.js';
import { packageRoot } from '../util/paths.js';
import { BNCLAB_VERSION } from '../version.js';
import { InlineRunner, WorkerPool, type JobRunner } from './pool.js';
import { Progress } from './progress.js';
import { OutcomeWriter } from './writer.js';
import { favourMemory, favourSpeed } from '../util/v8-memory.js';
import {
  freshCounts,
  jobCostOf,
  listedJobs,
  registerAndChoose,
  REGISTER_CHUNK,
  StreamedJobs,
  Turns,
  type JobSource,
} from './todo.js';
import { EXIT, StoreError } from '../util/errors.js';
import { jobMethod, type JobPayload } from './job.js';
import { isSharedTable } from '../datasets/table.js';
import { checkDataset, checkSummary } from '../datasets/checks.js';

/** The data checks' one-line summaries for the datasets that are not shipped (plan --check-data: details). */
function dataCheckSummaries(plan: Plan): string[] {
  return plan.datasets
    .filter((d) => d.userFile)
    .map((d) => checkSummary(d.handle.name, checkDataset(d.table, d.handle, d.folds)))
    .filter((l): l is string => l !== undefined);
}

interface RunOptions {
  readonly db?: string;
  readonly workers?: number;
  /** Per-job limit in seconds; 0 = none. */
  readonly jobTimeout?: number;
  readonly failFast?: boolean;
  readonly rerunFailed?: boolean;
  /** Recompute the jobs whose stored result was made by an older revision of their method. */
  readonly rerunStale?: boolean;
  readonly savePredictions?: boolean;
  /** Where progress goes (stderr by default). */
  readonly progress?: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean };
  readonly quiet?: boolean;
  /** Refuse a grid of more jobs (default DEFAULT_MAX_JOBS in src/spec/plan.ts). */
  readonly maxJobs?: number;
  /** `--seeds N`: the spec's seed and the N − 1 after it (withSeedCount). */
  readonly seeds?: number;
  /** Run only shard I of N of the plan (src/spec/shard.ts); the others are left to other processes. */
  readonly shard?: ShardSpec;
  /** Run only the jobs in this subset of the grid (`run --only`, src/spec/subset.ts); stored as usual. */
  readonly only?: JobSubset;
  /**
   * Leave the database open and return it in the summary (the caller closes it): `run` writes its report
   * from the same connection instead of opening the file a second time.
   */
  readonly keepStoreOpen?: boolean;
  /**
   * This process is the command's own (the CLI's `run`): V8 favours memory over speed while the workers run
   * the jobs (util/v8-memory.ts), and its defaults are back before this function returns.
   */
  readonly favourMemory?: boolean;
}

export interface RunSummary {
  readonly experiment: string;
  /** The spec as loaded and checked for this run (the report reuses it). */
  readonly spec: ExperimentSpec;
  /** The spec's plan (the report and check read its jobs' results). */
  readonly plan: Plan;
  readonly dbPath: string;
  readonly total: number;
  readonly alreadyDone: number;
  readonly ran: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Failed jobs left from earlier runs and not retried (see --rerun-failed). */
  readonly previouslyFailed: number;
  /** Jobs with only a result of an older revision of their method stored: recomputed with rerunStale, else left. */
  readonly stale: number;
  readonly interrupted: boolean;
  /** The open database, with keepStoreOpen (after a run that did not fail). */
  readonly store?: ResultStore;
}

export { defaultDbPath };

function jobRow(plan: Plan, j: PlannedJob): JobRow {
  return {
    key: j.key,
    dataset: j.dataset.handle.name,
    datasetHash: j.dataset.handle.sha256,
    splitKey: j.dataset.splitKey,
    repeat: j.repeat,
    fold: j.fold,
    structure: j.method.structure.id,
    structureParams: canonicalJsonOnce(j.method.structure.params),
    estimator: j.method.estimator?.id ?? null,
    estimatorParams: j.method.estimator ? canonicalJsonOnce(j.method.estimator.params) : null,
    preprocessing: canonicalJsonOnce(plan.spec.preprocessing),
    seed: j.seed,
    method: j.method.label,
  };
}

/** Write the experiment, its datasets and splits; returns the open store (registerAndChoose adds the jobs). */
async function registerPlan(plan: Plan, specText: string, dbPath: string): Promise<ResultStore> {
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
    // A multi-seed plan has each seed's splits (the same dataset rows, other folds when they are random).
    for (const d of plan.seeds ? plan.seeds.flatMap((x) => x.datasets) : plan.datasets) {
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
    await store.saveExperimentDatasets(
      spec.name,
      plan.datasets.map((d) => ({
        name: d.handle.name,
        hash: d.handle.sha256,
        classColumn: d.className,
        classLabels: d.classLabels,
        attributeNames: d.columns.map((c) => c.name),
      })),
    );
    return store;
  } catch (e) {
    store.close();
    throw storeFailure(dbPath, e);
  }
}

export async function runExperiment(specFile: string, opts: RunOptions = {}): Promise<RunSummary> {
  const loaded = loadSpecFile(specFile);
  const spec = withSeedCount(loaded.spec, opts.seeds);
  const text = loaded.text;
  const plan = buildPlan(spec, { maxJobs: opts.maxJobs });
  const out = opts.progress ?? process.stderr;
  for (const w of plan.warnings) out.write(`bnclab: warning: ${w}\n`);
  // What bnclab chose for the user's own files: the class column and each column's type.
  if (!opts.quiet) for (const d of plan.datasets) if (d.userFile) out.write(`${describeColumns(d, false)[0]}\n`);
  if (!opts.quiet) for (const line of dataCheckSummaries(plan)) out.write(`bnclab: warning: ${line}\n`);
  const dbPath = opts.db ? resolve(opts.db) : defaultDbPath(spec.name);
  const workersFor = (todo: number): number =>
    Math.max(1, Math.min(opts.workers ?? os.availableParallelism(), todo || 1));
  const newPool = (todo: number): WorkerPool =>
    new WorkerPool(workersFor(todo), (opts.jobTimeout ?? 0) * 1000, opts.favourMemory ? favourMemory : undefined);
  // A new database: every job of the plan runs. With more than one, they run on workers, which are started
  // now and load their code while this thread registers the plan (the first outcome came back 0.3 s sooner in
  // a profiled run of short jobs, docs/performance.md). A database that exists may hold every job already, and a
  // shard or --only may choose one job, which runs in this thread: their workers start when the jobs are known.
  const early =
    (plan.grid?.size ?? 0) > 1 && !opts.shard && !opts.only && !existsSync(dbPath)
      ? newPool(plan.grid!.size)
      : undefined;
  early?.startWorkers();
  // git's calls run beside the registration; a failure is awaited (and thrown) where the state is stored.
  const code = codeState(duckdbVersion());
  code.catch(() => undefined);
  let store: ResultStore;
  try {
    store = await registerPlan(plan, text, dbPath);
  } catch (e) {
    favourSpeed();
    await early?.close();
    throw e;
  }
  let interrupted = false;
  // Set when no new job may start: SIGINT/SIGTERM, --fail-fast, or a failed write.
  let stopTaking = false;
  let pool: JobRunner | undefined = early;
  let failed = false;
  let writer: OutcomeWriter | undefined;
  let source: JobSource | undefined;
  // First signal: start no new job, cancel the running ones (they run next time), store every finished
  // result, exit 130. Second signal: exit at once; each stored batch is one transaction, so nothing is torn.
  const onSignal = (): void => {
    if (interrupted) {
      out.write(
        `\nbnclab: second interrupt: exiting now; ${writer?.queued ?? 0} finished results not stored (they run next time)\n`,
      );
      process.exit(EXIT.interrupted);
    }
    interrupted = true;
    stopTaking = true;
    out.write(
      `\nbnclab: interrupted: storing ${writer?.queued ?? 0} finished results, then stopping (interrupt again to exit at once)\n`,
    );
    void pool?.close();
  };
  try {
    await store.setCodeState(await code);
    const grid = plan.grid!;
    // A shard or --only needs the whole list (balancing by cost, matching by axis); a plain run never builds it.
    const shardOf = opts.shard ? partitionPlan(plan, new CostModel(plan), opts.shard.count).shardOf : undefined;
    const chosen = opts.only ? new Set(selectJobs(plan, opts.only, '--only').map((j) => j.key)) : undefined;
    const savePredictions = opts.savePredictions ?? spec.savePredictions;
    // Saving predictions asks for every job's predictions: a job done without them (an earlier run without
    // the flag) runs again and its result, identical but for the timings, is stored with them.
    const inScope =
      shardOf || chosen
        ? (j: PlannedJob) => (!shardOf || shardOf.get(j.key) === opts.shard!.index) && (!chosen || chosen.has(j.key))
        : undefined;
    const rowOf = (j: PlannedJob): JobRow => jobRow(plan, j);
    // Registration and the writer's batches share the connection in turn.
    const turns = new Turns();
    let chosenJobs;
    let jobs: JobSource;
    if (!(await store.hasFinishedJobs())) {
      // Nothing finished in the database: every job in scope runs. The first ones start once their chunk is
      // registered, the rest are registered while they run (src/runner/todo.ts).
      chosenJobs = freshCounts(plan, inScope);
      jobs = new StreamedJobs(plan, store, rowOf, BNCLAB_VERSION, turns, inScope);
    } else {
      const predicted = savePredictions ? await store.jobsWithPredictions(spec.name) : undefined;
      const listed = await registerAndChoose(plan, store, rowOf, BNCLAB_VERSION, {
        rerunFailed: opts.rerunFailed,
        rerunStale: opts.rerunStale,
        predicted,
        inScope,
      });
      // Fold the write-ahead log into the file, so the .duckdb file alone holds the plan.
      await store.checkpoint();
      chosenJobs = listed;
      jobs = listedJobs(plan, listed.todo);
    }
    source = jobs;
    // DuckDB's cache bounded and its work on one thread while the jobs run and are stored; the bound undone
    // below, before the report reads (which stay on one thread: ResultStore.oneThread).
    await store.boundMemory();
    await store.oneThread();
    const { todoCount, alreadyDone, recomputed, previouslyFailed, stale } = chosenJobs;
    const workers = workersFor(todoCount);
    if (!opts.quiet) {
      out.write(
        `${spec.name}: ${grid.size} jobs (${plan.seeds ? `${plan.seeds.length} seeds × ` : ''}${plan.datasets.length} datasets × ${spec.methods.length} methods × ${foldCountText(grid.repeatAndFoldCounts())}), ` +
          (opts.shard ? `shard ${opts.shard.index}/${opts.shard.count}: ${chosenJobs.inScope} jobs, ` : '') +
          (chosen ? `--only: ${chosenJobs.inScope} jobs, ` : '') +
          `${alreadyDone} already done, ${todoCount} to run on ${workers} worker${workers > 1 ? 's' : ''}` +
          (recomputed > 0
            ? ` (${recomputed} of them done before without saved predictions, run again to save them)`
            : '') +
          '\n',
      );
      if (stale.length > 0)
        out.write(
          `${spec.name}: ${stale.length} stored results were made by an older revision of their method ` +
            (opts.rerunStale
              ? `(recomputing them)\n`
              : `(kept, not shown in reports; run --rerun-stale to recompute them)\n`),
        );
    }
    // No job to run here (a shard or --only that holds none): the plan is registered all the same.
    if (todoCount === 0) {
      await jobs.next();
      if (jobs.failure) throw jobs.failure.cause;
    }
    if (todoCount > 0) {
      // One job and no time limit: it runs in this thread (no worker to start). Its synchronous run leaves
      // no moment for a signal handler, so none is installed: Ctrl-C ends the process at once, as a second
      // interrupt would, the registered plan is already committed, and the job runs next time.
      // A spec that runs programs (external) keeps a thread free to end them on an interrupt.
      const inline = todoCount === 1 && !((opts.jobTimeout ?? 0) > 0) && programsOf(spec).length === 0;
      // The workers started early are the ones this run needs (every job of the plan, on a new database).
      let activePool: JobRunner;
      if (early && !inline && early.size === workers) activePool = early;
      else {
        await early?.close();
        activePool = inline ? new InlineRunner() : newPool(todoCount);
      }
      pool = activePool;
      if (!inline) {
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
      }
      // Progress counts outcomes once they are stored; the ETA weighs the jobs left by their expected cost,
      // scaled per method by the measured times of its finished jobs (Progress.eta).
      const progress = opts.quiet
        ? undefined
        : new Progress(todoCount, out, 'jobs stored', chosenJobs.todoCostByMethod);
      // The jobs started and not yet stored (at most the workers' and the write queue's): for the progress
      // line's cost and to name a job whose result could not be stored.
      const started = new Map<string, { job: PlannedJob; cost: number; methodIndex: number }>();
      const costOf = jobCostOf();
      const sink = { recordOutcomes: (o: readonly JobOutcome[]) => turns.take(() => store.recordOutcomes(o)) };
      const activeWriter = new OutcomeWriter(sink, {
        holdMs: 1000,
        onStored: (batch) => {
          for (const o of batch) {
            const s = started.get(o.key);
            progress?.tick(o.status === 'done', s?.cost ?? 0, s?.methodIndex, o.preprocessMs + o.trainMs + o.predictMs);
            started.delete(o.key);
          }
        },
        onFailure: () => {
          stopTaking = true;
          void activePool.close();
        },
      });
      writer = activeWriter;
      // Lanes: take a job, run it, hand the outcome to the writer; one per job the pool can hold (a worker is
      // sent short jobs ahead). A lane waits while the write queue is full, so computing never outruns
      // storing by more than the queue's bound.
      const lane = async (): Promise<void> => {
        for (;;) {
          await activeWriter.room();
          if (stopTaking) return;
          const taken = await jobs.next();
          if (!taken) return;
          const { index: i, job } = taken;
          const methodIndex = grid.methodIndexOf(i);
          started.set(job.key, { job, cost: costOf(job, methodIndex), methodIndex });
          const outcome = await activePool.run(payloadOf(plan, job, savePredictions));
          if (outcome.cancelled) {
            started.delete(job.key);
            continue;
          }
          if (outcome.status !== 'done' && opts.failFast) {
            stopTaking = true;
            activePool.stop();
          }
          activeWriter.push(outcome);
        }
      };
      const lanes = activePool instanceof WorkerPool ? Math.min(activePool.capacity, todoCount) : 1;
      await Promise.all(Array.from({ length: lanes }, lane));
      await jobs.stop();
      await activeWriter.flush();
      progress?.finish();
      const failure = activeWriter.failure;
      if (failure) {
        const stored = activeWriter.stored;
        const j = started.get(failure.outcome.key)?.job;
        const job = j
          ? `${j.dataset.handle.name} ${j.method.label} repeat ${j.repeat} fold ${j.fold}`
          : failure.outcome.key;
        throw new StoreError(
          `${dbPath}: storing the result of ${job} failed: ${firstLine(failure.cause.message)}; ` +
            `${stored.done + stored.failed} results stored this run, ${todoCount - stored.done - stored.failed} jobs left for the next run`,
        );
      }
      if (jobs.failure) throw jobs.failure.cause;
    }
    if (opts.rerunStale && stale.length > 0) {
      // The older revision's results leave the experiment's list once the current one's are stored.
      for (let from = 0; from < stale.length; from += REGISTER_CHUNK) {
        const jobs = Array.from(stale.subarray(from, from + REGISTER_CHUNK), (i) => grid.at(i));
        const now = await store.jobStatusesAmong(
          spec.name,
          jobs.map((j) => j.key),
        );
        const replaced = jobs.filter((j) => now.get(j.key) === 'done');
        await store.forgetExperimentJobs(
          spec.name,
          replaced.flatMap((j) => j.olderKeys ?? []),
        );
      }
    }
    await store.unboundMemory();
    const stored = writer?.stored ?? { done: 0, failed: 0 };
    return {
      experiment: spec.name,
      spec,
      plan,
      dbPath,
      total: chosenJobs.inScope,
      alreadyDone,
      ran: stored.done + stored.failed,
      succeeded: stored.done,
      failed: stored.failed,
      previouslyFailed,
      stale: opts.rerunStale ? 0 : stale.length,
      interrupted,
      ...(opts.keepStoreOpen ? { store } : {}),
    };
  } catch (e) {
    failed = true;
    throw storeFailure(dbPath, e);
  } finally {
    favourSpeed();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool?.close();
    await source?.stop();
    if (failed || !opts.keepStoreOpen) store.close();
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0].trim();
}

export function payloadOf(plan: Plan, j: PlannedJob, savePredictions: boolean): JobPayload {
  return {
    key: j.key,
    seed: j.seed,
    dataset: j.dataset.handle,
    ...(isSharedTable(j.dataset.table) ? { table: j.dataset.table } : {}),
    preprocessing: plan.spec.preprocessing,
    splitKey: j.dataset.splitKey,
    repeat: j.repeat,
    assignment: j.dataset.split.assignment[j.repeat],
    fold: j.fold,
    ...jobMethod(j.method),
    savePredictions,
    specDir: plan.spec.dir,
  };
}

/** '10 folds', '5 repeats × 2 folds': the resampling units per dataset × method, as the run header shows them. */
function foldCountText({ repeats, folds }: { repeats: number; folds: number }): string {
  return `${repeats > 1 ? `${repeats} repeats × ` : ''}${folds} fold${folds === 1 ? '' : 's'}`;
}
