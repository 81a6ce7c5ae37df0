import { describe, expect, it } from 'vitest';
import { checkDataset, checkLines, checkSummary, checkTable } from '../../src/datasets/checks.js';
import { parseCsv } from '../../src/datasets/csv.js';

/** 60 rows: a constant, an all-missing, an integer-coded, a partly missing and a nearly constant column. */
function awkward(): string {
  const rows = ['age,const,empty,grade,rare,mostly,cls'];
  for (let i = 0; i < 60; i++) {
    const c = i < 30 ? 'a' : i < 58 ? 'b' : 'c';
    rows.push(`${20 + (i % 37)},7,,${1 + (i % 4)},${i % 7 === 0 ? '' : i * 1.5},${i < 59 ? 'x' : 'y'},${c}`);
  }
  return rows.join('\n') + '\n';
}

describe('data checks', () => {
  const table = parseCsv(awkward(), { file: 'awk.csv', name: 'awk' });

  it('finds each kind once, on the right column, with its numbers', () => {
    const checks = checkTable(table, { dataset: 'awk', folds: 10 });
    const found = checks.map((c) => `${c.kind}:${c.column}`);
    expect(found).toEqual([
      'constant:const',
      'all-missing:empty',
      'integer-coded:grade',
      'missing:rare',
      'near-constant:mostly',
      'rare-class:c',
    ]);
    expect(checks.find((c) => c.kind === 'missing')!.what).toContain('9 of 60 rows (15%)');
    expect(checks.find((c) => c.kind === 'rare-class')!.what).toContain(
      '2 rows, fewer than the 10 folds: 8 test folds',
    );
    expect(checks.find((c) => c.kind === 'rare-class')!.fix).toContain('folds: 2');
    expect(checks.find((c) => c.kind === 'integer-coded')!.fix).toContain('categorical: [grade]');
    for (const c of checks) expect(c.fix.length).toBeGreaterThan(0);
  });

  it('says nothing of a class with as many rows as folds, nor of a declared column', () => {
    const checks = checkDataset(table, { name: 'awk', columnTypes: { grade: 'numeric' } }, 2);
    expect(checks.some((c) => c.kind === 'rare-class')).toBe(false);
    expect(checks.some((c) => c.kind === 'integer-coded')).toBe(false);
  });

  it('near-constant follows nearZeroVar: a 19:1 split is not flagged, 20:1 with few values is', () => {
    const rows = (major: number, minor: number): string =>
      ['v,cls', ...Array.from({ length: major }, () => 'x,a'), ...Array.from({ length: minor }, () => 'y,b')].join(
        '\n',
      );
    const at = (major: number, minor: number) =>
      checkTable(parseCsv(rows(major, minor), { file: 't.csv' }), { dataset: 't', folds: 1 }).map((c) => c.kind);
    expect(at(19, 1)).toEqual([]);
    expect(at(20, 1)).toEqual(['near-constant']);
  });

  it('summarises in one line and details with fixes', () => {
    const checks = checkTable(table, { dataset: 'awk', folds: 10 });
    expect(checkSummary('awk', checks)).toBe(
      'awk: data check: constant: const; all-missing: empty; integer-coded: grade; near-constant: mostly; rare-class: c; 1 column with missing values (plan --check-data: details and fixes)',
    );
    expect(checkSummary('awk', [])).toBeUndefined();
    expect(checkLines('awk', checks).filter((l) => l.startsWith('    fix: '))).toHaveLength(checks.length);
  });
});
