/**
 * CL-ODE (bnclassify's `tan_cl`): Chow–Liu in the one-dependence space. Friedman, Geiger & Goldszmidt
 * (1997) find the maximum-likelihood TAN in quadratic time; the same Kruskal step maximises any score that
 * decomposes over the augmenting arcs, so bnclassify also uses it for AIC and BIC (Mihaljević, Bielza &
 * Larrañaga 2018, methods vignette §"Chow-Liu for one-dependence estimators").
 *
 * Edge weight for attributes Xi, Xj (N = rows where both are observed, I in nats, d = (ri−1)(rj−1)·rc):
 *   loglik: I(Xi;Xj|C)            aic: N·I − d            bic: N·I − (ln N / 2)·d
 * (bnclassify's convention: AIC = LL − d, BIC = LL − (log N / 2)·d.) Edges with a negative weight are dropped
 * before Kruskal (bnclassify keeps w ≥ 0), so AIC and BIC may give a forest (FAN); loglik weights are never
 * negative, so loglik always gives a spanning tree (= `tan`).
 * Zero-weight edges: a column with a single value in the training fold (e.g. no MDL cut) has I = 0 and
 * d = 0, so weight exactly 0 under every score; with the default `drop: negative` (bnclassify's w ≥ 0) such
 * edges are kept and join the forest's trees through that column (which changes the roots and hence the
 * orientation of the joined trees, not the likelihood). `drop: nonPositive` keeps only strictly positive
 * edges: an arc is added only when it raises the score, as the FAN papers' greedy rule reads; the
 * default is kept so that existing results do not change.
 * Ties between equal weights: the rules of bn/mst.ts, `tie: first` ((i, j) order within a tie, default)
 * or `tie: bnclassify` (the pop order of bnclassify's Boost Kruskal heap over its combn edge order, on
 * weights computed in bnclassify's own floating-point steps, compared exactly: bnclassifyOdeWeights).
 * Orientation: the tree holding `root` is rooted there, every other tree at its lowest-index attribute
 * (bnclassify ignores its `root` argument and roots each tree at its first node, i.e. root 0).
 * Parent order: the class first, then the tree parent.
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { pairwiseCmi } from '../bn/information.js';
import { bnclassifyCmi } from '../bn/bnclassify-cmi.js';
import { pairClassCounts } from '../bn/counts.js';
import { lnRounded } from '../util/exact-float.js';
import { forestWeight, maximumSpanningForest, orientForest, type TieRule } from '../bn/mst.js';
import { UserError } from '../util/errors.js';
import { checkTie, TIE_PARAM } from './spanning-tie.js';

type OdeScore = 'loglik' | 'aic' | 'bic';

const SCORES: readonly OdeScore[] = ['loglik', 'aic', 'bic'];

/** Pairwise CL-ODE weights (m × m, symmetric, zero diagonal) for a score, as bnclassify computes them. */
export function odeWeights(data: DiscreteData, score: OdeScore, signal?: AbortSignal, tie?: TieRule): Float64Array {
  const m = attributeCount(data);
  if (tie === 'bnclassify') return bnclassifyOdeWeights(data, score, signal);
  const { cmi, n } = pairwiseCmi(data, signal);
  if (score === 'loglik') return cmi;
  const w = new Float64Array(m * m);
  const rc = data.classCard;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const d = (data.cards[i] - 1) * (data.cards[j] - 1) * rc;
      const N = n[i * m + j];
      // With no jointly observed row the pair carries no evidence; log(0) would make the BIC penalty NaN.
      const penalty = score === 'aic' ? d : N > 0 ? (Math.log(N) / 2) * d : 0;
      w[i * m + j] = w[j * m + i] = N * cmi[i * m + j] - penalty;
    }
  }
  return w;
}

/**
 * The weights in bnclassify's own floating-point steps (local_ode_score_contrib): its cmi_table
 * (bn/bnclassify-cmi.ts), N the table's total, df = (r_i − 1)(r_j − 1)·r_C, bic = N·cmi − (log(N)/2)·df,
 * aic = N·cmi − df, with R's (glibc's) log.
 */
