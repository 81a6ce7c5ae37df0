/**
 * Training and prediction throughput of the classifier catalog (nb, tan, kdb-5, skdb, aode, hill-climb,
 * tan-hc, random-forest) on the largest shipped datasets (shuttle, 58,000 rows; letter, 20,000 rows), as
 * ratios to naive Bayes timed in the same run, and optionally against Weka on the same rows.
 *
 * Protocol: a fixed train/test split, the first fold (or the first --folds folds) of the stratified 10-fold
 * split that bench/throughput.js uses (Rng seed `bench/<dataset>`): 90% training, 10% test rows. MDL cut
 * points and everything else are fitted on the training rows only, missing values as a value, Dirichlet
 * α = 1 (Laplace) estimates, every method at its registry defaults except kdb k = 5. Every job goes
 * through the runner's own executeJob (src/runner/execute.ts), so train ms and predict ms are the runner's
 * own figures (preprocessing is not part of them, and is cached after a fold's first job). Each figure is
 * the median of --rounds rounds after one warm-up round; within a round every method runs once, in a
 * rotated order, so load drifts on a shared machine affect all methods alike. CPU ms is this process's CPU
 * time over the whole job (train, predict and metrics), less distorted than wall time by other processes.
 *
 * --weka-jar PATH (Debian package `weka`: /usr/share/java/weka.jar; without it, "no side-by-side comparison"):
 * writes the same discretized train and test rows as ARFF (nominal attributes) to --out, and times Weka's
 * NaiveBayes, AODE, BayesNet with TAN and with HillClimber, and RandomForest (-I 100) against nb, aode,
 * tan, hill-climb and random-forest two ways: the whole process (JVM or Node start, ARFF parsing, fit,
 * prediction of the test rows, evaluation), and the fit time each reports in that cold process (Weka's
 * "Time taken to build model"; ours the runner's trainMs, in a child process that reads the same
 * discretized rows from ARFF through executeJob with no discretization). Median of --weka-rounds.
 *
 *   npm run build && node dist/bench/catalog.js [--datasets shuttle,letter] [--rounds 5]
 *        [--methods nb,tan,kdb-5,skdb,aode,hill-climb,tan-hc,random-forest] [--folds 1]
 *        [--weka-jar /usr/share/java/weka.jar] [--weka-rounds 3] [--out /tmp/catbench]
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDataset } from '../src/datasets/load.js';
import { fitPreprocessor, type PreprocessOptions } from '../src/datasets/preprocess.js';
import { stratifiedKFold, testRows, trainRows } from '../src/folds/split.js';
import type { DiscreteData } from '../src/bn/data.js';
import { MISSING } from '../src/bn/data.js';
import { executeJob } from '../src/runner/execute.js';
import type { DatasetHandle, JobMethod, JobPayload } from '../src/runner/job.js';
import { getBaseline, getEstimator, getStructure, withDefaults, type Params } from '../src/registry.js';
import { UserError } from '../src/util/errors.js';
import { Rng } from '../src/util/rng.js';
import '../src/methods.js';
import { NO_COMPARISON, timeProcess } from './lib/process.js';
import { WEKA } from './lib/weka.js';

process.on('uncaughtException', (e) => {
  if (e instanceof UserError) {
    console.error(`catalog: ${e.message}`);
    process.exit(2);
  }
  console.error(e);
  process.exit(1);
});

const ESTIMATOR = { id: 'dirichlet', params: { alpha: 1 } };

/** The catalog: label → registry method, as a spec would name it. */
const CATALOG: Record<string, { kind: 'bnc' | 'baseline'; id: string; params?: Params }> = {
  nb: { kind: 'bnc', id: 'nb' },
  tan: { kind: 'bnc', id: 'tan' },
  'kdb-5': { kind: 'bnc', id: 'kdb', params: { k: 5 } },
  skdb: { kind: 'bnc', id: 'skdb' },
  aode: { kind: 'bnc', id: 'aode' },
  'hill-climb': { kind: 'bnc', id: 'hill-climb' },
  'tan-hc': { kind: 'bnc', id: 'tan-hc' },
  'random-forest': { kind: 'baseline', id: 'random-forest' },
};

