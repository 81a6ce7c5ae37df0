import { describe, expect, it } from 'vitest';
import { curvePoints, sweepComparisons } from '../../src/report/build.js';
import { metricDef } from '../../src/report/compare.js';
import type { MethodSpec } from '../../src/spec/load.js';
import type { ResultRow } from '../../src/store/db.js';

/** A method as the spec loader builds it; labels as it would print them. */
function m(
  structure: string,
  sParams: Record<string, unknown>,
  estimator: string,
  eParams: Record<string, unknown>,
): MethodSpec {
  const text = (id: string, p: Record<string, unknown>): string => {
    const k = Object.keys(p).sort();
    return k.length ? `${id}(${k.map((x) => `${x}=${String(p[x])}`).join(',')})` : id;
  };
  return {
    kind: 'bnc',
    label: `${text(structure, sParams)}/${text(estimator, eParams)}`,
    structure: { id: structure, params: sParams, given: sParams },
    estimator: { id: estimator, params: eParams, given: eParams },
  };
}

// TAN and SkDB with HDP over tying × iterations, as the HDP paper's Figs 4 and 5 (and experiments/hdp-2018-iterations.yaml).
const GRID: MethodSpec[] = [];
for (const s of ['tan', 'skdb'])
  for (const tying of ['single', 'level'])
    for (const iterations of [500, 50000]) GRID.push(m(s, {}, 'hdp', { tying, iterations }));

describe('sweep comparisons', () => {
  it('Fig. 4 shape: each method against the same one at 50,000 iterations, one series per classifier × tying', () => {
    const c = sweepComparisons(GRID, { parameter: 'estimator.iterations', reference: 50000, metric: 'rmse' });
    expect(c.map((x) => [x.series, x.x, x.method, x.reference])).toEqual([
      ['skdb/hdp(tying=level)', 500, 'skdb/hdp(iterations=500,tying=level)', 'skdb/hdp(iterations=50000,tying=level)'],
      [
        'skdb/hdp(tying=single)',
        500,
        'skdb/hdp(iterations=500,tying=single)',
        'skdb/hdp(iterations=50000,tying=single)',
      ],
      ['tan/hdp(tying=level)', 500, 'tan/hdp(iterations=500,tying=level)', 'tan/hdp(iterations=50000,tying=level)'],
      ['tan/hdp(tying=single)', 500, 'tan/hdp(iterations=500,tying=single)', 'tan/hdp(iterations=50000,tying=single)'],
    ]);
  });

  it('Fig. 5 shape: single tying against level tying, with iterations on the horizontal axis', () => {
    const c = sweepComparisons(GRID, {
      parameter: 'estimator.tying',
      reference: 'level',
      metric: 'rmse',
      x: 'estimator.iterations',
    });
    expect(c.map((x) => [x.series, x.x, x.method, x.reference])).toEqual([
      ['skdb/hdp(tying=single)', 500, 'skdb/hdp(iterations=500,tying=single)', 'skdb/hdp(iterations=500,tying=level)'],
      [
        'skdb/hdp(tying=single)',
        50000,
        'skdb/hdp(iterations=50000,tying=single)',
        'skdb/hdp(iterations=50000,tying=level)',
      ],
      ['tan/hdp(tying=single)', 500, 'tan/hdp(iterations=500,tying=single)', 'tan/hdp(iterations=500,tying=level)'],
      [
        'tan/hdp(tying=single)',
        50000,
        'tan/hdp(iterations=50000,tying=single)',
        'tan/hdp(iterations=50000,tying=level)',
      ],
    ]);
  });

  it('a method without a counterpart at the reference value is left out', () => {
    const c = sweepComparisons([m('nb', {}, 'dirichlet', { alpha: 1 }), m('tan', {}, 'dirichlet', { alpha: 5 })], {
      parameter: 'estimator.alpha',
      reference: 1,
      metric: null,
    });
    expect(c).toEqual([]);
  });
});

describe('learning-curve points', () => {
  function r(dataset: string, n: number, rmse: number): ResultRow {
    return {
      experiment: 'e',
      job_key: `${dataset}${n}${rmse}`,
      dataset,
      method: 'nb',
      structure: 'nb',
      estimator: 'dirichlet',
      repeat: 0,
      fold: 0,
      accuracy: 0,
      zero_one_loss: 0,
      rmse,
      log_loss: 0,
      n_train: n,
      n_test: 1,
      n_arcs: 0,
      train_ms: 0,
      predict_ms: 0,
    } as ResultRow;
  }

  it('groups training sizes within 5% (CV folds) and keeps doubling sizes apart (fold-file learning curves)', () => {
    const rows = [
      r('iris', 135, 0.2),
      r('iris', 136, 0.3),
      r('iris', 135, 0.1),
      r('iris', 128, 0.5),
      r('iris', 256, 0.4),
      r('iris', 256, 0.2),
      r('zoo', 30, 0.6),
    ];
    // 128 → 128·1.05 = 134.4 excludes 135; 135 → 141.75 takes 135, 135, 136; 256 alone.
    expect(curvePoints(rows, metricDef('rmse'))).toEqual([
      { dataset: 'iris', method: 'nb', nTrain: 128, value: 0.5, runs: 1 },
      { dataset: 'iris', method: 'nb', nTrain: (135 + 135 + 136) / 3, value: expect.closeTo(0.2, 12), runs: 3 },
      { dataset: 'iris', method: 'nb', nTrain: 256, value: expect.closeTo(0.3, 12), runs: 2 },
      { dataset: 'zoo', method: 'nb', nTrain: 30, value: 0.6, runs: 1 },
    ]);
  });
});
