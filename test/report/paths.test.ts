import { describe, expect, it } from 'vitest';
import { reportPath } from '../../src/report/paths.js';

describe('report paths', () => {
  it('relative inside the working folder, the file name alone outside it; never absolute', () => {
    expect(reportPath('/home/someone/study/results/q.duckdb', '/home/someone/study')).toBe('results/q.duckdb');
    expect(reportPath('results/q.duckdb', '/home/someone/study')).toBe('results/q.duckdb');
    expect(reportPath('/tmp/other/q.duckdb', '/home/someone/study')).toBe('q.duckdb');
    expect(reportPath('../x/spec.yaml', '/home/someone/study')).toBe('spec.yaml');
  });
});
