/**
 * TAN-HC (Keogh & Pazzani 2002, "hill-climbing search" over augmenting arcs), as bnclassify's `tan_hc`
 * implements it (Mihaljević, Bielza & Larrañaga 2018; R/learn-hc.R, R/learn-hc-operators.R):
 *  - one stratified k-fold partition of the training data is drawn at the start (from ctx.rng) and kept
 *    for the whole search; a structure's score is its mean per-fold accuracy;
 *  - the search starts from naive Bayes; each step scores every one-dependence-preserving arc
 *    Xi → Xj with Xj an orphan (no attribute parent) and Xi not in Xj's tree. Adding Xi → Xj or Xj → Xi
 *    between two orphans gives Markov-equivalent structures, so only one is scored: with `orient: column`
 *    (default) the one whose tail is the later column, as bnclassify 0.4.8's code keeps it (augment_ode_arcs
 *    → discard_cycles → discard_reversed, which keeps the later of two reversed rows); with `orient: name`
 *    the one whose tail's column name sorts first (the methods vignette's "Xi alphabetically before Xj";
 *    code units, equal names by column index). With smooth > 0 the orientation changes the posteriors;
 *    `column` does not depend on how the columns are named;
 *  - stop rule (is_improvement): the best candidate is taken while max − epsilon ≥ current score, so with
 *    epsilon 0 an arc that keeps the accuracy equal is still added; the search also stops at accuracy 1 or
 *    when no arc can be added. Ties between the best candidates are broken at random (ctx.rng), as
 *    bnclassify's max_random does.
 * Accuracy: the predicted class is the argmax of log P(c, x_obs); a row whose argmax is shared by t
 * classes counts 1/t if the true class is among them (the expectation of bnclassify's random tie break).
 * `r_seed: S` reproduces bnclassify's tan_hc run right after set.seed(S) in R, draw for draw: its folds,
 * its random class ties in prediction (max.col) and between candidates (max_random) from R's
 * Mersenne-Twister in bnclassify's order, its candidate order, its tolerances and its long-double fold
 * means (search/bnclassify-cv.ts; equal to bnclassify 0.4.8 fold by fold, docs/performance.md). A script
 * that calls set.seed(S) once and then fits several folds in a row continues R's stream from fold to
 * fold; each bnclab job starts from set.seed(S), so such a script is reproduced by calling set.seed
 * before each fit (as bench/bnclassify.R does with the fold number).
 * Parameters inside the wrapper: Dirichlet with α = `smooth` per cell, default 1 (Laplace; bnclassify's
 * own default is 0, its documented examples use 1). Missing values: available-case counts, and rows with a
 * missing value are classified by exact marginalisation over the forest (bnclassify uses gRain for those).
 *
 * Cost: every family's per-fold counts come from one pass over the rows (counts of all folds at once,
 * training counts = total − fold), cached per (child, parent) pair, so scoring an arc recounts at most the
 * one changed family; the per-row class scores of the current structure are kept, and a candidate arc only
 * swaps its child's term (exact for every row where the arc's two attributes are observed; other rows are
 * re-evaluated over the whole forest). A search is O(m³) arc evaluations of O(N·C) each, hence
 * maxAttributes = 200. With fewer rows than k the folds are the rows (leave-one-out); with fewer than two
 * rows there is nothing to cross-validate and naive Bayes is returned.
 */
import { defineParams, registerStructure } from '../registry.js';
import { UserError } from '../util/errors.js';
import {
  ORPHAN_ORIENTS,
  type OrphanOrient,
  WRAPPER_MAX_ATTRIBUTES,
  WRAPPER_ORDER_DEPENDENCE,
  WRAPPER_PARAMS,
  R_SEED_PARAM,
} from './search/common.js';
import { wrapperStructure } from './search/ode-search.js';

export const tanHc = registerStructure({
  id: 'tan-hc',
  revision: 2,
  title: 'TAN by greedy hill-climbing on cross-validated accuracy (augmenting arcs)',
  citation:
    'Keogh & Pazzani (2002), Learning the structure of augmented Bayesian classifiers, International Journal on ' +
    'Artificial Intelligence Tools 11(4):587–601; as bnclassify tan_hc (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))',
  orderDependence: WRAPPER_ORDER_DEPENDENCE,
  params: defineParams({
    ...WRAPPER_PARAMS,
    orient: {
      enum: ORPHAN_ORIENTS,
      default: 'column',
      description:
        "Arc kept between two orphans: column (default; tail = the later column, as bnclassify's code) or name (tail = the name that sorts first)",
    },
    ...R_SEED_PARAM,
  }),
  maxAttributes: WRAPPER_MAX_ATTRIBUTES,
  learn(train, params, ctx) {
    const { orient, r_seed: rSeed, ...wrapper } = params;
    if (!ORPHAN_ORIENTS.includes(orient))
      throw new UserError(`tan-hc: orient must be ${ORPHAN_ORIENTS.join(' or ')}, got '${String(orient)}'`);
    if (rSeed !== undefined && orient !== 'column')
      throw new UserError(
        `tan-hc: r_seed reproduces bnclassify, which orients by column; it cannot go with orient: ${orient}`,
      );
    return wrapperStructure(train, wrapper, ctx, 'tan-hc', false, orient as OrphanOrient, rSeed);
  },
});
