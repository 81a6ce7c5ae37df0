/**
 * How fast finished outcomes are stored. Two measurements:
 *
 * 1. `writer`: N synthetic outcomes (metrics, 8 arcs; optionally 30 prediction rows each) pushed through the
 *    coordinator's write queue (src/runner/writer.ts) into a fresh DuckDB file, with the same registration
 *    as a run: outcomes stored per second, and the batches it took. No learner runs, so this is the
 *    store's ceiling.
 * 2. `run`: a whole `bnclab run` of a grid of trivial jobs (naive Bayes on iris under repeated 10-fold CV,
 *    a sweep of Dirichlet α), in process: jobs stored per second from the first to the last stored job.
 *
 *   npm run build && node dist/bench/store-writes.js [--mode writer|run|all] [--outcomes 100000]
 *        [--predictions] [--repeats 100] [--alphas 10] [--workers 2] [--rounds 3]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { OutcomeWriter } from '../src/runner/writer.js';
import { runExperiment } from '../src/runner/run.js';
import { ResultStore, type JobOutcome, type JobRow } from '../src/store/db.js';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'all' },
    outcomes: { type: 'string', default: '100000' },
    predictions: { type: 'boolean', default: false },
    repeats: { type: 'string', default: '100' },
    alphas: { type: 'string', default: '10' },
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function writerRound(n: number, withPredictions: boolean): Promise<{ perSecond: number; batches: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bnclab-bench-'));
  try {
    const store = await ResultStore.open(join(dir, 'w.duckdb'));
    const jobs: JobRow[] = Array.from({ length: n }, (_, i) => ({
      key: `job-${i}`,
      dataset: 'iris',
      datasetHash: 'h',
      splitKey: 's',
      repeat: Math.floor(i / 10),
      fold: i % 10,
      structure: 'nb',
      structureParams: '{}',
      estimator: 'dirichlet',
      estimatorParams: '{"alpha":1}',
      preprocessing: '{}',
      seed: String(i),
      method: 'nb/dirichlet',
    }));
    await store.registerJobs('bench', jobs, 'bench');
    const arcs = Array.from({ length: 8 }, (_, a) => ['class', `a${a}`] as const);
    let batches = 0;
    const writer = new OutcomeWriter(store, { onStored: () => batches++ });
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      await writer.room();
      const o: JobOutcome = {
        key: `job-${i}`,
        status: 'done',
        preprocessMs: 0.1,
        trainMs: 0.2,
        predictMs: 0.1,
        arcs,
        metrics: {
          accuracy: 0.9,
          zero_one_loss: 0.1,
          rmse: 0.2,
          log_loss: 0.3,
          n_train: 135,
          n_test: 15,
          auc: 0.95,
          auc_ovr: 0.95,
          brier: 0.12,
          balanced_accuracy: 0.9,
          macro_f1: 0.9,
          confusion: [
            [5, 0, 0],
            [0, 4, 1],
            [0, 0, 5],
          ],
          class_labels: ['a', 'b', 'c'],
        },
        ...(withPredictions
          ? {
              predictions: {
                rows: Int32Array.from({ length: 30 }, (_, r) => r),
                truth: new Int32Array(30),
                probs: new Float64Array(90).fill(1 / 3),
                classCard: 3,
              },
            }
          : {}),
      };
      writer.push(o);
      // Hand control to the event loop now and then, as arriving worker messages do.
      if (i % 64 === 63) await new Promise((r) => setImmediate(r));
    }
    await writer.flush();
    const seconds = (performance.now() - start) / 1000;
    if (writer.failure) throw writer.failure.cause;
    store.close();
    return { perSecond: n / seconds, batches };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runRound(
  repeats: number,
  alphas: number,
  workers: number,
): Promise<{ jobs: number; perSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bnclab-bench-'));
  try {
    const spec = join(dir, 'trivial.yaml');
    const sweep = Array.from({ length: alphas }, (_, i) => (i + 1) / 2);
    writeFileSync(
      spec,
      `name: trivial\nseed: 1\ndatasets: [iris]\nresampling: { folds: 10, repeats: ${repeats} }\nstructures: [nb]\n` +
        `estimators:\n  - dirichlet: { alpha: [${sweep.join(', ')}] }\n`,
    );
    const lines: { t: number; n: number }[] = [];
    const progress = {
      isTTY: false,
      write(s: string): void {
        const m = /progress: (\d+)\//.exec(s);
        if (m) lines.push({ t: performance.now(), n: Number(m[1]) });
      },
    };
    const summary = await runExperiment(spec, { db: join(dir, 'trivial.duckdb'), workers, progress });
    const first = lines[0];
    const last = lines[lines.length - 1];
    return { jobs: summary.succeeded, perSecond: (last.n - first.n) / ((last.t - first.t) / 1000) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.mode === 'writer' || values.mode === 'all') {
  const n = Number(values.outcomes);
  const rs = [];
  for (let r = 0; r < rounds; r++) rs.push(await writerRound(n, Boolean(values.predictions)));
  console.log(
    `writer: ${n} outcomes${values.predictions ? ' with 30 prediction rows each' : ''}: ` +
      `median ${Math.round(median(rs.map((r) => r.perSecond)))} stored/s (rounds: ${rs.map((r) => Math.round(r.perSecond)).join(', ')}; ` +
      `batches: ${rs.map((r) => r.batches).join(', ')})`,
  );
}
if (values.mode === 'run' || values.mode === 'all') {
  const rs = [];
  for (let r = 0; r < rounds; r++)
    rs.push(await runRound(Number(values.repeats), Number(values.alphas), Number(values.workers)));
  console.log(
    `run: ${rs[0].jobs} trivial jobs on ${values.workers} workers: median ${Math.round(median(rs.map((r) => r.perSecond)))} stored/s ` +
      `(rounds: ${rs.map((r) => Math.round(r.perSecond)).join(', ')})`,
  );
}
