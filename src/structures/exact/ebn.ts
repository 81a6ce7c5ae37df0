/**
 * EBN: the exactly optimal Bayesian network over the attributes and the class (the class may have parents
 * and children), by the dynamic programming of Silander & Myllymäki (2006). Scores are computed on the
 * complete rows. The class posterior of such a network is the product of the factors in the class's Markov
 * blanket (exact inference in CptModel); with the `eap` estimator the parameters are the BDeu-consistent
 * EAP estimates α_ijk = α/(r_i q_i).
 */
import { defineParams, registerStructure } from '../../registry.js';
import type { DiscreteData } from '../../bn/data.js';
import type { Structure } from '../../bn/structure.js';
import { learnBestDag } from '../../bn/exact/search.js';
import type { ExactConstraint } from '../../bn/exact/localscores.js';
import { SCORE_PARAMS, scoreOptions, type ScoreParams } from './common.js';

/** The optimal network (with the ANB constraint for 'anb') as a Structure with its diagnostics. */
export function exactStructure(
  train: DiscreteData,
  params: ScoreParams,
  constraint: ExactConstraint,
  signal?: AbortSignal,
): Structure {
  const o = scoreOptions(params);
  const m = train.columns.length;
  const best = learnBestDag(train, { ...o, constraint, signal });
  const arcs = best.parents.reduce((a, ps) => a + ps.length, 0);
  return {
    m,
    parents: best.parents,
    info: { score: best.score, classParents: best.parents[m].length, arcs, completeRows: best.rows },
  };
}

export const ebn = registerStructure({
  id: 'ebn',
  revision: 1,
  title: 'Exact Bayesian network (globally optimal under BDeu, BIC, AIC or log-likelihood)',
  citation:
    'Silander & Myllymäki (2006), A simple approach for finding the globally optimal Bayesian network structure, UAI; ' +
    'BDeu: Buntine (1991), Heckerman, Geiger & Chickering (1995)',
  params: defineParams(SCORE_PARAMS),
  // 24 variables: 4-byte best-parent tables of 24 · 2^23 entries (0.8 GB) plus 2^24-entry set tables.
  maxAttributes: 23,
  learn(train, params, ctx) {
    return exactStructure(train, params, 'none', ctx.signal);
  },
});
