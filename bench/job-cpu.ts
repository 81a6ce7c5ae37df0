/**
 * A trivial job's own CPU, without the pool, the messages or the store: `executeJob` on the first n payloads
 * of `jobs-scale`'s spec (nb with 100 Dirichlet α on iris), in plan order as a worker gets them, in one
 * thread of a child process per build. Each child runs the payloads three times and reports the CPU a job of
 * the last two rounds (the first compiles and warms the folds); with --other-bnclab DIR a second built
 * checkout runs the same payloads, the two builds in turn, --runs times each. Every build's check sum of
 * the jobs' accuracies is printed: they must agree.
 *
 *   npm run build && node dist/bench/job-cpu.js [--jobs 10000] [--runs 3] [--other-bnclab DIR]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage } from './lib/process.js';
import { intervalText, medianInterval } from './lib/target.js';
import { trivialJobsSpec } from './lib/trivial-jobs.js';
import { packageRoot } from '../src/util/paths.js';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    'other-bnclab': { type: 'string' },
  },
});
const jobs = Number(values.jobs);
if (!(Number.isInteger(jobs) && jobs >= 1000)) throw new Error(`--jobs: ${values.jobs} is not a whole number ≥ 1,000`);
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), 'bnclab-job-cpu-'));
const spec = trivialJobsSpec(dir, Math.ceil(jobs / 1000) * 1000);

/**
 * The child: the build's own modules, its payloads as its runner makes them, executeJob three times over them.
 * Prints one JSON line: the CPU µs a job of rounds 2 and 3, and the sum of the accuracies.
 */
const child = `
const [root, spec, n] = process.argv.slice(1);
const { loadSpecFile } = await import(root + '/dist/src/spec/load.js');
const { buildPlan } = await import(root + '/dist/src/spec/plan.js');
const { payloadOf } = await import(root + '/dist/src/runner/run.js');
const { executeJob } = await import(root + '/dist/src/runner/execute.js');
const plan = buildPlan(loadSpecFile(spec).spec);
const payloads = [];
for (let i = 0; i < Number(n); i++) payloads.push(payloadOf(plan, plan.grid.at(i), false));
const us = [];
let check = 0;
for (let round = 0; round < 3; round++) {
  const c0 = process.cpuUsage();
  let sum = 0;
  for (const p of payloads) sum += executeJob(p).metrics?.accuracy ?? NaN;
  const c = process.cpuUsage(c0);
  if (round > 0) us.push((c.user + c.system) / payloads.length);
  check = sum;
}
console.log(JSON.stringify({ us, check }));
`;

const builds = [
  { tag: 'this', root: packageRoot() },
  ...(values['other-bnclab'] ? [{ tag: 'other', root: resolve(values['other-bnclab']) }] : []),
];
const perJob = new Map<string, number[]>();
const checks = new Map<string, number>();
console.log(`load average at the start: ${loadAverage()}`);
for (let r = 0; r < runs; r++) {
  for (const b of builds) {
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', child, b.root, spec, String(jobs)], {
      cwd: b.root,
      encoding: 'utf8',
    });
    if (out.status !== 0) throw new Error(`${b.tag}: ${out.stderr}`);
    const { us, check } = JSON.parse(out.stdout.trim().split('\n').pop()!) as { us: number[]; check: number };
    perJob.set(b.tag, [...(perJob.get(b.tag) ?? []), ...us]);
    checks.set(b.tag, check);
    console.log(`  ${b.tag}: ${us.map((u) => u.toFixed(1)).join(', ')} µs a job; load average ${loadAverage()}`);
  }
}
console.log(`load average at the end: ${loadAverage()}\n`);
for (const [tag, us] of perJob) {
  const i = medianInterval(us);
  console.log(
    `${tag}: executeJob ${intervalText(i, (x) => x.toFixed(1))} µs of CPU a job (${us.length} rounds of ${jobs.toLocaleString('en-US')} jobs); accuracies sum to ${checks.get(tag)}`,
  );
}
rmSync(dir, { recursive: true, force: true });
