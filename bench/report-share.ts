/**
 * The report's share of a run's CPU: a 960-job run (the quickstart's six datasets, balance-scale and
 * lymphography × nb, tan, aode, kdb, fan-mdl and cl-ode with Dirichlet α = 1 and 0.5, stratified 10-fold
 * CV, MDL), timed as whole processes (GNU time, bench/lib/process.ts), every run cold: an empty cache folder,
 * a fresh database and no earlier report. Per build: `run` (report included), `run --no-report`, and
 * `report` alone into a new folder of the database a run left (the first report of these results).
 * The share is (run − run --no-report) ÷ run, from the medians; and, measured inside each `run` process (a
 * preloaded module notes the process's CPU when the run prints its `results:` line, the jobs stored, then
 * its `report:` line, the report written, and at exit), the median of report ÷ whole process, which is not a
 * difference of two noisy medians. Commands of every build in turn, round
 * after round (one warm-up round), with the load average.
 * --other-bnclab DIR times a second built checkout (e.g. the main branch) in the same rounds. The previous
 * process's files are set aside between processes (lib/process.ts, setAside); --delete-between deletes them
 * instead, as up to 0.5.5, charging each process for the inodes its predecessor freed.
 *
 *   npm run build && node dist/bench/report-share.js [--runs 3] [--workers 2] [--other-bnclab DIR] [--delete-between]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/util/paths.js';
import { alternate, loadAverage, setAside, summaryTable, type Command, type Summary } from './lib/process.js';
import { intervalText, medianInterval, targetVerdict } from './lib/target.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
    'other-bnclab': { type: 'string' },
    'delete-between': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected an integer ≥ 1, got '${values.runs}'`);
const root = packageRoot(fileURLToPath(import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bnclab-report-share-'));
/** The JSON lines the preloaded module writes for a build's timed runs. */
const cpuFile = (tag: string): string => join(work, `report-cpu-${tag}.jsonl`);

const SPEC = `name: report_share
seed: 1
datasets: [breast-cancer, car, house-votes-84, iris, tic-tac-toe, zoo, balance-scale, lymphography]
preprocessing: { discretize: mdl, missing: as-value }
resampling: { method: cv, folds: 10, stratified: true }
structures: [nb, tan, aode, kdb, fan-mdl, cl-ode]
estimators:
  - { id: dirichlet, params: { alpha: 1 } }
  - { id: dirichlet, params: { alpha: 0.5 } }
`;

// Preloaded in each timed `run`: the process's CPU (all its threads, getrusage) when the run prints its
// `results:` line (the jobs are stored: the report starts), its `report:` line (the report is written) and
// at exit, one JSON line per process.
const preload = join(work, 'report-cpu.cjs');
writeFileSync(
  preload,
  `const fs = require('node:fs');
const file = process.env.BNCLAB_BENCH_REPORT_CPU;
let start;
let end;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const write = process.stdout.write;
process.stdout.write = function (chunk, ...rest) {
  const text = String(chunk);
  if (start === undefined && text.startsWith('results:')) start = cpu();
  if (end === undefined && text.startsWith('report:')) end = cpu();
  return write.call(this, chunk, ...rest);
};
process.on('exit', () => {
  const total = cpu();
  const report = start === undefined || end === undefined ? null : end - start;
  if (file) fs.appendFileSync(file, JSON.stringify({ total, report }) + '\\n');
});
`,
);

try {
  const builds = [
    { tag: 'this', dir: root },
    ...(values['other-bnclab'] ? [{ tag: values['other-bnclab'], dir: values['other-bnclab'] }] : []),
  ];
  const groups: Command[][] = [];
  for (const b of builds) {
    const tag = b.tag.replace(/[^A-Za-z0-9]/g, '_');
    const dir = join(work, tag);
    execFileSync('mkdir', ['-p', dir]);
    const spec = join(dir, 'report_share.yaml');
    writeFileSync(spec, SPEC);
    const cli = join(b.dir, 'dist', 'src', 'cli', 'main.js');
    const cache = join(dir, 'cache');
    const db = join(dir, 'run.duckdb');
    // A fresh database, an empty cache folder and no report folder before every timed process: the previous
    // ones set aside, not deleted (setAside says why), unless --delete-between.
    const discard = (p: string): void =>
      values['delete-between'] ? rmSync(p, { recursive: true, force: true }) : setAside(p, join(work, 'trash'));
    const fresh = (keepDb: boolean) => (): void => {
      discard(cache);
      discard(join(dir, 'results'));
      discard(join(dir, 'report'));
      if (!keepDb) for (const f of [db, `${db}.wal`]) discard(f);
    };
    const command = (label: string, args: string[], keepDb: boolean, env: string[] = []): Command => ({
      label: `${label} (${b.tag})`,
      cmd: '/usr/bin/env',
      args: [`BNCLAB_CACHE_DIR=${cache}`, ...env, process.execPath, cli, ...args],
      cwd: dir,
      before: fresh(keepDb),
    });
    const run = ['run', spec, '--db', db, '--workers', values.workers, '--quiet'];
    groups.push([
      command('run', run, false, [`NODE_OPTIONS=--require ${preload}`, `BNCLAB_BENCH_REPORT_CPU=${cpuFile(tag)}`]),
    ]);
    groups.push([command('run --no-report', [...run, '--no-report'], false)]);
    // After `run --no-report` the database holds every result: the report alone, first of its kind.
    groups.push([command('report, first', ['report', spec, '--db', db, '--out', join(dir, 'report')], true)]);
  }
  console.log(`report-share: ${new Date().toISOString()}; load average ${loadAverage()}; median of ${runs}, in turn`);
  const summaries = alternate(groups, runs, (s) => process.stderr.write(`report-share:${s}\n`));
  console.log(summaryTable(summaries));
  for (let i = 0; i < summaries.length; i += 3) {
    const [withReport, without] = summaries.slice(i, i + 2) as [Summary, Summary];
    const share = (withReport.cpuS - without.cpuS) / withReport.cpuS;
    console.log(`${builds[i / 3].tag}: the report's share of the run's CPU ${(100 * share).toFixed(1)} %`);
    // In-process: each timed run's report CPU over its whole CPU (the warm-up round's line left out).
    const file = cpuFile(builds[i / 3].tag.replace(/[^A-Za-z0-9]/g, '_'));
    const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(1) : [];
    const shares = lines
      .map((l) => JSON.parse(l) as { total: number; report: number | null })
      .filter((x) => x.report !== null)
      .map((x) => x.report! / x.total)
      .sort((a, b) => a - b);
    if (shares.length > 0) {
      const interval = medianInterval(shares);
      console.log(
        `${builds[i / 3].tag}: measured inside each run, the report's share ${intervalText(interval, (x) => (100 * x).toFixed(1))} %; ` +
          `≤ 15 %: ${targetVerdict(interval, { atMost: 0.15 })} (runs: ${shares.map((x) => (100 * x).toFixed(1)).join(', ')} %)`,
      );
    }
  }
  console.log(`load average at the end: ${loadAverage()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
