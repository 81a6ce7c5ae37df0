import { describe, it, expect } from 'vitest';
import { accuracy, computeMetrics, logLoss, predictions, rmse, zeroOneLoss } from '../../src/metrics/index.js';

// Four test rows, three classes.
//   row  posterior          truth  argmax
//    0   [0.7, 0.2, 0.1]    0      0  (hit)
//    1   [0.4, 0.4, 0.2]    1      0  (tie -> lowest index -> miss)
//    2   [0.1, 0.3, 0.6]    2      2  (hit)
//    3   [0.0, 1.0, 0.0]    0      1  (miss; p_true = 0 is clamped to 1e-15)
const P = Float64Array.from([0.7, 0.2, 0.1, 0.4, 0.4, 0.2, 0.1, 0.3, 0.6, 0, 1, 0]);
const Y = Int32Array.from([0, 1, 2, 0]);

describe('metrics', () => {
  it('argmax breaks ties towards the lowest class index', () => {
    expect([...predictions(P, 3)]).toEqual([0, 0, 2, 1]);
  });

  it('argmax keeps the running maximum, not the last value above the first', () => {
    // [0.2, 0.5, 0.3]: 0.3 beats the first cell but not the running maximum 0.5.
    const Q = Float64Array.from([0.2, 0.5, 0.3, 0.1, 0.2, 0.7, 0.3, 0.3, 0.4, 0.5, 0.25, 0.25]);
    expect([...predictions(Q, 3)]).toEqual([1, 2, 2, 0]);
    expect(accuracy(Q, Int32Array.from([1, 2, 2, 0]), 3)).toBe(1);
    expect(accuracy(Q, Int32Array.from([2, 2, 2, 0]), 3)).toBe(0.75);
    // The running maximum is read from this row: after a row ending in 0, [0.2, 0.5, 0.3] is still class 1.
    expect([...predictions(Float64Array.from([0.5, 0.5, 0, 0.2, 0.5, 0.3]), 3)]).toEqual([0, 1]);
  });

  it('accuracy = 2/4, zero-one loss = 2/4', () => {
    expect(accuracy(P, Y, 3)).toBe(0.5);
    expect(zeroOneLoss(P, Y, 3)).toBe(0.5);
  });

  it('rmse averaged over classes = sqrt(2.96 / 12)', () => {
    // squared errors: row0 0.09+0.04+0.01 = 0.14; row1 0.16+0.36+0.04 = 0.56;
    //                 row2 0.01+0.09+0.16 = 0.26; row3 1+1+0 = 2;  Σ = 2.96, N·C = 12
    expect(rmse(P, Y, 3)).toBeCloseTo(Math.sqrt(2.96 / 12), 14);
    expect(rmse(P, Y, 3)).toBeCloseTo(0.4966554809, 9);
  });

  it('log loss = -(ln .7 + ln .4 + ln .6 + ln 1e-15) / 4', () => {
    const expected = -(Math.log(0.7) + Math.log(0.4) + Math.log(0.6) + Math.log(1e-15)) / 4;
    expect(expected).toBeCloseTo(9.080642, 5);
    expect(logLoss(P, Y, 3)).toBeCloseTo(expected, 12);
  });

  it('perfect predictions give accuracy 1, rmse 0, log loss 0', () => {
    const p = Float64Array.from([1, 0, 0, 1]);
    const y = [0, 1];
    expect(computeMetrics(p, y, 2)).toEqual({ n: 2, accuracy: 1, zeroOneLoss: 0, rmse: 0, logLoss: 0 });
  });

  it('computeMetrics bundles all four', () => {
    const m = computeMetrics(P, Y, 3);
    expect(m.n).toBe(4);
    expect(m.accuracy).toBe(0.5);
    expect(m.zeroOneLoss).toBe(0.5);
    expect(m.rmse).toBeCloseTo(Math.sqrt(2.96 / 12), 14);
    expect(m.logLoss).toBeCloseTo(logLoss(P, Y, 3), 15);
  });

  it('one class is a valid (degenerate) class count: every row is a hit with p_true = 1', () => {
    const p = Float64Array.from([1, 1, 1]);
    expect(computeMetrics(p, [0, 0, 0], 1)).toEqual({ n: 3, accuracy: 1, zeroOneLoss: 0, rmse: 0, logLoss: 0 });
  });

  it('rejects mismatched shapes and class codes; an empty set gives NaN', () => {
    expect(() => accuracy(P, [0, 1, 2], 3)).toThrow(/posterior cells/);
    expect(() => accuracy(P, [0, 1, 2, 3], 3)).toThrow(/row 3 has class 3 outside 0\.\.2/);
    expect(() => accuracy(P, [0, 1, -1, 0], 3)).toThrow(/row 2 has class -1 outside/);
    expect(() => rmse(P, [0, 1.5, 2, 0], 3)).toThrow(/row 1 has class 1\.5 outside/);
    expect(() => accuracy(P, [0, 1, 2, 0], 0)).toThrow(/invalid class count 0/);
    expect(() => logLoss(P, [0, 1, 2, 0], 1.5)).toThrow(/invalid class count 1\.5/);
    expect(() => predictions(P, 5)).toThrow(/12 cells is not a multiple of 5/);
    expect(computeMetrics(new Float64Array(0), [], 3).accuracy).toBeNaN();
  });
});
