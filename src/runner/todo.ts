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

export interface TodoCounts {
  /** Jobs in scope (all of the plan, or the shard's, or --only's). */
  readonly inScope: number;
  readonly alreadyDone: number;
  /** Done jobs run again to save their predictions. */
  readonly recomputed: number;
  readonly previouslyFailed: number;
  /** Jobs to run. */
  readonly todoCount: number;
  /** Grid indices of the jobs with only an older revision's result stored. */
  readonly stale: Int32Array;
  /**
   * The jobs to run's static cost (ms) per method (index into spec.methods): the progress line's ETA scales
   * each by the method's measured ratio.
   */
  readonly todoCostByMethod: Float64Array;
}

interface Todo extends TodoCounts {
  /** Grid indices of the jobs to run, in plan order. */
  readonly todo: Int32Array;
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

/** What a job's static cost depends on (JobGrid.placeOf gives it without the job's key). */
type CostedJob = Pick<PlannedJob, 'dataset' | 'repeat' | 'fold' | 'method'>;

/** The static cost of a job (as CostModel.staticCost), memoised per method and fold size. */
export function jobCostOf(): (j: CostedJob, methodIndex: number) => number {
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
  const todoCostByMethod = new Float64Array(plan.spec.methods.length);
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
        const mi = grid.methodIndexOf(from + k);
        todoCostByMethod[mi] += costOf(j, mi);
      }
    }
  }
  return {
    todo: todo.done(),
    todoCount: todo.length,
    inScope,
    alreadyDone,
    recomputed,
    previouslyFailed,
    stale: stale.done(),
    todoCostByMethod,
  };
}

/**
 * Transactions on the store's one connection, one at a time: a chunk's registration and a batch of outcomes
 * take turns (each is BEGIN … COMMIT over several awaits, which must not interleave on one connection).
 */
export class Turns {
  private last: Promise<unknown> = Promise.resolve();

  take<T>(f: () => Promise<T>): Promise<T> {
    const r = this.last.then(f);
    this.last = r.catch(() => undefined);
    return r;
  }
}

/** A job to run: its grid index and the job made from it. */
export interface TodoJob {
  readonly index: number;
  readonly job: PlannedJob;
}

/** The jobs to run, in plan order, one per call; undefined when there are no more. */
export interface JobSource {
  next(): TodoJob | undefined | Promise<TodoJob | undefined>;
  /** Take no more (an interrupt, --fail-fast, a failed write); resolves when nothing is being written. */
  stop(): Promise<void>;
  /** What ended it early, if anything (registering a chunk failed): the run reports it. */
  readonly failure: { readonly cause: unknown } | undefined;
}

/** The jobs registerAndChoose chose, each made again from its grid index when it is taken. */
export function listedJobs(plan: Plan, todo: Int32Array): JobSource {
  const grid = plan.grid!;
  let k = 0;
  let stopped = false;
  return {
    next: () => {
      if (stopped || k >= todo.length) return undefined;
      const index = todo[k++];
      return { index, job: grid.at(index) as PlannedJob };
    },
    stop: async () => {
      stopped = true;
    },
    failure: undefined,
  };
}

/**
 * The counts of a run on a database where no job has finished (a new one, or one whose jobs are all
 * pending): every job in scope runs, none is done, failed or stale, which is what registerAndChoose would
 * find. Read from the grid without making a key, or from the plan's list when a shard or --only chooses
 * the jobs (they build it anyway).
 */
export function freshCounts(plan: Plan, inScope?: (j: PlannedJob) => boolean): TodoCounts {
  const grid = plan.grid!;
  const costOf = jobCostOf();
  let n = 0;
  const byMethod = new Float64Array(plan.spec.methods.length);
  if (inScope) {
    const jobs = plan.jobs;
    for (let i = 0; i < jobs.length; i++) {
      if (!inScope(jobs[i])) continue;
      n++;
      const mi = grid.methodIndexOf(i);
      byMethod[mi] += costOf(jobs[i], mi);
    }
  } else {
    for (let i = 0; i < grid.size; i++) {
      const place = grid.placeOf(i);
      byMethod[place.methodIndex] += costOf(place, place.methodIndex);
    }
    n = grid.size;
  }
  return {
    inScope: n,
    todoCount: n,
    alreadyDone: 0,
    recomputed: 0,
    previouslyFailed: 0,
    stale: new Int32Array(0),
    todoCostByMethod: byMethod,
  };
}

