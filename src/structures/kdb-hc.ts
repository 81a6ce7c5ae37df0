/**
 * kDB by greedy hill-climbing on cross-validated accuracy: bnclassify's `kdb` (R/learn-hc.R with
 * augment_kdb in R/learn-hc-operators.R), named kdb-hc so that it cannot be confused with Sahami's kDB
 * (`kdb`, mutual-information ordering). The search starts from naive Bayes; each step scores every arc
 * Xi → Xj that is new, makes no cycle, and goes into an attribute with fewer than `kdbk` attribute parents
 * (both directions between two attributes are scored: with more than one parent they are not equivalent),
 * and keeps the best by stratified k-fold cross-validated accuracy while max − epsilon ≥ current accuracy.
 * Folds, accuracy, ties, smoothing and missing values: src/structures/search/. Defaults k = 5, epsilon = 0,
 * smooth = 1 as tan-hc and kdbk = 2 as bnclassify (whose epsilon and smooth defaults are 0.01 and 0).
 * `r_seed: S` reproduces bnclassify's kdb run right after set.seed(S) in R, draw for draw, as tan-hc's
 * r_seed does (search/bnclassify-cv.ts).
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount } from '../bn/data.js';
import { UserError } from '../util/errors.js';
import { R_SEED_PARAM, WRAPPER_MAX_ATTRIBUTES, WRAPPER_ORDER_DEPENDENCE, WRAPPER_PARAMS } from './search/common.js';
import { kdbStep, semiNaiveStructure, SEMI_NAIVE_NOTES } from './search/semi-naive.js';

export const kdbHc = registerStructure({
  id: 'kdb-hc',
  revision: 1,
  title: 'kDB by greedy hill-climbing on cross-validated accuracy (bnclassify kdb)',
  citation:
    'Sahami (1996), Learning limited dependence Bayesian classifiers, KDD; the greedy wrapper of bnclassify kdb ' +
    '(Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2)), after Keogh & Pazzani (2002)',
  notes: SEMI_NAIVE_NOTES,
  orderDependence: WRAPPER_ORDER_DEPENDENCE,
  params: defineParams({
    ...WRAPPER_PARAMS,
    kdbk: { type: 'integer', minimum: 1, default: 2, description: 'Most attribute parents per attribute' },
    ...R_SEED_PARAM,
  }),
  maxAttributes: WRAPPER_MAX_ATTRIBUTES,
  learn(train, params, ctx) {
    const kdbk = params.kdbk;
    if (!Number.isInteger(kdbk) || kdbk < 1)
      throw new UserError(`kdb-hc: kdbk must be an integer >= 1, got ${String(kdbk)}`);
    const init = Array.from({ length: attributeCount(train) }, () => [] as number[]);
    const { kdbk: _, r_seed: seed, ...wrapper } = params;
    const rKdb = seed === undefined ? undefined : { kdbk, seed };
    return semiNaiveStructure(train, wrapper, ctx, 'kdb-hc', init, kdbStep(kdbk), rKdb);
  },
});
