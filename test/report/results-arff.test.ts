/**
 * `bnclab export results`: per-fold results as ARFF in the layout of Weka's Experimenter result files. Its
 * instances are read back here; where Weka is installed (Debian's weka package), Weka's own
 * PairedCorrectedTTester reads the file and marks the same dataset × method cells as the report's
 * resampled-t table does.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';

const WEKA = '/usr/share/java/weka.jar';
const dir = tempDir('bnclab-arff-');
writeFileSync(
  join(dir, 's.yaml'),
  'name: w\nseed: 1\ndatasets: [iris, car, breast-cancer]\nstructures: [nb, tan]\nestimators: [dirichlet]\ncompare:\n  control: tan/dirichlet\n  tests: [resampled-t]\n',
);

describe('export results (ARFF)', () => {
  it("writes one instance per job with Weka's key fields; Weka's tester marks what the report marks", () => {
    expect(cli(['run', 's.yaml', '--db', 'w.duckdb', '--quiet'], { cwd: dir }).code).toBe(0);
    const r = cli(['export', 'results', 's.yaml', '--db', 'w.duckdb', '--out', 'r.arff'], { cwd: dir });
    expect(r.stdout).toBe('r.arff: 60 results\n');
    const text = readFileSync(join(dir, 'r.arff'), 'utf8');
    const attrs = [...text.matchAll(/^@attribute (\S+)/gm)].map((m) => m[1]);
    expect(attrs.slice(0, 6)).toEqual([
      'Key_Dataset',
      'Key_Run',
      'Key_Fold',
      'Key_Scheme',
      'Key_Scheme_options',
      'Key_Scheme_version_ID',
    ]);
    const data = text.split('@data\n')[1].trim().split('\n');
    expect(data).toHaveLength(60);
    const pc = attrs.indexOf('Percent_correct');
    const acc = attrs.indexOf('accuracy');
    for (const line of data) {
      const f = line.split(',');
      expect(Number(f[pc])).toBeCloseTo(100 * Number(f[acc]), 10);
    }
    // The report's marks against tan/dirichlet: nb/dirichlet significantly worse on car only.
    const csv = readFileSync(join(dir, 'results/w/tables/resampled-t-accuracy.csv'), 'utf8').trim().split('\n');
    expect(csv.map((l) => `${l.split(',')[0]}:${l.split(',').at(-1)}`)).toEqual([
      'dataset:nb/dirichlet mark',
      'breast-cancer:',
      'car:*',
      'iris:',
    ]);
    if (!existsSync(WEKA) || spawnSync('java', ['-version']).status !== 0) return;
    const weka = spawnSync(
      'java',
      [
        '-cp',
        WEKA,
        'weka.experiment.PairedCorrectedTTester',
        '-t',
        'r.arff',
        '-D',
        '1',
        '-R',
        '2',
        '-F',
        '3',
        '-G',
        '4,5,6',
        '-c',
        String(pc + 1),
        '-S',
        '0.05',
        '-b',
        '2',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    // Base (2) tan/dirichlet: Weka prints nb/dirichlet's car cell with '*' and the counts (0/2/1).
    const table = weka.stdout;
    expect(table).toMatch(/\ncar\s+\(10\)\s+94\.15 \|\s+85\.76 \*/);
    expect(table).toMatch(/\nbreast-cancer\s+\(10\)\s+69\.21 \|\s+72\.70 \s*\n/);
    expect(table).toContain('(0/2/1)');
  });
});
