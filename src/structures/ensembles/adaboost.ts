/**
 * AdaBoost.M1 (Freund & Schapire 1997) over exact learners, the Adaboost(EBN) baseline of Sugahara, Aomi &
 * Ueno (2022). Each round learns the exact structure on a sample of the training rows drawn with the current
 * boosting weights ("boosting by resampling": the exact scores need integer counts), fits its parameters on
 * that sample (member `rows`), and measures the weighted training error ε of the fitted classifier. With
 * β = ε / (1 − ε) the round's vote weight is ln(1/β) and the weights of correctly classified rows are
 * multiplied by β. Boosting stops when ε ≥ 1/2 (the round is discarded unless it is the first) or ε = 0
 * (that round alone decides). The final classifier is the weighted vote: members are one-hot `vote`s.
 *
 * The training predictions use EAP parameters with equivalent sample size `alpha` (α/(r q) per cell), the
 * estimator the paper uses; pair this learner with `eap` of the same α.
 */
import { defineParams, registerStructure } from '../../registry.js';
import { selectRows, type DiscreteData } from '../../bn/data.js';
import type { Structure, StructureMember } from '../../bn/structure.js';
import { fitCptModel, smoothedLogProbs } from '../../bn/cpt.js';
import { EXACT_ORDER_DEPENDENCE, ensembleDiagnostics, SCORE_PARAMS, weightedBootstrap } from '../exact/common.js';
import { exactStructure } from '../exact/ebn.js';
import { throwIfAborted } from '../../bn/exact/localscores.js';

/** Predicted class (first most probable) of every row of `data` under an EAP-fitted structure. */
export function eapPredictions(
  fitOn: DiscreteData,
  structure: Structure,
  data: DiscreteData,
  alpha: number,
  rowWeights?: Float64Array,
): Int32Array {
  const model = fitCptModel(
    fitOn,
    structure,
    (fc) => smoothedLogProbs(fc, alpha / (fc.childCard * fc.configs)),
    rowWeights,
  );
  const p = model.posterior(data);
  const C = data.classCard;
  const out = new Int32Array(data.n);
  for (let r = 0; r < data.n; r++) {
    let b = 0;
    for (let c = 1; c < C; c++) if (p[r * C + c] > p[r * C + b]) b = c;
    out[r] = b;
  }
  return out;
}

/**
 * One AdaBoost.M1 update: the weighted error of `pred`, and (when 0 < ε < 1/2) the weights multiplied by β
 * on correct rows and renormalised to sum to 1. Returns ε and the vote weight ln(1/β).
 */
export function adaboostStep(w: Float64Array, pred: Int32Array, truth: Int32Array): { eps: number; vote: number } {
  let eps = 0;
  for (let r = 0; r < w.length; r++) if (pred[r] !== truth[r]) eps += w[r];
  if (eps <= 0 || eps >= 0.5) return { eps: Math.max(0, eps), vote: eps <= 0 ? 1 : 0 };
  const beta = eps / (1 - eps);
  let total = 0;
  for (let r = 0; r < w.length; r++) {
    if (pred[r] === truth[r]) w[r] = w[r] * beta;
    total += w[r];
  }
  for (let r = 0; r < w.length; r++) w[r] = w[r] / total;
  return { eps, vote: Math.log(1 / beta) };
}

export const adaboost = registerStructure({
  id: 'adaboost',
  revision: 1,
  title: 'AdaBoost.M1 over exact BN or ANB structures (boosting by resampling)',
  citation:
    'Freund & Schapire (1997), A decision-theoretic generalization of on-line learning and an application to boosting, ' +
    'J. Comput. Syst. Sci. 55:119–139; as a baseline in Sugahara, Aomi & Ueno (2022), Entropy 24(5):743',
  orderDependence: {
    columns: EXACT_ORDER_DEPENDENCE.columns,
    classes:
      "a member's training prediction goes to the lowest class code on a tie, which changes the boosting weights",
  },
  params: defineParams({
    base: { enum: ['ebn', 'eanb'], default: 'ebn', description: 'Exact learner boosted' },
    rounds: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 10,
      description: 'Maximum number of boosting rounds',
    },
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'EAP equivalent sample size of the training predictions (match the estimator)',
    },
    ...SCORE_PARAMS,
  }),
  maxAttributes: 23,
  learn(train, params, ctx) {
    const n = train.n;
    const m = train.columns.length;
    const alpha = params.alpha;
    const rng = ctx.rng.derive('resample');
    const w = new Float64Array(n).fill(1 / Math.max(1, n));
    const members: StructureMember[] = [];
    const errors: number[] = [];
    for (let t = 0; t < params.rounds; t++) {
      throwIfAborted(ctx.signal);
      const rows = weightedBootstrap(w, n, rng);
      const sample = selectRows(train, rows);
      const s = exactStructure(sample, params, params.base === 'eanb' ? 'anb' : 'none', ctx.signal);
      const structure: Structure = { m, parents: s.parents };
      const pred = eapPredictions(sample, structure, train, alpha);
      const { eps, vote } = adaboostStep(w, pred, train.classColumn);
      errors.push(eps);
      if (eps <= 0) {
        members.splice(0, members.length, { weight: 1, structure, rows, vote: true });
        break;
      }
      if (eps >= 0.5) {
        if (members.length === 0) members.push({ weight: 1, structure, rows, vote: true });
        break;
      }
      members.push({ weight: vote, structure, rows, vote: true });
    }
    return {
      m,
      parents: members[0].structure.parents,
      members,
      info: {
        rounds: errors.length,
        firstError: errors[0],
        lastError: errors[errors.length - 1],
        ...ensembleDiagnostics(members),
      },
    };
  },
});
