/**
 * The plan takes datasets and methods in the order the spec lists them (a researcher lists the cheap datasets
 * first, and the runner starts jobs in plan order); before, datasets were sorted by name. Only the order may
 * change: job keys and seeds are content.
 */
import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/spec/load.js';
import { buildPlan } from '../../src/spec/plan.js';
import '../../src/methods.js';

const spec = (datasets: string, structures: string) =>
  parseSpec(
    `name: t
datasets: ${datasets}
structures: ${structures}
estimators: [dirichlet]
resampling: { method: cv, folds: 2 }
`,
    'mem.yaml',
  );

describe('plan order', () => {
  it("lists datasets, then folds, then methods in the spec's order", () => {
    const plan = buildPlan(spec('[zoo, iris, car]', '[tan, nb]'));
    expect(plan.datasets.map((d) => d.handle.name)).toEqual(['zoo', 'iris', 'car']);
    expect(plan.jobs.map((j) => `${j.dataset.handle.name} ${j.fold} ${j.method.structure.id}`)).toEqual([
      'zoo 0 tan',
      'zoo 0 nb',
      'zoo 1 tan',
      'zoo 1 nb',
      'iris 0 tan',
      'iris 0 nb',
      'iris 1 tan',
      'iris 1 nb',
      'car 0 tan',
      'car 0 nb',
      'car 1 tan',
      'car 1 nb',
    ]);
  });

  it('changes no job key or seed: the same jobs, in another order', () => {
    const a = buildPlan(spec('[zoo, iris, car]', '[tan, nb]'));
    const b = buildPlan(spec('[car, iris, zoo]', '[nb, tan]'));
    const ids = (p: typeof a) =>
      p.jobs.map((j) => `${j.dataset.handle.name} ${j.fold} ${j.method.label} ${j.key} ${j.seed}`).sort();
    expect(ids(a)).toEqual(ids(b));
    expect(a.jobs.map((j) => j.key)).not.toEqual(b.jobs.map((j) => j.key));
  });
});
