/**
 * Maximum-likelihood CPTs: θ_ijk = N_ijk / N_ij from available-case counts.
 *
 * Conventions: a parent configuration never seen in training (N_ij = 0) gets the uniform distribution
 * 1/r_i; a cell with N_ijk = 0 under a seen configuration has probability 0 (log -Infinity). If a test row
 * then has probability 0 under every class, its posterior is uniform (see normalizeLogRows).
 * The class prior is node m with its own parents (none in NB/TAN), estimated the same way.
 * Families above SPARSE_CPT_CELLS cells are stored sparsely (src/bn/cpt.ts): the rows of the configurations
 * seen in training, and the uniform row shared by all the others; the numbers are those of the full table.
 */
import { defineParams, registerEstimator } from '../registry.js';
import { fitModel, smoothedLogProbs } from '../bn/cpt.js';
import type { FamilyCounts } from '../bn/counts.js';

/** log θ by maximum likelihood (uniform for unseen parent configurations). */
export function mleLogProbs(fc: FamilyCounts): Float64Array {
  return smoothedLogProbs(fc, 0);
}

export const mle = registerEstimator({
  id: 'mle',
  revision: 1,
  title: 'Maximum likelihood',
  citation:
    'Maximum-likelihood multinomial CPTs (Koller & Friedman 2009, Probabilistic Graphical Models, §17.2); ' +
    'bnclassify lp(smooth = 0) (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))',
  params: defineParams({}),
  pseudoCount: () => 0,
  fit(train, structure) {
    return fitModel(train, structure, (fc) => mleLogProbs(fc));
  },
});
