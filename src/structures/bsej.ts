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
import { bsejStep, PAZZANI_1996, semiNaiveLearner } from './search/semi-naive.js';

export const bsej = registerStructure(
  semiNaiveLearner({
    id: 'bsej',
    revision: 1,
    title: 'Backward sequential elimination and joining by cross-validated accuracy (semi-naive Bayes)',
    citation: `${PAZZANI_1996}; as bnclassify bsej (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))`,
    start: 'nb',
    step: bsejStep,
  }),
);
