/** A fold with no training rows is an input error naming the dataset, repeat and fold (it ran, scoring the prior). */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { buildPlan, buildPlanSummary } from '../../src/spec/plan.js';

describe('folds with no training rows', () => {
  const dir = tempDir('bnclab-folds-');
  const spec = (folds: string): string => {
    writeFileSync(join(dir, 'iris-folds.csv'), folds);
    const file = join(dir, 's.yaml');
    writeFileSync(
      file,
      `name: one-fold\nseed: 1\ndatasets: [iris]\nresampling: { folds: { file: "iris-folds.csv" } }\nstructures: [nb]\nestimators: [dirichlet]\n`,
    );
    return file;
  };

  it('every row in one fold: plan and run refuse it, naming dataset and fold', () => {
    const file = spec(`fold\n${'0\n'.repeat(150)}`);
    const msg =
      /s\.yaml:3:12: datasets\[0\]: dataset iris \(.*iris\.csv\): repeat 1 fold 1 has no training rows \(all 150 rows are its test rows: the folds file puts every row in one fold\)/;
    expect(() => buildPlan(loadSpecFile(file).spec)).toThrow(msg);
    expect(() => buildPlanSummary(loadSpecFile(file).spec)).toThrow(msg);
  });

  it('a second repeat whose rows are all in one fold is named as such; two folds pass', () => {
    const rows = Array.from({ length: 150 }, (_, i) => `${i % 2},${i < 75 ? 1 : 'out'}`);
    expect(() => buildPlan(loadSpecFile(spec(rows.join('\n') + '\n')).spec)).toThrow(
      /repeat 2 fold 1 has no training rows \(all 75 rows are its test rows\)/,
    );
    const ok = Array.from({ length: 150 }, (_, i) => `${i % 2},${i % 3}`);
    expect(buildPlan(loadSpecFile(spec(ok.join('\n') + '\n')).spec).jobs).toHaveLength(5);
  });

  it('a class left out of a training fold by the folds file is a warning naming dataset, class and fold', () => {
    // iris lists its 50 setosa rows first: fold 0 tests all of them, so its training rows have none.
    const rows = Array.from({ length: 150 }, (_, i) => (i < 50 ? 0 : 1 + (i % 2)));
    const plan = buildPlan(loadSpecFile(spec(rows.join('\n') + '\n')).spec);
    expect(plan.warnings).toEqual([
      expect.stringMatching(
        /datasets\[0\]: dataset iris: class 'Iris-setosa' has no training rows in repeat 1 fold 1; a method can only give it its prior probability there \(0 with mle\)$/,
      ),
    ]);
    const fine = Array.from({ length: 150 }, (_, i) => i % 3);
    expect(buildPlan(loadSpecFile(spec(fine.join('\n') + '\n')).spec).warnings).toEqual([]);
  });
});
