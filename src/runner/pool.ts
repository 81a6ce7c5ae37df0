/**
 * A pool of worker threads. Each worker runs one job at a time; short jobs are sent a few ahead (see
 * MAX_DEPTH), so a worker does not wait for the coordinator between them. A job that exceeds its time limit
 * or crashes its worker is recorded as an error and the worker is replaced; the jobs sent ahead to it run on
 * another, so the other jobs go on.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { JobOutcome } from '../store/db.js';
import { cancelledOutcome, SENT_ONCE, type JobPayload, type SentOnce } from './job.js';
import { packageRoot } from '../util/paths.js';
import { endGroups, forgetOwners, GROUP_GRACE_MS, listedGroups, shutStarts } from '../util/process-groups.js';

/** What the coordinator needs of a job runner: the worker pool, or InlineRunner for a run of one job. */
export interface JobRunner {
  run(payload: JobPayload): Promise<JobOutcome>;
  /** Start no more jobs: queued ones resolve at once as cancelled; running ones finish. */
  stop(): void;
  /** Stop and terminate the running jobs too (their outcomes resolve as cancelled). */
  close(): Promise<void>;
}

/**
 * The built worker script, by its place in the package: tests import the TypeScript sources, and the CLI
 * runs a bundle (util/bundle.ts), but threads always start dist/src/runner/worker.js, which loads the bundle.
 */
function workerScript(): string {
  const built = join(packageRoot(), 'dist', 'src', 'runner', 'worker.js');
  if (!existsSync(built)) throw new Error(`worker script ${built} is missing: run 'npm run build'`);
  return built;
}

/** A job handed to the pool: waiting for a worker, or sent to one. */
interface Entry {
  readonly payload: JobPayload;
  readonly resolve: (o: JobOutcome) => void;
  /** When the pool learned the job could start (sent to an idle worker, or the job before it finished). */
  started: number;
}

interface Slot {
  worker: Worker;
  /** Jobs sent to this worker, in order: the first is running, the others wait in its message queue. */
  readonly queue: Entry[];
  /** Payload members (by id) this worker has received: later payloads name them instead of carrying them. */
  readonly received: Set<number>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Jobs sent to a worker ahead of the one it runs, when jobs are short: the worker never waits for the
 * coordinator's event loop (which also stores results) between two jobs. A job queued behind a long one
 * would wait while another worker idles, so the depth follows the mean time of the jobs seen so far.
 */
const MAX_DEPTH = 16;
const AHEAD_MS = 40;

/**
 * Each worker's young generation (V8's default here is 32 MB of semi-spaces): a job's own objects are small
 * (its rows are typed arrays, outside it), and the default's pages stayed resident, about 24 MB a worker of
 * the process's peak. Old objects, and so large folds, are not bounded by it.
 */
const WORKER_YOUNG_MB = 8;

/** What a worker sends the coordinator: once, that its code is loaded; then each job's outcome. */
export type WorkerMessage = { readonly type: 'ready' } | { readonly type: 'outcome'; readonly outcome: JobOutcome };

/** What the coordinator sends a worker (src/runner/worker-thread.ts): a job, its shared members named once sent. */
export interface JobMessage {
  readonly type: 'job';
  /**
   * The payload's members; a member of SENT_ONCE the worker has received is undefined here and named in `ids`
   * (a plain record: the members of SENT_ONCE differ between the kinds of JobPayload).
   */
  readonly payload: { readonly key: string } & Readonly<Record<string, unknown>>;
  /** Each SENT_ONCE member's id: the worker keeps a member sent with its id, and fills one left out by it. */
  readonly ids: Partial<Record<SentOnce, number>>;
}

export class WorkerPool implements JobRunner {
  private readonly slots: Slot[] = [];
  private readonly pendingJobs: Entry[] = [];
  private closed = false;
  /** Set by stop(): queued jobs resolve as cancelled without running; workers skip the jobs sent ahead. */
  private stopped = false;
  /** Shared with every worker: 1 after stop(), so a job sent ahead is answered as cancelled, not run. */
  private readonly stopFlag = new Int32Array(new SharedArrayBuffer(4));
  private readonly memberIds = new WeakMap<object, number>();
  private nextMemberId = 1;
  /** Mean job time (ms) seen by the pool, for the depth. */
  private meanMs = AHEAD_MS;
  private seen = 0;

