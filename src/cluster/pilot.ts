/**
 * `plan --estimate --pilot`: run a stratified sample of the plan's jobs (src/cluster/estimate.ts
 * pilotSample) on this machine, nothing stored, and return their measured times to calibrate the cost
 * model. A job that exceeds the per-job limit is reported and left out of the calibration.
 *
 * The jobs run one at a time on one worker thread, and each is timed by the CPU the process spent while it
 * ran, its child processes included (an external program's): CPU time, unlike a job's elapsed time, does
 * not grow when other work shares the machine, so a pilot on a busy machine calibrates as one on an idle
 * one. The worker's start-up (loading the code) is paid by a first, unmeasured run of the first sampled job, not
 * counted.
 */
import { readFileSync } from 'node:fs';
import type { Plan, PlannedJob } from '../spec/plan.js';
import { WorkerPool } from '../runner/pool.js';
import { payloadOf } from '../runner/run.js';

interface PilotResult {
  readonly measured: { job: PlannedJob; ms: number }[];
  readonly failed: { job: PlannedJob; error: string }[];
}

/**
 * CPU milliseconds of this process and of its children that have ended (Linux: /proc/self/stat's cutime and
 * cstime, in clock ticks of 10 ms; elsewhere the children's part is 0).
 */
function processCpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: cutime and cstime are 16 and 17.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    // not Linux: the children's CPU is not known
  }
  return (own.user + own.system) / 1000 + children;
}

export async function runPilot(
  plan: Plan,
  jobs: readonly PlannedJob[],
  opts: { workers?: number; timeoutSec: number },
): Promise<PilotResult> {
  const pool = new WorkerPool(1, opts.timeoutSec * 1000);
  const measured: PilotResult['measured'] = [];
  const failed: PilotResult['failed'] = [];
  try {
    if (jobs.length > 0) await pool.run(payloadOf(plan, jobs[0], false)); // start-up, not measured
    for (const job of jobs) {
      const before = processCpuMs();
      const o = await pool.run(payloadOf(plan, job, false));
      const cpu = processCpuMs() - before;
      if (o.status === 'done') measured.push({ job, ms: cpu });
      else failed.push({ job, error: o.error ?? 'failed' });
    }
  } finally {
    await pool.close();
  }
  return { measured, failed };
}
