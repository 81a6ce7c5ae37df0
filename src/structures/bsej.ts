/**
 * BSEJ, backward sequential elimination and joining (Pazzani 1996), as bnclassify's `bsej` implements it
 * (R/learn-hc.R, bsej_step in R/learn-hc-operators.R). The search starts from naive Bayes over every
 * attribute; each step either removes one attribute from the model (with its arcs) or joins two supernodes
 * (every member of the earlier supernode, by smallest column index, gets every member of the later one as
 * a parent, so joined attributes form a complete DAG), and keeps the candidate with the best stratified
 * k-fold cross-validated accuracy while max − epsilon ≥ current accuracy. Removed attributes have no
 * parents and no children. Folds, accuracy, ties, smoothing and missing values: src/structures/search/.
 * Defaults k = 5, epsilon = 0, smooth = 1 as tan-hc (bnclassify's are epsilon 0.01, smooth 0).
 */
import { registerStructure } from '../registry.js';
import { attributeCount } from '../bn/data.js';
import { WRAPPER_MAX_ATTRIBUTES, WRAPPER_PARAMS, type OdeWrapperParams } from './search/common.js';
import { bsejStep, semiNaiveStructure } from './search/semi-naive.js';

export const bsej = registerStructure<OdeWrapperParams>({
  id: 'bsej',
  title: 'Backward sequential elimination and joining by cross-validated accuracy (semi-naive Bayes)',
  citation:
    'Pazzani (1996), Constructive induction of Cartesian product attributes, ISIS: Information, Statistics ' +
    'and Induction in Science; as bnclassify bsej (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))',
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
    const init = Array.from({ length: attributeCount(train) }, () => [] as number[]);
    return semiNaiveStructure(train, params, ctx, 'bsej', init, bsejStep);
  },
});
