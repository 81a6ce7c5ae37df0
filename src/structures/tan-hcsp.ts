/**
 * TAN-HCSP: Keogh & Pazzani's SuperParent search, as bnclassify's `tan_hcsp` implements it
 * (R/learn-hc-operators.R, augment_ode_sp). Each step:
 *  1. every attribute that can still take a child is tried as a super-parent: it becomes the parent of
 *     every orphan outside its own tree at once, and that structure is scored by cross-validated accuracy;
 *  2. for the best super-parent (random tie break) one candidate per such orphan adds only the arc
 *     super-parent → orphan ("favourite child"); the best candidate is accepted under the same stop rule
 *     as tan-hc (max − epsilon ≥ current accuracy). The super-parent scores are not compared with the
 *     current accuracy, only the single-arc candidates are.
 * Folds, accuracy, smoothing (α = `smooth`, default 1), missing values and caching are those of tan-hc
 * (src/structures/tan-hc.ts).
 */
import { defineParams, registerStructure } from '../registry.js';
import { WRAPPER_MAX_ATTRIBUTES, WRAPPER_ORDER_DEPENDENCE, WRAPPER_PARAMS } from './search/common.js';
import { wrapperStructure } from './search/ode-search.js';

export const tanHcsp = registerStructure({
  id: 'tan-hcsp',
  revision: 1,
  title: 'TAN by the SuperParent hill-climbing search on cross-validated accuracy',
  citation:
    'Keogh & Pazzani (2002), Learning the structure of augmented Bayesian classifiers, International Journal on ' +
    'Artificial Intelligence Tools 11(4):587–601; as bnclassify tan_hcsp (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))',
  orderDependence: WRAPPER_ORDER_DEPENDENCE,
  params: defineParams(WRAPPER_PARAMS),
  maxAttributes: WRAPPER_MAX_ATTRIBUTES,
  learn(train, params, ctx) {
    return wrapperStructure(train, params, ctx, 'tan-hcsp', true);
  },
});
