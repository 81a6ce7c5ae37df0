/**
 * A metric that is undefined on a fold is stored as NaN (AUC when a test fold lacks a class, as on
 * contact-lenses in 10-fold CV). Such a dataset must drop out of that metric's averages, ranks and tests like a
 * dataset with a missing job; before, the NaN reached the Friedman test and the whole report failed.
 */
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/report/compare.js';
import { REPORT_METRICS, summarize } from '../../src/report/summary.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';
import { resultRow } from '../helpers/report.js';

const METHODS = ['a', 'b', 'c'];
const DATASETS = ['d1', 'd2', 'd3', 'd4'];

/** Accuracy of method j on dataset i: a differs from b and c so the ranks are not all ties. */
function rows(): ResultRow[] {
  const out: ResultRow[] = [];
  DATASETS.forEach((dataset, i) => {
    METHODS.forEach((method, j) => {
      for (let fold = 0; fold < 2; fold++) {
        const acc = 0.5 + 0.1 * j + 0.01 * i;
        // d2's second fold has no AUC for method b: the cell's mean is NaN.
        const auc = dataset === 'd2' && method === 'b' && fold === 1 ? Number.NaN : acc;
        out.push(resultRow(dataset, method, fold, acc, 1 - acc, { auc }));
      }
    });
  });
  return out;
}

describe('a metric undefined on some fold', () => {
  const auc = REPORT_METRICS.find((m) => m.key === 'auc')!;

  it('leaves its dataset out of averages and ranks, and only for that metric', () => {
    const t = summarize(rows(), METHODS, auc);
    expect(t.completeDatasets).toBe(3);
    expect(Number.isNaN(t.cells[1][1]!.mean)).toBe(true);
    // Averages over d1, d3, d4 only: method a's values 0.50, 0.52, 0.53.
    expect(t.average[0]).toBeCloseTo((0.5 + 0.52 + 0.53) / 3, 12);
    expect(t.ranks).toEqual([3, 2, 1]);
    const accuracy = summarize(rows(), METHODS, REPORT_METRICS.find((m) => m.key === 'accuracy')!);
    expect(accuracy.completeDatasets).toBe(4);
  });

  it('reaches the rank tests without a NaN: Friedman runs on the 3 complete datasets', () => {
    const c = compareResults(rows(), METHODS, { ...DEFAULT_COMPARE, metrics: ['auc', 'accuracy'] });
    const [aucCmp, accCmp] = c.metrics;
    expect(aucCmp.datasets).toEqual(['d1', 'd3', 'd4']);
    expect(aucCmp.friedman).not.toBeNull();
    expect(aucCmp.values.flat().every(Number.isFinite)).toBe(true);
    expect(accCmp.datasets.length).toBe(4);
  });
});
