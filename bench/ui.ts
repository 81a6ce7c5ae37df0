/**
 * `bnclab ui` on a large database: a synthetic experiment of D datasets × M methods × 5×10-fold CV
 * (default 100 × 20 × 50 = 100,000 jobs), stored through the store API (registerJobs, recordOutcomes) with
 * metrics drawn from a seeded stream (no learner runs). Then, against the HTTP server in this process:
 *
 * 1. first page: a fresh server's answers to the results page's first requests (the page, its script,
 *    /api/experiments, /api/meta, /api/results of every dataset and method), i.e. the database read once
 *    and the statistics of the whole grid;
 * 2. selection change: /api/results for other metrics, dataset subsets and method subsets, each answered
 *    from the cached rows (median and worst of the rounds);
 * 3. the CD diagram of a selection (/api/cd.svg, vega rendering; cached by content after the first).
 *
 *   npm run build && node dist/bench/ui.js [--datasets 100] [--methods 20] [--rounds 20] [--keep DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ResultStore, type JobOutcome, type JobRow } from '../src/store/db.js';
import { UiData } from '../src/ui/data.js';
import { startUi } from '../src/ui/server.js';
import { Rng } from '../src/util/rng.js';

const { values } = parseArgs({
  options: {
    datasets: { type: 'string', default: '100' },
    methods: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '20' },
    keep: { type: 'string' },
    db: { type: 'string' },
  },
});
const D = Number(values.datasets);
const M = Number(values.methods);
const REPEATS = 5;
const FOLDS = 10;

async function synthesise(file: string): Promise<number> {
  const store = await ResultStore.open(file);
  const rng = new Rng('bench-ui');
  await store.upsertExperiment({
    name: 'big',
    specFile: 'big.yaml',
    specHash: 'h',
    specText: '',
    seed: '1',
    version: 'bench',
  });
  const datasets = Array.from({ length: D }, (_, d) => `ds${String(d).padStart(3, '0')}`);
  const methods = Array.from({ length: M }, (_, m) => `method-${String(m).padStart(2, '0')}`);
  for (const [d, name] of datasets.entries())
    await store.upsertDataset({
      hash: `h${d}`,
      name,
      file: `${name}.csv`,
      rows: 100 + 37 * d,
      attributes: 10,
      classes: 2,
    });
  const jobs: JobRow[] = [];
  for (const [d, dataset] of datasets.entries())
    for (let r = 0; r < REPEATS; r++)
      for (let f = 0; f < FOLDS; f++)
        for (const method of methods)
          jobs.push({
            key: `${dataset}-${method}-${r}-${f}`,
            dataset,
            datasetHash: `h${d}`,
            splitKey: `s${d}`,
            repeat: r,
            fold: f,
            structure: method,
            structureParams: '{}',
            estimator: 'dirichlet',
            estimatorParams: '{"alpha":1}',
            preprocessing: '{}',
            seed: '1',
            method,
          });
  await store.registerJobs('big', jobs, 'bench');
  const base = datasets.map(() => 0.6 + 0.3 * rng.next());
  const skill = methods.map(() => 0.05 * rng.next());
  const outcomes: JobOutcome[] = jobs.map((j) => {
    const acc = Math.min(
      1,
      base[datasets.indexOf(j.dataset)] + skill[methods.indexOf(j.method)] + 0.04 * (rng.next() - 0.5),
    );
    return {
      key: j.key,
      status: 'done',
      preprocessMs: 0.1,
      trainMs: 1 + rng.next(),
      predictMs: 0.1,
      metrics: {
        accuracy: acc,
        zero_one_loss: 1 - acc,
        rmse: Math.sqrt(1 - acc) / 2,
        log_loss: -Math.log(Math.max(acc, 1e-3)),
        n_train: 90,
        n_test: 10,
        auc: Math.min(1, acc + 0.05),
        auc_ovr: Math.min(1, acc + 0.05),
        brier: (1 - acc) / 2,
        balanced_accuracy: acc,
        macro_f1: acc,
        confusion: [
          [5, 0],
          [0, 5],
        ],
        class_labels: ['a', 'b'],
      },
    };
  });
  for (let i = 0; i < outcomes.length; i += 5000) await store.recordOutcomes(outcomes.slice(i, i + 5000));
  await store.checkpoint();
  store.close();
  return jobs.length;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed(url: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(url);
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return performance.now() - t;
}

const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'bnclab-bench-ui-'));
const file = values.db ?? join(dir, 'big.duckdb');
try {
  let t = performance.now();
  const n = values.db ? D * M * REPEATS * FOLDS : await synthesise(file);
  if (!values.db)
    console.log(
      `synthesised ${n} jobs (${D} datasets × ${M} methods × ${REPEATS}×${FOLDS} folds) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

  // 1. First page: a fresh server (nothing cached), the results page's requests in the page's order.
  t = performance.now();
  const cpu0 = process.cpuUsage();
  const ui = await startUi(new UiData(file), '127.0.0.1', 0);
  const u = ui.url;
  const steps: [string, number][] = [];
  for (const path of ['', 'app.js', 'api/experiments', 'api/meta?exp=big', 'api/results?exp=big&metric=accuracy'])
    steps.push([path || '/', await timed(u + path)]);
  const first = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `first results page: ${first.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU (${steps.map(([p, ms]) => `${p} ${ms.toFixed(0)}`).join(', ')})`,
  );

  // 2. Selection changes, answered from the cached rows.
  const rounds = Number(values.rounds);
  const pick = (xs: string[], k: number, s: number): string[] => xs.filter((_, i) => (i * 7 + s) % xs.length < k);
  const ds = Array.from({ length: D }, (_, d) => `ds${String(d).padStart(3, '0')}`);
  const ms = Array.from({ length: M }, (_, m) => `method-${String(m).padStart(2, '0')}`);
  const metrics = ['accuracy', 'log_loss', 'rmse', 'auc', 'brier', 'macro_f1'];
  const kinds: Record<string, number[]> = { metric: [], datasets: [], methods: [] };
  // CPU of this process (server and client) per request: on a loaded machine the wall time mostly waits.
  const cpus: Record<string, number[]> = { metric: [], datasets: [], methods: [] };
  const withCpu = async (k: string, url: string): Promise<number> => {
    const c0 = process.cpuUsage();
    const ms = await timed(url);
    const c = process.cpuUsage(c0);
    cpus[k].push((c.user + c.system) / 1000);
    return ms;
  };
  for (let r = 0; r < rounds; r++) {
    const q = (metric: string, d: string[], m: string[]): string =>
      `${u}api/results?exp=big&metric=${metric}${d.map((x) => `&d=${x}`).join('')}${m.map((x) => `&m=${x}`).join('')}`;
    kinds['metric'].push(await withCpu('metric', q(metrics[r % metrics.length], [], [])));
    kinds['datasets'].push(await withCpu('datasets', q('accuracy', pick(ds, Math.floor(D / 2), r), [])));
    kinds['methods'].push(await withCpu('methods', q('accuracy', [], pick(ms, Math.max(2, Math.floor(M / 4)), r))));
  }
  for (const [k, xs] of Object.entries(kinds))
    console.log(
      `selection change (${k}), ${rounds} rounds: median ${median(xs).toFixed(0)} ms, worst ${Math.max(...xs).toFixed(0)} ms wall; median ${median(cpus[k]).toFixed(0)} ms CPU`,
    );

  // 3. The CD diagram (vega; cached by content after the first drawing of a selection).
  const cd = [
    await timed(`${u}api/cd.svg?exp=big&metric=accuracy`),
    await timed(`${u}api/cd.svg?exp=big&metric=accuracy`),
  ];
  console.log(`CD diagram of every method: first ${cd[0].toFixed(0)} ms, again ${cd[1].toFixed(0)} ms`);
  await ui.close();
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
