/**
 * Registering a plan's jobs and choosing the ones to run, a chunk of the job grid at a time: each chunk's jobs
 * are made from their grid indices (src/spec/job-grid.ts), registered in one transaction, and their statuses
 * (and those of their older revisions' keys) read for that chunk alone. What is kept is counts and the grid
 * indices of the jobs to run (4 bytes each), never a job object or a status per job of the whole plan.
 */
import type { Plan, PlannedJob } from '../spec/plan.js';
import { staticCostMs } from '../spec/cost.js';
import type { JobRow, ResultStore } from '../store/db.js';

/** Jobs registered and looked up per transaction. */
export const REGISTER_CHUNK = 8192;

interface TodoOptions {
  readonly rerunFailed?: boolean;
  readonly rerunStale?: boolean;
  /** The jobs this process may run (a shard, `--only`); every job of the plan is registered either way. */
  readonly inScope?: (j: PlannedJob) => boolean;
  /** With --save-predictions: the keys that have saved predictions (a done job without them runs again). */
  readonly predicted?: ReadonlySet<string>;
}

interface Todo {
  /** Grid indices of the jobs to run, in plan order. */
  readonly todo: Int32Array;
  /** Jobs in scope (all of the plan, or the shard's, or --only's). */
  readonly inScope: number;
  readonly alreadyDone: number;
  /** Done jobs run again to save their predictions. */
  readonly recomputed: number;
  readonly previouslyFailed: number;
  /** Grid indices of the jobs with only an older revision's result stored. */
  readonly stale: Int32Array;
  /** The jobs to run's total static cost (ms; the progress line's ETA weighs by it). */
  readonly todoCost: number;
}

/** A growable list of int32 (the todo list of 10⁶ jobs is 4 MB). */
class IntList {
  private a = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length++] = v;
  }
  done(): Int32Array {
    return this.a.slice(0, this.length);
  }
}

/** The static cost of a job (as CostModel.staticCost), memoised per method and fold size. */
export function jobCostOf(): (j: PlannedJob, methodIndex: number) => number {
  const cache = new Map<string, number>();
  return (j, mi) => {
    const { train, test } = j.dataset.foldSizes[j.repeat][j.fold];
    const id = `${mi}/${train}/${test}/${j.dataset.attributes}/${j.dataset.classes}`;
    let ms = cache.get(id);
    if (ms === undefined) {
      ms = staticCostMs(j.method, {
        nTrain: train,
        nTest: test,
        attributes: j.dataset.attributes,
        classes: j.dataset.classes,
      }).ms;
      cache.set(id, ms);
    }
    return ms;
  };
}

/**
 * Register every job of the plan (pending unless already known) and choose those to run: not done (or done
 * without the predictions --save-predictions asks for), not failed before unless rerunFailed, not stale
 * unless rerunStale. The same rules, job by job, as when the whole list was read at once.
 */
export async function registerAndChoose(
  plan: Plan,
  store: ResultStore,
  rowOf: (j: PlannedJob) => JobRow,
  version: string,
  opts: TodoOptions,
): Promise<Todo> {
  const grid = plan.grid!;
  const todo = new IntList();
  const stale = new IntList();
  const costOf = jobCostOf();
  let inScope = 0;
  let alreadyDone = 0;
  let recomputed = 0;
  let previouslyFailed = 0;
  let todoCost = 0;
  for (let from = 0; from < grid.size; from += REGISTER_CHUNK) {
    const to = Math.min(grid.size, from + REGISTER_CHUNK);
    const jobs: PlannedJob[] = [];
    for (let i = from; i < to; i++) jobs.push(grid.at(i) as PlannedJob);
    await store.registerJobs(plan.spec.name, jobs.map(rowOf), version);
    const keys = jobs.flatMap((j) => (j.olderKeys ? [j.key, ...j.olderKeys] : [j.key]));
    const statuses = await store.jobStatusesAmong(plan.spec.name, keys);
    const isDone = (k: string): boolean => statuses.get(k) === 'done';
    for (let k = 0; k < jobs.length; k++) {
      const j = jobs[k];
      if (opts.inScope && !opts.inScope(j)) continue;
      inScope++;
      const s = statuses.get(j.key);
      const repredict = opts.predicted !== undefined && !opts.predicted.has(j.key);
      // A result of an older revision of the method is kept, not silently replaced: --rerun-stale recomputes it.
      const isStale = j.olderKeys !== undefined && !isDone(j.key) && j.olderKeys.some(isDone);
      if (isStale) stale.push(from + k);
      if (s === 'done') {
        if (repredict) recomputed++;
        else alreadyDone++;
      }
      if (s === 'error' && !opts.rerunFailed) previouslyFailed++;
      const run = isStale && !opts.rerunStale ? false : s === 'done' ? repredict : s !== 'error' || opts.rerunFailed;
      if (run) {
        todo.push(from + k);
        todoCost += costOf(j, grid.methodIndexOf(from + k));
      }
    }
  }
  return {
    todo: todo.done(),
    inScope,
    alreadyDone,
    recomputed,
    previouslyFailed,
    stale: stale.done(),
    todoCost,
  };
}
