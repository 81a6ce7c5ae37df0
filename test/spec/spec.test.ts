import { describe, expect, it } from 'vitest';
import { parseSpec } from '../../src/spec/load.js';
import { experimentSchema } from '../../src/spec/schema.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import '../../src/methods.js';

const ROOT = join(__dirname, '..', '..');

describe('spec expansion', () => {
  it('crosses structures × estimators and expands parameter sweeps', () => {
    const spec = parseSpec(
      `name: t
datasets: [iris]
structures: [nb, tan]
estimators:
  - dirichlet: { alpha: [0.5, 1, 2] }
`,
      'mem.yaml',
    );
    expect(spec.methods.map((m) => m.label)).toEqual([
      'nb/dirichlet(alpha=0.5)',
      'nb/dirichlet(alpha=1)',
      'nb/dirichlet(alpha=2)',
      'tan/dirichlet(alpha=0.5)',
      'tan/dirichlet(alpha=1)',
      'tan/dirichlet(alpha=2)',
    ]);
    expect(spec.methods[0].estimator!.params).toMatchObject({ alpha: 0.5 });
  });

  it("HDP's prior presets: paper samples concentrations every iteration, in the job's parameters", () => {
    const spec = parseSpec(
      `name: t
datasets: [iris]
methods:
  - { structure: nb, estimator: { id: hdp, params: { prior: paper } }, name: paper }
  - { structure: nb, estimator: { id: hdp, params: { prior: paper, concentrationEvery: 1 } }, name: paper2 }
  - { structure: nb, estimator: { id: hdp, params: { prior: code } }, name: code }
  - { structure: nb, estimator: { id: hdp, params: { prior: paper, concentrationEvery: 3 } }, name: p3 }
`,
      'mem.yaml',
    );
    const every = spec.methods.map((m) => (m.estimator!.params as { concentrationEvery: number }).concentrationEvery);
    // paper and paper2 are one method once the preset is filled in: it runs once, as 'paper'.
    expect(spec.methods.map((m) => m.label)).toEqual(['paper', 'code', 'p3']);
    expect(every).toEqual([1, 5, 3]);
  });

  it('applies defaults, explicit methods and exclude', () => {
    const spec = parseSpec(
      `name: t
datasets: [iris]
structures: [nb, tan]
estimators: [dirichlet, mle]
exclude:
  - { structure: tan, estimator: mle }
methods:
  - { structure: tan, estimator: { id: eap, params: { alpha: 10 } }, name: tan-bdeu10 }
`,
      'mem.yaml',
    );
    expect(spec.methods.map((m) => m.label)).toEqual(['nb/dirichlet', 'nb/mle', 'tan/dirichlet', 'tan-bdeu10']);
    const dir = spec.methods.find((m) => m.label === 'nb/dirichlet')!;
    expect(dir.estimator!.params).toEqual({ alpha: 1 });
    expect(spec.resampling).toMatchObject({ method: 'cv', folds: 10, repeats: 1, stratified: true });
    expect(spec.preprocessing).toEqual({ discretize: { method: 'mdl' }, missing: 'as-value' });
  });

  it('rejects two different methods with the same name', () => {
    expect(() =>
      parseSpec(
        `name: t
datasets: [iris]
methods:
  - { structure: nb, estimator: mle, name: same }
  - { structure: tan, estimator: mle, name: same }
`,
        'mem.yaml',
      ),
    ).toThrow(/mem\.yaml:\d+:\d+: methods: two different methods are both labelled 'same'/);
  });
});

describe('published schema', () => {
  it('configs/experiment.schema.json is the schema the registry generates (run `bnclab schema --write`)', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, 'configs', 'experiment.schema.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(experimentSchema(true))));
  });

  it('offers every registered method id to editors', () => {
    const s = experimentSchema(true) as { properties: { structures: { items: { anyOf: { enum?: string[] }[] } } } };
    expect(s.properties.structures.items.anyOf[0].enum).toEqual(expect.arrayContaining(['nb', 'tan']));
  });
});
