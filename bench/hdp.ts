/**
 * HDP estimator speed (Petitjean et al. 2018), two settings:
 *
 * 1. `java`: the setting of the authors' Java code (github fpetitjean/HDP, LEVEL tying): the whole dataset,
 *    numeric attributes binarised at the median, one tree per attribute conditioned on the class and the k
 *    previous attribute columns. Reported: seconds for the fit (tree building + sampling), CPU seconds,
 *    seconds per 1,000 iterations and nodes. With --hdp-classpath CP (the authors' compiled classes and
 *    their bundled jars, e.g. `bin:lib/commons-math3-3.6.1/commons-math3-3.6.1.jar`), each job is also run
 *    side by side, whole process against whole process, in turn (--runs rounds, CPU and wall medians with the
 *    load average; bench/lib/process.ts): our fit in a child process of this script (load, median
 *    binarisation, trees, sampling) and a small driver of ours, compiled with javac against CP into a
 *    temporary folder, that reads the same coded rows and builds the same trees with their ProbabilityTree
 *    (LEVEL tying, concentrations sampled every 5 iterations, as our defaults). Both sides print their total
 *    tree node count; the benchmark prints both and stops with an error if they differ in any run. Our
 *    child also says which sampler ran (the WebAssembly kernel, or the JavaScript loop where dist/ has no
 *    sweep.wasm). Without it: "no side-by-side comparison".
 * 2. `structures`: nb, tan, kdb-5 and skdb (when registered) with HDP on the first training fold of a
 *    2-fold split (MDL, missing as a value), the paper's protocol: seconds per model and per 1,000
 *    iterations, nodes and trees.
 *
 *    Beside each, the cost model's estimate for that job (src/spec/cost.ts: the structure and the HDP
 *    parameters on a training fold of that size) and measured CPU ÷ estimate, so the model is checked
 *    against CPU time, which load does not inflate (the runner stores wall time).
 *
 *   npm run build && node dist/bench/hdp.js [--mode java|structures|all] [--datasets letter,adult]
 *        [--iterations 5000] [--only letter:1:5000,magic:5:50000] [--structures nb,tan,kdb-5,skdb]
 *        [--prior code|paper] (structures only: the HDP preset)
 *        [--hdp-classpath CP] [--runs 5] [--warmup 1]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadRegistry } from '../src/datasets/registry.js';
import { loadDataset } from '../src/datasets/load.js';
import { fitPreprocessor } from '../src/datasets/preprocess.js';
import { stratifiedKFold, trainRows } from '../src/folds/split.js';
import type { DiscreteData } from '../src/bn/data.js';
import { previousColumnsStructure, type Structure } from '../src/bn/structure.js';
import { completeParams, getStructure, withDefaults } from '../src/registry.js';
import { Rng } from '../src/util/rng.js';
import { LogStirlingCache, fitHdpModel, hdp, hdpSettings, type HdpModel } from '../src/estimators/hdp/index.js';
import { SweepKernel } from '../src/estimators/hdp/sweep-kernel.js';
import { staticCostMs } from '../src/spec/cost.js';
import { NO_COMPARISON, alternate, loadAverage, summaryTable } from './lib/process.js';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'all' },
    datasets: { type: 'string', default: 'adult,letter,magic,nursery,shuttle' },
    iterations: { type: 'string', default: '5000' },
    only: { type: 'string' },
    structures: { type: 'string', default: 'nb,tan,kdb-5,skdb' },
    prior: { type: 'string', default: 'code' },
    'hdp-classpath': { type: 'string' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    child: { type: 'string' },
  },
});

/** The authors' setting: dataset:k:iterations (letter with k = 5 is the case of the issue's table). */
const JOBS = [
  'letter:1:5000',
  'letter:1:50000',
  'letter:5:5000',
  'magic:5:50000',
  'nursery:5:50000',
  'adult:1:5000',
  'adult:5:5000',
];

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
function fitTimed(
  data: DiscreteData,
  structure: Structure,
  iterations: number,
  prior: 'code' | 'paper',
): { ms: number; cpuMs: number; model: HdpModel; mb: number } {
  const stirling = new LogStirlingCache();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const model = fitHdpModel(
    data,
    structure,
    hdpSettings(completeParams(hdp, { iterations, prior })),
    { rng: new Rng('bench/hdp') },
    stirling,
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, model, mb: stirling.bytes() / 2 ** 20 };
}

function table(head: string[], rows: string[][]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    '| ' + r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join(' | ') + ' |';
  console.log(line(head));
  console.log('|' + w.map((x, i) => (i === 0 ? '-'.repeat(x + 2) : '-'.repeat(x + 1) + ':')).join('|') + '|');
  for (const r of rows) console.log(line(r));
}