const WEKA_NAME: Record<string, string> = {
  nb: 'NaiveBayes',
  aode: 'AODE',
  tan: 'BayesNet TAN',
  'hill-climb': 'BayesNet HillClimber',
  'random-forest': 'RandomForest',
};

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: 'shuttle,letter' },
    rounds: { type: 'string', default: '5' },
    methods: { type: 'string', default: 'nb,tan,kdb-5,skdb,aode,hill-climb,tan-hc,random-forest' },
    folds: { type: 'string', default: '1' },
    'weka-jar': { type: 'string' },
    'weka-rounds': { type: 'string', default: '3' },
    out: { type: 'string', default: '/tmp/catbench' },
    // Internal: one job on an ARFF file whose first --ntrain rows train and the rest test (whole-process timing).
    child: { type: 'string' },
    ntrain: { type: 'string' },
    method: { type: 'string' },
    seed: { type: 'string' },
  },
});

function positiveInt(name: string, s: string | undefined): number {
  const v = Number(s);
  if (!Number.isInteger(v) || v < 1) throw new UserError(`--${name} must be an integer >= 1, got '${s}'`);
  return v;
}

function methodPayload(label: string): JobMethod {
  const m = CATALOG[label];
  if (!m) throw new UserError(`unknown method '${label}'; the catalog has ${Object.keys(CATALOG).join(', ')}`);
  if (m.kind === 'baseline') {
    const info = getBaseline(m.id);
    if (!info) throw new UserError(`method '${m.id}' is not registered`);
    return { kind: 'baseline', baseline: { id: m.id, params: withDefaults(info, m.params) } };
  }
  const info = getStructure(m.id);
  if (!info) throw new UserError(`method '${m.id}' is not registered`);
  return {
    kind: 'bnc',
    structure: { id: m.id, params: withDefaults(info, m.params) },
    estimator: { id: ESTIMATOR.id, params: withDefaults(getEstimator(ESTIMATOR.id)!, ESTIMATOR.params) },
  };
}

interface Timed {
  trainMs: number;
  predictMs: number;
  cpuMs: number;
  accuracy: number;
  nTrain: number;
  nTest: number;
}

