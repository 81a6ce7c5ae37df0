/**
 * EANB: the exactly optimal augmented naive Bayes classifier (Sugahara & Ueno 2021): the class has no
 * parents, every attribute has the class as a parent, and the attributes' other parents form the DAG that
 * maximises the score. The search runs over the attributes only, with the class folded into every parent
 * set (bn/exact/localscores.ts), which is the DP of Silander & Myllymäki with every family that breaks the
 * constraint excluded.
 */
import { defineParams, registerStructure } from '../../registry.js';
import { SCORE_PARAMS } from './common.js';
import { exactStructure } from './ebn.js';

export const eanb = registerStructure({
  id: 'eanb',
  revision: 1,
  title: 'Exact augmented naive Bayes (optimal ANB under BDeu, BIC, AIC or log-likelihood)',
  citation:
    'Sugahara & Ueno (2021), Exact learning augmented naive Bayes classifier, Entropy 23(12):1703; ' +
    'Silander & Myllymäki (2006), UAI',
  params: defineParams(SCORE_PARAMS),
  maxAttributes: 24,
  learn(train, params, ctx) {
    return exactStructure(train, params, 'anb', ctx.signal);
  },
});