/** Our driver of the authors' ProbabilityTree: the same trees as previousColumnsStructure, from coded rows. */
const DRIVER = `import hdp.ProbabilityNode;
import hdp.ProbabilityTree;
import hdp.TyingStrategy;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

public class BnclabHdpDriver {
  public static void main(String[] a) throws Exception {
    List<String> lines = Files.readAllLines(Paths.get(a[0]));
    int k = Integer.parseInt(a[1]);
    int iterations = Integer.parseInt(a[2]);
    int n = lines.size();
    int[][] d = new int[n][];
    for (int r = 0; r < n; r++) {
      String[] f = lines.get(r).split("\\t");
      d[r] = new int[f.length];
      for (int j = 0; j < f.length; j++) d[r][j] = Integer.parseInt(f[j]);
    }
    int m = d[0].length - 1; // column 0 is the class
    // The tree's root is package-private; its nodes per depth are public (getAllNodesAtRelativeDepth).
    Field rootField = ProbabilityTree.class.getDeclaredField("root");
    rootField.setAccessible(true);
    long nodes = 0;
    for (int i = 0; i < m; i++) {
      int p = Math.min(i, k);
      int[][] rows = new int[n][p + 2];
      for (int r = 0; r < n; r++) {
        rows[r][0] = d[r][1 + i];
        rows[r][1] = d[r][0];
        for (int j = 0; j < p; j++) rows[r][2 + j] = d[r][i - j];
      }
      ProbabilityTree t = new ProbabilityTree(false, iterations, TyingStrategy.LEVEL, 5);
      t.addDataset(rows);
      ProbabilityNode root = (ProbabilityNode) rootField.get(t);
      for (int depth = 0; depth <= p + 1; depth++) nodes += root.getAllNodesAtRelativeDepth(depth).size();
    }
    System.out.println("trees " + m + ", nodes " + nodes);
  }
}
`;

/** Child: one authors'-setting job in a fresh process, for the whole-process comparison. */
function childJob(job: string): void {
  const [name, ks, its] = job.split(':');
  const d = loadAll(name, 'median');
  const { cpuMs, model } = fitTimed(
    d.data,
    previousColumnsStructure(d.data.columns.length, Number(ks)),
    Number(its),
    'code',
  );
  // Which sampler ran: without dist/.../sweep.wasm (a build without scripts/wasm.mjs) the JavaScript loop
  // gives the same numbers more slowly, and a comparison should say so.
  const kernel = SweepKernel.get() ? 'WebAssembly' : 'JavaScript (no sweep.wasm)';
  console.log(`nodes ${model.diagnostics().nodes}, fit CPU ${(cpuMs / 1000).toFixed(2)} s, sampler ${kernel}`);
}

/** The tree node count a side printed ("nodes N"); throws when it printed none. */
function nodeCount(stdout: string, side: string): number {
  const m = /\bnodes (\d+)/.exec(stdout);
  if (!m) throw new Error(`${side} printed no node count: ${stdout.trim().slice(0, 200)}`);
  return Number(m[1]);
}

