/**
 * Naive Bayes and TAN, 10-fold cross-validation with MDL discretization fitted inside each training fold,
 * whole process against whole process: one `bnclab run` of a two-method spec against Weka 3.6's two
 * command-line evaluations (FilteredClassifier with the supervised Discretize filter, fitted per fold, and
 * NaiveBayes or BayesNet-TAN with Laplace estimates). Both sides read the same rows (the registry's file,
 * written as ARFF for Weka), and are timed in turn (A B A B …), CPU and wall, median of --runs, with the load
 * average (see bench/lib/process.ts).
 *
 *   npm run build && node dist/bench/weka-cv.js [--datasets shuttle,letter] [--runs 5]
 *        [--workers 1] [--weka-jar /usr/share/java/weka.jar] [--other-bnclab DIR]
 *
 * Without --weka-jar only bnclab's figures are printed, and the words "no side-by-side comparison".
 * Debian's `weka` package installs the jar (`dpkg -L weka | grep jar`). bnclab runs with --no-report and
 * --workers 1 by default (Weka uses one core). --other-bnclab DIR times a second bnclab checkout (its
 * dist/src/cli/main.js, built) in the same rounds: a before/after comparison of two versions.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDataset } from '../src/datasets/load.js';
import { loadRegistry } from '../src/datasets/registry.js';
import type { RawTable } from '../src/datasets/table.js';
import { packageRoot } from '../src/util/paths.js';
import { NO_COMPARISON, alternate, loadAverage, summaryTable, type Command } from './lib/process.js';
import { WEKA } from './lib/weka.js';

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: 'shuttle,letter' },
    runs: { type: 'string', default: '5' },
    workers: { type: 'string', default: '1' },
    'weka-jar': { type: 'string' },
    'other-bnclab': { type: 'string' },
  },
});

const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected an integer ≥ 1, got '${values.runs}'`);
const wekaJar = values['weka-jar'];
if (wekaJar !== undefined && !existsSync(wekaJar)) throw new Error(`--weka-jar: ${wekaJar} not found`);
const cli = join(packageRoot(fileURLToPath(import.meta.url)), 'dist', 'src', 'cli', 'main.js');

/** ARFF quoting as Weka writes it. */
function quote(s: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(s) ? s : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The raw table as ARFF: numeric columns numeric, categorical nominal, the class last, '?' for missing. */
function toArff(t: RawTable): string {
  const out = [`@relation ${quote(t.name)}`, ''];
  for (const c of t.columns) {
    out.push(`@attribute ${quote(c.name)} ${c.type === 'numeric' ? 'numeric' : `{${c.labels.map(quote).join(',')}}`}`);
  }
  out.push(`@attribute ${quote(t.className)} {${t.classLabels.map(quote).join(',')}}`, '', '@data');
  for (let r = 0; r < t.n; r++) {
    const cells = t.columns.map((c) => {
      if (c.type === 'numeric') return c.ids[r] < 0 ? '?' : String(c.distinct[c.ids[r]]);
      const k = c.codes[r];
      return k < 0 ? '?' : quote(c.labels[k]);
    });
    cells.push(quote(t.classLabels[t.classColumn[r]]));
    out.push(cells.join(','));
  }
  return out.join('\n') + '\n';
}

/** Weka 3.6: the filter is fitted on each training fold by FilteredClassifier; Laplace estimates for TAN. */
function wekaCommands(jar: string, arff: string): Command[] {
  const filtered = (base: string[]): string[] => [
    '-cp',
    jar,
    'weka.classifiers.meta.FilteredClassifier',
    '-t',
    arff,
    '-x',
    '10',
    '-s',
    '1',
    '-o',
    '-F',
    'weka.filters.supervised.attribute.Discretize -R first-last',
    '-W',
    ...base,
  ];
  return [
    { label: 'Weka NaiveBayes', cmd: 'java', args: filtered(WEKA['nb']) },
    {
      label: 'Weka BayesNet TAN',
      cmd: 'java',
      // FilteredClassifier passes the options after '--' to BayesNet.
      args: filtered([WEKA['tan'][0], '--', ...WEKA['tan'].slice(1)]),
    },
  ];
}

const work = mkdtempSync(join(tmpdir(), 'bnclab-weka-cv-'));
try {
  console.log(`weka-cv: ${new Date().toISOString()}; load average ${loadAverage()}; median of ${runs} runs, in turn`);
  for (const name of values.datasets.split(',')) {
    const entry = loadRegistry().get(name);
    const spec = join(work, `${name}.yaml`);
    writeFileSync(
      spec,
      [
        `name: wekacv_${name.replace(/[^A-Za-z0-9]/g, '_')}`,
        'seed: 1',
        `datasets: [${name}]`,
        'preprocessing: { discretize: mdl, missing: as-value }',
        'resampling: { method: cv, folds: 10, stratified: true }',
        'structures: [nb, tan]',
        'estimators: [{ id: dirichlet, params: { alpha: 1 } }]',
        '',
      ].join('\n'),
    );
    const db = join(work, `${name}.duckdb`);
    const ours: Command = {
      label: 'bnclab run (nb + tan)',
      cmd: process.execPath,
      args: [cli, 'run', spec, '--db', db, '--quiet', '--no-report', '--workers', values.workers],
      before: () => {
        rmSync(db, { force: true });
        rmSync(`${db}.wal`, { force: true });
      },
    };
    const groups: Command[][] = [[ours]];
    const other = values['other-bnclab'];
    if (other) {
      const otherDb = join(work, `${name}-other.duckdb`);
      groups.push([
        {
          ...ours,
          label: `bnclab run (nb + tan), ${other}`,
          args: [
            join(other, 'dist', 'src', 'cli', 'main.js'),
            ...ours.args.slice(1).map((a) => (a === db ? otherDb : a)),
          ],
          before: () => {
            rmSync(otherDb, { force: true });
            rmSync(`${otherDb}.wal`, { force: true });
          },
        },
      ]);
    }
    if (wekaJar) {
      const arff = join(work, `${name}.arff`);
      writeFileSync(arff, toArff(loadDataset(entry).table));
      groups.push(wekaCommands(wekaJar, arff));
    }
    console.log(
      `\n${name} (${entry.rows ?? '?'} rows): NB + TAN, stratified 10-fold CV, MDL fitted in each training fold`,
    );
    const summaries = alternate(groups, runs, (s) => process.stderr.write(`${name}:${s}\n`));
    console.log(summaryTable(summaries));
    if (!wekaJar) console.log(`(${NO_COMPARISON}: give --weka-jar PATH to time Weka in the same run)`);
    console.log(`load average at the end: ${loadAverage()}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
