/** Every spec element has the effect it says, or bnclab says it has none; duplicates run once, with a word. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { parseSpec } from '../../src/spec/load.js';
import { buildPlan } from '../../src/spec/plan.js';
import '../../src/methods.js';

const ROOT = join(__dirname, '..', '..');

describe('exclude acts on the structures × estimators product only', () => {
  it("keeps the README example's tan-bdeu10, listed under methods:, while excluding tan/eap from the product", () => {
    const spec = parseSpec(
      `name: t
datasets: [iris]
structures: [nb, tan]
estimators:
  - dirichlet: { alpha: [0.5, 1] }
  - eap
exclude:
  - { structure: tan, estimator: eap }
methods:
  - { structure: tan, estimator: { id: eap, params: { alpha: 10 } }, name: tan-bdeu10 }
`,
      'mem.yaml',
    );
    expect(spec.methods.map((m) => m.label)).toEqual([
      'nb/dirichlet(alpha=0.5)',
      'nb/dirichlet(alpha=1)',
      'nb/eap',
      'tan/dirichlet(alpha=0.5)',
      'tan/dirichlet(alpha=1)',
      'tan-bdeu10',
    ]);
    expect(spec.warnings).toEqual([]);
  });

  it('warns about an exclude entry that removes nothing, naming where it is', () => {
    const spec = parseSpec(
      `name: t
datasets: [iris]
structures: [nb]
estimators: [dirichlet]
exclude:
  - { structure: tan }
`,
      'mem.yaml',
    );
    expect(spec.methods.map((m) => m.label)).toEqual(['nb/dirichlet']);
    expect(spec.warnings).toEqual([
      'mem.yaml:6:5: exclude[0]: removes nothing from the product of structures × estimators (exclude does not act on methods:)',
    ]);
  });
});

describe('duplicates run once, with a warning', () => {
  it('two method entries equal once defaults are filled in', () => {
    const spec = parseSpec(
      `name: t
datasets: [iris]
structures: [nb]
estimators: [{ dirichlet: { alpha: 1 } }, dirichlet]
`,
      'mem.yaml',
    );
    // alpha: 1 is the default, so both entries are the method nb/dirichlet: one label, one method.
    expect(spec.methods.map((m) => m.label)).toEqual(['nb/dirichlet']);
    expect(spec.warnings).toHaveLength(1);
    expect(spec.warnings![0]).toMatch(/method 'nb\/dirichlet' is listed more than once; it runs once/);
    const plan = buildPlan(spec);
    expect(new Set(plan.jobs.map((j) => j.key)).size).toBe(plan.jobs.length);
  });

  it('one file under two names', () => {
    const tiny = join(ROOT, 'test', 'fixtures', 'datasets', 'tiny.csv');
    const spec = parseSpec(
      `name: t
datasets:
  - { file: ${tiny}, name: first }
  - { file: ${tiny}, name: second }
resampling: { folds: 2 }
structures: [nb]
estimators: [dirichlet]
`,
      join(ROOT, 'mem.yaml'),
    );
    const plan = buildPlan(spec);
    expect(plan.datasets.map((d) => d.handle.name)).toEqual(['first']);
    expect(plan.warnings).toEqual([
      expect.stringMatching(/datasets\[1\]: dataset 'second' is the same file as 'first'; it runs once, as 'first'$/),
    ]);
    expect(new Set(plan.jobs.map((j) => j.key)).size).toBe(plan.jobs.length);
  });
});

describe('labels name parameters that differ from the default, so spelling out a default renames nothing', () => {
  const spec = (estimators: string) =>
    parseSpec(
      `name: t\ndatasets: [iris]\nresampling: { folds: 2 }\nstructures: [nb]\nestimators: ${estimators}\n`,
      'labels.yaml',
    );

  it('m-estimate: {m: 1} is the method m-estimate, with the same label and job keys as writing nothing', () => {
    const explicit = spec('[{ m-estimate: { m: 1 } }]');
    const implicit = spec('[m-estimate]');
    expect(explicit.methods.map((m) => m.label)).toEqual(['nb/m-estimate']);
    expect(implicit.methods.map((m) => m.label)).toEqual(['nb/m-estimate']);
    expect(buildPlan(explicit).jobs.map((j) => j.key)).toEqual(buildPlan(implicit).jobs.map((j) => j.key));
  });

  it('a value other than the default is shown; a swept parameter shows every value, the default included', () => {
    expect(spec('[{ m-estimate: { m: 2 } }]').methods.map((m) => m.label)).toEqual(['nb/m-estimate(m=2)']);
    expect(spec('[{ m-estimate: { m: [1, 2] } }]').methods.map((m) => m.label)).toEqual([
      'nb/m-estimate(m=1)',
      'nb/m-estimate(m=2)',
    ]);
    expect(spec('[{ dirichlet: { alpha: 1 } }]').methods.map((m) => m.label)).toEqual(['nb/dirichlet']);
  });
});
