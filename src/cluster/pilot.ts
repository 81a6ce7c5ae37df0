/**
 * `plan --estimate --pilot`: run a stratified sample of the plan's jobs (src/cluster/estimate.ts
 * pilotSample) on this machine, nothing stored, and return their measured times to calibrate the cost
 * model. A job that exceeds the per-job limit is reported and left out of the calibration.
 */
import os from 'node:os';
import type { Plan, PlannedJob } from '../spec/plan.js';
import { WorkerPool } from '../runner/pool.js';
import { payloadOf } from '../runner/run.js';

export interface PilotResult {
  readonly measured: { job: PlannedJob; ms: number }[];
  readonly failed: { job: PlannedJob; error: string }[];
}

export async function runPilot(
  plan: Plan,
  jobs: readonly PlannedJob[],
  opts: { workers?: number; timeoutSec: number },
): Promise<PilotResult> {
  const pool = new WorkerPool(
    Math.max(1, Math.min(opts.workers ?? os.availableParallelism(), jobs.length)),
    opts.timeoutSec * 1000,
  );
  const measured: PilotResult['measured'] = [];
  const failed: PilotResult['failed'] = [];
  try {
    await Promise.all(
      jobs.map(async (job) => {
        const o = await pool.run(payloadOf(plan, job, false));
        // Preprocessing is left out: a pilot job always pays it cold, a real run shares it across the methods of a fold.
        if (o.status === 'done') measured.push({ job, ms: o.trainMs + o.predictMs });
        else failed.push({ job, error: o.error ?? 'failed' });
      }),
    );
  } finally {
    await pool.close();
  }
  return { measured, failed };
}