/**
 * Jobs registered per transaction while jobs run: smaller than REGISTER_CHUNK, since the coordinator's
 * event loop is held while a chunk is appended, and the workers' queues must not run dry meanwhile.
 */
export const STREAM_CHUNK = 2048;
/** The first chunk is smaller: the first job waits for it alone. */
const FIRST_STREAM_CHUNK = 256;
/** Keys made between two turns of the event loop (about 5 ms of work). */
const KEYS_PER_TURN = 256;

/**
 * The jobs of a plan on a database where none has finished (freshCounts), registered a chunk at a time while
 * the first ones run: a chunk is made from the grid (each key once), registered in one transaction, in turn
 * with the writer's batches (Turns), and its jobs handed out; the next chunk is registered while these run,
 * so at most two chunks of jobs are held. A job runs only once its registration is committed, so every
 * stored outcome has its row; a run stopped midway leaves the rest unregistered, and the next run registers
 * them as the first run would have.
 */
export class StreamedJobs implements JobSource {
  private readonly chunks: TodoJob[][] = [];
  /** The next job of chunks[0]. */
  private at = 0;
  private buffered = 0;
  /** The first grid index not yet registered. */
  private from = 0;
  private registering: Promise<void> | undefined;
  private stopped = false;
  failure: { readonly cause: unknown } | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly store: ResultStore,
    private readonly rowOf: (j: PlannedJob) => JobRow,
    private readonly version: string,
    private readonly turns: Turns,
    private readonly inScope?: (j: PlannedJob) => boolean,
  ) {}

  next(): TodoJob | undefined | Promise<TodoJob | undefined> {
    const chunk = this.chunks[0];
    if (chunk) {
      const t = chunk[this.at++];
      if (this.at === chunk.length) {
        this.chunks.shift();
        this.at = 0;
      }
      this.buffered--;
      this.fill();
      return t;
    }
    if (this.stopped || this.failure) return undefined;
    this.fill();
    const registering = this.registering;
    return registering ? registering.then(() => this.next()) : undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.chunks.length = 0;
    await this.registering;
  }

  /** Start registering the next chunk when fewer than a chunk of registered jobs wait. */
  private fill(): void {
    if (this.registering || this.stopped || this.failure || this.from >= this.plan.grid!.size) return;
    if (this.buffered >= STREAM_CHUNK) return;
    this.registering = this.registerNext()
      .catch((cause: unknown) => {
        this.failure = { cause };
      })
      .finally(() => {
        this.registering = undefined;
      });
  }

  private async registerNext(): Promise<void> {
    const grid = this.plan.grid!;
    const from = this.from;
    const to = Math.min(grid.size, from + (from === 0 ? FIRST_STREAM_CHUNK : STREAM_CHUNK));
    this.from = to;
    const jobs: PlannedJob[] = [];
    for (let i = from; i < to; i++) {
      jobs.push(grid.at(i) as PlannedJob);
      if ((i - from) % KEYS_PER_TURN === KEYS_PER_TURN - 1) await new Promise((r) => setImmediate(r));
    }
    await this.turns.take(() => this.store.registerJobs(this.plan.spec.name, jobs.map(this.rowOf), this.version));
    // The whole plan registered: fold the write-ahead log into the file, so the .duckdb file alone holds it.
    if (to === grid.size) await this.turns.take(() => this.store.checkpoint());
    if (this.stopped) return;
    const ready: TodoJob[] = [];
    for (let k = 0; k < jobs.length; k++) {
      if (!this.inScope || this.inScope(jobs[k])) ready.push({ index: from + k, job: jobs[k] });
    }
    if (ready.length > 0) {
      this.chunks.push(ready);
      this.buffered += ready.length;
    }
  }
}
