/**
 * Cost as the data grow: synthetic data from a known random network (src/datasets/synthetic.ts; 20
 * attributes of 2–5 values, 5 of them written as numbers so MDL discretization has work, a binary class),
 * 10^4 … 10^7 rows, for nb, tan, kdb-2 and aode with Laplace estimates. Each (size, method) runs in a fresh
 * child process, which times its phases: load (read the CSV file, hash it, parse it into typed columns),
 * discretize (MDL cut points fitted on the training rows of each fold, applied to training and test rows),
 * train (structure and parameters), predict (class posteriors of the test rows); then its CPU seconds
 * (user + system, the whole process), wall seconds and peak resident memory, beside two sizes of the table:
 * "coded", the issue's measure, one byte per value where the column has at most 256 values and two bytes
 * where it has up to 65,536 (the numeric columns' 20,000 distinct values until they are discretized: rows ×
 * 26; computed from the cardinalities, and checked against the bytes the loaded table holds), and "1 B/value",
 * as if every value took one byte (rows × 21). Folds: the first --folds of a stratified 10-fold split (default 1; --folds 10 is full
 * cross-validation). The child runs with Node's default heap settings, as the CLI does.
 *
 *   npm run build && node dist/bench/scaling.js [--sizes 1e4,1e5,1e6,1e7] [--methods nb,tan,kdb-2,aode]
 *        [--folds 1] [--out /tmp/bnclab-scaling]
 *
 * Generated files are kept in --out (named by rows and the network's content hash) and reused.
 *
 * --run instead times the whole `bnclab run` of naive Bayes (Laplace) in stratified 10-fold cross-validation
 * on each file, with --workers (default 2) worker threads and a fresh database: CPU seconds of the process
 * (every thread), wall seconds, peak resident memory and the database's size.
 *
 *   node dist/bench/scaling.js --run [--sizes 1e6,1e7] [--workers 2]
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDataset } from '../src/datasets/load.js';
import { fitPreprocessor } from '../src/datasets/preprocess.js';
import { randomNetwork, writeSyntheticCsv } from '../src/datasets/synthetic.js';
import { EXCLUDED, narrowAssignment, stratifiedKFold, testRows } from '../src/folds/split.js';
import { labelledRows } from '../src/bn/data.js';
import { getEstimator, getStructure, withDefaults } from '../src/registry.js';
import { contentKey } from '../src/util/hash.js';
import { Rng } from '../src/util/rng.js';
import '../src/methods.js';
import { loadAverage, type ProcessTiming, timeProcess } from './lib/process.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1e4,1e5,1e6,1e7' },
    methods: { type: 'string', default: 'nb,tan,kdb-2,aode' },
    folds: { type: 'string', default: '1' },
    out: { type: 'string', default: '/tmp/bnclab-scaling' },
    child: { type: 'string' },
    run: { type: 'boolean', default: false },
    workers: { type: 'string', default: '2' },
    method: { type: 'string' },
  },
});

const ATTRIBUTES = 20;
const NUMERIC = new Set([0, 4, 8, 12, 16]);
const SEED = 'scaling-1';
const METHODS: Record<string, { structure: string; params: Record<string, unknown> }> = {
  nb: { structure: 'nb', params: {} },
  tan: { structure: 'tan', params: {} },
  'kdb-2': { structure: 'kdb', params: { k: 2 } },
  aode: { structure: 'aode', params: {} },
};

function dataFile(rows: number): string {
  const net = randomNetwork({
    attributes: ATTRIBUTES,
    cards: Array.from({ length: ATTRIBUTES }, (_, i) => 2 + (i % 4)),
    classCard: 2,
    seed: SEED,
  });
  // Named by the network's content, so a file from another version of the generator is never reused.
  const file = join(
    values.out,
    `synthetic-${ATTRIBUTES}x${rows}-${contentKey({ ...net, classPrior: [...net.classPrior], cpts: net.cpts.map((c) => [...c]) }, 12)}.csv`,
  );
  if (!existsSync(file)) {
    mkdirSync(values.out, { recursive: true });
    const t0 = performance.now();
    writeSyntheticCsv(net, rows, SEED, `${file}.tmp`, NUMERIC);
    renameSync(`${file}.tmp`, file);
    process.stderr.write(`generated ${file} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  return file;
}

interface ChildResult {
  /** Bytes of the table as loaded: each column in the width its cardinality needs, the class included. */
  tableBytes: number;
  /** The coded table's bytes from the cardinalities alone: one byte a value up to 256 values, two up to 65,536. */
  codedBytes: number;
  loadS: number;
  discretizeS: number;
  trainS: number;
  predictS: number;
  accuracy: number;
}