/** Time each job side by side with the authors' Java code (see the header). */
function sideBySide(jobs: readonly string[], classpath: string, runs: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'bnclab-hdp-java-'));
  try {
    writeFileSync(join(dir, 'BnclabHdpDriver.java'), DRIVER);
    const javac = spawnSync('javac', ['-cp', classpath, '-d', dir, join(dir, 'BnclabHdpDriver.java')], {
      encoding: 'utf8',
    });
    if (javac.status !== 0) throw new Error(`javac of the driver against --hdp-classpath failed:\n${javac.stderr}`);
    const script = fileURLToPath(import.meta.url);
    for (const job of jobs) {
      const [name, ks, its] = job.split(':');
      const { data } = loadAll(name, 'median');
      const file = join(dir, `${name}.tsv`);
      const lines: string[] = [];
      for (let r = 0; r < data.n; r++) lines.push([data.classColumn[r], ...data.columns.map((c) => c[r])].join('\t'));
      writeFileSync(file, lines.join('\n') + '\n');
      const summaries = alternate(
        [
          [{ label: `bnclab HDP (${job})`, cmd: process.execPath, args: [script, '--child', job] }],
          [
            {
              label: `authors' Java HDP (${job})`,
              cmd: 'java',
              args: ['-cp', `${dir}:${classpath}`, 'BnclabHdpDriver', file, ks, its],
            },
          ],
        ],
        runs,
        (s) => process.stderr.write(`${job}:${s}\n`),
        Number(values.warmup),
      );
      // Same trees on both sides, or the timings compare different work: every run's node count must agree.
      const ours = summaries[0].runs.map((r) => nodeCount(r.stdout, 'bnclab'));
      const theirs = summaries[1].runs.map((r) => nodeCount(r.stdout, 'Java driver'));
      const counts = new Set([...ours, ...theirs]);
      if (counts.size !== 1) {
        throw new Error(
          `${job}: node counts differ between the two sides: bnclab ${ours.join(', ')}; Java ${theirs.join(', ')}`,
        );
      }
      console.log(
        `\n${job}: whole process side by side (median of ${runs}; ours: ${summaries[0].runs[0].stdout.trim()})`,
      );
      console.log(`nodes: bnclab ${ours[0]}, authors' Java ${theirs[0]} (equal in every run)`);
      console.log(summaryTable(summaries));
      console.log(`load average at the end: ${loadAverage()}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mode = values.child ? 'child' : values.mode;
if (mode === 'child') childJob(values.child!);
if (mode === 'java' || mode === 'all') {
  const jobs = values.only ? values.only.split(',') : JOBS;
  const rows: string[][] = [];
  const loaded = new Map<string, { data: DiscreteData; ms: number }>();
  for (const job of jobs) {
    const [name, ks, its] = job.split(':');
    const k = Number(ks);
    const iterations = Number(its);
    let d = loaded.get(name);
    if (!d) {
      d = loadAll(name, 'median');
      loaded.set(name, d);
    }
    const { ms, cpuMs, model, mb } = fitTimed(
      d.data,
      previousColumnsStructure(d.data.columns.length, k),
      iterations,
      'code',
    );
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
  console.log("\nAuthors' setting (median-binarised, X_i | class + k previous columns, LEVEL tying, whole dataset)\n");
  table(
    ['dataset', 'rows', 'iterations', 'trees', 'nodes', 'load s', 'fit s', 'fit CPU s', 'CPU s / 1k it', 'Stirling MB'],
    rows,
  );
  if (values['hdp-classpath']) sideBySide(jobs, values['hdp-classpath'], Number(values.runs));
  else console.log(`\nAuthors' Java code: ${NO_COMPARISON} (give --hdp-classpath CP).`);
}

if (mode === 'structures' || mode === 'all') {
  // Every registered method (the structure learners), loaded only here: the side-by-side child fits HDP
  // alone, as the Java driver loads only the authors' tree, and is timed with its start-up.
  await import('../src/methods.js');
  const iterations = Number(values.iterations);
  const prior = values.prior;
  if (prior !== 'code' && prior !== 'paper') throw new Error(`--prior: 'code' or 'paper', got '${prior}'`);
  const rows: string[][] = [];
  for (const name of values.datasets.split(',')) {
    const train = firstFold(name);
    for (const [label, sid, params] of [
      ['nb', 'nb', {}],
      ['tan', 'tan', {}],
      ['kdb-5', 'kdb', { k: 5 }],
      ['skdb', 'skdb', { maxK: 5 }],
    ] as const) {
      if (!values.structures.split(',').includes(label)) continue;
      const s = getStructure(sid);
      if (!s) {
        console.error(`skipping ${label}: structure '${sid}' is not registered`);
        continue;
      }
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const structure = s.learn(train, withDefaults(s, params), { rng: new Rng('bench/structure') });
      const structMs = performance.now() - t0;
      const sc = process.cpuUsage(c0);
      const { ms, cpuMs, model, mb } = fitTimed(train, structure, iterations, prior);
      const { nodes, trees } = model.diagnostics();
      // The parameters a plan would give the job (the estimator's defaults and its prior preset).
      const hdpParams = completeParams(hdp, { iterations, prior });
      const estimate = staticCostMs(
        {
          kind: 'bnc',
          structure: { id: sid, params: { ...params }, given: { ...params } },
          estimator: { id: 'hdp', params: hdpParams, given: hdpParams },
          label: `${sid}/hdp`,
        },
        { nTrain: train.n, nTest: train.n, attributes: train.names.length, classes: train.classCard },
      ).ms;
      const measured = (sc.user + sc.system) / 1000 + cpuMs;
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
        (estimate / 1000).toFixed(2),
        (measured / estimate).toFixed(2),
      ]);
      console.error(`done ${name} ${label}`);
    }
  }
  console.log(
    `\nStructures with HDP (${iterations} iterations, prior ${prior}, first training fold of 2-fold CV, MDL, missing as a value;\n` +
      'model s: the cost model for the job, structure and HDP; CPU ÷ model: their measured CPU over it)\n',
  );
  table(
    [
      'dataset / structure',
      'train rows',
      'trees',
      'nodes',
      'structure s',
      'HDP fit s',
      'HDP CPU s',
      'CPU s / 1k it',
      'Stirling MB',
      'model s',
      'CPU ÷ model',
    ],
    rows,
  );
}
