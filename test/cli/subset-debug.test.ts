/**
 * `run --only` (a subset of the grid, stored as usual) and `debug --job` (one job in the foreground, nothing
 * stored), on a small CSV of the user's own, with the data checks' one-line summary `run` prints for it.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { parseSubset } from '../../src/spec/subset.js';

function setup(): string {
  const dir = tempDir('bnclab-subset-');
  const rows = ['x,y,k,cls'];
  for (let i = 0; i < 40; i++) rows.push(`${i % 5},${i % 2 ? 'u' : 'v'},7,${i % 3 === 0 ? 'a' : 'b'}`);
  writeFileSync(join(dir, 'd.csv'), rows.join('\n') + '\n');
  writeFileSync(
    join(dir, 's.yaml'),
    'name: sub\nseed: 1\ndatasets: [d.csv]\npreprocessing: {discretize: mdl}\nresampling: {method: cv, folds: 4}\nstructures: [nb, tan]\nestimators: [dirichlet]\n',
  );
  return dir;
}

describe('parseSubset', () => {
  it('keeps commas inside a method label and collects an axis named twice', () => {
    const s = parseSubset('method=kdb(k=2,x=1)/dirichlet,dataset=a,dataset=b,fold=0-2', '--only');
    expect(s.get('method')).toEqual(['kdb(k=2,x=1)/dirichlet']);
    expect(s.get('dataset')).toEqual(['a', 'b']);
    expect(s.get('fold')).toEqual(['0-2']);
  });
  it('names an unknown axis with a did-you-mean', () => {
    expect(() => parseSubset('flod=1', '--only')).toThrow("unknown axis 'flod' (did you mean 'fold'?)");
    expect(() => parseSubset('fold=x', '--only')).toThrow('expected a number');
  });
});

describe('run --only and debug', () => {
  const dir = setup();
  const db = join(dir, 'sub.duckdb');

  it('runs and stores only the subset; the rest stays pending', () => {
    const r = cli(
      ['run', 's.yaml', '--db', db, '--no-report', '--workers', '1', '--only', 'method=tan/dirichlet,fold=1-2'],
      {
        cwd: dir,
      },
    );
    expect(r.stderr).toContain('--only: 2 jobs');
    expect(r.stderr).toContain('data check: integer-coded: x; constant: k');
    expect(r.code).toBe(0);
    const s = cli(['status', 's.yaml', '--db', db], { cwd: dir });
    expect(s.stdout).toContain('sub: 8 jobs: 2 done, 0 failed, 6 pending');
    const bad = cli(['run', 's.yaml', '--db', db, '--only', 'method=tan/dirichlt'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("no method 'tan/dirichlt' (did you mean 'tan/dirichlet'?)");
  });

  it('debug runs one job, prints timings, metrics and structure, and stores nothing', () => {
    const r = cli(['debug', 's.yaml', '--job', 'method=tan/dirichlet,fold=0'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/repeat 0 fold 0 \(not stored\)/);
    expect(r.stdout).toContain('rows: 30 training, 10 test');
    expect(r.stdout).toMatch(/time: preprocess .* ms, train .* ms, predict .* ms/);
    // TAN: the class is a parent of every attribute, and 2 of the 3 attributes have one more parent.
    expect(r.stdout).toContain('structure: 5 arcs');
    const many = cli(['debug', 's.yaml', '--job', 'method=tan/dirichlet'], { cwd: dir });
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('4 jobs match, debug runs one');
    const s = cli(['status', 's.yaml', '--db', db], { cwd: dir });
    expect(s.stdout).toContain('2 done');
  });
});
