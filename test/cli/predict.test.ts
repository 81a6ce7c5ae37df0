/**
 * `bnclab predict`: a network written by `bnclab fit` (JSON with its stored cut points, BIF and XMLBIF with
 * the intervals read back from the state names) gives, on the rows it was fitted on, the class posteriors
 * the fitted model itself gives (CptModel.posterior on the preprocessed rows), with missing cells (hepatitis,
 * numeric and categorical, with a missing-value state) and discretized numeric columns.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { fitOnFullData } from '../../src/runner/fit.js';
import { cutsFromStates } from '../../src/bn/read-model.js';

const dir = tempDir('bnclab-predict-');
writeFileSync(
  join(dir, 's.yaml'),
  'name: p\nseed: 1\ndatasets: [iris, hepatitis]\nstructures: [nb, tan]\nestimators: [dirichlet]\n',
);

function readPredictions(file: string): { header: string[]; rows: string[][] } {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return { header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

describe('bnclab predict', () => {
  for (const dataset of ['iris', 'hepatitis']) {
    it(`reproduces the fitted model's posteriors on ${dataset} from JSON, and from BIF and XMLBIF`, () => {
      const { spec } = loadSpecFile(join(dir, 's.yaml'));
      const fit = fitOnFullData(spec, dataset, 'tan/dirichlet');
      const expected = fit.model.posterior(fit.data);
      const k = fit.data.classCard;
      copyFileSync(join(ROOT, 'data/uci', `${dataset}.csv`), join(dir, `${dataset}.csv`));
      for (const format of ['json', 'bif', 'xmlbif']) {
        const model = join(dir, `${dataset}.${format}`);
        expect(
          cli(['fit', 's.yaml', '--dataset', dataset, '--method', 'tan/dirichlet', '--out', model], { cwd: dir }).code,
        ).toBe(0);
        const out = join(dir, `${dataset}-${format}.csv`);
        const r = cli(['predict', model, `${dataset}.csv`, '--out', out], { cwd: dir });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        const p = readPredictions(out);
        expect(p.header.slice(0, 3)).toEqual(['row', 'truth', 'predicted']);
        expect(p.header.slice(3)).toEqual(fit.data.classLabels.map((l) => `p_${l}`));
        expect(p.rows).toHaveLength(fit.data.n);
        p.rows.forEach((row, i) => {
          for (let c = 0; c < k; c++) expect(Number(row[3 + c])).toBeCloseTo(expected[i * k + c], 12);
          expect(row[1]).toBe(fit.data.classLabels[fit.data.classColumn[i]]);
        });
      }
    });
  }

  it('says which columns are absent, unmatched or ignored, and goes on', () => {
    writeFileSync(join(dir, 'new.csv'), 'petalwidth,petallength,sepalwidth,extra\n0.2,1.4,3.0,x\n2.3,?,abc,y\n');
    const r = cli(['predict', 'iris.json', 'new.csv', '--out', 'new-p.csv'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no column for sepallength');
    expect(r.stderr).toContain("column 'sepalwidth': 1 cells match none");
    expect(r.stderr).toContain('ignored: extra');
    const p = readPredictions(join(dir, 'new-p.csv'));
    expect(p.header[1]).toBe('predicted');
    expect(p.rows.map((x) => x[1])).toEqual(['Iris-setosa', 'Iris-virginica']);
  });

  it('writes XMLBIF with the XMLBIF 0.3 document type', () => {
    const text = readFileSync(join(dir, 'iris.xmlbif'), 'utf8');
    expect(text).toMatch(/<!DOCTYPE BIF \[[\s\S]*<!ELEMENT BIF \( NETWORK \)\*>[\s\S]*\]>\s*<BIF VERSION="0.3">/);
  });

  it('reads cut points back from interval names, and refuses what is not a partition', () => {
    expect(cutsFromStates(['(-inf,2.45]', '(2.45,4.75]', '(4.75,inf)'])).toEqual([2.45, 4.75]);
    expect(cutsFromStates(['_-inf_2.45_', '_2.45_inf_', '_'])).toEqual([2.45]);
    expect(cutsFromStates(['(-inf,2]', '(3,inf)'])).toBeUndefined();
    expect(cutsFromStates(['low', 'high'])).toBeUndefined();
    expect(cutsFromStates(['All', '?'])).toEqual([]);
  });

  it('never writes over the model or the data, and over another file only with --force', () => {
    const data = readFileSync(join(dir, 'new.csv'), 'utf8');
    const model = readFileSync(join(dir, 'iris.json'), 'utf8');
    const onData = cli(['predict', 'iris.json', 'new.csv', '--out', 'new.csv', '--force'], { cwd: dir });
    expect([onData.code, onData.stderr.trim()]).toEqual([
      2,
      'bnclab: --out new.csv: that is the data file; refusing to overwrite it',
    ]);
    const onModel = cli(['predict', 'iris.json', 'new.csv', '--out', 'iris.json', '--force'], { cwd: dir });
    expect(onModel.code).toBe(2);
    expect(onModel.stderr).toContain('that is the model file');
    expect(readFileSync(join(dir, 'new.csv'), 'utf8')).toBe(data);
    expect(readFileSync(join(dir, 'iris.json'), 'utf8')).toBe(model);
    // new-p.csv exists from the test above.
    const again = cli(['predict', 'iris.json', 'new.csv', '--out', 'new-p.csv'], { cwd: dir });
    expect([again.code, again.stderr.trim()]).toEqual([
      2,
      'bnclab: --out new-p.csv: the file exists; use --force to overwrite it',
    ]);
    expect(cli(['predict', 'iris.json', 'new.csv', '--out', 'new-p.csv', '--force'], { cwd: dir }).code).toBe(0);
  });

  it('a bad model file is one line, exit 2', () => {
    writeFileSync(join(dir, 'bad.json'), '{"format": "other"}');
    const r = cli(['predict', 'bad.json', 'iris.csv', '--out', 'x.csv'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
