/**
 * Optimal MDL augmented Bayes network / forest-augmented naive Bayes (Hamine & Helman 2004, §4–5):
 *  1. cost(e) = I(Xi;Xj|C) for every attribute pair (empirical, nats; available case);
 *  2. drop every edge whose cost is below the threshold of their Eq. 8,
 *       T_R = ||C|| (||Xi||−1)(||Xj||−1) log N / (2N),  N = number of training rows
 *     (an edge with cost ≥ T_R is kept, as their step 3 removes only edges with "a cost less than T_R");
 *  3. Kruskal's maximum spanning tree on the COSTS I within each connected component of what is left;
 *  4. each tree is oriented away from a root (the tree holding `root` there, the others at their
 *     lowest-index attribute) and the class becomes a parent of every attribute (class first).
 * cost ≥ T_R is the same test as N·I − (log N / 2)·d ≥ 0 (d = rc(ri−1)(rj−1)), i.e. a non-negative BIC
 * edge weight, for any log base. It differs from `cl-ode` with score bic in two ways:
 *  - Kruskal ranks edges by I, not by the penalised weight N·I − (log N/2)·d. With mixed cardinalities
 *    the two orders can disagree and so can the trees (the paper's "length depends only on the number of
 *    augmenting arcs" holds only when all attributes share one cardinality); cl-ode bic then has the
 *    better (or equal) MDL score;
 *  - N is the number of training rows, as in the paper, where cl-ode uses each pair's available-case
 *    count; they differ only when values are missing.
 * With complete data and a single attribute cardinality the two learners return the same structure.
 * Per-component Kruskal equals one Kruskal run over the thresholded graph (its choices within a component
 * never depend on another component's edges), which is what is computed. Ties as in bn/mst.ts.
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount, type DiscreteData } from '../bn/data.js';
import { pairwiseCmi } from '../bn/information.js';
import { forestWeight, maximumSpanningForest } from '../bn/mst.js';
import { odeCheckRoot, odeForestStructure } from './cl-ode.js';

/** Hamine & Helman's threshold T_R (nats) for an edge between attributes of cardinality ri, rj. */
export function mdlThreshold(ri: number, rj: number, classCard: number, n: number): number {
  if (n <= 0) return Infinity;
  return (classCard * (ri - 1) * (rj - 1) * Math.log(n)) / (2 * n);
}

/** Costs I(Xi;Xj|C) of the edges at or above T_R, -Infinity ("no edge") for the others. */
function thresholdedCosts(data: DiscreteData, signal?: AbortSignal): { costs: Float64Array; kept: number } {
  const m = attributeCount(data);
  const { cmi } = pairwiseCmi(data, signal);
  const costs = new Float64Array(m * m).fill(-Infinity);
  let kept = 0;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const c = cmi[i * m + j];
      if (c >= mdlThreshold(data.cards[i], data.cards[j], data.classCard, data.n)) {
        costs[i * m + j] = costs[j * m + i] = c;
        kept++;
      }
    }
  }
  return { costs, kept };
}

export const fanMdl = registerStructure({
  id: 'fan-mdl',
  revision: 1,
  title: 'Optimal MDL augmented Bayes network (forest-augmented naive Bayes, Hamine & Helman)',
  citation:
    'Hamine & Helman (2004), Learning optimal augmented Bayes networks, arXiv preprint, University of New Mexico; ' +
    'Keogh & Pazzani (1999), Learning augmented Bayesian classifiers, AISTATS',
  params: defineParams({
    root: { type: 'integer', minimum: 0, default: 0, description: 'Attribute index (0-based) rooting its tree' },
  }),
  learn(train, params, ctx) {
    const m = attributeCount(train);
    const root = params.root;
    odeCheckRoot('fan-mdl', root, m);
    if (m === 0) return { m, parents: [[]], info: { root, arcs: 0, candidateEdges: 0, cost: 0 } };
    const { costs, kept } = thresholdedCosts(train, ctx.signal);
    // -Infinity marks a removed edge: maximumSpanningForest never takes one.
    const edges = maximumSpanningForest(m, costs, { drop: 'none' });
    const s = odeForestStructure(m, edges, root);
    return { ...s, info: { root, arcs: edges.length, candidateEdges: kept, cost: forestWeight(m, costs, edges) } };
  },
});
