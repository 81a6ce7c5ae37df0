/**
 * Weka's NaiveBayes through the `external` baseline against one Weka process doing the same folds by itself.
 * Whole process against whole process, timed in turn (A B A B …), CPU and wall, median of --runs, with the
 * load average (bench/lib/process.ts):
 *
 *   A  `bnclab run` of a spec whose only method is Weka NaiveBayes through `external` with `server: true`
 *      and `send: stdin` (learners/WekaPredict.java, compiled once into bnclab's cache folder): bnclab reads
 *      and preprocesses the datasets, renders each fold's two ARFF files in memory, writes them to the one
 *      Java process of its worker on its stdin after a `data` request line, reads the probabilities,
 *      computes the metrics and stores them. Twice: warm (the cache folder as an earlier run of the spec
 *      leaves it: file hashes, planned facts, coded tables, the compiled class) and cold (a cache folder
 *      holding only the compiled class, so every data set is read, hashed and coded again);
 *   B  one `java … WekaPredict --server weka.classifiers.bayes.NaiveBayes` reading the very bytes bnclab
 *      wrote to Java's stdin (the 100 request lines and files, recorded once before the timing) from its
 *      stdin (redirected from the recording), its answers to /dev/null.
 *   C  (send: stdin) one Weka process doing the whole of each fold itself, as a Weka user would run these
 *      folds: the rows as read (numbers not discretized; recorded the same way from a spec with
 *      `preprocess: false`), Weka's supervised MDL Discretize fitted on each training fold and NaiveBayes
 *      (`weka.classifiers.meta.FilteredClassifier`). B gets bnclab's discretized bytes, so bnclab's reading
 *      and discretizing count against it; C does that work itself.
 *
 * With --send files, A uses `send: files` instead (two temporary files per fold, named on a `fold` request
 * line) and B reads the same recorded files through `fold` lines. With --one-shot, one more command runs the
 * spec with the program started afresh for each fold, as before `server: true` existed.
 *
 *   npm run build && node dist/bench/external-weka.js [--datasets car,...] [--runs 3] [--workers 1]
 *        [--weka-jar /usr/share/java/weka.jar] [--send stdin|files] [--one-shot]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/util/paths.js';
import { NO_COMPARISON, alternate, loadAverage, setAside, summaryTable, type Command } from './lib/process.js';

const DEFAULT_DATASETS = 'car,kr-vs-kp,mushroom,nursery,segment,spambase,waveform-5000,german-credit,vehicle,splice';
const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: DEFAULT_DATASETS },
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '1' },
    'weka-jar': { type: 'string', default: '/usr/share/java/weka.jar' },
    send: { type: 'string', default: 'stdin' },
    'one-shot': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected an integer ≥ 1, got '${values.runs}'`);
const send = values.send;
if (send !== 'stdin' && send !== 'files') throw new Error(`--send: expected stdin or files, got '${send}'`);
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

  // What bnclab sends the program, recorded once by a program that answers every fold with "error": with
  // send: stdin the request lines and the bytes after them, as they come; with send: files copies of the files.
  const folds = join(work, 'folds');
  mkdirSync(folds);
  const requests = join(work, 'requests');
  const recorder = join(work, 'record.mjs');
  writeFileSync(
    recorder,
    `import { appendFileSync, copyFileSync } from 'node:fs';
const requests = process.argv[2];
let n = 0;
let buf = Buffer.alloc(0);
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const nl = buf.indexOf(10);
    if (nl < 0) return;
    const [verb, a, b] = buf.subarray(0, nl).toString('utf8').split('\\t');
    const need = verb === 'data' ? nl + 1 + Number(a) + Number(b) : nl + 1;
    if (buf.length < need) return;
    if (verb === 'data') appendFileSync(requests, buf.subarray(0, need));
    else {
      const k = ${JSON.stringify(folds)} + '/' + String(n++).padStart(4, '0');
      copyFileSync(a, k + '.train.arff');
      copyFileSync(b, k + '.test.arff');
      const seed = buf.subarray(0, nl).toString('utf8').split('\\t')[3];
      appendFileSync(requests, ['fold', k + '.train.arff', k + '.test.arff', seed].join('\\t') + '\\n');
    }
    buf = buf.subarray(need);
    process.stdout.write('error recorded\\n');
  }
});
`,
  );
  const recordTo = (name: string, file: string, extra: string): void => {
    const recordSpec = spec(
      name,
      `{ format: arff,${extra} server: true, send: ${send}, command: ${JSON.stringify([process.execPath, recorder, file])} }`,
    );
    const record = spawnSync(process.execPath, [
      cli,
      'run',
      recordSpec,
      '--db',
      join(work, `${name}.duckdb`),
      '--quiet',
      '--no-report',
      '--workers',
      '1',
    ]);
    if (!existsSync(file)) throw new Error(`recording the folds failed: ${record.stdout}${record.stderr}`);
  };
  recordTo('record', requests, '');
  // The same folds as read (numbers not discretized), for Weka doing the whole fold itself (C below).
  const rawRequests = join(work, 'raw-requests');
  if (send === 'stdin') recordTo('record_raw', rawRequests, ' preprocess: false,');
  const recorded = readFileSync(requests);
  let nFolds = 0;
  for (let at = 0; at < recorded.length; nFolds++) {
    const nl = recorded.indexOf(10, at);
    const [verb, a, b] = recorded.subarray(at, nl).toString('utf8').split('\t');
    at = verb === 'data' ? nl + 1 + Number(a) + Number(b) : nl + 1;
  }
  const classes = join(work, 'classes');
  mkdirSync(classes);
  if (spawnSync('javac', ['-cp', jar, '-d', classes, learner]).status !== 0) throw new Error('javac failed');

  const db = join(work, 'server.duckdb');
  const fresh = (file: string) => () => {
    rmSync(file, { force: true });
    rmSync(`${file}.wal`, { force: true });
  };
  // Warm: the cache folder the warm-up round and each earlier round leave. Cold: before each run a folder
  // holding only the compiled WekaPredict class (copied from the warm one), as after a run of another spec.
  const warm = join(work, 'cache-warm');
  const cold = join(work, 'cache-cold');
  const serverSpec = spec('weka_server', `${java(['--server'])}, server: true, send: ${send} }`);
  const bnclab = (cache: string, file: string, database = db): string[] => [
    `BNCLAB_CACHE_DIR=${cache}`,
    process.execPath,
    cli,
    'run',
    file,
    '--db',
    database,
    '--quiet',
    '--no-report',
    '--workers',
    values.workers,
  ];
  const groups: Command[][] = [
    [
      {
        label: `bnclab run, server: true, send: ${send} (${values.workers} worker), warm cache`,
        cmd: 'env',
        args: bnclab(warm, serverSpec),
        before: fresh(db),
      },
    ],
    [
      {
        label: `bnclab run, the same, cold cache (compiled class only)`,
        cmd: 'env',
        args: bnclab(cold, serverSpec),
        before: () => {
          fresh(db)();
          setAside(cold, join(work, 'trash')); // not deleted: setAside says why
          mkdirSync(cold);
          if (existsSync(join(warm, 'java'))) cpSync(join(warm, 'java'), join(cold, 'java'), { recursive: true });
        },
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
  if (send === 'stdin') {
    groups.push([
      {
        label: 'one Weka process discretizing each training fold itself (MDL) and NaiveBayes, raw folds',
        cmd: 'sh',
        args: [
          '-c',
          `exec java -cp '${classes}:${jar}' WekaPredict --server weka.classifiers.meta.FilteredClassifier -F weka.filters.supervised.attribute.Discretize -W weka.classifiers.bayes.NaiveBayes < '${rawRequests}' > /dev/null`,
        ],
      },
    ]);
  }
  if (values['one-shot']) {
    const onceDb = join(work, 'once.duckdb');
    groups.push([
      {
        label: 'bnclab run, external one run per fold, warm cache',
        cmd: 'env',
        args: bnclab(warm, spec('weka_once', `${java([])} }`), onceDb),
        before: fresh(onceDb),
      },
    ]);
  }
  // Each Weka command must answer every fold (an "error" answer costs Weka almost nothing): checked once.
  for (const [i, group] of groups.entries()) {
    const c = group[0];
    if (c.cmd !== 'sh') continue;
    const shown = spawnSync('sh', ['-c', c.args[1].replace(/ > \/dev\/null$/, '')], { maxBuffer: 1 << 30 });
    const answers = shown.stdout.toString('utf8').split('\n');
    const ok = answers.filter((l) => l === 'ok').length;
    if (ok !== nFolds)
      throw new Error(
        `${c.label} (command ${i}) answered ${ok} of ${nFolds} folds: ${shown.stderr.toString().slice(-500)}`,
      );
  }
  console.log(
    `external-weka: ${datasets.length} datasets × 10 folds = ${nFolds} folds (send: ${send}, ${recorded.length} bytes to Java's stdin); load average ${loadAverage()}; median of ${runs} runs, in turn`,
  );
  const rows = alternate(groups, runs, (s) => console.log(s));
  console.log(summaryTable(rows));
  const weka = rows[2].cpuS;
  console.log(
    `CPU of bnclab ÷ CPU of Weka alone: warm ${(rows[0].cpuS / weka).toFixed(3)}, cold ${(rows[1].cpuS / weka).toFixed(3)}; wall: warm ${(rows[0].wallS / rows[2].wallS).toFixed(3)}, cold ${(rows[1].wallS / rows[2].wallS).toFixed(3)}; load average ${loadAverage()}`,
  );
  if (send === 'stdin') {
    const whole = rows[3].cpuS;
    console.log(
      `CPU of bnclab ÷ CPU of Weka discretizing itself: warm ${(rows[0].cpuS / whole).toFixed(3)}, cold ${(rows[1].cpuS / whole).toFixed(3)}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
