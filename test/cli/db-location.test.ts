/**
 * status and report from another folder: results/ is relative to the working folder, so they name the file
 * they looked for, and status reads the database beside the spec (it showed a finished run as all pending).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';

describe('finding the database of a spec', () => {
  it('status reads the database beside the spec, report and export say where to find it, a mistyped --db is named', () => {
    const root = tempDir('bnclab-where-');
    const specDir = join(root, 'exp');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(specDir);
    mkdirSync(elsewhere);
    const spec = join(specDir, 'w.yaml');
    writeFileSync(
      spec,
      `name: where\nseed: 1\ndatasets: [iris]\nresampling: { folds: 3 }\nstructures: [nb]\nestimators: [dirichlet]\n`,
    );
    expect(cli(['run', spec, '--no-report', '--quiet'], { cwd: specDir }).code).toBe(0);
    const db = join(specDir, 'results', 'where.duckdb');
    const here = join(elsewhere, 'results', 'where.duckdb');

    const st = cli(['status', spec], { cwd: elsewhere });
    expect(st.code).toBe(0);
    expect(st.stdout).toContain(`${here}: does not exist (results/ is relative to the working folder); reading ${db}`);
    expect(st.stdout).toContain('where: 3 jobs: 3 done, 0 failed, 0 pending');

    const typo = join(specDir, 'results', 'wher.duckdb');
    const t = cli(['status', spec, '--db', typo], { cwd: elsewhere });
    expect(t.stdout).toContain(`${typo}: does not exist; its jobs count as pending`);

    const rep = cli(['report', spec], { cwd: elsewhere });
    expect(rep.code).toBe(2);
    expect(rep.stderr).toBe(
      `bnclab: ${here}: no results database (results/ is relative to the working folder ${elsewhere}); there is one beside the spec: --db ${db}\n`,
    );
    const ex = cli(['export', 'predictions', spec, '--out', join(elsewhere, 'p.csv')], { cwd: elsewhere });
    expect(ex.code).toBe(2);
    expect(ex.stderr).toContain(`there is one beside the spec: --db ${db}`);
    expect(cli(['report', spec, '--db', db, '--out', join(elsewhere, 'r')], { cwd: elsewhere }).code).toBe(0);

    // A report folder whose report.md is a symbolic link to the database: the report refuses it (exit 5)
    // and the database is untouched (the link is followed, as any path the report writes).
    const linked = join(elsewhere, 'linked');
    mkdirSync(linked);
    symlinkSync(db, join(linked, 'report.md'));
    const before = readFileSync(db);
    const over = cli(['report', spec, '--db', db, '--out', linked], { cwd: elsewhere });
    expect(over.code).toBe(5);
    expect(over.stderr).toBe(
      `bnclab: report: ${join(linked, 'report.md')} is the results database; refusing to overwrite it\n`,
    );
    expect(readFileSync(db).equals(before)).toBe(true);
  });
});
