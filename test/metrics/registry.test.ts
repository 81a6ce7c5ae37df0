/**
 * The metric registry (src/metrics/all.ts): every score it computes is, bit for bit, the function that
 * defines it; the ids and their order are the stored columns' (append only); reference files and claims
 * accept the same names as before the registry existed.
 */
import { describe, expect, it } from 'vitest';
import {
  computeMetricValues,
  METRICS,
  metricFromName,
  metricNames,
  SCORE_IDS,
  SCORE_METRICS,
} from '../../src/metrics/all.js';
import { classificationMetrics } from '../../src/metrics/classification.js';
import { computeMetrics } from '../../src/metrics/index.js';
import { scoreTestSet, type Metric, type Scoring } from '../../src/metrics/registry.js';

/** A fixed test set: 12 rows, 3 classes, posteriors from a small congruential sequence (ties included). */
function testSet(): { p: Float64Array; y: Int32Array; C: number } {
  const C = 3;
  const n = 12;
  const p = new Float64Array(n * C);
  let s = 7;
  for (let r = 0; r < n; r++) {
    let sum = 0;
    for (let c = 0; c < C; c++) {
      s = (s * 37 + 11) % 101;
      p[r * C + c] = 1 + (s % 5);
      sum += p[r * C + c];
    }
    for (let c = 0; c < C; c++) p[r * C + c] /= sum;
  }
  const y = Int32Array.from({ length: n }, (_, r) => (r * 7) % C);
  return { p, y, C };
}

describe('metric registry', () => {
  it('computes every metric exactly as the functions that define it', () => {
    const { p, y, C } = testSet();
    const v = computeMetricValues(p, y, C);
    const a = computeMetrics(p, y, C);
    const b = classificationMetrics(p, y, C);
    const expected = {
      accuracy: a.accuracy,
      zero_one_loss: a.zeroOneLoss,
      rmse: a.rmse,
      log_loss: a.logLoss,
      auc: b.auc,
      auc_ovr: b.aucOvr,
      brier: b.brier,
      balanced_accuracy: b.balancedAccuracy,
      macro_f1: b.macroF1,
      confusion: b.confusion,
    };
    expect(v).toMatchObject(expected);
    // The same double, not merely a close one.
    for (const [id, x] of Object.entries(expected))
      if (typeof x === 'number') expect(Object.is(v[id as keyof typeof v], x)).toBe(true);
    expect(v.accuracy).toBeGreaterThan(0);
    expect(v.auc).toBeGreaterThan(0);
  });

  it('keeps the ids in the order of the stored columns (append only)', () => {
    expect(METRICS.map((m) => m.id).slice(0, 10)).toEqual([
      'accuracy',
      'zero_one_loss',
      'rmse',
      'log_loss',
      'auc',
      'auc_ovr',
      'brier',
      'balanced_accuracy',
      'macro_f1',
      'confusion',
    ]);
    expect(METRICS.filter((m: Metric) => m.firstSchema).map((m) => m.id)).toEqual([
      'accuracy',
      'zero_one_loss',
      'rmse',
      'log_loss',
    ]);
    expect(new Set(METRICS.map((m) => m.id)).size).toBe(METRICS.length);
    for (const m of METRICS) expect(m.id).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('documents every metric, and gives every score a direction and digits', () => {
    for (const m of METRICS) {
      expect(m.title.length).toBeGreaterThan(0);
      expect(m.description.length).toBeGreaterThan(10);
    }
    for (const m of SCORE_METRICS) {
      expect(['higher', 'lower']).toContain(m.direction);
      expect(Number.isInteger(m.digits)).toBe(true);
    }
    expect(SCORE_IDS).not.toContain('confusion');
  });

  it('accepts the published names it always accepted, and no others', () => {
    const accepted: [string, string][] = [
      ['accuracy', 'accuracy'],
      ['acc', 'accuracy'],
      ['zero_one_loss', 'zero_one_loss'],
      ['0-1 loss', 'zero_one_loss'],
      ['0/1-loss', 'zero_one_loss'],
      ['error', 'zero_one_loss'],
      ['Error rate', 'zero_one_loss'],
      ['RMSE', 'rmse'],
      ['log loss', 'log_loss'],
      ['AUC', 'auc'],
      ['AUC (Hand & Till)', 'auc'],
      ['auc_ovr', 'auc_ovr'],
      ['brier', 'brier'],
      ['Brier score', 'brier'],
      ['balanced accuracy', 'balanced_accuracy'],
      ['Macro F1', 'macro_f1'],
    ];
    for (const [name, id] of accepted) expect(metricFromName(name)).toBe(id);
    for (const name of ['AUPRC', 'confusion', 'AUC (one-vs-rest, weighted)', 'f1', 'train_ms', ''])
      expect(metricFromName(name)).toBeUndefined();
    // A metric registered later is listed after these.
    expect(metricNames()).toMatch(
      /^accuracy, 0-1 loss, rmse, log loss, auc, auc_ovr, brier, balanced accuracy, macro F1(, |$)/,
    );
  });

  it('computes what several metrics share once per test set', () => {
    const { p, y, C } = testSet();
    let calls = 0;
    const shared = (): number => ++calls;
    const twice = [
      { ...SCORE_METRICS[0], id: 'a', compute: (s: Scoring) => s.shared(shared) },
      { ...SCORE_METRICS[0], id: 'b', compute: (s: Scoring) => s.shared(shared) + 1 },
    ];
    expect(scoreTestSet(twice, p, y, C)).toEqual({ a: 1, b: 2 });
    expect(calls).toBe(1);
  });

  it('leaves a metric that does not apply as NaN without computing it', () => {
    // Every test row of class 1: both AUCs are undefined (fewer than two classes present).
    const p = Float64Array.from([0.2, 0.8, 0.6, 0.4]);
    const y = Int32Array.from([1, 1]);
    const v = computeMetricValues(p, y, 2);
    expect(v.auc).toBeNaN();
    expect(v.auc_ovr).toBeNaN();
    expect(v.accuracy).toBe(0.5);
    const never = [{ ...SCORE_METRICS[0], id: 'x', applies: { when: () => false, otherwise: '' }, compute: () => 1 }];
    expect(scoreTestSet(never, p, y, 2)).toEqual({ x: NaN });
  });

  it('gives NaN for every score on an empty test set, and refuses posteriors that do not fit', () => {
    const v = computeMetricValues(new Float64Array(0), new Int32Array(0), 3);
    for (const id of SCORE_IDS) expect(v[id]).toBeNaN();
    expect(() => computeMetricValues(new Float64Array(5), new Int32Array(2), 3)).toThrow(/posterior cells/);
  });
});
