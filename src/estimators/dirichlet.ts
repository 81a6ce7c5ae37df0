/**
 * Bayesian (MAP-style) CPTs under a symmetric Dirichlet prior with the same pseudo-count α in every cell:
 * θ_ijk = (N_ijk + α) / (N_ij + r_i α). α = 1 is the Laplace estimate; α = 0 is maximum likelihood (an unseen
 * parent configuration is then uniform). This is bnclassify's `smooth` (Eq. 2 of its overview vignette),
 * not the BDeu split α/(r_i q_i) (see `eap`). An unseen configuration's row is uniform for every α, so
 * families above SPARSE_CPT_CELLS cells are stored sparsely with the same numbers (src/bn/cpt.ts).
 */
import { defineParams, registerEstimator } from '../registry.js';
import { fitModel, smoothedLogProbs } from '../bn/cpt.js';
import type { FamilyCounts } from '../bn/counts.js';

/** log θ with α added to every cell. */
export function dirichletLogProbs(fc: FamilyCounts, alpha: number): Float64Array {
  if (!(alpha >= 0) || !Number.isFinite(alpha))
    throw new Error(`dirichlet: alpha must be a finite number >= 0, got ${alpha}`);
  return smoothedLogProbs(fc, alpha);
}

export const dirichlet = registerEstimator({
  id: 'dirichlet',
  revision: 1,
  title: 'Dirichlet (per-cell α; α = 1 is Laplace)',
  citation:
    'Mihaljević, Bielza & Larrañaga (2018), bnclassify: Learning Bayesian Network Classifiers, R Journal 10(2), Eq. 2; ' +
    'Laplace estimate as in Friedman, Geiger & Goldszmidt (1997), Machine Learning 29:131–163',
  params: defineParams({
    alpha: {
      type: 'number',
      minimum: 0,
      default: 1,
      description: 'Pseudo-count added to every CPT cell (1 = Laplace, 0 = MLE)',
    },
  }),
  pseudoCount: (params) => params.alpha,
  fit(train, structure, params) {
    const alpha = params.alpha;
    return fitModel(train, structure, (fc) => dirichletLogProbs(fc, alpha));
  },
});