/** One job through the runner's executeJob; throws when the job fails. */
function runJob(p: JobPayload): Timed {
  const c0 = process.cpuUsage();
  const out = executeJob(p);
  const c = process.cpuUsage(c0);
  if (out.status !== 'done')
    throw new Error(`${p.kind === 'baseline' ? p.baseline.id : p.structure.id} on ${p.dataset.name}: ${out.error}`);
  return {
    trainMs: out.trainMs,
    predictMs: out.predictMs,
    cpuMs: (c.user + c.system) / 1000,
    accuracy: out.metrics!.accuracy,
    nTrain: out.metrics!.n_train,
    nTest: out.metrics!.n_test,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Child mode: one job on an ARFF file, printed as JSON; the parent times the whole process.
if (values.child) {
  const startMs = performance.now(); // since process start: Node bootstrap and loading every module
  const file = resolve(values.child);
  const nTrain = positiveInt('ntrain', values.ntrain);
  const handle: DatasetHandle = { name: 'catbench-child', file, sha256: '' };
  const { table } = loadDataset(handle); // parsed here, cached for executeJob
  const loadMs = performance.now() - startMs;
  const assignment = new Int32Array(table.n).fill(0);
  for (let r = 0; r < nTrain; r++) assignment[r] = 1; // fold 0 = the test rows after the first nTrain
  const t = runJob({
    key: `child/${values.method}`,
    seed: values.seed ?? `catbench/${values.method}`,
    dataset: handle,
    preprocessing: { discretize: { method: 'none' }, missing: 'as-value' },
    splitKey: 'child',
    repeat: 0,
    assignment,
    fold: 0,
    ...methodPayload(values.method ?? ''),
    savePredictions: false,
  });
  process.stdout.write(`${JSON.stringify({ ...t, startMs, loadMs })}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------
// Only the parent reads the data set registry; a child reads its ARFF file by path.
const { loadRegistry } = await import('../src/datasets/registry.js');
const rounds = positiveInt('rounds', values.rounds);
const nFolds = positiveInt('folds', values.folds);
if (nFolds > 10) throw new UserError(`--folds is at most 10 (folds of the 10-fold split), got ${nFolds}`);
const wekaRounds = positiveInt('weka-rounds', values['weka-rounds']);
const labels = [
  ...new Set(
    values.methods
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  ),
];
if (!labels.includes('nb')) labels.unshift('nb'); // the ratios need it
const payloads = new Map(labels.map((l) => [l, methodPayload(l)]));
const WEKA_JAR = values['weka-jar'] ?? '';
if (WEKA_JAR && !existsSync(WEKA_JAR))
  throw new UserError(`--weka-jar: ${WEKA_JAR} not found (Debian package weka: dpkg -L weka | grep jar)`);
const runWeka = WEKA_JAR !== '';
const PREPROCESSING: PreprocessOptions = { discretize: { method: 'mdl' }, missing: 'as-value' };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function rate(n: number, ms: number): string {
  return ms > 0 ? Math.round((n / ms) * 1000).toLocaleString('en-US') : '—';
}

function table(header: string[], rows: string[][]): string {
  return [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

interface Prepared {
  name: string;
  handle: DatasetHandle;
  assignment: Int32Array;
}

function prepare(name: string): Prepared {
  const entry = loadRegistry().get(name);
  const { table: t, sha256 } = loadDataset(entry);
  const assignment = stratifiedKFold(t.classColumn, t.classLabels.length, 10, new Rng(`bench/${name}`));
  return {
    name,
    handle: { name, file: entry.path, sha256, classColumn: entry.classColumn, columnTypes: entry.columnTypes },
    assignment,
  };
}

function jobFor(d: Prepared, fold: number, label: string): JobPayload {
  return {
    key: `catbench/${d.name}/${fold}/${label}`,
    seed: `catbench/${d.name}/${fold}/${label}`,
    dataset: d.handle,
    preprocessing: PREPROCESSING,
    splitKey: `bench/${d.name}`,
    repeat: 0,
    assignment: d.assignment,
    fold,
    ...payloads.get(label)!,
    savePredictions: false,
  };
}

const load = (): string => spawnSync('uptime', { encoding: 'utf8' }).stdout?.trim() ?? '';
console.log(`catbench: ${new Date().toISOString()}; ${load()}`);
console.log(
  `median of ${rounds} round(s) after one warm-up; first ${nFolds} fold(s) of a stratified 10-fold split ` +
    `(train 90% / test 10% per fold; figures summed over folds); MDL on the training rows, Laplace estimates\n`,
);

const summary: string[][] = [];
const perDataset = new Map<string, Map<string, Timed>>();
for (const name of values.datasets.split(',')) {
  const d = prepare(name);
  const samples = new Map(labels.map((l) => [l, [] as Timed[]]));
  const failed = new Map<string, string>();
  for (let r = 0; r < rounds + 1; r++) {
    const order = labels.map((_, i) => labels[(i + r) % labels.length]);
    for (const label of order) {
      if (failed.has(label)) continue;
      const sum: Timed = { trainMs: 0, predictMs: 0, cpuMs: 0, accuracy: 0, nTrain: 0, nTest: 0 };
      for (let f = 0; f < nFolds && !failed.has(label); f++) {
        let t: Timed;
        try {
          t = runJob(jobFor(d, f, label));
        } catch (e) {
          failed.set(label, (e as Error).message);
          if (label === 'nb') throw e;
          break;
        }
        sum.trainMs += t.trainMs;
        sum.predictMs += t.predictMs;
        sum.cpuMs += t.cpuMs;
        sum.accuracy += t.accuracy * t.nTest;
        sum.nTrain += t.nTrain;
        sum.nTest += t.nTest;
      }
      sum.accuracy /= sum.nTest;
      if (r > 0 && !failed.has(label)) samples.get(label)!.push(sum);
    }
    process.stderr.write(`  ${name}: round ${r}${r === 0 ? ' (warm-up)' : ''} done; ${load()}\n`);
  }
  const med = new Map<string, Timed>();
  for (const [label, s] of samples) {
    if (failed.has(label)) continue;
    med.set(label, {
      trainMs: median(s.map((x) => x.trainMs)),
      predictMs: median(s.map((x) => x.predictMs)),
      cpuMs: median(s.map((x) => x.cpuMs)),
      accuracy: s[0].accuracy,
      nTrain: s[0].nTrain,
      nTest: s[0].nTest,
    });
  }
  perDataset.set(name, med);
  const nb = med.get('nb')!;
  for (const label of labels) {
    const t = med.get(label);
    if (!t) {
      summary.push([name, label, `fails: ${failed.get(label)!.replace(/\|/g, '/')}`, '', '', '', '', '', '', '']);
      continue;
    }
    summary.push([
      name,
      label,
      t.trainMs.toFixed(1),
      t.predictMs.toFixed(1),
      t.cpuMs.toFixed(0),
      rate(t.nTrain, t.trainMs),
      rate(t.nTest, t.predictMs),
      (t.trainMs / nb.trainMs).toFixed(2),
      (t.predictMs / nb.predictMs).toFixed(2),
      t.accuracy.toFixed(4),
    ]);
  }
}
console.log(
  table(
    [
      'dataset',
      'method',
      'train ms',
      'predict ms',
      'CPU ms (job)',
      'train rows/s',
      'predict rows/s',
      'train / NB',
      'predict / NB',
      'accuracy',
    ],
    summary,
  ),
);

// ---------------------------------------------------------------------------------------------------------
// Weka comparison on the first fold.
if (!runWeka) {
  console.log(
    `\nWeka: ${NO_COMPARISON} (give --weka-jar PATH; Debian's weka package installs /usr/share/java/weka.jar).`,
  );
  process.exit(0);
}

/** ARFF quoting: single quotes, backslash escapes (as Weka writes them). */
function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function arffHeader(d: DiscreteData, relation: string): string {
  const lines = [`@relation ${quote(relation)}`, ''];
  d.names.forEach((n, a) => lines.push(`@attribute ${quote(n)} {${d.labels[a].map(quote).join(',')}}`));
  lines.push(`@attribute ${quote(d.className)} {${d.classLabels.map(quote).join(',')}}`, '', '@data');
  return `${lines.join('\n')}\n`;
}

function arffRows(d: DiscreteData): string {
  const valueText = d.labels.map((ls) => ls.map(quote));
  const classText = d.classLabels.map(quote);
  const out: string[] = [];
  for (let r = 0; r < d.n; r++) {
    const row: string[] = [];
    for (let a = 0; a < d.columns.length; a++) {
      const v = d.columns[a][r];
      row.push(v === MISSING ? '?' : valueText[a][v]);
    }
    row.push(classText[d.classColumn[r]]);
    out.push(row.join(','));
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** The first fold's discretized rows, exactly as executeJob prepares them (same split, same preprocessing). */
function firstFold(d: Prepared): { train: DiscreteData; test: DiscreteData } {
  const { table: t } = loadDataset(d.handle);
  const split = { repeats: 1, folds: 10, assignment: [d.assignment] };
  const pre = fitPreprocessor(t, trainRows(split, 0, 0), PREPROCESSING);
  return { train: pre.transform(t, pre.trainRows()), test: pre.transform(t, testRows(split, 0, 0)) };
}

/** Wall and CPU ms (user + system, all threads) of a child process, timed by GNU time (bench/lib/process.ts). */
function wall(cmd: string, args: string[]): { ms: number; cpuMs: number; stdout: string } {
  const t = timeProcess({ label: cmd, cmd, args });
  return { ms: t.wallS * 1000, cpuMs: t.cpuS * 1000, stdout: t.stdout };
}

interface WekaRun {
  ms: number;
  cpuMs: number;
  buildMs: number;
  accuracy: number;
  nTest: number;
}

/**
 * Two Weka runs: the whole process with -v -o (train, then evaluate on the test file only), and, since
 * Weka 3.6 prints "Time taken to build model" only when it also evaluates on the training data (no -v),
 * a second run without -v for that figure.
 */
function runWekaOnce(label: string, train: string, test: string): WekaRun {
  const [cls, ...opts] = WEKA[label];
  const dash = opts.indexOf('--');
  // Evaluation options go before the first '--' (after it come the search and estimator options).
  const withEval = (evalOpts: string[]): string[] =>
    dash < 0 ? [...opts, ...evalOpts] : [...opts.slice(0, dash), ...evalOpts, ...opts.slice(dash)];
  const whole = wall('java', ['-cp', WEKA_JAR, cls, ...withEval(['-t', train, '-T', test, '-v', '-o'])]);
  const correct = /Correctly Classified Instances\s+(\d+)/.exec(whole.stdout);
  const total = /Total Number of Instances\s+(\d+)/.exec(whole.stdout);
  const reported = wall('java', ['-cp', WEKA_JAR, cls, ...withEval(['-t', train, '-T', test, '-o'])]);
  const build = /Time taken to build model:\s*([\d.]+)\s*seconds/.exec(reported.stdout);
  if (!build || !correct || !total)
    throw new Error(`unexpected Weka output for ${label}:\n${whole.stdout}\n${reported.stdout}`);
  return {
    ms: whole.ms,
    cpuMs: whole.cpuMs,
    buildMs: Number(build[1]) * 1000,
    accuracy: Number(correct[1]) / Number(total[1]),
    nTest: Number(total[1]),
  };
}

type OursRun = Timed & { ms: number; processCpuMs: number; startMs: number; loadMs: number };

function runOursOnce(label: string, file: string, nTrain: number, seed: string): OursRun {
  const self = fileURLToPath(import.meta.url);
  const args = [self, '--child', file, '--ntrain', String(nTrain), '--method', label, '--seed', seed];
  const { ms, cpuMs, stdout } = wall(process.execPath, args);
  return {
    ms,
    processCpuMs: cpuMs,
    ...(JSON.parse(stdout.trim().split('\n').pop()!) as Omit<OursRun, 'ms' | 'processCpuMs'>),
  };
}

mkdirSync(values.out, { recursive: true });
const wekaLabels = labels.filter((l) => WEKA[l]);
const wekaRows: string[][] = [];
const breakdown: string[][] = [];
console.log(`\nWeka comparison (${WEKA_JAR}), first fold; median of ${wekaRounds} round(s); ${load()}`);
for (const name of values.datasets.split(',')) {
  const d = prepare(name);
  const { train, test } = firstFold(d);
  const header = arffHeader(train, `${name}-mdl-fold0`);
  const trainFile = resolve(values.out, `${name}-train.arff`);
  const testFile = resolve(values.out, `${name}-test.arff`);
  const bothFile = resolve(values.out, `${name}-train+test.arff`);
  const trainText = arffRows(train);
  const testText = arffRows(test);
  writeFileSync(trainFile, header + trainText);
  writeFileSync(testFile, header + testText);
  writeFileSync(bothFile, header + trainText + testText);
  const here = wekaLabels.filter((l) => perDataset.get(name)!.has(l)); // not the ones that failed above
  const ours = new Map(here.map((l) => [l, [] as OursRun[]]));
  const theirs = new Map(here.map((l) => [l, [] as WekaRun[]]));
  for (let r = 0; r < wekaRounds; r++) {
    const order = here.map((_, i) => here[(i + r) % here.length]);
    for (const label of order) {
      ours.get(label)!.push(runOursOnce(label, bothFile, train.n, jobFor(d, 0, label).seed));
      theirs.get(label)!.push(runWekaOnce(label, trainFile, testFile));
    }
    process.stderr.write(`  weka ${name}: round ${r + 1} of ${wekaRounds} done; ${load()}\n`);
  }
  for (const label of here) {
    const o = ours.get(label)!;
    const w = theirs.get(label)!;
    if (o[0].nTest !== test.n || w[0].nTest !== test.n) {
      throw new Error(`${name}/${label}: test rows differ (ours ${o[0].nTest}, Weka ${w[0].nTest}, fold ${test.n})`);
    }
    const inProcess = perDataset.get(name)?.get(label);
    // Same rows, same seed: the model read back from ARFF must classify exactly as the in-process one.
    if (inProcess && nFolds === 1 && Math.abs(inProcess.accuracy - o[0].accuracy) > 1e-12) {
      console.log(
        `WARNING ${name}/${label}: accuracy from ARFF (${o[0].accuracy}) differs from the in-process run (${inProcess.accuracy})`,
      );
    }
    const oFit = median(o.map((x) => x.trainMs));
    const wFit = median(w.map((x) => x.buildMs));
    const oMs = median(o.map((x) => x.ms));
    const wMs = median(w.map((x) => x.ms));
    const oCpu = median(o.map((x) => x.processCpuMs));
    const wCpu = median(w.map((x) => x.cpuMs));
    wekaRows.push([
      name,
      `${label} vs ${WEKA_NAME[label]}`,
      oFit.toFixed(0),
      wFit.toFixed(0),
      wFit > 0 ? (oFit / wFit).toFixed(2) : '—',
      oMs.toFixed(0),
      wMs.toFixed(0),
      (oMs / wMs).toFixed(2),
      Number.isNaN(oCpu) ? '—' : oCpu.toFixed(0),
      Number.isNaN(wCpu) ? '—' : wCpu.toFixed(0),
      Number.isNaN(oCpu) ? '—' : (oCpu / wCpu).toFixed(2),
      o[0].accuracy.toFixed(4),
      w[0].accuracy.toFixed(4),
    ]);
    const part = (f: (x: OursRun) => number): number => median(o.map(f));
    const [start, read, fit, pred] = [
      part((x) => x.startMs),
      part((x) => x.loadMs),
      part((x) => x.trainMs),
      part((x) => x.predictMs),
    ];
    breakdown.push([
      name,
      label,
      oMs.toFixed(0),
      start.toFixed(0),
      read.toFixed(0),
      fit.toFixed(0),
      pred.toFixed(0),
      (oMs - start - read - fit - pred).toFixed(0),
    ]);
  }
}
console.log(
  table(
    [
      'dataset',
      'ours vs Weka',
      'ours fit ms',
      'Weka build ms',
      'fit ours / Weka',
      'ours process ms',
      'Weka process ms',
      'process ours / Weka',
      'ours process CPU ms',
      'Weka process CPU ms',
      'CPU ours / Weka',
      'ours accuracy',
      'Weka accuracy',
    ],
    wekaRows,
  ),
);
console.log('\nWhere our whole process goes (medians; other = metrics, exit and process spawning):\n');
console.log(
  table(['dataset', 'method', 'process ms', 'Node start + modules', 'ARFF read', 'fit', 'predict', 'other'], breakdown),
);
console.log(`\nARFF files in ${values.out}; ${load()}`);
