/** Every job of a spec as the runner sends it to a worker: the payloads of its plan, in plan order. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { buildPlan } from '../../src/spec/plan.js';
import { payloadOf } from '../../src/runner/run.js';
import type { JobPayload } from '../../src/runner/job.js';
import type { JobOutcome } from '../../src/store/db.js';

/** The payloads of the spec `yaml` (written to a new temporary folder), without saved predictions. */
export function specPayloads(yaml: string): JobPayload[] {
  const dir = tempDir('bnclab-payloads-');
  writeFileSync(join(dir, 's.yaml'), yaml);
  const plan = buildPlan(loadSpecFile(join(dir, 's.yaml')).spec);
  const grid = plan.grid!;
  const payloads: JobPayload[] = [];
  for (let i = 0; i < grid.size; i++) payloads.push(payloadOf(plan, grid.at(i), false));
  return payloads;
}

/** An outcome without its clock readings (the only part that differs between two runs of a job). */
export function outcomeNumbers(o: JobOutcome): Omit<JobOutcome, 'preprocessMs' | 'trainMs' | 'predictMs'> {
  const { preprocessMs: _p, trainMs: _t, predictMs: _q, ...rest } = o;
  return rest;
}
