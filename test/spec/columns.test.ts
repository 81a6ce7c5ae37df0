/** A user's file: bnclab says which column is the class and how it read each column, and takes declarations. */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '../../src/spec/load.js';
import { buildPlan, describeColumns } from '../../src/spec/plan.js';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import '../../src/methods.js';

const BC = join(ROOT, 'data', 'uci', 'breast-cancer.csv');

/** breast-cancer with the class moved to the first column and renamed, as a user's file might be. */
function classFirst(dir: string): string {
  const lines = readFileSync(BC, 'utf8').trim().split(/\r?\n/);
  const out = lines.map((l, i) => {
    const f = l.split(',');
    const cls = f.pop()!;
    return [i === 0 ? 'outcome' : cls, ...f].join(',');
  });
  const file = join(dir, 'cfirst.csv');
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}

function plan(dir: string, datasets: string, extra = '') {
  const file = join(dir, 'spec.yaml');
  const text = `name: t\ndatasets:\n${datasets}\n${extra}resampling: { folds: 3 }\nstructures: [nb]\nestimators: [dirichlet]\n`;
  writeFileSync(file, text);
  return buildPlan(parseSpec(text, file));
}

describe('class column and column types of a user file', () => {
  it('says the class column was not declared and the last one was taken, and how each column was read', () => {
    const dir = tempDir();
    classFirst(dir);
    const p = plan(dir, '  - cfirst.csv');
    const d = p.datasets[0];
    expect(d.userFile).toBe(true);
    expect(describeColumns(d, false)).toEqual([
      "cfirst: class column 'irradiat' (not declared, so the last column; set class: in the dataset entry to choose); 8 categorical, 1 numeric columns (plan --columns lists them)",
    ]);
    expect(describeColumns(d, true)).toContain('  deg-malig: numeric (3 distinct values)');
    const r = cli(['plan', join(dir, 'spec.yaml')]);
    expect(r.stdout).toContain("cfirst: class column 'irradiat' (not declared");
  });

  it('takes class:, categorical: and ignore: so integer-coded categories work with discretize: none', () => {
    const dir = tempDir();
    classFirst(dir);
    const p = plan(
      dir,
      '  - { file: cfirst.csv, class: outcome, categorical: [deg-malig], ignore: [breast] }',
      'preprocessing: { discretize: none }\n',
    );
    const d = p.datasets[0];
    expect(d.className).toBe('outcome');
    expect(d.classes).toBe(2);
    expect(d.attributes).toBe(8);
    expect(d.columns.find((c) => c.name === 'deg-malig')).toEqual({
      name: 'deg-malig',
      type: 'categorical',
      values: 3,
    });
    expect(d.columns.some((c) => c.name === 'breast')).toBe(false);
    expect(describeColumns(d, false)[0]).toMatch(
      /^cfirst: class column 'outcome' \(declared\); 8 categorical, 0 numeric columns/,
    );
    // The declarations are part of the job key; a plain entry's keys do not change.
    const plain = plan(dir, '  - { file: cfirst.csv, class: outcome }', 'preprocessing: { discretize: mdl }\n');
    const declared = plan(
      dir,
      '  - { file: cfirst.csv, class: outcome, categorical: [deg-malig] }',
      'preprocessing: { discretize: mdl }\n',
    );
    expect(new Set(plain.jobs.map((j) => j.key))).not.toEqual(new Set(declared.jobs.map((j) => j.key)));
  });

  it("lists every dataset that fails, in the spec's order, and the numeric advice mentions declaring the column categorical", () => {
    const dir = tempDir();
    classFirst(dir);
    expect(() =>
      plan(dir, `  - cfirst.csv\n  - { file: ${BC}, name: bc }`, 'preprocessing: { discretize: none }\n'),
    ).toThrow(
      /^2 datasets fail:\n {2}.*dataset cfirst: column 'deg-malig' is numeric; .*declare it in the dataset entry: \{file: \.\.\., categorical: \[deg-malig\]\}\n {2}.*dataset bc: column 'deg-malig' is numeric/,
    );
  });
});
