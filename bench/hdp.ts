/**
 * HDP estimator speed (Petitjean et al. 2018), two settings:
 *
 * 1. `java`: the setting of the authors' Java code (github fpetitjean/HDP, LEVEL tying): the whole dataset,
 *    numeric attributes binarised at the median, one tree per attribute conditioned on the class and the k
 *    previous attribute columns. Reported: seconds for the fit (tree building + sampling), CPU seconds,
 *    seconds per 1,000 iterations and nodes. No ratio to the Java code is printed: a ratio only means
 *    something when both programs run side by side in the same benchmark, which this one does not do
 *    ("no side-by-side comparison"; time the Java code and this benchmark's child process in turn).
 * 2. `structures`: nb, tan, kdb-5 and skdb (when registered) with HDP on the first training fold of a
 *    2-fold split (MDL, missing as a value), the paper's protocol: seconds per model and per 1,000
 *    iterations, nodes and trees.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/hdp.js [--mode java|structures|all] [--datasets letter,adult]
 *        [--iterations 5000] [--only letter:1:5000,magic:5:50000] [--structures nb,tan,kdb-5,skdb]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadRegistry } from '../src/datasets/registry.js';
import { loadDataset } from '../src/datasets/load.js';
import { fitPreprocessor } from '../src/datasets/preprocess.js';
import { stratifiedKFold, trainRows } from '../src/folds/split.js';
import type { DiscreteData } from '../src/bn/data.js';
import { previousColumnsStructure, type Structure } from '../src/bn/structure.js';
import { getStructure, withDefaults } from '../src/registry.js';
import { Rng } from '../src/util/rng.js';
import { LogStirlingCache, fitHdpModel, hdpSettings, type HdpModel } from '../src/estimators/hdp/index.js';
import '../src/methods.js';
import { NO_COMPARISON } from './lib/process.js';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'all' },
    datasets: { type: 'string', default: 'adult,letter,magic,nursery,shuttle' },
    iterations: { type: 'string', default: '5000' },
    only: { type: 'string' },
    structures: { type: 'string', default: 'nb,tan,kdb-5,skdb' },
  },
});

/** The authors' setting: dataset:k:iterations (letter with k = 5 is the case of the issue's table). */
const JOBS = ['letter:1:5000', 'letter:1:50000', 'letter:5:5000', 'magic:5:50000', 'nursery:5:50000', 'adult:1:5000', 'adult:5:5000'];

function loadAll(name: string, method: 'median' | 'mdl'): { data: DiscreteData; ms: number } {
  const t0 = performance.now();
  const { table } = loadDataset(loadRegistry().get(name));
  const all = Int32Array.from({ length: table.classColumn.length }, (_, i) => i);
  const pre = fitPreprocessor(table, all, { discretize: { method }, missing: 'as-value' });
  const data = pre.transform(table, pre.trainRows());
  return { data, ms: performance.now() - t0 };
}

function firstFold(name: string): DiscreteData {
  const { table } = loadDataset(loadRegistry().get(name));
  const assignment = stratifiedKFold(table.classColumn, table.classLabels.length, 2, new Rng(`bench/${name}`));
  const split = { repeats: 1, folds: 2, assignment: [assignment] };
  const pre = fitPreprocessor(table, trainRows(split, 0, 0), { discretize: { method: 'mdl' }, missing: 'as-value' });
  return pre.transform(table, pre.trainRows());
}

/** Wall-clock and CPU milliseconds of one fit (CPU time is what the shared two-core machine does not distort). */
function fitTimed(data: DiscreteData, structure: Structure, iterations: number): { ms: number; cpuMs: number; model: HdpModel; mb: number } {
  const stirling = new LogStirlingCache();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const model = fitHdpModel(data, structure, hdpSettings({ iterations }), { rng: new Rng('bench/hdp') }, stirling);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, model, mb: stirling.bytes() / 2 ** 20 };
}

function table(head: string[], rows: string[][]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ') + ' |';
  console.log(line(head));
  console.log('|' + w.map((x, i) => (i === 0 ? '-'.repeat(x + 2) : '-'.repeat(x + 1) + ':')).join('|') + '|');
  for (const r of rows) console.log(line(r));
}

const mode = values.mode!;
if (mode === 'java' || mode === 'all') {
  const jobs = values.only ? values.only.split(',') : JOBS;
  const rows: string[][] = [];
  const loaded = new Map<string, { data: DiscreteData; ms: number }>();
  for (const job of jobs) {
    const [name, ks, its] = job.split(':');
    const k = Number(ks);
    const iterations = Number(its);
    let d = loaded.get(name!);
    if (!d) {
      d = loadAll(name!, 'median');
      loaded.set(name!, d);
    }
    const { ms, cpuMs, model, mb } = fitTimed(d.data, previousColumnsStructure(d.data.columns.length, k), iterations);
    const { nodes, trees } = model.diagnostics();
    rows.push([
      `${name} k=${k}`,
      String(d.data.n),
      String(iterations),
      String(trees),
      String(nodes),
      (d.ms / 1000).toFixed(2),
      (ms / 1000).toFixed(2),
      (cpuMs / 1000).toFixed(2),
      (cpuMs / iterations).toFixed(3),
      mb.toFixed(1),
    ]);
    console.error(`done ${job}`);
  }
  console.log('\nAuthors\' setting (median-binarised, X_i | class + k previous columns, LEVEL tying, whole dataset)\n');
  table(['dataset', 'rows', 'iterations', 'trees', 'nodes', 'load s', 'fit s', 'fit CPU s', 'CPU s / 1k it', 'Stirling MB'], rows);
  console.log(`\nAuthors' Java code: ${NO_COMPARISON}.`);
}

if (mode === 'structures' || mode === 'all') {
  const iterations = Number(values.iterations);
  const rows: string[][] = [];
  for (const name of values.datasets!.split(',')) {
    const train = firstFold(name);
    for (const [label, sid, params] of [
      ['nb', 'nb', {}],
      ['tan', 'tan', {}],
      ['kdb-5', 'kdb', { k: 5 }],
      ['skdb', 'skdb', { maxK: 5 }],
    ] as const) {
      if (!values.structures!.split(',').includes(label)) continue;
      const s = getStructure(sid);
      if (!s) {
        console.error(`skipping ${label}: structure '${sid}' is not registered`);
        continue;
      }
      const t0 = performance.now();
      const structure = s.learn(train, withDefaults(s, params), { rng: new Rng('bench/structure') });
      const structMs = performance.now() - t0;
      const { ms, cpuMs, model, mb } = fitTimed(train, structure, iterations);
      const { nodes, trees } = model.diagnostics();
      rows.push([
        `${name} ${label}`,
        String(train.n),
        String(trees),
        String(nodes),
        (structMs / 1000).toFixed(2),
        (ms / 1000).toFixed(2),
        (cpuMs / 1000).toFixed(2),
        (cpuMs / iterations).toFixed(3),
        mb.toFixed(1),
      ]);
      console.error(`done ${name} ${label}`);
    }
  }
  console.log(`\nStructures with HDP (${iterations} iterations, first training fold of 2-fold CV, MDL, missing as a value)\n`);
  table(['dataset / structure', 'train rows', 'trees', 'nodes', 'structure s', 'HDP fit s', 'HDP CPU s', 'CPU s / 1k it', 'Stirling MB'], rows);
}
