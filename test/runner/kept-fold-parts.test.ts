/**
 * A worker keeps parts of a fold for the next job of the same fold: the fold's preprocessing and training
 * view, its test rows coded (a small fold's), and each family's counts on its training rows (src/bn/cpt.ts,
 * keptFamilyCounts). A job's outcome must not depend on which jobs ran before it in the same worker.
 */
import { describe, expect, it, vi } from 'vitest';
import { outcomeNumbers, specPayloads } from '../helpers/payloads.js';
import type { JobPayload } from '../../src/runner/job.js';
import type { JobOutcome } from '../../src/store/db.js';

/** Each payload's outcome, run in this order by a fresh copy of the job code (no fold, test rows or counts kept). */
async function runFresh(payloads: readonly JobPayload[]): Promise<Map<string, JobOutcome>> {
  vi.resetModules();
  const { executeJob } = await import('../../src/runner/execute.js');
  return new Map(payloads.map((p) => [p.key, executeJob(p)]));
}

describe('parts of a fold kept by a worker', () => {
  it('give every job the outcome it has when it runs first', async () => {
    // Two structures and three estimator settings on each fold: the later jobs of a fold take its coded test
    // rows and, for the same structure, its counts from the earlier ones.
    const payloads = specPayloads(
      'name: k\nseed: 1\ndatasets: [iris, car]\npreprocessing: { discretize: mdl }\n' +
        'resampling: { method: cv, folds: 3 }\nstructures: [nb, tan]\n' +
        'estimators:\n  - id: dirichlet\n    params: { alpha: [0.5, 1, 7.5] }\n  - id: eap\n',
    );
    expect(payloads).toHaveLength(2 * 3 * 2 * 4);

    const inOrder = await runFresh(payloads);
    const reversed = await runFresh([...payloads].reverse());
    for (const p of payloads) {
      const alone = (await runFresh([p])).get(p.key)!;
      expect(alone.status, p.key).toBe('done');
      expect(outcomeNumbers(inOrder.get(p.key)!), p.key).toEqual(outcomeNumbers(alone));
      expect(outcomeNumbers(reversed.get(p.key)!), p.key).toEqual(outcomeNumbers(alone));
    }
    // The settings differ in their numbers: a kept part that held one job's numbers would show here.
    const logLosses = new Set(payloads.slice(0, 4).map((p) => inOrder.get(p.key)!.metrics!.log_loss));
    expect(logLosses.size).toBe(4);
  });
});
