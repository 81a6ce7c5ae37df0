/** Progress: a bar with ETA on a terminal, plain periodic lines otherwise (CI logs, files). */
export class Progress {
  private done = 0;
  private failed = 0;
  private readonly start = Date.now();
  private lastPlain = Date.now();
  private lastPlainCount = -1;
  private lastDraw = 0;
  private lastDrawnCount = -1;
  /** Per method: the expected (static) cost of the jobs to run, of those finished, and their measured time. */
  private readonly totalCost: Float64Array | undefined;
  private readonly doneCost: Float64Array | undefined;
  private readonly doneMeasured: Float64Array | undefined;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean },
    private readonly label = 'jobs',
    /**
     * Expected cost of the jobs to run per method (src/spec/cost.ts): with it the ETA weighs each job by its
     * cost, not by count (an HDP kDB-5 job is worth hundreds of NB jobs).
     */
    totalCost?: Float64Array,
  ) {
    if (totalCost !== undefined) {
      this.totalCost = totalCost;
      this.doneCost = new Float64Array(totalCost.length);
      this.doneMeasured = new Float64Array(totalCost.length);
    }
  }

  /**
   * A job finished: its expected cost, its method's index (into the per-method costs) and the time it took
   * (ms; its expected cost when not given).
   */
  tick(ok: boolean, cost = 0, method = 0, measuredMs?: number): void {
    if (ok) this.done++;
    else this.failed++;
    if (this.doneCost && this.doneMeasured && method < this.doneCost.length) {
      this.doneCost[method] += cost;
      this.doneMeasured[method] += measuredMs !== undefined && Number.isFinite(measuredMs) ? measuredMs : cost;
    }
    this.draw(false);
  }

  finish(): void {
    this.draw(true);
    if (this.out.isTTY) this.out.write('\n');
  }

  /**
   * Seconds left. The static cost model ranks a method's jobs by their size but can be off by orders of
   * magnitude in absolute terms and between methods (B-RAI has no formula; SubbKB's grows too fast with the
   * data), so each method's remaining expected cost is scaled by that method's measured ÷ expected time over
   * its finished jobs (the run's overall ratio until one of its jobs has finished), and the time left is the
   * elapsed time × that remaining time ÷ the measured time of the finished jobs. The elapsed time carries the
   * workers' parallelism and the storing; the measured times only weigh the jobs against each other.
   */
  private eta(elapsed: number, finished: number): number {
    if (finished === 0) return NaN;
    const byCount = ((this.total - finished) * elapsed) / finished;
    if (!this.totalCost || !this.doneCost || !this.doneMeasured) return byCount;
    let doneCost = 0;
    let doneMeasured = 0;
    for (let m = 0; m < this.doneCost.length; m++) {
      doneCost += this.doneCost[m];
      doneMeasured += this.doneMeasured[m];
    }
    if (!(doneCost > 0 && doneMeasured > 0)) return byCount;
    const overall = doneMeasured / doneCost;
    let left = 0;
    for (let m = 0; m < this.totalCost.length; m++) {
      const ratio =
        this.doneCost[m] > 0 && this.doneMeasured[m] > 0 ? this.doneMeasured[m] / this.doneCost[m] : overall;
      left += Math.max(0, this.totalCost[m] - this.doneCost[m]) * ratio;
    }
    return (elapsed * left) / doneMeasured;
  }

  private draw(final: boolean): void {
    const finished = this.done + this.failed;
    const elapsed = (Date.now() - this.start) / 1000;
    const eta = this.eta(elapsed, finished);
    const stats = `${finished}/${this.total} ${this.label}${this.failed ? `, ${this.failed} failed` : ''}, ${fmt(elapsed)} elapsed${finished < this.total && Number.isFinite(eta) ? `, ETA ${fmt(eta)}` : ''}`;
    if (this.out.isTTY) {
      const now = Date.now();
      if (!final && now - this.lastDraw < 100) return;
      // The last job's tick already drew the full bar: finish() does not draw it a second time.
      if (final && finished === this.lastDrawnCount) return;
      this.lastDraw = now;
      this.lastDrawnCount = finished;
      const width = 30;
      const filled = this.total ? Math.round((finished / this.total) * width) : width;
      this.out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${stats}\x1b[K`);
    } else {
      const now = Date.now();
      const step = Math.max(1, Math.ceil(this.total / 10));
      if (finished === this.lastPlainCount) return;
      if (final || finished % step === 0 || now - this.lastPlain > 10_000) {
        this.lastPlain = now;
        this.lastPlainCount = finished;
        this.out.write(`progress: ${stats}\n`);
      }
    }
  }
}

export function fmt(s: number): string {
  if (s < 9.95) return `${s.toFixed(1)}s`;
  if (Math.round(s) < 60) return `${Math.round(s)}s`;
  // Rounded to whole seconds first: 299.6 s is 5m0s, not 4m60s.
  const whole = Math.round(s);
  const m = Math.floor(whole / 60);
  return m < 60 ? `${m}m${whole % 60}s` : `${Math.floor(m / 60)}h${m % 60}m`;
}
