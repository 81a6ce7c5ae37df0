/**
 * Tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997, Construct-TAN):
 *  1. weights I(Xi; Xj | C) (empirical, nats, available case) for every attribute pair;
 *  2. a maximum weight spanning tree over the attributes (Kruskal; ties as documented in bn/mst.ts:
 *     weights equal within 1e-12 relative go in increasing (i, j) order with `tie: first`, the default,
 *     or in the order of bnclassify's Boost Kruskal with `tie: bnclassify`). With `tie: first` all edges
 *     are candidates, even zero-weight ones, so the result is always a spanning tree; `tie: bnclassify`
 *     uses bnclassify's own floating-point weights (bn/bnclassify-cmi.ts) and drops negative ones, as it does;
 *  3. orientation away from the root by BFS; the class becomes a parent of every attribute.
 * Root: param `root` (attribute index), default 0, the first attribute. bnclassify's tan_cl roots the tree
 * at its first node in column order (its `root` argument is ignored) and bnlearn's tree.bayes at the first
 * explanatory variable, so the default reproduces both.
 * Parent order: the class first, then the tree parent.
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { pairwiseCmi } from '../bn/information.js';
import { odeCheckRoot } from './cl-ode.js';
import { forestWeight, maximumSpanningForest, orientForest, type TieRule } from '../bn/mst.js';
import { bnclassifyPairwiseCmi } from '../bn/bnclassify-cmi.js';
import { checkTie, TIE_NOTES, TIE_PARAM } from './spanning-tie.js';

/** Builds the TAN structure from a pairwise weight matrix (m × m) and a root. */
export function tanFromWeights(m: number, weights: Float64Array, root: number, tie: TieRule = 'first'): Structure {
  const parents: number[][] = [];
  if (m === 0) return { m, parents: [[]], info: { root: -1, treeWeight: 0, treeArcs: 0 } };
  // bnclassify: its own floating-point weights, negative ones dropped, ties exact (see bn/bnclassify-cmi.ts).
  const edges =
    tie === 'bnclassify'
      ? maximumSpanningForest(m, weights, { drop: 'negative', tie, tieTolerance: 0 })
      : maximumSpanningForest(m, weights, { drop: 'none', tie });
  const tree = orientForest(m, edges, root);
  for (let a = 0; a < m; a++) parents.push(tree[a] < 0 ? [m] : [m, tree[a]]);
  parents.push([]);
  return { m, parents, info: { root, treeWeight: forestWeight(m, weights, edges), treeArcs: edges.length } };
}

export const tan = registerStructure({
  id: 'tan',
  revision: 2,
  title: 'Tree-augmented naive Bayes (Chow–Liu tree on I(Xi;Xj|C))',
  citation: 'Friedman, Geiger & Goldszmidt (1997), Bayesian network classifiers, Machine Learning 29:131–163',
  notes:
    TIE_NOTES +
    ' With `tie: first` every edge is a candidate, zero-weight ones included, so the result is always a spanning tree',
  orderDependence: {
    columns:
      'the tree is rooted at the attribute with index `root` (default 0, the first column); estimators that are not score-equivalent (dirichlet, m-estimate, hdp) give other posteriors for the same tree rooted elsewhere',
  },
  params: defineParams({
    root: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'Attribute index (0-based) at which the tree is rooted',
    },
    ...TIE_PARAM,
  }),
  learn(train, params, ctx) {
    const m = attributeCount(train);
    const root = params.root;
    odeCheckRoot('tan', root, m);
    const tie = checkTie('tan', params.tie);
    if (tie === 'bnclassify') return tanFromWeights(m, bnclassifyPairwiseCmi(train, ctx.signal), root, tie);
    const { cmi } = pairwiseCmi(train, ctx.signal);
    return tanFromWeights(m, cmi, root, tie);
  },
});
