/**
 * SubbKB (Sugahara, Aomi & Ueno 2022, "Bayesian network model averaging classifiers by subbagging",
 * Entropy 24(5):743, §4):
 *  1. draw T subsamples D_t of ⌊δ·|D|⌋ training rows without replacement (subbagging; δ = 0.9, T = 10);
 *  2. on each, find the K best equivalence classes under BDeu (Chen & Tian 2014; K = 10);
 *  3. average the class posteriors over the K classes of each D_t with weights P(D_t | G_t^k) / Σ_k' P(D_t | G_t^k');
 *  4. average the T model-averaged posteriors:  P(c | x) ≈ (1/T) Σ_t Σ_k w_tk P(c | x, G_t^k, D_t)   (eq. 2).
 * Parameters are fitted on the subsample: eq. 2 conditions each posterior on D_t, so every member carries
 * its subsample's rows (Structure member `rows`) and fitModel estimates its CPTs from those rows only.
 * score 'bic' gives SubbKB(MDL): BIC = −MDL drives the search and the weights exp(BIC).
 */
import { defineParams, registerStructure } from '../../registry.js';
import { selectRows } from '../../bn/data.js';
import type { StructureMember } from '../../bn/structure.js';
import { UserError } from '../../util/errors.js';
import {
  apses,
  EXACT_ORDER_DEPENDENCE,
  ensembleDiagnostics,
  SCORE_PARAMS,
  scoreOptions,
  subsample,
} from '../exact/common.js';
import { KB_PARAMS, kBestMembers } from '../kbest/kb.js';
import { throwIfAborted } from '../../bn/exact/localscores.js';

export const subbkb = registerStructure({
  id: 'subbkb',
  revision: 1,
  title: 'SubbKB: subbagging of K-best equivalence-class model averaging',
  citation:
    'Sugahara, Aomi & Ueno (2022), Bayesian network model averaging classifiers by subbagging, Entropy 24(5):743; ' +
    'Chen & Tian (2014), AAAI',
  orderDependence: EXACT_ORDER_DEPENDENCE,
  params: defineParams({
    t: { type: 'integer', minimum: 1, maximum: 1000, default: 10, description: 'Number of subsamples T' },
    delta: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.9,
      description: 'Subsample size as a fraction δ of the training rows',
    },
    ...KB_PARAMS,
    ...SCORE_PARAMS,
  }),
  maxAttributes: 21,
  learn(train, params, ctx) {
    const T = params.t;
    const delta = params.delta;
    if (!(delta > 0 && delta <= 1)) throw new UserError(`subbkb: delta must be in (0, 1], got ${delta}`);
    const o = scoreOptions(params);
    const m = train.columns.length;
    const size = Math.max(1, Math.floor(delta * train.n));
    const rng = ctx.rng.derive('subsamples');
    const members: StructureMember[] = [];
    const subsets = [];
    let classes = 0;
    for (let t = 0; t < T; t++) {
      throwIfAborted(ctx.signal);
      const rows = subsample(train.n, size, rng);
      const d = selectRows(train, rows);
      subsets.push(d);
      const { members: best } = kBestMembers(d, params, ctx.signal);
      classes += best.length;
      for (const b of best) members.push({ weight: b.weight / T, structure: b.structure, rows });
    }
    const info: Record<string, number | string | boolean> = {
      subsamples: T,
      subsampleRows: size,
      classesPerSubsample: classes / T,
      ...ensembleDiagnostics(members),
    };
    if (params.apses) {
      info['apses'] = apses(
        subsets,
        members.map((x) => x.structure.parents),
        o.score,
        o.ess,
        ctx.rng.derive('apses'),
      );
    }
    return { m, parents: members[0].structure.parents, members, info };
  },
});
