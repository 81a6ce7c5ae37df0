/** What the user reads from the command line: short lines with a suggestion, and no crash on a closed pipe. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, CLI, ROOT, tempDir } from '../helpers/cli.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');

describe('command-line messages', () => {
  it('a mistyped option suggests the right one, in one line', () => {
    const r = cli(['run', SMALL, '--worker', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^bnclab: run: unknown option --worker \(did you mean --workers\?\); usage: bnclab run/);
  });

  it('an unknown group suggests groups, not data sets', () => {
    const r = cli(['datasets', '--group', 'tiny']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `bnclab: unknown data set group 'tiny'; groups: quickstart, hdp68, subbkb, small, medium, large`,
    );
  });

  it('a mistyped spec field suggests the right one', () => {
    const dir = tempDir();
    const spec = join(dir, 'fold.yaml');
    writeFileSync(
      spec,
      'name: x\ndatasets: [iris]\nresampling: {fold: 5}\nstructures: [nb]\nestimators: [dirichlet]\n',
    );
    const r = cli(['plan', spec]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`bnclab: ${spec}:3:14: resampling.fold: unknown field (did you mean 'folds'?)`);
  });

  it('`bnclab run … | head -1` finishes the run and stores every job (no EPIPE crash)', () => {
    const dir = tempDir();
    const db = join(dir, 'pipe.duckdb');
    const r = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" "${CLI}" run "${SMALL}" --db "${db}" --workers 2 --quiet | head -c 1`],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    expect(r.stderr).not.toMatch(/EPIPE|internal error/);
    const again = cli(['run', SMALL, '--db', db, '--no-report'], { cwd: dir });
    expect(again.stderr).toContain('30 already done, 0 to run');
  });
});