/** Child: one method on one file; phases timed in this process, printed as one JSON line. */
function child(file: string, label: string, folds: number): void {
  const m = METHODS[label];
  if (!m) throw new Error(`unknown method '${label}' (known: ${Object.keys(METHODS).join(', ')})`);
  const s = getStructure(m.structure)!;
  const e = getEstimator('dirichlet')!;
  // Phases in CPU seconds of this (single-threaded) process: on a shared machine the wall clock of a phase
  // mostly measures the other processes.
  const cpuNow = (): number => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1e6;
  };
  let t = cpuNow();
  const lap = (): number => {
    const now = cpuNow();
    const d = now - t;
    t = now;
    return d;
  };
  const { table } = loadDataset({ name: 'synthetic', file });
  const out: ChildResult = {
    tableBytes:
      table.classColumn.byteLength +
      table.columns.reduce((s, c) => s + (c.type === 'numeric' ? c.ids : c.codes).byteLength, 0),
    codedBytes:
      table.n *
      [table.classLabels.length, ...table.columns.map((c) => (c.type === 'numeric' ? c.distinct : c.labels).length)]
        .map((card) => (card <= 256 ? 1 : card <= 65536 ? 2 : 4))
        .reduce((a, b) => a + b, 0),
    loadS: lap(),
    discretizeS: 0,
    trainS: 0,
    predictS: 0,
    accuracy: 0,
  };
  // Held as the planner holds it for a run (one byte a row).
  const assignment = narrowAssignment(
    stratifiedKFold(table.classColumn, table.classLabels.length, 10, new Rng('bench/scaling')),
  );
  const split = { repeats: 1, folds: 10, assignment: [assignment] };
  let hits = 0;
  let tested = 0;
  for (let f = 0; f < folds; f++) {
    lap();
    // The training rows as a worker reads them: every row the split does not test in fold f, no list.
    const rows = labelledRows(assignment, [f, EXCLUDED]);
    const pre = fitPreprocessor(table, rows, { discretize: { method: 'mdl' }, missing: 'as-value' });
    const train = pre.view(table, pre.trainSet());
    const test = pre.transform(table, testRows(split, 0, f));
    out.discretizeS += lap();
    const rng = new Rng(`bench/scaling/${f}`);
    const structure = s.learn(train, withDefaults(s, m.params), { rng });
    const model = e.fit(train, structure, withDefaults(e, { alpha: 1 }), { rng });
    out.trainS += lap();
    const p = model.posterior(test);
    out.predictS += lap();
    const C = test.classCard;
    for (let r = 0; r < test.n; r++) {
      let b = 0;
      for (let c = 1; c < C; c++) if (p[r * C + c] > p[r * C + b]) b = c;
      if (b === test.classColumn[r]) hits++;
    }
    tested += test.n;
  }
  out.accuracy = hits / tested;
  process.stdout.write(JSON.stringify(out) + '\n');
}

