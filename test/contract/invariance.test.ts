/**
 * Invariance checks of the contract suite (after mlr3's autotest): a learner must not care how the user
 * happened to order the attribute columns or name the classes. For every registered structure learner ×
 * estimator pair, reordering the columns of the training and test data leaves every posterior unchanged,
 * and relabelling the classes permutes the posterior columns and changes nothing else (to 1e-9).
 *
 * A method whose published convention depends on position (a tree rooted at attribute 0, bnclassify's tie
 * rules, folds stratified by class code, a Gibbs sampler's visiting order) declares it in its registration
 * (`orderDependence`, shown in docs/methods.md) and that check is skipped for its pairs. Two data sets
 * (with and without missing values) are checked, since a tie that depends on order shows on some data only.
 */
import { describe, expect, it } from 'vitest';
import '../../src/structures/index.js';
import '../../src/estimators/index.js';
import { compatible, listEstimators, listStructures } from '../../src/registry.js';
import {
  declaresOrderDependence as declared,
  INVARIANCE_TOLERANCE,
  invarianceEffect,
} from '../../src/contract/checks.js';

// The data sets, the reordering (columns [3, 0, 5, 1, 4, 2]) and the relabelling (classes [2, 0, 1]) are in
// src/contract/checks.ts, which a learner outside src/ runs through `bnclab/contract`.
const pairs = listStructures().flatMap((s) =>
  listEstimators()
    .filter((e) => compatible(e, s.id))
    .map((e) => [`${s.id} × ${e.id}`, s, e] as const),
);

describe.each(pairs)('%s', (_, s, e) => {
  it.skipIf(declared(s, e, 'columns'))('gives the same posteriors with the columns reordered', () => {
    expect(INVARIANCE_TOLERANCE).toBe(1e-9);
    expect(invarianceEffect(s, e, 'columns')).toBeLessThanOrEqual(1e-9);
  });
  it.skipIf(declared(s, e, 'classes'))('gives the same posteriors, permuted, with the classes relabelled', () => {
    expect(invarianceEffect(s, e, 'classes')).toBeLessThanOrEqual(1e-9);
  });
});
