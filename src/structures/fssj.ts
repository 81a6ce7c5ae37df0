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
import { fssjStep, PAZZANI_1996, semiNaiveLearner } from './search/semi-naive.js';

export const fssj = registerStructure(
  semiNaiveLearner({
    id: 'fssj',
    revision: 1,
    title: 'Forward sequential selection and joining by cross-validated accuracy (semi-naive Bayes)',
    citation: `${PAZZANI_1996}; as bnclassify fssj (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))`,
    start: 'empty',
    step: fssjStep,
  }),
);
