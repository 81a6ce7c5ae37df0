/**
 * FSSJ, forward sequential selection and joining (Pazzani 1996), as bnclassify's `fssj` implements it
 * (R/learn-hc.R, fssj_step in R/learn-hc-operators.R). The search starts from the class alone; each step
 * adds one attribute not yet in the model, either as a child of the class only or joined to a supernode
 * (a group of already joined attributes: the new attribute gets all of them as parents, so a supernode is
 * a complete DAG, bnclassify's form of Pazzani's Cartesian-product attribute), and keeps the candidate with
 * the best stratified k-fold cross-validated accuracy while max − epsilon ≥ current accuracy. Attributes
 * never added stay out of the model (no parents, no children: they do not affect the posterior).
 * Folds, accuracy, ties, smoothing and missing values: src/structures/search/ (family-evaluator.ts,
 * semi-naive.ts). Defaults k = 5, epsilon = 0, smooth = 1 as tan-hc (bnclassify's own defaults are
 * epsilon 0.01 and smooth 0; set them to match a bnclassify call).
 */
import { registerStructure } from '../registry.js';
import { attributeCount } from '../bn/data.js';
import { WRAPPER_MAX_ATTRIBUTES, WRAPPER_PARAMS, type OdeWrapperParams } from './search/common.js';
import { fssjStep, semiNaiveStructure } from './search/semi-naive.js';

export const fssj = registerStructure<OdeWrapperParams>({
  id: 'fssj',
  title: 'Forward sequential selection and joining by cross-validated accuracy (semi-naive Bayes)',
  citation:
    'Pazzani (1996), Constructive induction of Cartesian product attributes, ISIS: Information, Statistics ' +
    'and Induction in Science; as bnclassify fssj (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))',
  notes:
    'bnclassify equivalence: same candidate moves and stop rule (max − epsilon ≥ current accuracy, ties at ' +
    "random); defaults k = 5, epsilon = 0, smooth = 1 as tan-hc here, where bnclassify's are epsilon = 0.01, " +
    'smooth = 0. Candidates are scored on one stratified partition kept for the whole search; a row whose ' +
    'best class is shared by t classes counts 1/t. Rows with missing values: available-case counts and exact ' +
    'marginalisation (bnclassify uses gRain). A candidate whose family tables would exceed 2^22 cells over ' +
    'the folds is not scored (info.candidatesTooLarge)',
  params: WRAPPER_PARAMS,
  defaults: { k: 5, epsilon: 0, smooth: 1 },
  maxAttributes: WRAPPER_MAX_ATTRIBUTES,
  learn(train, params, ctx) {
    const init = Array.from({ length: attributeCount(train) }, () => null);
    return semiNaiveStructure(train, params, ctx, 'fssj', init, fssjStep);
  },
});
