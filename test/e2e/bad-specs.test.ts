import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli, ROOT } from '../helpers/cli.js';

const dir = join(ROOT, 'test', 'fixtures', 'specs', 'bad');

// Each malformed spec: the line:column the message must point at, the field it must name, and a fragment
// of the explanation. Every one must exit 2 with a single line on stderr and no stack trace.
const cases: { file: string; at: string; field: string; says: RegExp }[] = [
  {
    file: 'unknown-structure.yaml',
    at: '3:18',
    field: 'structures[1]',
    says: /unknown structure 'tanx' \(did you mean 'tan'\?\)/,
  },
  { file: 'wrong-type.yaml', at: '4:10', field: 'resampling.folds', says: /must be integer|must be object|must match/ },
  { file: 'missing-datasets.yaml', at: '1:1', field: 'datasets', says: /is required/ },
  { file: 'yaml-syntax.yaml', at: '3:', field: 'YAML syntax error', says: /flow sequence|indented|\]/i },
  {
    file: 'unknown-dataset.yaml',
    at: '4:5',
    field: 'datasets[1]',
    says: /unknown data set or group 'irsi'.*did you mean iris/,
  },
  { file: 'missing-file.yaml', at: '3:5', field: 'datasets[0]', says: /cannot read|not found|no such file/i },
  { file: 'unknown-field.yaml', at: '3:1', field: 'strucures', says: /unknown field/ },
  { file: 'bad-param-value.yaml', at: '7:14', field: 'estimators[0].params.alpha', says: /must be/ },
  {
    file: 'unknown-param.yaml',
    at: '5:18',
    field: 'estimators[0].dirichlet.beta',
    says: /unknown parameter of estimator 'dirichlet'/,
  },
  {
    file: 'bad-enum.yaml',
    at: '4:12',
    field: 'preprocessing.missing',
    says: /must be one of "as-value", "drop-rows", "available-case"/,
  },
  { file: 'too-few-folds.yaml', at: '4:10', field: 'resampling.folds', says: /must be >= 2|must be object/ },
  {
    file: 'bins-without-equal-frequency.yaml',
    at: '4:',
    field: 'preprocessing.discretize.bins',
    says: /only applies to equal-frequency/,
  },
  { file: 'not-a-mapping.yaml', at: '1:1', field: 'the spec must be a YAML mapping', says: /mapping/ },
  { file: 'excludes-everything.yaml', at: '6:', field: 'exclude', says: /leaves no method/ },
  { file: 'bad-name.yaml', at: '1:7', field: 'name', says: /must match pattern/ },
  {
    file: 'estimators-without-structures.yaml',
    at: '1:1',
    field: 'structures',
    says: /is required when estimators is given/,
  },
  { file: 'em-without-em.yaml', at: '3:40', field: 'preprocessing.em', says: /only applies to missing: em/ },
  { file: 'em-estimator.yaml', at: '5:13', field: 'estimators', says: /estimator 'm-estimate' cannot be fitted by EM/ },
  {
    file: 'discretize-none-numeric.yaml',
    at: '2:12',
    field: 'datasets[0]',
    says: /dataset iris: column 'sepallength' is numeric/,
  },
  {
    file: 'non-finite.yaml',
    at: '5:25',
    field: 'estimators[0].dirichlet.alpha',
    says: /must be a finite number, got Infinity/,
  },
  { file: 'yaml-bomb.yaml', at: '1:1', field: 'the YAML cannot be expanded', says: /Excessive alias count/ },
  {
    file: 'huge-grid.yaml',
    at: '',
    field: 'the grid has 1,000,000,000 jobs',
    says: /more than the limit of 1,000,000; .*--max-jobs/,
  },
  {
    file: 'more-folds-than-rows.yaml',
    at: '3:5',
    field: 'datasets[0]',
    says: /dataset two-rows \(.*two-rows\.csv\): resampling: 3 folds but the dataset has only 2 rows/,
  },
  {
    file: 'gzipped-csv.yaml',
    at: '3:5',
    field: 'datasets[0]',
    says: /gzipped\.csv: the file is gzip-compressed, not text/,
  },
  {
    file: 'class-only-csv.yaml',
    at: '3:5',
    field: 'datasets[0]',
    says: /class-only\.csv: data set 'class-only' has no attribute columns/,
  },
];

describe('malformed specs give exit 2 and one line naming file:line:col and the field', () => {
  for (const c of cases) {
    it(c.file, () => {
      const r = cli(['plan', join(dir, c.file)]);
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      const line = lines[0];
      expect(line).not.toMatch(/\n\s+at /);
      expect(line).toContain(`${c.file}:${c.at}`);
      expect(line).toContain(c.field);
      expect(line).toMatch(c.says);
      expect(r.stdout).toBe('');
    });
  }
});

describe('option values that cannot work are refused up front', () => {
  it('--job-timeout beyond what a timer holds (2³¹−1 ms) is exit 2, not every job failing at once', () => {
    const r = cli([
      'run',
      join(dir, '..', 'e2e-small.yaml'),
      '--job-timeout',
      '2200000',
      '--db',
      '/nonexistent/never-created.duckdb',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `bnclab: --job-timeout: at most 2147483 seconds (24.8 days), got '2200000'; 0 means no limit`,
    );
  });

  it('--max-jobs raises the grid limit', () => {
    const r = cli(['plan', join(dir, 'huge-grid.yaml'), '--max-jobs', '100']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('more than the limit of 100;');
    const ok = cli(['plan', join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml'), '--max-jobs', '30']);
    expect(ok.code).toBe(0);
    expect(cli(['plan', join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml'), '--max-jobs', '29']).code).toBe(2);
  });
});
