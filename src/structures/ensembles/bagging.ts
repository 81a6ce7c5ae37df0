/**
 * Bagging (Breiman 1996) of exact learners, as the Bagging(EBN) and Bagging(EANB) baselines of Sugahara,
 * Aomi & Ueno (2022): B bootstrap samples (with replacement) of a fraction of the training rows (the paper
 * uses 10 samples of 90 %), the exact EBN or EANB structure learned on each, parameters fitted on the same
 * sample (member `rows`), and the class posteriors averaged with equal weights.
 */
import { defineParams, registerStructure } from '../../registry.js';
import { selectRows } from '../../bn/data.js';
import type { StructureMember } from '../../bn/structure.js';
import { bootstrap, EXACT_ORDER_DEPENDENCE, ensembleDiagnostics, SCORE_PARAMS, subsample } from '../exact/common.js';
import { exactStructure } from '../exact/ebn.js';
import { throwIfAborted } from '../../bn/exact/localscores.js';

export const bagging = registerStructure({
  id: 'bagging',
  revision: 1,
  title: 'Bagging of exact BN or ANB structures',
  citation:
    'Breiman (1996), Bagging predictors, Machine Learning 24:123–140; as a baseline in Sugahara, Aomi & Ueno (2022), Entropy 24(5):743',
  orderDependence: EXACT_ORDER_DEPENDENCE,
  params: defineParams({
    base: { enum: ['ebn', 'eanb'], default: 'ebn', description: 'Exact learner applied to each sample' },
    members: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 10,
      description: 'Number of bootstrap samples',
    },
    fraction: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.9,
      description: 'Sample size as a fraction of the training rows',
    },
    replace: {
      type: 'boolean',
      default: true,
      description: 'Sample with replacement (bootstrap); false gives subbagging',
    },
    ...SCORE_PARAMS,
  }),
  maxAttributes: 23,
  learn(train, params, ctx) {
    const B = params.members;
    const size = Math.max(1, Math.round(params.fraction * train.n));
    const rng = ctx.rng.derive('samples');
    const m = train.columns.length;
    const members: StructureMember[] = [];
    for (let b = 0; b < B; b++) {
      throwIfAborted(ctx.signal);
      const rows = params.replace ? bootstrap(train.n, size, rng) : subsample(train.n, size, rng);
      const s = exactStructure(selectRows(train, rows), params, params.base === 'eanb' ? 'anb' : 'none', ctx.signal);
      members.push({ weight: 1 / B, structure: { m, parents: s.parents }, rows });
    }
    return {
      m,
      parents: members[0].structure.parents,
      members,
      info: { sampleRows: size, ...ensembleDiagnostics(members) },
    };
  },
});
