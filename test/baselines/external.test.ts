/**
 * The `external` baseline through the CLI, with a dependency-free program (test/fixtures/external/nb.mjs:
 * naive Bayes with Laplace estimates). It must give exactly bnclab's own nb + dirichlet(alpha 1) on the
 * same folds (same data, same formula), rerun when the script changes, and turn every misbehaviour of the
 * program into a failed job with one clear line.
 */
import { describe, expect, it } from 'vitest';
import { appendFileSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import { query } from '../helpers/db.js';
import { parsePredictions } from '../../src/baselines/external.js';
import { exportDiscrete, exportRaw } from '../../src/datasets/export.js';
import { parseArff } from '../../src/datasets/arff.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { numericColumn } from '../../src/datasets/table.js';

// Every job starts a Node process; on a loaded machine the CLI runs take minutes.
const SLOW = 600_000;

function setup(): { dir: string; spec: (name: string, baselines: string) => string } {
  const dir = tempDir();
  copyFileSync(join(ROOT, 'test/fixtures/external/nb.mjs'), join(dir, 'nb.mjs'));
  const spec = (name: string, baselines: string): string => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(
      file,
      `name: ${name}
datasets: [iris, breast-cancer]
preprocessing: { discretize: median, missing: as-value }
resampling: { folds: 3 }
methods:
  - { name: NB, structure: nb, estimator: { id: dirichlet, params: { alpha: 1 } } }
baselines:
${baselines}`,
    );
    return file;
  };
  return { dir, spec };
}

