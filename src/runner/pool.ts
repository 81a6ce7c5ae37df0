/**
 * A pool of worker threads. Jobs in flight are bounded with p-limit (one per worker); a job that exceeds
 * its time limit or crashes its worker is recorded as an error and the worker is replaced, so the other
 * jobs go on.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { JobOutcome } from '../store/db.js';
import type { JobPayload } from './job.js';
import { packageRoot } from '../util/paths.js';
import { endGroups, GROUP_GRACE_MS, listedGroups } from '../util/process-groups.js';

/** What the coordinator needs of a job runner: the worker pool, or InlineRunner for a run of one job. */
export interface JobRunner {
  run(payload: JobPayload): Promise<JobOutcome>;
  /** Start no more jobs: queued ones resolve at once as cancelled; running ones finish. */
  stop(): void;
  /** Stop and terminate the running jobs too (their outcomes resolve as cancelled). */
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

/**
 * The built worker script, by its place in the package: tests import the TypeScript sources, and the CLI
 * runs a bundle whose chunks are not beside worker.js, but threads always run dist/src/runner/worker.js.
 */
function workerScript(): string {
  const built = join(packageRoot(), 'dist', 'src', 'runner', 'worker.js');
  if (!existsSync(built)) throw new Error(`worker script ${built} is missing: run 'npm run build'`);
  return built;
}

export class WorkerPool implements JobRunner {
  private readonly slots: Slot[] = [];
  private readonly limit: ReturnType<typeof pLimit>;
  private closed = false;
  /** Set by stop(): queued jobs resolve as cancelled without running. */
  private stopped = false;

  constructor(
    readonly size: number,
    private readonly jobTimeoutMs: number,
  ) {
    // A timer longer than 2³¹−1 ms fires at once: every job would fail as "timed out".
    if (!(jobTimeoutMs >= 0 && jobTimeoutMs <= 2 ** 31 - 1))
      throw new RangeError(`job timeout ${jobTimeoutMs} ms is outside 0..2147483647`);
    this.limit = pLimit(size);
  }

  run(payload: JobPayload): Promise<JobOutcome> {
    return this.limit(() => this.runOnSlot(payload));
  }

  /** Jobs waiting for a worker. */
  get pending(): number {
    return this.limit.pendingCount;
  }

  /** Start no more jobs: queued ones resolve at once as cancelled; running ones finish. */
  stop(): void {
    this.stopped = true;
  }

  /** Stop and terminate the running jobs too (their outcomes resolve as cancelled). */
  async close(): Promise<void> {
    this.stopped = true;
    this.closed = true;
    // Programs the jobs started (the external baseline) end with them: SIGTERM, SIGKILL after a grace period.
    await Promise.all(this.slots.map((s) => endGroups(listedGroups(s.worker.threadId), GROUP_GRACE_MS)));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots.length = 0;
  }

  private acquire(): Slot {
    let slot = this.slots.find((s) => !s.busy);
    if (!slot) {
      slot = { worker: new Worker(workerScript()), busy: false };
      slot.worker.unref();
      this.slots.push(slot);
    }
    slot.busy = true;
    return slot;
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    void endGroups(listedGroups(slot.worker.threadId), GROUP_GRACE_MS);
    void slot.worker.terminate();
  }

  private runOnSlot(payload: JobPayload): Promise<JobOutcome> {
    if (this.stopped) return Promise.resolve(cancelled(payload));
    const slot = this.acquire();
    return new Promise<JobOutcome>((resolve) => {
      const started = Date.now();
      const finish = (o: JobOutcome, broken: boolean): void => {
        clearTimeout(timer);
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
        if (broken) this.replace(slot);
        else slot.busy = false;
        resolve(o);
      };
      // After close() (an interrupt) a job whose program was ended reports that as its failure: it is
      // cancelled instead, and runs next time.
      const onMessage = (msg: { type: 'outcome'; outcome: JobOutcome }): void =>
        finish(this.closed ? cancelled(payload) : msg.outcome, false);
      const onError = (e: Error): void =>
        finish(failed(payload, `worker crashed: ${e.message}`, Date.now() - started), true);
      const onExit = (code: number): void =>
        finish(
          this.closed ? cancelled(payload) : failed(payload, `worker exited with code ${code}`, Date.now() - started),
          true,
        );
      const timer =
        this.jobTimeoutMs > 0
          ? setTimeout(
              () =>
                finish(
                  failed(
                    payload,
                    `timed out after ${Number((this.jobTimeoutMs / 1000).toPrecision(3))} s (--job-timeout)`,
                    Date.now() - started,
                  ),
                  true,
                ),
              this.jobTimeoutMs,
            )
          : undefined;
      slot.worker.on('message', onMessage);
      slot.worker.on('error', onError);
      slot.worker.on('exit', onExit);
      slot.worker.postMessage({ type: 'job', payload });
    });
  }
}

function cancelled(p: JobPayload): JobOutcome {
  return {
    key: p.key,
    status: 'error',
    cancelled: true,
    error: 'cancelled',
    preprocessMs: 0,
    trainMs: 0,
    predictMs: 0,
  };
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
