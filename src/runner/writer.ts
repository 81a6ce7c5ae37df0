/**
 * The coordinator's write queue: finished outcomes wait here until they are stored, in batches of one
 * transaction each. The queue is bounded: when it is full the coordinator starts no new job (back-pressure),
 * so computed results never pile up in memory faster than the database takes them. A write failure is kept,
 * not thrown into a promise chain: the coordinator reads it, stops, and reports the job and the real cause.
 */
import type { JobOutcome } from '../store/db.js';

/** What the writer needs from the store (ResultStore implements it). */
export interface OutcomeSink {
  recordOutcomes(outcomes: readonly JobOutcome[]): Promise<void>;
}

interface WriteFailure {
  /** The outcome whose write failed (found by writing its batch again one outcome at a time). */
  readonly outcome: JobOutcome;
  readonly cause: Error;
}

interface OutcomeWriterOptions {
  /** Finished outcomes held before the coordinator must wait; default 4,096. */
  readonly maxQueued?: number;
  /** Outcomes per transaction; default 2,048. */
  readonly maxBatch?: number;
  /** Saved prediction rows per transaction (bounds a batch's memory with --save-predictions); default 200,000. */
  readonly maxBatchPredictionRows?: number;
  /**
   * Milliseconds an outcome that arrives while nothing is being written may wait for others to share its
   * transaction; default 0 (write at once). Each transaction costs the store a few milliseconds of CPU
   * whatever its size, so short jobs finishing one by one are cheaper stored a few at a time.
   */
  readonly holdMs?: number;
  /**
   * Held outcomes that end the hold early; default 64. Progress then moves at least every 64 jobs however
   * short they are, and a crash loses at most that many besides the last second's.
   */
  readonly holdCount?: number;
  /** Called after each committed batch, with the outcomes it stored. */
  readonly onStored?: (batch: readonly JobOutcome[]) => void;
  /** Called once, when a write fails. */
  readonly onFailure?: (failure: WriteFailure) => void;
}

export class OutcomeWriter {
  private readonly queue: JobOutcome[] = [];
  private draining: Promise<void> | undefined;
  private holding: NodeJS.Timeout | undefined;
  private roomWaiters: (() => void)[] = [];
  private failure_: WriteFailure | undefined;
  private storedDone = 0;
  private storedFailed = 0;
  private readonly maxQueued: number;
  private readonly maxBatch: number;
  private readonly maxBatchPredictionRows: number;

  constructor(
    private readonly sink: OutcomeSink,
    private readonly opts: OutcomeWriterOptions = {},
  ) {
    this.maxQueued = opts.maxQueued ?? 4096;
    this.maxBatch = opts.maxBatch ?? 2048;
    this.maxBatchPredictionRows = opts.maxBatchPredictionRows ?? 200_000;
  }

  /** The first write failure, if any; after it nothing more is written. */
  get failure(): WriteFailure | undefined {
    return this.failure_;
  }

  /** Outcomes committed to the store: succeeded jobs and failed jobs (recorded with their error). */
  get stored(): { readonly done: number; readonly failed: number } {
    return { done: this.storedDone, failed: this.storedFailed };
  }

  /** Outcomes finished but not yet committed. */
  get queued(): number {
    return this.queue.length;
  }

  /** Hand over a finished outcome. After a failure it is not written (its job runs again next time). */
  push(o: JobOutcome): void {
    if (this.failure_) return;
    this.queue.push(o);
    const hold = this.opts.holdMs ?? 0;
    const enough = Math.min(this.maxBatch, this.opts.holdCount ?? 64);
    if (hold <= 0 || this.draining || this.queue.length >= enough) this.kick();
    else this.holding ??= setTimeout(() => this.kick(), hold);
  }

  /** Resolves when there is room for another outcome (or writing has failed: the caller checks `failure`). */
  room(): Promise<void> {
    if (this.queue.length < this.maxQueued || this.failure_) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Resolves when everything handed over is committed, or writing has failed. Never rejects. */
  async flush(): Promise<void> {
    if (this.holding) this.kick();
    while (this.draining) await this.draining;
  }

  private kick(): void {
    clearTimeout(this.holding);
    this.holding = undefined;
    if (this.draining || this.failure_) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      this.wake();
    });
  }

  private wake(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const w of waiters) w();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.failure_) {
      const batch = this.queue.splice(0, this.batchSize());
      this.wake();
      let error: { e: unknown } | undefined;
      try {
        await this.sink.recordOutcomes(batch);
      } catch (e) {
        error = { e };
      }
      if (error) await this.writeOneByOne(batch, error.e);
      else this.committed(batch);
    }
  }

  /** How many queued outcomes go in the next transaction. */
  private batchSize(): number {
    let rows = 0;
    let n = 0;
    while (n < this.queue.length && n < this.maxBatch) {
      rows += this.queue[n].predictions?.rows.length ?? 0;
      if (n > 0 && rows > this.maxBatchPredictionRows) break;
      n++;
    }
    return n;
  }

  /**
   * A batch failed: write its outcomes one per transaction, so the ones that can be stored are, and the
   * failure names the very outcome that cannot. The first single failure stops the writer.
   */
  private async writeOneByOne(batch: readonly JobOutcome[], batchError: unknown): Promise<void> {
    if (batch.length === 1) return this.fail(batch[0], batchError);
    for (const o of batch) {
      try {
        await this.sink.recordOutcomes([o]);
      } catch (e) {
        return this.fail(o, e);
      }
      this.committed([o]);
    }
  }

  private committed(batch: readonly JobOutcome[]): void {
    for (const o of batch) {
      if (o.status === 'done') this.storedDone++;
      else this.storedFailed++;
    }
    this.opts.onStored?.(batch);
  }

  private fail(outcome: JobOutcome, e: unknown): void {
    this.failure_ = { outcome, cause: e instanceof Error ? e : new Error(String(e)) };
    this.queue.length = 0;
    this.wake();
    this.opts.onFailure?.(this.failure_);
  }
}
