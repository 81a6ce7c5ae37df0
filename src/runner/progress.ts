/** Progress: a bar with ETA on a terminal, plain periodic lines otherwise (CI logs, files). */
export class Progress {
  private done = 0;
  private failed = 0;
  private readonly start = Date.now();
  private lastPlain = Date.now();
  private lastPlainCount = -1;
  private lastDraw = 0;
  /** Expected cost of the finished jobs (src/spec/cost.ts), when the caller gave a total to weigh by. */
  private doneCost = 0;
  private lastDrawnCount = -1;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean },
    private readonly label = 'jobs',
    /** Total expected cost: with it the ETA weighs each job by its cost, not by count (an HDP kDB-5 job is worth hundreds of NB jobs). */
    private readonly totalCost?: number,
  ) {}

  tick(ok: boolean, cost = 0): void {
    if (ok) this.done++;
    else this.failed++;
    this.doneCost += cost;
    this.draw(false);
  }

  finish(): void {
    this.draw(true);
    if (this.out.isTTY) this.out.write('\n');
  }

  private draw(final: boolean): void {
    const finished = this.done + this.failed;
    const elapsed = (Date.now() - this.start) / 1000;
    const rate = finished / Math.max(elapsed, 1e-3);
    const eta =
      this.totalCost && this.doneCost > 0
        ? (elapsed * Math.max(0, this.totalCost - this.doneCost)) / this.doneCost
        : finished > 0
          ? (this.total - finished) / rate
          : NaN;
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