describe('external baseline, through the CLI', () => {
  it(
    "matches bnclab's own naive Bayes on the same folds, and reruns when the script changes",
    async () => {
      const { dir, spec } = setup();
      const node = JSON.stringify(process.execPath);
      const file = spec('ext', `  - { id: external, name: NB-external, params: { command: [${node}, nb.mjs] } }\n`);
      const db = join(dir, 'r.duckdb');
      const first = cli(['run', file, '--db', db, '--no-report', '--workers', '1', '--save-predictions'], { cwd: dir });
      expect(first.stderr + first.stdout).toContain('12 jobs done, 0 failed');
      const rows = await query(
        db,
        `SELECT e.method, j.dataset, j.fold, m.accuracy, m.log_loss FROM jobs j JOIN experiment_jobs e USING (job_key)
       JOIN job_metrics m USING (job_key) ORDER BY j.dataset, j.fold, e.method`,
      );
      expect(rows).toHaveLength(12);
      for (let i = 0; i < rows.length; i += 2) {
        const [a, b] = [rows[i], rows[i + 1]];
        expect([a['method'], b['method']]).toEqual(['NB', 'NB-external']);
        expect(b['accuracy']).toBe(a['accuracy']);
        expect(Number(b['log_loss'])).toBeCloseTo(Number(a['log_loss']), 10);
      }
      // The program learns and predicts in one call: all of its time is training time, none prediction.
      const times = await query(db, `SELECT train_ms, predict_ms FROM results WHERE method = 'NB-external'`);
      expect(times).toHaveLength(6);
      for (const t of times) {
        expect(Number(t['predict_ms'])).toBe(0);
        expect(Number(t['train_ms'])).toBeGreaterThan(0);
      }
      // Unchanged: nothing reruns. Edited script: its 6 jobs rerun, NB's do not.
      const again = cli(['run', file, '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      expect(again.stderr + again.stdout).toContain('0 jobs done, 0 failed, 12 already done');
      appendFileSync(join(dir, 'nb.mjs'), '// edited\n');
      const edited = cli(['run', file, '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      expect(edited.stderr + edited.stdout).toContain('6 jobs done, 0 failed, 6 already done');
    },
    SLOW,
  );

  it(
    'writes the rows as read with preprocess: false (and the discretized ones without)',
    async () => {
      const { dir, spec } = setup();
      const node = JSON.stringify(process.execPath);
      const file = spec(
        'raw',
        `  - { id: external, name: raw, params: { preprocess: false, command: [${node}, nb.mjs, raw] } }
  - { id: external, name: binned, params: { command: [${node}, nb.mjs, raw] } }
`,
      );
      const db = join(dir, 'r.duckdb');
      cli(['run', file, '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      const rows = await query(
        db,
        `SELECT e.method, j.status, j.error FROM jobs j JOIN experiment_jobs e USING (job_key) WHERE j.dataset = 'iris' AND e.method <> 'NB'`,
      );
      expect(rows.filter((r) => r['method'] === 'raw').map((r) => r['status'])).toEqual(['done', 'done', 'done']);
      for (const r of rows.filter((x) => x['method'] === 'binned'))
        expect(String(r['error'])).toMatch(/exited with status 4: expected a raw number, got '\(/);
    },
    SLOW,
  );

  it(
    'fails a job with one clear line for each way the program can misbehave',
    async () => {
      const { dir, spec } = setup();
      const node = JSON.stringify(process.execPath);
      const entry = (mode: string, extra = '') =>
        `  - { id: external, name: ${mode}, params: { command: [${node}, nb.mjs, ${mode}]${extra} } }\n`;
      const file = spec(
        'bad',
        entry('short') +
          entry('wide') +
          entry('fail') +
          entry('silent') +
          entry('badclass') +
          entry('hang', ', timeout: 1') +
          `  - { id: external, name: missing-program, params: { command: [no-such-program-bnclab] } }\n`,
      );
      const db = join(dir, 'r.duckdb');
      const r = cli(['run', file, '--db', db, '--no-report', '--workers', '1'], { cwd: dir });
      expect(r.code).toBe(1);
      const errors = await query(
        db,
        `SELECT DISTINCT e.method, j.dataset, j.error FROM jobs j JOIN experiment_jobs e USING (job_key)
       WHERE j.dataset = 'iris' AND e.method <> 'NB' ORDER BY e.method`,
      );
      const byMethod = Object.fromEntries(
        errors.filter((e) => e['error'] !== null).map((e) => [e['method'], String(e['error'])]),
      );
      expect(Object.keys(byMethod).sort()).toEqual([
        'badclass',
        'fail',
        'hang',
        'missing-program',
        'short',
        'silent',
        'wide',
      ]);
      expect(byMethod['short']).toMatch(/^external '.*nb\.mjs short': wrote 49 probability rows for 50 test rows$/);
      expect(byMethod['wide']).toMatch(/: output line 2 has 4 values, the header names 3 classes$/);
      expect(byMethod['fail']).toMatch(/: exited with status 3: model exploded: no such feature$/);
      expect(byMethod['silent']).toMatch(/: exited 0 but wrote no output file/);
      expect(byMethod['badclass']).toMatch(
        /: output header names class 'no-such-class', not one of Iris-setosa, Iris-versicolor, Iris-virginica$/,
      );
      expect(byMethod['hang']).toMatch(/: timed out after 1 s \(timeout\)$/);
      expect(byMethod['missing-program']).toMatch(
        /^external 'no-such-program-bnclab': cannot run 'no-such-program-bnclab': ENOENT$/,
      );
      for (const e of Object.values(byMethod)) expect(e).not.toContain('\n');
    },
    SLOW,
  );
});

describe('external baseline: files and output', () => {
  const d = discreteFromArrays({
    names: ['a, b', "it's"],
    cards: [2, 3],
    classCard: 2,
    rows: [
      [0, 2],
      [1, -1],
    ],
    classes: [1, 0],
  });

  it('writes ARFF that bnclab reads back to the same values (quoting, missing)', () => {
    const labelled = {
      ...d,
      labels: [
        ['(-inf,2.5]', '(2.5,inf)'],
        ['x', "y'z", 'w\\v'],
      ],
      classLabels: ['no', 'yes'],
    };
    const t = parseArff(exportDiscrete(labelled, 'arff', 'labels', 'fold'), { file: 'x.arff', name: 'x' });
    expect(t.columns.map((c) => c.name)).toEqual(['a, b', "it's"]);
    const c0 = t.columns[0];
    const c1 = t.columns[1];
    if (c0.type !== 'categorical' || c1.type !== 'categorical') throw new Error('expected nominal columns');
    expect(c0.labels).toEqual(['(-inf,2.5]', '(2.5,inf)']);
    expect([c0.labels[c0.codes[0]], c0.labels[c0.codes[1]]]).toEqual(['(-inf,2.5]', '(2.5,inf)']);
    expect([c1.labels[c1.codes[0]], c1.codes[1]]).toEqual(['w\\v', -1]);
    expect(Array.from(t.classColumn, (c) => t.classLabels[c])).toEqual(['yes', 'no']);
  });

  it('writes CSV with a header, quoted labels, empty missing cells and codes on request', () => {
    const labelled = {
      ...d,
      labels: [
        ['(-inf,2.5]', '(2.5,inf)'],
        ['x', 'y', 'z'],
      ],
      classLabels: ['no', 'yes'],
    };
    expect(exportDiscrete(labelled, 'csv', 'labels', 'f')).toBe(
      '"a, b",it\'s,class\n"(-inf,2.5]",z,yes\n"(2.5,inf)",,no\n',
    );
    expect(exportDiscrete(labelled, 'csv', 'codes', 'f')).toBe('"a, b",it\'s,class\n0,2,1\n1,,0\n');
  });

  it('writes raw rows with numbers as read', () => {
    const table = {
      name: 't',
      n: 2,
      columns: [numericColumn('x', Float64Array.from([1.25, Number.NaN]))],
      className: 'c',
      classLabels: ['a', 'b'],
      classColumn: Int32Array.from([1, 0]),
      droppedRows: 0,
    };
    expect(exportRaw(table, [1, 0], 'csv', 'labels', 't')).toBe('x,c\n,a\n1.25,b\n');
    expect(exportRaw(table, [0], 'arff', 'labels', 't')).toContain(
      '@attribute x numeric\n@attribute c {a,b}\n\n@data\n1.25,b\n',
    );
  });

  it("maps the header's classes onto bnclab's order; an unnamed class gets 0", () => {
    const p = parsePredictions('c,a\n0.25,0.75\n1,3\n', ['a', 'b', 'c'], 2, 'x');
    expect(Array.from(p)).toEqual([0.75, 0, 0.25, 0.75, 0, 0.25]);
    expect(() => parsePredictions('a,b\n0.5,NaN\n', ['a', 'b'], 1, 'x')).toThrow(
      /x: output line 2: 'NaN' is not a probability/,
    );
    expect(() => parsePredictions('a,a\n0.5,0.5\n', ['a', 'b'], 1, 'x')).toThrow(/names a class twice/);
    expect(Array.from(parsePredictions('"b, 2","a ""1"""\n1,3\n', ['a "1"', 'b, 2'], 1, 'x'))).toEqual([0.75, 0.25]);
    expect(() => parsePredictions('', ['a'], 1, 'x')).toThrow(/empty output file/);
  });
});
