/**
 * `select:` — parameters chosen by inner cross-validation. Checked against an independent computation of
 * the same inner CV (same stratified folds, each candidate fitted and scored here), against a choice whose
 * answer is known (a huge Dirichlet α flattens naive Bayes to its class prior), and through the spec loader.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selectRows, type DiscreteData } from '../../src/bn/data.js';
import { stratifiedKFold } from '../../src/folds/split.js';
import { computeMetrics } from '../../src/metrics/index.js';
import { learn } from '../../src/runner/execute.js';
import { candidates, type SelectSpec } from '../../src/spec/select.js';
import { loadSpecFile } from '../../src/spec/load.js';
const loadSpec = (f: string) => loadSpecFile(f).spec;
import { buildPlan } from '../../src/spec/plan.js';
import { Rng } from '../../src/util/rng.js';
import { tempDir } from '../helpers/cli.js';
import '../../src/methods.js';

/** Rows whose class is copied into each attribute with probability 0.7 (else a uniform value). */
function data(n: number, seed: string): DiscreteData {
  const rng = new Rng(seed);
  const m = 4;
  const classColumn = new Int32Array(n);
  const columns = Array.from({ length: m }, () => new Int32Array(n));
  for (let r = 0; r < n; r++) {
    classColumn[r] = rng.int(2);
    for (let a = 0; a < m; a++) columns[a][r] = rng.next() < 0.7 ? classColumn[r] : rng.int(3);
  }
  return {
    n,
    names: ['a0', 'a1', 'a2', 'a3'],
    labels: Array.from({ length: m }, () => ['0', '1', '2']),
    cards: Int32Array.from([3, 3, 3, 3]),
    columns,
    className: 'class',
    classLabels: ['0', '1'],
    classCard: 2,
    classColumn,
  };
}

/**
 * Naive Bayes with a Dirichlet estimator through the runner's own fitting step (`learn`, as a job runs it),
 * with `select:` when given.
 */
function fitNb(d: DiscreteData, rng: Rng, alpha?: unknown, select?: SelectSpec) {
  const { model, structure } = learn(
    {
      kind: 'bnc',
      structure: { id: 'nb', params: {} },
      estimator: { id: 'dirichlet', params: alpha === undefined ? {} : { alpha } },
      ...(select ? { select } : {}),
      dataset: { name: 'select-test', file: '', sha256: '' },
      preprocessing: { discretize: { method: 'none' }, missing: 'as-value' },
    },
    d,
    rng,
  );
  if (!structure) throw new Error('naive Bayes learns a structure');
  return { model, structure };
}

describe('select: inner cross-validation', () => {
  const train = data(120, 'select-train');
  const spec: SelectSpec = {
    by: 'cv',
    folds: 5,
    metric: 'log_loss',
    axes: [{ targets: ['estimator.alpha'], values: [0.01, 1, 30, 1000] }],
  };

  it('scores each candidate as an independent nested CV on the same folds does, and refits the best', () => {
    const { model, structure } = fitNb(train, new Rng('job'), undefined, spec);
    const folds = stratifiedKFold(train.classColumn, 2, 5, new Rng('job').derive('select/folds'));
    const expected = candidates(spec).map((c) => {
      let loss = 0;
      for (let f = 0; f < 5; f++) {
        const inner = selectRows(
          train,
          [...Array(train.n).keys()].filter((r) => folds[r] !== f),
        );
        const held = selectRows(
          train,
          [...Array(train.n).keys()].filter((r) => folds[r] === f),
        );
        const m = fitNb(inner, new Rng('x'), c['estimator.alpha']).model;
        loss += computeMetrics(m.posterior(held), held.classColumn, 2).logLoss * held.n;
      }
      return loss / train.n;
    });
    const reported = (JSON.parse(String(structure.info!['selection'])) as { log_loss: number }[]).map(
      (s) => s.log_loss,
    );
    reported.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 12));
    const best = expected.indexOf(Math.min(...expected));
    expect(structure.info!['select.estimator.alpha']).toBe(spec.axes[0].values[best]);
    const direct = fitNb(train, new Rng('job'), spec.axes[0].values[best]).model;
    expect(Array.from(model.posterior(train))).toEqual(Array.from(direct.posterior(train)));
  });

  it('never picks a prior so large that naive Bayes forgets the data (log loss near ln 2)', () => {
    const acc = { ...spec, axes: [{ targets: ['estimator.alpha'], values: [1e7, 1] }] };
    const { structure } = fitNb(train, new Rng('job2'), undefined, acc);
    expect(structure.info!['select.estimator.alpha']).toBe(1);
  });

  it('is a product of the keys, and a+b ties parameters to one value', () => {
    const grid = candidates({
      by: 'cv',
      folds: 2,
      metric: 'accuracy',
      axes: [
        { targets: ['structure.ess', 'estimator.alpha'], values: [1, 4] },
        { targets: ['structure.k'], values: [10, 20] },
      ],
    });
    expect(grid).toEqual([
      { 'structure.ess': 1, 'estimator.alpha': 1, 'structure.k': 10 },
      { 'structure.ess': 1, 'estimator.alpha': 1, 'structure.k': 20 },
      { 'structure.ess': 4, 'estimator.alpha': 4, 'structure.k': 10 },
      { 'structure.ess': 4, 'estimator.alpha': 4, 'structure.k': 20 },
    ]);
  });
});

describe('select: in a spec', () => {
  const write = (select: string): string => {
    const file = join(tempDir(), 's.yaml');
    writeFileSync(
      file,
      `name: s
datasets: [iris]
resampling: { folds: 3 }
methods:
  - { name: KB, structure: { id: kb, params: { k: 2 } }, estimator: { id: eap, params: { alpha: 1 } } }
  - { name: KB-cv, structure: { id: kb, params: { k: 2 } }, estimator: { id: eap, params: { alpha: 1 } }, select: ${select} }
`,
    );
    return file;
  };

  it('resolves a bare name to the side that takes it, and keys only the selecting method differently', () => {
    const spec = loadSpec(write('{ "ess+alpha": [1, 4, 16], folds: 10 }'));
    const m = spec.methods.find((x) => x.label === 'KB-cv')!;
    expect(m.select).toEqual({
      by: 'cv',
      folds: 10,
      metric: 'accuracy',
      axes: [{ targets: ['structure.ess', 'estimator.alpha'], values: [1, 4, 16] }],
    });
    const plan = buildPlan(spec);
    const keys = (label: string) => plan.jobs.filter((j) => j.method.label === label).map((j) => j.key);
    expect(keys('KB')).toHaveLength(3);
    for (const k of keys('KB-cv')) expect(keys('KB')).not.toContain(k);
  });

  it('names the method and the parameter when a candidate is wrong', () => {
    expect(() => loadSpec(write('{ essx: [1] }'))).toThrow(
      /methods\[1\]\.select\.essx: no parameter 'essx' of structure 'kb' or estimator 'eap' \(known: .*structure\.ess/,
    );
    expect(() => loadSpec(write('{ ess: [1, -4] }'))).toThrow(
      /methods\[1\]\.select: candidate \{"structure.ess":-4\}: structure 'kb': ess must be > 0/,
    );
    expect(() => loadSpec(write('{ ess: [1], folds: 1 }'))).toThrow(/folds/);
  });
});
