/**
 * Memory and throughput against the number of jobs: `bnclab run` (2 workers, `--no-report`, a fresh database)
 * of trivial jobs (nb with 100 Dirichlet α values on iris, 10-fold CV, n/1,000 repeats) at 10³ … 10⁶ jobs.
 * Whole processes under GNU time (CPU, wall, peak resident set); jobs per second of wall time; and the time
 * from the process's start to the first job sent to a worker (a preloaded module notes it; both builds get
 * the same one). With --other-bnclab DIR a second built checkout runs the same spec in the same rounds,
 * this build and that one in turn (up to --other-max jobs: the old plan held every job, and 10⁶ of them take
 * gigabytes).
 *
 *   npm run build && node dist/bench/jobs-scale.js [--sizes 1e3,1e4,1e5] [--runs 1] [--other-bnclab DIR]
 *     [--other-max 1e5] [--workers 2]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, median, timeProcess, type ProcessTiming } from './lib/process.js';
import { packageRoot } from '../src/util/paths.js';
import { intervalText, medianInterval, targetVerdict } from './lib/target.js';
import { trivialJobsSpec } from './lib/trivial-jobs.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1e3,1e4,1e5' },
    runs: { type: 'string', default: '1' },
    workers: { type: 'string', default: '2' },
    'other-bnclab': { type: 'string' },
    'other-max': { type: 'string', default: '1e5' },
  },
});

const sizes = values.sizes.split(',').map(Number);
for (const n of sizes) {
  if (!(Number.isInteger(n) && n >= 1000 && n % 1000 === 0))
    throw new Error(`--sizes: ${n} is not a multiple of 1,000`);
}
const runs = Number(values.runs);
const otherMax = Number(values['other-max']);
const dir = mkdtempSync(join(tmpdir(), 'bnclab-jobs-scale-'));

/** 100 methods × 10 folds × n/1,000 repeats on iris: n jobs of a millisecond or less each. */
function specOf(n: number): string {
  return trivialJobsSpec(dir, n);
}

// Preloaded in the timed process: notes when the coordinator first posts a message to a worker (a job).
// (A listener on a worker's own port would start the port before the worker's module listens.)
const preload = join(dir, 'first-job.cjs');
const firstJobFile = join(dir, 'first-job');
writeFileSync(
  preload,
  `const wt = require('node:worker_threads');
if (wt.isMainThread) {
  const post = wt.Worker.prototype.postMessage;
  let seen = false;
  wt.Worker.prototype.postMessage = function (...args) {
    if (!seen) {
      seen = true;
      require('node:fs').writeFileSync(${JSON.stringify(firstJobFile)}, Date.now() + '\\n');
    }
    return post.apply(this, args);
  };
}
`,
);

interface Build {
  readonly tag: string;
  readonly root: string;
}
const builds: Build[] = [
  { tag: 'this', root: packageRoot() },
  ...(values['other-bnclab'] ? [{ tag: 'other', root: resolve(values['other-bnclab']) }] : []),
];

interface Figure extends ProcessTiming {
  readonly firstJobS: number;
}

function runOnce(b: Build, spec: string, n: number): Figure {
  const db = join(dir, `${b.tag}-${n}.duckdb`);
  rmSync(db, { force: true });
  rmSync(`${db}.wal`, { force: true });
  rmSync(firstJobFile, { force: true });
  process.env['NODE_OPTIONS'] = `--require ${preload}`;
  const t0 = Date.now();
  const t = timeProcess({
    label: b.tag,
    cmd: process.execPath,
    args: [
      join(b.root, 'dist/src/cli/main.js'),
      'run',
      spec,
      '--workers',
      values.workers,
      '--no-report',
      '--quiet',
      '--db',
      db,
      '--max-jobs',
      String(n),
    ],
    cwd: b.root,
  });
  delete process.env['NODE_OPTIONS'];
  const first = existsSync(firstJobFile)
    ? Math.min(...readFileSync(firstJobFile, 'utf8').trim().split('\n').map(Number))
    : NaN;
  if (!t.stdout.includes(`${n} jobs done, 0 failed`)) throw new Error(`${b.tag} at ${n}: ${t.stdout}`);
  rmSync(db, { force: true });
  return { ...t, firstJobS: (first - t0) / 1000 };
}

const rows: string[] = [];
const verdicts: string[] = [];
console.log(`load average at the start: ${loadAverage()}`);
for (const n of sizes) {
  const spec = specOf(n);
  const per = new Map<string, Figure[]>();
  for (let r = 0; r < runs; r++) {
    for (const b of builds) {
      if (b.tag !== 'this' && n > otherMax) continue;
      const f = runOnce(b, spec, n);
      per.set(b.tag, [...(per.get(b.tag) ?? []), f]);
      console.log(
        `  ${n} jobs, ${b.tag}: CPU ${f.cpuS.toFixed(2)} s, wall ${f.wallS.toFixed(2)} s, peak ${f.peakMiB.toFixed(0)} MiB, ` +
          `first job ${f.firstJobS.toFixed(2)} s; load average ${loadAverage()}`,
      );
    }
  }
  for (const [tag, fs] of per) {
    // Each run's rate, its median in the table and read with its uncertainty against the targets
    // (lib/target.ts).
    const rate = medianInterval(fs.map((f) => n / f.wallS));
    const first = medianInterval(fs.map((f) => f.firstJobS));
    verdicts.push(
      `${n.toLocaleString('en-US')} jobs, ${tag}: jobs/s ${intervalText(rate, (x) => Math.round(x).toLocaleString('en-US'))}` +
        (n >= 20_000 ? `; ≥ 5,000 jobs/s: ${targetVerdict(rate, { atLeast: 5000 })}` : '') +
        `; first job ${intervalText(first, (x) => x.toFixed(2))} s` +
        (n >= 100_000 ? `; within 1 s: ${targetVerdict(first, { atMost: 1 })}` : ''),
    );
    rows.push(
      `| ${n.toLocaleString('en-US')} | ${tag} | ${median(fs.map((f) => f.cpuS)).toFixed(2)} | ${median(fs.map((f) => f.wallS)).toFixed(2)} | ` +
        `${Math.round(rate.median).toLocaleString('en-US')} | ${first.median.toFixed(2)} | ` +
        `${median(fs.map((f) => f.peakMiB)).toFixed(0)} |`,
    );
  }
}
console.log(`load average at the end: ${loadAverage()}\n`);
console.log('| jobs | build | CPU s | wall s | jobs/s (wall, median of the runs) | first job s | peak MiB |');
console.log('|---:|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
console.log('');
for (const v of verdicts) console.log(v);
rmSync(dir, { recursive: true, force: true });