function bnclassifyOdeWeights(data: DiscreteData, score: OdeScore, signal?: AbortSignal): Float64Array {
  const m = attributeCount(data);
  const w = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    signal?.throwIfAborted();
    for (let j = i + 1; j < m; j++) {
      const cmi = bnclassifyCmi(data, i, j);
      let v = cmi;
      if (score !== 'loglik') {
        let N = 0;
        for (const x of pairClassCounts(data, i, j)) N += x;
        const df = (data.cards[i] - 1) * (data.cards[j] - 1) * data.classCard;
        v = score === 'aic' ? N * cmi - df : N * cmi - (lnRounded(N) / 2) * df;
      }
      w[i * m + j] = w[j * m + i] = v;
    }
  }
  return w;
}

/** The ODE structure of a forest over the attributes: class first in every parent list, then the tree parent. */
export function odeForestStructure(m: number, edges: readonly (readonly [number, number])[], root: number): Structure {
  const tree = orientForest(m, edges, root);
  const parents: number[][] = [];
  for (let a = 0; a < m; a++) parents.push(tree[a] < 0 ? [m] : [m, tree[a]]);
  parents.push([]);
  return { m, parents };
}

export function odeCheckRoot(id: string, root: number, m: number): void {
  if (m > 0 && (!Number.isInteger(root) || root < 0 || root >= m)) {
    throw new UserError(`${id}: root ${root} is not an attribute index (0..${m - 1})`);
  }
}

export const clOde = registerStructure({
  id: 'cl-ode',
  revision: 2,
  title: 'Chow–Liu one-dependence estimator (TAN by log-likelihood, FAN by AIC or BIC)',
  citation:
    'Friedman, Geiger & Goldszmidt (1997), Bayesian network classifiers, Machine Learning 29:131–163; ' +
    'Mihaljević, Bielza & Larrañaga (2018), bnclassify: Learning Bayesian Network Classifiers, R Journal 10(2) (tan_cl)',
  notes:
    'Edges with negative weight are dropped (bnclassify keeps w ≥ 0). A column with one value in a training fold ' +
    'has weight exactly 0 with every other column (I = 0, d = 0); by default (`drop: negative`) those edges are ' +
    'kept and join the forest into one tree through that column; `drop: nonPositive` keeps only strictly ' +
    "positive edges (an arc only when it raises the score, the FAN papers' greedy rule). Ties as `tan` " +
    '(`tie: first | bnclassify`)',
  orderDependence: {
    columns:
      'the tree is rooted at the attribute with index `root` (default 0, the first column); estimators that are not score-equivalent (dirichlet, m-estimate, hdp) give other posteriors for the same tree rooted elsewhere',
  },
  params: defineParams({
    score: {
      enum: SCORES,
      default: 'loglik',
      description: 'Arc weight: loglik = I(Xi;Xj|C) (a tree); aic = N·I − d, bic = N·I − (ln N/2)·d (a forest)',
    },
    root: { type: 'integer', minimum: 0, default: 0, description: 'Attribute index (0-based) rooting its tree' },
    drop: {
      enum: ['negative', 'nonPositive'],
      default: 'negative',
      inKey: false, // added after results existed: a job that does not set it keeps its key
      description:
        'Edges left out before Kruskal: negative (default; bnclassify, zero-weight edges kept) or nonPositive (only strictly positive edges)',
    },
    ...TIE_PARAM,
  }),
  learn(train, params, ctx) {
    const m = attributeCount(train);
    const score = params.score;
    const root = params.root;
    if (!SCORES.includes(score))
      throw new UserError(`cl-ode: unknown score '${String(score)}' (known: ${SCORES.join(', ')})`);
    odeCheckRoot('cl-ode', root, m);
    if (m === 0) return { m, parents: [[]], info: { score, root, arcs: 0, weight: 0 } };
    const drop = params.drop;
    if (drop !== 'negative' && drop !== 'nonPositive')
      throw new UserError(`cl-ode: drop must be negative or nonPositive, got '${String(drop)}'`);
    const tie = checkTie('cl-ode', params.tie);
    const w = odeWeights(train, score, ctx.signal, tie);
    // bnclassify compares its weights exactly.
    const edges = maximumSpanningForest(m, w, tie === 'bnclassify' ? { drop, tie, tieTolerance: 0 } : { drop, tie });
    const s = odeForestStructure(m, edges, root);
    return { ...s, info: { score, root, arcs: edges.length, weight: forestWeight(m, w, edges) } };
  },
});
