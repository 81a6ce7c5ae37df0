/**
 * The cost model where cost is large: `select:` costs every candidate's inner cross-validation, an ensemble
 * its members, and an external program is unknown until timed. A pilot calibrates the model; its estimate of
 * the whole plan must be within 3× of the CPU the plan's jobs then take. Both sides are CPU measurements
 * (the pilot times each job by the CPU the process and its children used), so the load of the machine does
 * not enter the ratio.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, ROOT } from '../helpers/cli.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { buildPlan } from '../../src/spec/plan.js';
import { CostModel, staticCostMs } from '../../src/spec/cost.js';
import { estimateLines, pilotObservations, pilotSample } from '../../src/cluster/estimate.js';
import { runPilot } from '../../src/cluster/pilot.js';
import '../../src/methods.js';

const SPEC = `name: cost-pilot
seed: 5
datasets: [car, tic-tac-toe, breast-cancer]
resampling: { method: cv, folds: 3 }
methods:
  - { name: kdb-select, structure: kdb, estimator: dirichlet, select: { structure.k: [1, 2, 3], by: cv, folds: 3 } }
  - { name: bagging, structure: { id: bagging, params: { base: eanb, members: 5 } }, estimator: dirichlet }
baselines:
  - { id: external, name: ext-nb, params: { command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(join(ROOT, 'test/fixtures/external/nb.mjs'))}] } }
`;

describe('cost model and pilot', () => {
  it('costs select: per candidate and fold, leaves an external program unknown, and a pilot calibrates within 3×', {
    timeout: 300_000,
  }, async () => {
    const file = join(tempDir(), 'pilot.yaml');
    writeFileSync(file, SPEC);
    const plan = buildPlan(loadSpecFile(file).spec);
    const model = new CostModel(plan);

    // select: 3 candidates × 3 inner folds on 2/3 of the training rows, plus the final fit (the candidates' mean).
    const [sel, bag, ext] = plan.spec.methods as [
      (typeof plan.spec.methods)[number],
      (typeof plan.spec.methods)[number],
      (typeof plan.spec.methods)[number],
    ];
    const size = { nTrain: 1152, nTest: 576, attributes: 6, classes: 4 };
    const inner = { ...size, nTrain: 768, nTest: 384 };
    const { select: _s, ...plain } = sel;
    const at = (k: number, s: typeof size) =>
      staticCostMs({ ...plain, structure: { ...plain.structure, params: { ...plain.structure.params, k } } }, s).ms;
    const want = 3 * (at(1, inner) + at(2, inner) + at(3, inner)) + (at(1, size) + at(2, size) + at(3, size)) / 3;
    expect(staticCostMs(sel, size).ms).toBeCloseTo(want, 9);
    expect(staticCostMs(sel, size).ms).toBeGreaterThan(9 * staticCostMs(plain, inner).ms);
    // bagging of 5 exact ANB searches: 4 more searches than eanb alone (20 + 0.00006 ms · S + 1.7e-7 ms · n·S each,
    // S = v·2^v, v = m + 1)
    const eanb = staticCostMs({ ...bag, structure: { ...bag.structure, id: 'eanb', params: {} } }, size).ms;
    expect(staticCostMs(bag, size).ms - eanb).toBeCloseTo(
      4 * (20 + 0.00006 * 7 * 2 ** 7 + 1.7e-7 * 1152 * 7 * 2 ** 7),
      9,
    );
    // An external program has no formula: unknown, and plan --estimate says so instead of a number.
    expect(staticCostMs(ext, size).fallback).toBe(true);
    expect(model.unknownMethods).toEqual(['ext-nb']);
    const lines = estimateLines(plan, model, 1).join('\n');
    expect(lines).toMatch(/ext-nb +9 +unknown +unknown: run --pilot/);

    // The pilot: its measured CPU calibrates the model; the estimate of every job against every job's CPU.
    const pilot = await runPilot(plan, pilotSample(plan, model), { timeoutSec: 600 });
    expect(pilot.failed).toEqual([]);
    const calibrated = new CostModel(plan, pilotObservations(pilot.measured));
    expect(calibrated.unknownMethods).toEqual([]);
    const all = await runPilot(plan, plan.jobs, { timeoutSec: 600 });
    expect(all.failed).toEqual([]);
    const per = new Map<string, { estimate: number; measured: number }>();
    for (const { job, ms } of all.measured) {
      const e = per.get(job.method.label) ?? { estimate: 0, measured: 0 };
      e.estimate += calibrated.cost(job).ms;
      e.measured += ms;
      per.set(job.method.label, e);
    }
    const total = [...per.values()].reduce(
      (a, e) => ({ estimate: a.estimate + e.estimate, measured: a.measured + e.measured }),
      { estimate: 0, measured: 0 },
    );
    const table = [...per].map(
      ([m, e]) =>
        `${m}: estimate ${e.estimate.toFixed(0)} ms, measured ${e.measured.toFixed(0)} ms CPU, ratio ${(e.estimate / e.measured).toFixed(2)}`,
    );
    console.log(table.join('\n'));
    expect(total.estimate / total.measured).toBeGreaterThan(1 / 3);
    expect(total.estimate / total.measured).toBeLessThan(3);
  });
});