  /**
   * Workers of the first `size` whose code is loaded (their isolates made, the bundle's chunks compiled from
   * V8's code cache, which V8 takes only under the flags it was made with: util/bundle.ts).
   */
  private ready = 0;

  constructor(
    readonly size: number,
    private readonly jobTimeoutMs: number,
    /** Called once, when the first `size` workers are all ready (the run then favours memory: util/v8-memory.ts). */
    private readonly onAllReady?: () => void,
  ) {
    // A timer longer than 2³¹−1 ms fires at once: every job would fail as "timed out".
    if (!(jobTimeoutMs >= 0 && jobTimeoutMs <= 2 ** 31 - 1))
      throw new RangeError(`job timeout ${jobTimeoutMs} ms is outside 0..2147483647`);
  }

  /** Start every worker now, before the first job (they load their code meanwhile); dispatch starts them otherwise. */
  startWorkers(): void {
    while (this.slots.length < this.size && !this.stopped) this.startWorker();
  }

  run(payload: JobPayload): Promise<JobOutcome> {
    if (this.stopped) return Promise.resolve(cancelled(payload));
    return new Promise<JobOutcome>((resolve) => {
      this.pendingJobs.push({ payload, resolve, started: 0 });
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker. */
  get pending(): number {
    return this.pendingJobs.length;
  }

  /** Jobs the pool can take without any worker waiting for the coordinator: what a caller keeps in flight. */
  get capacity(): number {
    return this.size * MAX_DEPTH;
  }

  /** Start no more jobs: queued ones resolve at once as cancelled; running ones finish. */
  stop(): void {
    this.stopped = true;
    Atomics.store(this.stopFlag, 0, 1);
    for (const e of this.pendingJobs.splice(0)) e.resolve(cancelled(e.payload));
  }

  /** Stop and terminate the running jobs too (their outcomes resolve as cancelled). */
  async close(): Promise<void> {
    this.stop();
    this.closed = true;
    // Programs the jobs started (the external baseline) end with them: SIGTERM, SIGKILL after a grace period.
    await Promise.all(this.slots.map((s) => this.endWorker(s.worker)));
    for (const s of this.slots) this.settle(s, (p) => cancelled(p));
    this.slots.length = 0;
  }

  /**
   * Ends a worker (replaced by another, or the pool closing) and the programs its jobs started: none starts
   * from now on, and one starting now is listed before the list is read (util/process-groups.ts).
   */
  private async endWorker(worker: Worker): Promise<void> {
    const owner = worker.threadId;
    await shutStarts([owner]);
    await Promise.all([endGroups(listedGroups(owner), GROUP_GRACE_MS), worker.terminate()]);
    forgetOwners([owner]);
  }

  /**
   * How many jobs a worker may hold. A job's time limit starts when the pool learns that the job before it
   * ended (a message's delay later than it started: only in its favour), so a limit under a second keeps one.
   */
  private depth(): number {
    if (this.jobTimeoutMs > 0 && this.jobTimeoutMs < 1000) return 1;
    return Math.max(1, Math.min(MAX_DEPTH, Math.floor(AHEAD_MS / Math.max(this.meanMs, 1e-3))));
  }

  /** Hand waiting jobs to the workers with room, starting a worker where there are fewer than `size`. */
  private dispatch(): void {
    if (this.stopped) return;
    const depth = this.depth();
    while (this.pendingJobs.length > 0) {
      let slot: Slot | undefined;
      // The least loaded worker (an idle one first), else a new worker while there are fewer than `size`.
      for (const s of this.slots) if (s.queue.length < depth && (!slot || s.queue.length < slot.queue.length)) slot = s;
      if ((!slot || slot.queue.length > 0) && this.slots.length < this.size) slot = this.startWorker();
      if (!slot) return;
      const entry = this.pendingJobs.shift()!;
      this.send(slot, entry);
    }
  }

  private startWorker(): Slot {
    const slot: Slot = {
      worker: new Worker(workerScript(), {
        workerData: { stopFlag: this.stopFlag },
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
      }),
      queue: [],
      received: new Set(),
      timer: undefined,
    };
    slot.worker.unref();
    slot.worker.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'outcome') this.onOutcome(slot, msg.outcome);
      else if (++this.ready === this.size) this.onAllReady?.();
    });
    slot.worker.on('error', (e: Error) => this.onBroken(slot, `worker crashed: ${e.message}`));
    slot.worker.on('exit', (code: number) => this.onBroken(slot, `worker exited with code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  private send(slot: Slot, entry: Entry): void {
    slot.queue.push(entry);
    if (slot.queue.length === 1) this.startClock(slot);
    // Left out as undefined, not deleted: the copy keeps the payload's shape, which V8 serializes faster.
    const payload: Record<string, unknown> = { ...entry.payload };
    const ids: Partial<Record<SentOnce, number>> = {};
    const members = entry.payload as Partial<Record<SentOnce, object>>;
    for (const member of SENT_ONCE) {
      const value = members[member];
      if (value === undefined) continue;
      let id = this.memberIds.get(value);
      if (id === undefined) {
        id = this.nextMemberId++;
        this.memberIds.set(value, id);
      }
      ids[member] = id;
      if (slot.received.has(id)) payload[member] = undefined;
      else slot.received.add(id);
    }
    const msg: JobMessage = { type: 'job', payload: payload as JobMessage['payload'], ids };
    slot.worker.postMessage(msg);
  }

  /** The first job of the slot's queue has started (as far as the pool knows): its time limit runs. */
  private startClock(slot: Slot): void {
    const head = slot.queue[0];
    if (!head) return;
    head.started = Date.now();
    if (this.jobTimeoutMs > 0) {
      clearTimeout(slot.timer);
      const limit = this.jobTimeoutMs;
      slot.timer = setTimeout(
        () => this.onBroken(slot, `timed out after ${Number((limit / 1000).toPrecision(3))} s (--job-timeout)`),
        limit,
      );
    }
  }

  private onOutcome(slot: Slot, outcome: JobOutcome): void {
    const head = slot.queue.shift();
    if (!head) return;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    const ms = outcome.preprocessMs + outcome.trainMs + outcome.predictMs;
    if (!outcome.cancelled && Number.isFinite(ms)) {
      this.seen++;
      this.meanMs += (ms - this.meanMs) / Math.min(this.seen, 64);
    }
    this.startClock(slot);
    // After close() (an interrupt) a job whose program was ended reports that as its failure: it is
    // cancelled instead, and runs next time.
    head.resolve(this.closed ? cancelled(head.payload) : outcome);
    this.dispatch();
  }

  /**
   * The slot's worker crashed, exited or overran its job's time limit: the job it was running fails (or is
   * cancelled after close()), the worker is replaced, and the jobs sent ahead to it go back to the front of
   * the queue: they had not started.
   */
  private onBroken(slot: Slot, why: string): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return; // already handled (an error is followed by an exit)
    this.slots.splice(i, 1);
    clearTimeout(slot.timer);
    void this.endWorker(slot.worker);
    const head = slot.queue.shift();
    if (head)
      head.resolve(this.closed ? cancelled(head.payload) : failed(head.payload, why, Date.now() - head.started));
    if (this.stopped) this.settle(slot, (p) => cancelled(p));
    else this.pendingJobs.unshift(...slot.queue.splice(0));
    this.dispatch();
  }

  /** Resolve every job still held by the slot. */
  private settle(slot: Slot, outcome: (p: JobPayload) => JobOutcome): void {
    clearTimeout(slot.timer);
    for (const e of slot.queue.splice(0)) e.resolve(outcome(e.payload));
  }
}

function cancelled(p: JobPayload): JobOutcome {
  return cancelledOutcome(p.key);
}

function failed(p: JobPayload, error: string, ms = 0): JobOutcome {
  return { key: p.key, status: 'error', error, preprocessMs: 0, trainMs: ms, predictMs: 0 };
}

/**
 * Runs jobs in this thread, one at a time. A worker thread costs a second start of Node and a second load of
 * every learner module (about 0.1 s of CPU) before its job begins, so a run of one job without a time limit
 * is cheaper here; the coordinator takes it only then (a time limit needs a thread it can terminate). The
 * job is the same code on the same payload, so its outcome is the worker's, bit for bit.
 */
export class InlineRunner implements JobRunner {
  private stopped = false;

  async run(payload: JobPayload): Promise<JobOutcome> {
    if (this.stopped) return cancelled(payload);
    // Loaded here, not at the top: a run on worker threads never loads the learners in this thread.
    const { executeJob } = await import('./execute.js');
    return executeJob(payload);
  }

  stop(): void {
    this.stopped = true;
  }

  async close(): Promise<void> {
    this.stopped = true;
  }
}
