import { afterEach, describe, expect, it, vi } from 'vitest';
import { Progress } from '../../src/runner/progress.js';

describe('progress ETA weighted by expected cost', () => {
  afterEach(() => vi.useRealTimers());

  function run(totalCost: number | undefined): string {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    let text = '';
    const p = new Progress(10, { write: (s: string) => (text += s), isTTY: false }, 'jobs', totalCost);
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
