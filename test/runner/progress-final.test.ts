import { describe, expect, it } from 'vitest';
import { fmt, Progress } from '../../src/runner/progress.js';

function sink(isTTY: boolean): { out: { write(s: string): boolean; isTTY: boolean }; text: () => string } {
  const parts: string[] = [];
  return {
    out: {
      write: (s: string) => {
        parts.push(s);
        return true;
      },
      isTTY,
    },
    text: () => parts.join(''),
  };
}

describe('progress output', () => {
  it('on a terminal the full bar is drawn once (finish after the last tick does not repeat it)', () => {
    const s = sink(true);
    const p = new Progress(2, s.out);
    p.tick(true);
    p.tick(true); // throttled (within 100 ms of the first draw): finish draws it
    p.finish();
    expect(s.text().match(/2\/2 jobs/g)).toHaveLength(1);
    const s2 = sink(true);
    const p2 = new Progress(1, s2.out);
    p2.tick(true); // drawn at once (first draw)
    p2.finish();
    expect(s2.text().match(/1\/1 jobs/g)).toHaveLength(1);
    expect(s2.text().endsWith('\n')).toBe(true);
  });

  it('in a log the final line is printed once', () => {
    const s = sink(false);
    const p = new Progress(10, s.out);
    for (let i = 0; i < 10; i++) p.tick(i !== 3);
    p.finish();
    expect(s.text().match(/10\/10 jobs, 1 failed/g)).toHaveLength(1);
  });

  it('the clock never prints 60 seconds: values are rounded before they are split', () => {
    expect(fmt(299.6)).toBe('5m0s');
    expect(fmt(59.7)).toBe('1m0s');
    expect(fmt(9.96)).toBe('10s');
    expect(fmt(9.94)).toBe('9.9s');
    expect(fmt(3599.7)).toBe('1h0m');
    expect(fmt(125)).toBe('2m5s');
  });
});
