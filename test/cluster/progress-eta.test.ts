import { afterEach, describe, expect, it, vi } from 'vitest';
import { Progress } from '../../src/runner/progress.js';

describe('progress ETA weighted by expected cost', () => {
  afterEach(() => vi.useRealTimers());

  function run(totalCost: number | undefined): string {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    let text = '';
    const p = new Progress(
      10,
      { write: (s: string) => (text += s), isTTY: false },
      'jobs',
      totalCost === undefined ? undefined : Float64Array.of(totalCost),
    );
    vi.setSystemTime(new Date('2026-01-01T00:00:10Z'));
    // The first job (cost 1 of 100) took 10 s: 99 cost units are left.
    p.tick(true, 1);
    return text;
  }

  it('extrapolates from the cost done, not the count done', () => {
    // By count: 9 jobs left at 10 s each = 90 s. By cost: 99 units at 10 s per unit = 990 s = 16m30s.
    expect(run(100)).toContain('ETA 16m30s');
    expect(run(undefined)).toContain('ETA 1m30s');
  });
});

describe('progress ETA scaled per method by measured times', () => {
  afterEach(() => vi.useRealTimers());

  /** Ten jobs of method 0 expected at 10 ms each, ten of method 1 expected at 1 ms each. */
  function line(ticks: [cost: number, method: number, measuredMs: number][], seconds: number): string {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    let text = '';
    const p = new Progress(20, { write: (s: string) => (text += s), isTTY: false }, 'jobs', Float64Array.of(100, 10));
    vi.setSystemTime(new Date(Date.parse('2026-01-01T00:00:00Z') + seconds * 1000));
    for (const [cost, method, ms] of ticks) p.tick(true, cost, method, ms);
    return text.trim().split('\n').at(-1) ?? '';
  }

  it('weighs a method whose jobs take far longer than expected by its own measured ratio', () => {
    // Method 0 as expected (5 jobs: 50 of 50 ms), method 1 100× (1 job: 100 ms for 1 expected); 15 s elapsed
    // for 150 measured ms. Left: 50 × 1 + 9 × 100 = 950 ms of measured time, so 15 s × 950 / 150 = 95 s. By
    // expected cost alone (59 of 110 left, 51 done) it would be 17 s, by count (14 of 20) 35 s.
    const ticks: [number, number, number][] = [
      ...Array.from({ length: 5 }, () => [10, 0, 10] as [number, number, number]),
      [1, 1, 100],
    ];
    expect(line(ticks, 15)).toContain('ETA 1m35s');
  });

  it("uses the run's overall ratio for a method none of whose jobs has finished", () => {
    // One job of method 0 took 20 ms for 10 expected (ratio 2): left 90 × 2 + 10 × 2 = 200 ms; 11 s × 200 / 20 = 110 s.
    // (A plain line is written every 10 s or every tenth of the jobs: 11 s.)
    expect(line([[10, 0, 20]], 11)).toContain('ETA 1m50s');
  });
});
