/**
 * Bagging (Breiman 1996) of exact learners, as the Bagging(EBN) and Bagging(EANB) baselines of Sugahara,
 * Aomi & Ueno (2022): B bootstrap samples (with replacement) of a fraction of the training rows (the paper
 * uses 10 samples of 90 %), the exact EBN or EANB structure learned on each, parameters fitted on the same
 * sample (member `rows`), and the class posteriors averaged with equal weights.
 */
import { registerStructure } from '../../registry.js';
import { selectRows } from '../../bn/data.js';
import type { StructureMember } from '../../bn/structure.js';
import {
  bootstrap,
  ensembleDiagnostics,
  SCORE_DEFAULTS,
  SCORE_PROPERTIES,
  subsample,
  type ScoreParams,
} from '../exact/common.js';
import { exactStructure } from '../exact/ebn.js';
import { throwIfAborted } from '../../bn/exact/localscores.js';

export type BaggingParams = ScoreParams & {
  base?: 'ebn' | 'eanb';
  members?: number;
  fraction?: number;
  replace?: boolean;
};

export const bagging = registerStructure<BaggingParams>({
  id: 'bagging',
  title: 'Bagging of exact BN or ANB structures',
  citation:
    'Breiman (1996), Bagging predictors, Machine Learning 24:123–140; as a baseline in Sugahara, Aomi & Ueno (2022), Entropy 24(5):743',
  params: {
    type: 'object',
    properties: {
      base: { enum: ['ebn', 'eanb'], description: 'Exact learner applied to each sample' },
      members: { type: 'integer', minimum: 1, maximum: 1000, description: 'Number of bootstrap samples' },
      fraction: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 1,
        description: 'Sample size as a fraction of the training rows',
      },
      replace: { type: 'boolean', description: 'Sample with replacement (bootstrap); false gives subbagging' },
      ...SCORE_PROPERTIES,
    },
    additionalProperties: false,
  },
  defaults: { base: 'ebn', members: 10, fraction: 0.9, replace: true, ...SCORE_DEFAULTS },
  maxAttributes: 23,
  learn(train, params, ctx) {
    const B = params.members ?? 10;
    const size = Math.max(1, Math.round((params.fraction ?? 0.9) * train.n));
    const rng = ctx.rng.derive('samples');
    const m = train.columns.length;
    const members: StructureMember[] = [];
    for (let b = 0; b < B; b++) {
      throwIfAborted(ctx.signal);
      const rows = (params.replace ?? true) ? bootstrap(train.n, size, rng) : subsample(train.n, size, rng);
      const s = exactStructure(selectRows(train, rows), params, params.base === 'eanb' ? 'anb' : 'none', ctx.signal);
      members.push({ weight: 1 / B, structure: { m, parents: s.parents }, rows });
    }
    return {
      m,
      parents: members[0]!.structure.parents,
      members,
      info: { sampleRows: size, ...ensembleDiagnostics(members) },
    };
  },
});
