/**
 * bAN_mix: boosted augmented naive Bayes (Jing, Pavlović & Rehg 2008, "Boosted Bayesian network
 * classifiers", Machine Learning 73:155–184), as described by Sugahara, Aomi & Ueno (2022, §5.1): AdaBoost
 * "starts with naive Bayes and greedily augments the current structure at iteration j with the j-th edge
 * having the highest conditional mutual information". The edges are those of the Chow–Liu tree on
 * I(Xi; Xj | C) (as in TAN), taken in decreasing order of weight (Kruskal's order) and oriented away from
 * attribute 0, so every intermediate structure is a forest-augmented naive Bayes. Round j fits the
 * structure's parameters to the boosting-weighted rows (EAP with equivalent sample size `alpha`; weighted
 * counts, member `rowWeights`), and the rounds are combined by AdaBoost.M1's weighted vote.
 *
 * What the paper does not pin down, chosen here: the tree edges (rather than all pairs) so that the structure
 * stays acyclic without a separate orientation rule; at most `iterations` rounds (the attributes minus one
 * edges cap it); AdaBoost.M1 stopping rules (ε ≥ 1/2 or ε = 0).
 */
import { defineParams, registerStructure } from '../../registry.js';
import type { Structure, StructureMember } from '../../bn/structure.js';
import { pairwiseCmi } from '../../bn/information.js';
import { maximumSpanningForest, orientForest } from '../../bn/mst.js';
import { adaboostStep, eapPredictions } from './adaboost.js';
import { ensembleDiagnostics } from '../exact/common.js';

export const banMix = registerStructure({
  id: 'ban-mix',
  revision: 1,
  title: 'Boosted augmented naive Bayes (bAN_mix): AdaBoost adding one CMI-ranked edge per round',
  citation: 'Jing, Pavlović & Rehg (2008), Boosted Bayesian network classifiers, Machine Learning 73:155–184',
  orderDependence: {
    columns: 'the tree edges are oriented away from attribute 0 (the first column)',
  },
  params: defineParams({
    iterations: {
      type: 'integer',
      minimum: 1,
      maximum: 100000,
      default: 10,
      description: 'Maximum number of boosting rounds (round j adds the j-th edge)',
    },
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'EAP equivalent sample size of the weighted parameters (match the estimator)',
    },
  }),
  // Members carry rowWeights (AdaBoost's reweighting), so their counts are fractional.
  traits: ['weighted-rows'],
  learn(train, params, ctx) {
    const m = train.columns.length;
    const n = train.n;
    const alpha = params.alpha;
    const { cmi } = pairwiseCmi(train, ctx.signal);
    const edges = m > 1 ? maximumSpanningForest(m, cmi, { drop: 'none' }) : [];
    const tree = orientForest(m, edges, 0);
    const rounds = Math.min(params.iterations, edges.length + 1);
    const w = new Float64Array(n).fill(1 / Math.max(1, n));
    const members: StructureMember[] = [];
    const parents: number[][] = [];
    for (let a = 0; a < m; a++) parents.push([m]);
    parents.push([]);
    let lastEps = 0;
    for (let j = 0; j < rounds; j++) {
      if (j > 0) {
        // the j-th strongest tree edge, oriented as in the rooted tree
        const [u, v] = edges[j - 1];
        const child = tree[v] === u ? v : u;
        parents[child] = [m, tree[child]];
      }
      const structure: Structure = { m, parents: parents.map((p) => [...p]) };
      const rowWeights = Float64Array.from(w, (x) => x * n);
      const pred = eapPredictions(train, structure, train, alpha, rowWeights);
      const { eps, vote } = adaboostStep(w, pred, train.classColumn);
      lastEps = eps;
      if (eps <= 0) {
        members.splice(0, members.length, { weight: 1, structure, rowWeights, vote: true });
        break;
      }
      if (eps >= 0.5) {
        if (members.length === 0) members.push({ weight: 1, structure, rowWeights, vote: true });
        break;
      }
      members.push({ weight: vote, structure, rowWeights, vote: true });
    }
    return {
      m,
      parents: members[members.length - 1].structure.parents,
      members,
      info: { rounds: members.length, lastError: lastEps, ...ensembleDiagnostics(members, false) },
    };
  },
});
