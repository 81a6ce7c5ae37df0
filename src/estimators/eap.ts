/**
 * Expected-a-posteriori CPTs under the BDeu prior (Buntine 1991; Heckerman, Geiger & Chickering 1995):
 * the equivalent sample size α is spread uniformly over a family's r_i q_i cells, α_ijk = α / (r_i q_i), so
 * θ_ijk = (N_ijk + α/(r_i q_i)) / (N_ij + α/q_i). q_i is the number of parent configurations (1 for a node
 * without parents, e.g. the class in NB/TAN). These are the parameters consistent with a BDeu score.
 * q_i is always the full product of the parent cardinalities, also when a large family is stored sparsely
 * (src/bn/cpt.ts: only the configurations seen in training have their own row; every other one has the
 * row for N_ij = 0, which is uniform), so sparse and dense tables hold the same numbers.
 */
import { defineParams, registerEstimator } from '../registry.js';
import { fitModel, smoothedLogProbs } from '../bn/cpt.js';
import type { FamilyCounts } from '../bn/counts.js';

/** log θ with the BDeu pseudo-count α / (r q) in every cell. */
export function bdeuLogProbs(fc: FamilyCounts, alpha: number): Float64Array {
  if (!(alpha > 0) || !Number.isFinite(alpha)) throw new Error(`eap: alpha must be a finite number > 0, got ${alpha}`);
  return smoothedLogProbs(fc, alpha / (fc.childCard * fc.configs));
}

export const eap = registerEstimator({
  id: 'eap',
  revision: 1,
  title: 'EAP under the BDeu prior (equivalent sample size α)',
  citation:
    'Heckerman, Geiger & Chickering (1995), Learning Bayesian networks: the combination of knowledge and ' +
    'statistical data, Machine Learning 20:197–243; Buntine (1991), Theory refinement on Bayesian networks, UAI',
  params: defineParams({
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'Equivalent sample size, spread as α/(r·q) per cell',
    },
  }),
  pseudoCount: (params, childCard, configs) => params.alpha / (childCard * configs),
  fit(train, structure, params) {
    const alpha = params.alpha;
    return fitModel(train, structure, (fc) => bdeuLogProbs(fc, alpha));
  },
});
