/** When a data file changes, `check` says so, with the hash before and after, not only "the folds differ". */
import { describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tempDir } from '../helpers/cli.js';
import { sha256Hex } from '../../src/util/hash.js';

describe('check after a data file changed', () => {
  it('names the dataset and both hashes', () => {
    const cwd = tempDir();
    const data = join(cwd, 'weather.csv');
    copyFileSync(join(ROOT, 'test', 'fixtures', 'datasets', 'tiny.csv'), data);
    const spec = join(cwd, 'w.yaml');
    writeFileSync(
      spec,
      `name: w\ndatasets: [weather.csv]\nresampling: { folds: 2 }\nstructures: [nb]\nestimators: [dirichlet]\n`,
    );
    const base = join(cwd, 'w.json');
    expect(cli(['baseline', spec, '--out', base, '--quiet'], { cwd }).code).toBe(0);
    const before = sha256Hex(readFileSync(data));
    writeFileSync(data, readFileSync(data, 'utf8').replace('sunny,85,85,false,no', 'sunny,85,86,false,no'));
    const after = sha256Hex(readFileSync(data));
    const r = cli(['check', spec, '--baseline', base, '--quiet', '--db', join(cwd, 'c.duckdb')], { cwd });
    expect(r.stdout).toContain(
      `the data file of weather changed since the baseline: sha256 ${before.slice(0, 12)}… then, ${after.slice(0, 12)}… now`,
    );
  });
});
