/**
 * Weka's NaiveBayes through the `external` baseline against one Weka process doing the same folds by itself.
 * Whole process against whole process, timed in turn (A B A B …), CPU and wall, median of --runs, with the
 * load average (bench/lib/process.ts):
 *
 *   A  `bnclab run` of a spec whose only method is Weka NaiveBayes through `external` with `server: true`
 *      (learners/WekaPredict.java, compiled once into bnclab's cache folder): bnclab loads and preprocesses
 *      the datasets, writes each fold's ARFF files, sends the fold to the one Java process of its worker,
 *      reads the probabilities, computes the metrics and stores them;
 *   B  one `java … WekaPredict --server weka.classifiers.bayes.NaiveBayes` reading the same fold files (the
 *      ones bnclab wrote, recorded once before the timing) from a request file, its answers to /dev/null.
 *
 * With --one-shot, a third command (untimed rounds excepted, once per round like the others) runs the same
 * spec with the program started afresh for each fold, as before `server: true` existed.
 *
 *   npm run build && node dist/bench/external-weka.js [--datasets car,...] [--runs 3] [--workers 1]
 *        [--weka-jar /usr/share/java/weka.jar] [--one-shot]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/util/paths.js';
import { NO_COMPARISON, alternate, loadAverage, summaryTable, type Command } from './lib/process.js';

const DEFAULT_DATASETS = 'car,kr-vs-kp,mushroom,nursery,segment,spambase,waveform-5000,german-credit,vehicle,splice';
const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: DEFAULT_DATASETS },
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '1' },
    'weka-jar': { type: 'string', default: '/usr/share/java/weka.jar' },
    'one-shot': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected an integer ≥ 1, got '${values.runs}'`);
const jar = values['weka-jar'];
const root = packageRoot(fileURLToPath(import.meta.url));
const cli = join(root, 'dist', 'src', 'cli', 'main.js');
const learner = join(root, 'learners', 'WekaPredict.java');
if (!existsSync(jar) || spawnSync('javac', ['-version']).status !== 0) {
  console.log(`external-weka: ${jar} or javac not found: ${NO_COMPARISON}`);
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'bnclab-external-weka-'));
try {
  const datasets = values.datasets.split(',');
  const spec = (name: string, params: string): string => {
    const file = join(work, `${name}.yaml`);
    writeFileSync(
      file,
      [
        `name: ${name}`,
        'seed: 1',
        `datasets: [${datasets.join(', ')}]`,
        'preprocessing: { discretize: mdl, missing: available-case }',
        'resampling: { method: cv, folds: 10, stratified: true }',
        'baselines:',
        `  - { id: external, name: Weka-NB, params: ${params} }`,
        '',
      ].join('\n'),
    );
    return file;
  };
  const java = (extra: string[]): string =>
    `{ format: arff, command: ${JSON.stringify(['java', '-cp', jar, learner, ...extra, 'weka.classifiers.bayes.NaiveBayes'])}`;

  // The fold files bnclab writes, recorded once by a program that copies them and answers "error".
  const folds = join(work, 'folds');
  mkdirSync(folds);
  const recorder = join(work, 'record.mjs');
  writeFileSync(
    recorder,
    `import { copyFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [, train, test] = line.split('\\t');
  const k = String(n++).padStart(4, '0');
  copyFileSync(train, ${JSON.stringify(folds)} + '/' + k + '.train.arff');
  copyFileSync(test, ${JSON.stringify(folds)} + '/' + k + '.test.arff');
  process.stdout.write('error recorded\\n');
}
`,
  );
  const recordSpec = spec(
    'record',
    `{ format: arff, server: true, command: ${JSON.stringify([process.execPath, recorder])} }`,
  );
  spawnSync(process.execPath, [
    cli,
    'run',
    recordSpec,
    '--db',
    join(work, 'record.duckdb'),
    '--quiet',
    '--no-report',
    '--workers',
    '1',
  ]);
  const names = readdirSync(folds)
    .filter((f) => f.endsWith('.train.arff'))
    .sort();
  const requests = join(work, 'requests.txt');
  writeFileSync(
    requests,
    names.map((f) => `fold\t${join(folds, f)}\t${join(folds, f.replace('.train.', '.test.'))}\t1\n`).join(''),
  );
  const classes = join(work, 'classes');
  mkdirSync(classes);
  if (spawnSync('javac', ['-cp', jar, '-d', classes, learner]).status !== 0) throw new Error('javac failed');

  const db = join(work, 'server.duckdb');
  const fresh = (file: string) => () => {
    rmSync(file, { force: true });
    rmSync(`${file}.wal`, { force: true });
  };
  const serverSpec = spec('weka_server', `${java(['--server'])}, server: true }`);
  const groups: Command[][] = [
    [
      {
        label: `bnclab run, external server: true (${values.workers} worker)`,
        cmd: process.execPath,
        args: [cli, 'run', serverSpec, '--db', db, '--quiet', '--no-report', '--workers', values.workers],
        before: fresh(db),
      },
    ],
    [
      {
        label: 'one Weka process, the same folds',
        cmd: 'sh',
        args: [
          '-c',
          `exec java -cp '${classes}:${jar}' WekaPredict --server weka.classifiers.bayes.NaiveBayes < '${requests}' > /dev/null`,
        ],
      },
    ],
  ];
  if (values['one-shot']) {
    const onceDb = join(work, 'once.duckdb');
    groups.push([
      {
        label: 'bnclab run, external one run per fold',
        cmd: process.execPath,
        args: [
          cli,
          'run',
          spec('weka_once', `${java([])} }`),
          '--db',
          onceDb,
          '--quiet',
          '--no-report',
          '--workers',
          values.workers,
        ],
        before: fresh(onceDb),
      },
    ]);
  }
  console.log(
    `external-weka: ${datasets.length} datasets × 10 folds = ${names.length} folds; load average ${loadAverage()}; median of ${runs} runs, in turn`,
  );
  const rows = alternate(groups, runs, (s) => console.log(s));
  console.log(summaryTable(rows));
  console.log(
    `CPU of bnclab ÷ CPU of Weka alone: ${(rows[0].cpuS / rows[1].cpuS).toFixed(3)}; wall: ${(rows[0].wallS / rows[1].wallS).toFixed(3)}; load average ${loadAverage()}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