/** `bnclab run` of NB in 10-fold CV on each size, timed as a whole process. */
function runMode(sizes: number[]): void {
  const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
  console.log(
    `scaling --run: ${new Date().toISOString()}; load average ${loadAverage()}; nb/dirichlet(alpha 1), mdl, 10-fold stratified CV, ${values.workers} workers`,
  );
  console.log(
    '| rows | cache | process CPU s | wall s | peak MiB | 1 B/value MiB | peak / 1 B/value | database MiB | load average after |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|');
  // Each size twice with one cache folder, fresh before the first: "cold" parses the file (and stores its
  // hash and coded columns), "warm" is the second run of the same data, which reads the stored columns.
  const caches = mkdtempSync(join(tmpdir(), 'bnclab-scaling-cache-'));
  const savedCache = process.env['BNCLAB_CACHE_DIR'];
  for (const rows of sizes)
    for (const pass of ['cold', 'warm'] as const) {
      process.env['BNCLAB_CACHE_DIR'] = join(caches, String(rows));
      const file = dataFile(rows);
      const dir = mkdtempSync(join(tmpdir(), 'bnclab-scaling-run-'));
      const spec = join(dir, 'nb.yaml');
      writeFileSync(
        spec,
        `name: scaling-nb\nseed: 1\ndatasets: [${file}]\npreprocessing: { discretize: mdl, missing: as-value }\n` +
          `resampling: { method: cv, folds: 10, stratified: true }\nstructures: [nb]\nestimators: [{ dirichlet: { alpha: 1 } }]\n`,
      );
      const db = join(dir, 'nb.duckdb');
      let t: ProcessTiming;
      try {
        t = timeProcess({
          label: `run ${rows}`,
          cmd: process.execPath,
          args: [cli, 'run', spec, '--workers', values.workers, '--db', db, '--no-report', '--quiet'],
        });
      } catch (e) {
        console.log(
          `| ${rows} | ${pass} | failed: ${(e as Error).message.split('\n').slice(-3).join(' ').slice(0, 300)} |`,
        );
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      const oneByte = (rows * (ATTRIBUTES + 1)) / 2 ** 20;
      console.log(
        `| ${rows} | ${pass} | ${t.cpuS.toFixed(2)} | ${t.wallS.toFixed(2)} | ${t.peakMiB.toFixed(0)} | ${oneByte.toFixed(1)} | ${(t.peakMiB / oneByte).toFixed(1)} | ` +
          `${(statSync(db).size / 2 ** 20).toFixed(1)} | ${loadAverage()} |`,
      );
      rmSync(dir, { recursive: true, force: true });
    }
  if (savedCache === undefined) delete process.env['BNCLAB_CACHE_DIR'];
  else process.env['BNCLAB_CACHE_DIR'] = savedCache;
  rmSync(caches, { recursive: true, force: true });
}

if (values.child) {
  child(values.child, values.method!, Number(values.folds));
} else if (values.run) {
  runMode(values.sizes.split(',').map((x) => Math.round(Number(x))));
} else {
  const folds = Number(values.folds);
  if (!Number.isInteger(folds) || folds < 1 || folds > 10) throw new Error(`--folds: 1 to 10, got '${values.folds}'`);
  const sizes = values.sizes.split(',').map((x) => Math.round(Number(x)));
  const script = fileURLToPath(import.meta.url);
  console.log(
    `scaling: ${new Date().toISOString()}; load average ${loadAverage()}; ${ATTRIBUTES} attributes (5 numeric), binary class, ${folds} fold(s) of 10`,
  );
  console.log(
    '| rows | method | load CPU s | discretize CPU s | train CPU s | predict CPU s | process CPU s | wall s | peak MiB | coded MiB | peak / coded | 1 B/value MiB | peak / 1 B/value | accuracy |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const rows of sizes) {
    const file = dataFile(rows);
    for (const label of values.methods.split(',')) {
      let t: ProcessTiming;
      try {
        t = timeProcess({
          label: `${label} ${rows}`,
          cmd: process.execPath,
          args: [script, '--child', file, '--method', label, '--folds', String(folds)],
        });
      } catch (e) {
        console.log(
          `| ${rows} | ${label} | failed: ${(e as Error).message.split('\n').slice(-3).join(' ').slice(0, 300)} |`,
        );
        continue;
      }
      const r = JSON.parse(t.stdout.trim().split('\n').pop()!) as ChildResult;
      if (r.codedBytes !== r.tableBytes)
        throw new Error(
          `${label} ${rows}: the table holds ${r.tableBytes} bytes, its cardinalities ask ${r.codedBytes}`,
        );
      const coded = r.codedBytes / 2 ** 20;
      const oneByte = (rows * (ATTRIBUTES + 1)) / 2 ** 20;
      console.log(
        `| ${rows} | ${label} | ${r.loadS.toFixed(2)} | ${r.discretizeS.toFixed(2)} | ${r.trainS.toFixed(2)} | ${r.predictS.toFixed(2)} | ` +
          `${t.cpuS.toFixed(2)} | ${t.wallS.toFixed(2)} | ${t.peakMiB.toFixed(0)} | ${coded.toFixed(1)} | ${(t.peakMiB / coded).toFixed(2)} | ` +
          `${oneByte.toFixed(1)} | ${(t.peakMiB / oneByte).toFixed(2)} | ${r.accuracy.toFixed(4)} |`,
      );
    }
    process.stderr.write(`  ${rows} rows done; load average ${loadAverage()}\n`);
  }
  console.log(`load average at the end: ${loadAverage()}`);
}
