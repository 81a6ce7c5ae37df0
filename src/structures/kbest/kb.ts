/**
 * KB: Bayesian model averaging over the K best Markov equivalence classes (Chen & Tian 2014), one
 * representative DAG each, with weights w_k = P(D | G_k) / Σ_k' P(D | G_k') (Sugahara, Aomi & Ueno 2022,
 * eq. 1), normalised in log space. mode 'dag' averages the K best DAGs instead (Tian, He & Ram 2010).
 * With anb the search is restricted to augmented naive Bayes structures (KB10(EANB) in the paper).
 *
 * Under BDeu with the matching EAP parameters (the `eap` estimator with α = ess) every DAG of a class gives
 * the same class posterior, so the representative chosen does not matter. With score 'bic' the weights are
 * exp(BIC) = exp(−MDL), the usual approximation of the marginal likelihood.
 *
 * Diagnostics (Structure.info): classes found, the best score, the mean number of the class's parents
 * (Table 5), the mean pairwise SHD between the members' CPDAGs (Table 7) and APSES (eq. 3, Table 8).
 */
import { defineParams, paramDecls, registerStructure, type ParamsOf } from '../../registry.js';
import type { DiscreteData } from '../../bn/data.js';
import type { Structure, StructureMember } from '../../bn/structure.js';
import { learnKBest } from '../../bn/exact/search.js';
import type { KBestMode } from '../../bn/exact/kbest.js';
import { MAX_K } from '../../bn/exact/kbest.js';
import type { Rng } from '../../util/rng.js';
import {
  apses,
  EXACT_ORDER_DEPENDENCE,
  ensembleDiagnostics,
  posteriorWeights,
  SCORE_PARAMS,
  scoreOptions,
} from '../exact/common.js';

/** KB's own parameters, shared with SubbKB (which runs KB on each subsample). */
export const KB_PARAMS = paramDecls({
  k: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_K,
    default: 10,
    description: 'Number of best equivalence classes (or DAGs) averaged',
  },
  anb: { type: 'boolean', default: false, description: 'Restrict the search to augmented naive Bayes structures' },
  mode: {
    enum: ['ec', 'dag'] as KBestMode[],
    default: 'ec',
    description: "'ec': K best equivalence classes (Chen & Tian 2014); 'dag': K best DAGs (Tian et al. 2010)",
  },
  apses: {
    type: 'boolean',
    default: true,
    description: 'Compute the APSES diagnostic (eq. 3 of Sugahara et al. 2022; 100 extra network scores)',
  },
});

const KB = defineParams({ ...KB_PARAMS, ...SCORE_PARAMS });
type KbParams = ParamsOf<typeof KB>;

/** The K best classes of `train` as weighted members (weights ∝ exp(score), in log space). */
export function kBestMembers(
  train: DiscreteData,
  params: KbParams,
  signal?: AbortSignal,
): { members: { weight: number; structure: Structure; score: number }[]; rows: number } {
  const o = scoreOptions(params);
  const m = train.columns.length;
  const { dags, rows } = learnKBest(train, params.k, params.mode, {
    ...o,
    constraint: params.anb ? 'anb' : 'none',
    signal,
  });
  const w = posteriorWeights(dags.map((d) => d.score));
  return {
    members: dags.map((d, i) => ({ weight: w[i], structure: { m, parents: d.parents }, score: d.score })),
    rows,
  };
}

function kbStructure(train: DiscreteData, params: KbParams, rng: Rng, signal?: AbortSignal): Structure {
  const o = scoreOptions(params);
  const m = train.columns.length;
  const { members, rows } = kBestMembers(train, params, signal);
  const info: Record<string, number | string | boolean> = {
    classes: members.length,
    bestScore: members[0].score,
    completeRows: rows,
    ...ensembleDiagnostics(members),
  };
  if (params.apses) {
    info['apses'] = apses(
      [train],
      members.map((x) => x.structure.parents),
      o.score,
      o.ess,
      rng.derive('apses'),
    );
  }
  if (members.length === 1) return { ...members[0].structure, info };
  const list: StructureMember[] = members.map(({ weight, structure }) => ({ weight, structure }));
  return { m, parents: members[0].structure.parents, members: list, info };
}

export const kb = registerStructure({
  id: 'kb',
  revision: 1,
  title: 'Model averaging over the K best equivalence classes (or DAGs)',
  citation:
    'Chen & Tian (2014), Finding the k-best equivalence classes of Bayesian network structures for model averaging, AAAI; ' +
    'Tian, He & Ram (2010), Bayesian model averaging using the k-best Bayesian network structures, UAI; ' +
    'weights as in Sugahara, Aomi & Ueno (2022), Entropy 24(5):743, eq. 1',
  orderDependence: EXACT_ORDER_DEPENDENCE,
  params: KB,
  maxAttributes: 21,
  learn(train, params, ctx) {
    return kbStructure(train, params, ctx.rng, ctx.signal);
  },
});
