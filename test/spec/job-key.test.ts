/** A plan's job keys and seeds: the grid's per-method shortcut gives exactly what the one rule gives. */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpecFile, parseSpec, type ExperimentSpec } from '../../src/spec/load.js';
import { buildPlanSummary } from '../../src/spec/plan.js';
import { jobContent, jobIdentities, jobIdentity } from '../../src/spec/job-key.js';
import { methodRevisions, type Revisions } from '../../src/spec/revision.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import '../../src/methods.js';

/**
 * Every job of the spec's plan: the grid's key, seed and older keys against jobIdentity(jobContent(…)) under
 * each method's revisions (or `revisions` for all, the grid then left out).
 */
function expectSameIdentities(spec: ExperimentSpec, revisions?: Revisions): number {
  const plan = buildPlanSummary(spec);
  let n = 0;
  for (const j of plan.jobs) {
    const s = j.specSeed === undefined ? spec : { ...spec, seed: j.specSeed };
    const r: Revisions = revisions ?? methodRevisions(j.method);
    const want = jobIdentity(jobContent(s, j.dataset, j.repeat, j.fold, j.method), r);
    if (!revisions) expect({ key: j.key, seed: j.seed, older: j.olderKeys ?? [] }).toEqual(want);
    expect(jobIdentities(s, j.dataset, j.method, r)(j.repeat, j.fold)).toEqual(want);
    n++;
  }
  return n;
}

describe('job keys', () => {
  it('the quickstart and a spec with select:, declared columns, parameters, baselines and seeds', () => {
    expect(expectSameIdentities(loadSpecFile(join(ROOT, 'experiments', 'quickstart.yaml')).spec)).toBe(120);
    expect(
      expectSameIdentities(loadSpecFile(join(ROOT, 'experiments', 'hdp-2018-table2-quick.yaml')).spec),
    ).toBeGreaterThan(0);
    const dir = tempDir();
    const file = join(dir, 'keys.yaml');
    const text = `name: keys
seeds: [3, "seven"]
datasets:
  - iris
  - { file: ${join(ROOT, 'data', 'uci', 'breast-cancer.csv')}, categorical: [deg-malig], ignore: [breast] }
preprocessing: { discretize: { method: equal-frequency, bins: 4 }, missing: as-value }
resampling: { method: cv, folds: 3, repeats: 2, stratified: true }
structures: [nb, { id: kdb, params: { k: [1, 2] } }]
estimators:
  - { id: dirichlet, params: { alpha: [0.5, 1] } }
baselines: [decision-tree]
`;
    writeFileSync(file, text);
    // 2 seeds × 2 datasets × 6 folds × (3 structures × 2 α + 1 baseline) methods
    expect(expectSameIdentities(parseSpec(text, file))).toBe(2 * 2 * 6 * 7);
    const selectText = `name: keys-select
datasets: [iris]
resampling: { folds: 5 }
methods:
  - { name: nb-half, structure: nb, estimator: { id: dirichlet, params: { alpha: 0.5 } } }
  - name: kdb-chosen
    structure: { id: kdb, params: { k: 1 } }
    estimator: { id: dirichlet, params: { alpha: 1 } }
    select: { alpha: [0.5, 1, 2], by: cv, folds: 3, metric: log_loss }
`;
    writeFileSync(file, selectText);
    expect(expectSameIdentities(parseSpec(selectText, file))).toBe(10);
  });

  it('with a raised revision (older keys listed) the shortcut gives the rule’s keys too', () => {
    const spec = loadSpecFile(join(ROOT, 'experiments', 'quickstart.yaml')).spec;
    expect(expectSameIdentities(spec, [2, 1])).toBe(120);
    expect(expectSameIdentities(spec, [1, 3])).toBe(120);
    expect(expectSameIdentities(spec, [3, 2])).toBe(120); // five older pairs, in the rule's order
    expect(expectSameIdentities(spec, [2, 0])).toBe(120); // a baseline's pair (no estimator)
  });
});
