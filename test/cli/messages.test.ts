/** One-line messages for the mistakes found by an adversarial round: each names what was wrong and where. */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { parseSpec } from '../../src/spec/load.js';
import { closest, editDistance } from '../../src/util/text.js';

const dir = tempDir('bnclab-msg-');
const base = (body: string): string => `name: m\nseed: 1\ndatasets: [iris]\n${body}`;

describe('messages', () => {
  it('typo hints: a swap of two letters is one edit (kbd → kdb, not kb); laplace says what the README means', () => {
    expect(editDistance('kbd', 'kdb')).toBe(1);
    expect(editDistance('kbd', 'kb')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closest('kbd', ['kb', 'kdb', 'nb', 'tan'])).toBe('kdb');
    expect(closest('tanx', ['nb', 'tan'])).toBe('tan');
    expect(() => parseSpec(base('structures: [kbd]\nestimators: [dirichlet]\n'), 's.yaml')).toThrow(
      /structures\[0\]: unknown structure 'kbd' \(did you mean 'kdb'\?\)/,
    );
    expect(() => parseSpec(base('structures: [nb]\nestimators: [laplace]\n'), 's.yaml')).toThrow(
      /estimators\[0\]: unknown estimator 'laplace' \(the Laplace estimate is the dirichlet estimator with alpha 1: '- dirichlet: \{ alpha: 1 \}'\)/,
    );
  });

  it('--job-timeout -1 is a negative value, not an "ambiguous argument"; --db followed by an option is named', () => {
    const spec = join(dir, 's.yaml');
    writeFileSync(spec, base('structures: [nb]\nestimators: [dirichlet]\n'));
    const r = cli(['run', spec, '--job-timeout', '-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("bnclab: run: --job-timeout: expected a number ≥ 0, got '-1'\n");
    const d = cli(['run', spec, '--db', '--workers', '2']);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/^bnclab: run: --db needs a value, got the option '--workers'/);
  });

  it('"cannot read the spec file" gives the cause', () => {
    expect(cli(['plan', join(dir, 'none.yaml')]).stderr).toBe(
      `bnclab: ${join(dir, 'none.yaml')}: cannot read the spec file: no such file\n`,
    );
    const folder = join(dir, 'folder.yaml');
    mkdirSync(folder);
    expect(cli(['plan', folder]).stderr).toBe(`bnclab: ${folder}: cannot read the spec file: a folder, not a file\n`);
  });

  it('a sweep of 200,000 values gets the grid-limit message and exit 2 (it overflowed the stack, exit 3)', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => 1 + i / 1000).join(',');
    const spec = join(dir, 'sweep.yaml');
    writeFileSync(spec, base(`structures: [nb]\nestimators:\n  - dirichlet: { alpha: [${values}] }\n`));
    const r = cli(['plan', spec]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `bnclab: ${spec}: the grid has 2,000,000 jobs (1 datasets × 1 repeats × 10 folds × 200000 methods), more than the limit of 1,000,000; shrink the spec or raise the limit with --max-jobs\n`,
    );
  }, 600_000); // 200,000 methods are validated one by one: seconds idle, far more on a loaded machine.

  it("a spec's categorical: column that the file lacks is named as the dataset entry's, not the registry's", () => {
    writeFileSync(join(dir, 'd.csv'), 'a,b,class\n1,x,p\n2,y,q\n3,x,p\n4,y,q\n');
    const spec = join(dir, 'cat.yaml');
    writeFileSync(
      spec,
      `name: c\nseed: 1\ndatasets: [{ file: d.csv, categorical: [z] }]\nresampling: { folds: 2 }\nstructures: [nb]\nestimators: [dirichlet]\n`,
    );
    const r = cli(['plan', spec]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^bnclab: .*cat\.yaml:3:\d+: datasets\[0\]: .*d\.csv: column 'z', declared categorical in the dataset's entry \(its categorical: list\), is not in the header \(columns: a, b, class\)\n$/,
    );
  });
});
