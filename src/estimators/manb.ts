/**
 * MANB (Dash & Cooper 2002; Wei, Visweswaran & Cooper 2011): exact Bayesian model averaging over the 2^m
 * naive Bayes structures obtained by keeping or dropping each arc C → X_i, in time linear in m.
 *
 * With a structure prior that is independent per arc (P(C → X_i) = `prior` for every i) and Dirichlet
 * parameter priors (α per cell), the average of P(c, x | G, D) over structures factorises into one naive
 * Bayes whose tables mix, per attribute, the "arc" and "no arc" estimates:
 *
 *   θ^MANB(x | c) = p_i · (N_xc + α) / (N_c + r α) + (1 − p_i) · (N_x + α) / (N + r α),
 *
 * where p_i = P(C → X_i | D) is the arc's posterior from the two marginal likelihoods (bnclassify methods
 * vignette; the α ≠ 1 generalisation of Wei et al.'s Eqs. 6–7):
 *
 *   P(D_i | C → X_i) = Π_c Γ(rα) / Γ(N_c + rα) · Π_x Γ(N_xc + α) / Γ(α)
 *   P(D_i | no arc)  = Γ(rα) / Γ(N + rα) · Π_x Γ(N_x + α) / Γ(α)
 *
 * all in log space (lgamma, log-sum-exp). Counts are available case: N, N_c, N_x, N_xc over the rows where
 * X_i is observed. The class prior is (N_c + α) / (n + C α). The result is a CptModel on the naive Bayes
 * structure, so missing test values are marginalised exactly. The arc posteriors are on the model.
 */
import { defineParams, registerEstimator } from '../registry.js';
import type { DiscreteData } from '../bn/data.js';
import { attributeClassCounts } from '../bn/counts.js';
import { CptModel, type NodeCpt } from '../bn/cpt.js';
import { lgamma } from '../bn/scores.js';
import { UserError } from '../util/errors.js';
import { assertNaiveBayes } from './weighted-nb.js';

/** A MANB naive Bayes: the network plus P(C → X_i | D) for every attribute. */
class ManbModel extends CptModel {
  constructor(
    cards: ArrayLike<number>,
    cpts: readonly NodeCpt[],
    readonly arcPosteriors: Float64Array,
  ) {
    super(cards, cpts);
  }
}

/** log(1 + e^x) without overflow. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/**
 * log P(C → X | D) and log P(no arc | D) from counts t[x * C + c] (attributeClassCounts layout).
 */
export function manbLogArcPosterior(
  t: ArrayLike<number>,
  r: number,
  C: number,
  alpha: number,
  prior: number,
): { logArc: number; logNoArc: number } {
  const lgA = lgamma(alpha);
  const lgRA = lgamma(r * alpha);
  let arc = 0;
  let total = 0;
  for (let c = 0; c < C; c++) {
    let nc = 0;
    for (let x = 0; x < r; x++) {
      const v = t[x * C + c];
      nc += v;
      arc += lgamma(v + alpha) - lgA;
    }
    arc += lgRA - lgamma(nc + r * alpha);
    total += nc;
  }
  let noArc = lgRA - lgamma(total + r * alpha);
  for (let x = 0; x < r; x++) {
    let nx = 0;
    for (let c = 0; c < C; c++) nx += t[x * C + c];
    noArc += lgamma(nx + alpha) - lgA;
  }
  // Posterior log-odds of the arc, then both log probabilities without forming e^{odds}.
  const odds = Math.log(prior) - Math.log1p(-prior) + arc - noArc;
  return { logArc: -softplus(-odds), logNoArc: -softplus(odds) };
}

/** Fits MANB on a training set (structure: naive Bayes). */
export function fitManb(train: DiscreteData, alpha: number, prior: number): ManbModel {
  const m = train.columns.length;
  const C = train.classCard;
  const nc = new Float64Array(C);
  for (let i = 0; i < train.n; i++) nc[train.classColumn[i]]++;
  const classLogp = new Float64Array(C);
  for (let c = 0; c < C; c++) classLogp[c] = Math.log((nc[c] + alpha) / (train.n + C * alpha));
  const cpts: NodeCpt[] = [];
  const cards: number[] = [];
  const posts = new Float64Array(m);
  for (let a = 0; a < m; a++) {
    const r = train.cards[a];
    const t = attributeClassCounts(train, a);
    const { logArc, logNoArc } = manbLogArcPosterior(t, r, C, alpha, prior);
    posts[a] = Math.exp(logArc);
    let total = 0;
    const nx = new Float64Array(r);
    const ncA = new Float64Array(C);
    for (let x = 0; x < r; x++) {
      for (let c = 0; c < C; c++) {
        nx[x] += t[x * C + c];
        ncA[c] += t[x * C + c];
      }
      total += nx[x];
    }
    // logp[c * r + x]: the class is the single parent.
    const logp = new Float64Array(C * r);
    for (let c = 0; c < C; c++) {
      for (let x = 0; x < r; x++) {
        const withArc = logArc + Math.log((t[x * C + c] + alpha) / (ncA[c] + r * alpha));
        const without = logNoArc + Math.log((nx[x] + alpha) / (total + r * alpha));
        const mx = Math.max(withArc, without);
        logp[c * r + x] = mx + Math.log(Math.exp(withArc - mx) + Math.exp(without - mx));
      }
    }
    cards.push(r);
    cpts.push({ parents: [m], card: r, parentCards: Int32Array.of(C), configs: C, logp });
  }
  cards.push(C);
  cpts.push({ parents: [], card: C, parentCards: new Int32Array(0), configs: 1, logp: classLogp });
  return new ManbModel(cards, cpts, posts);
}

export const manb = registerEstimator({
  id: 'manb',
  revision: 1,
  title: 'MANB: exact model averaging over naive Bayes feature subsets',
  citation:
    'Dash & Cooper (2002), Exact model averaging with naive Bayesian classifiers, ICML 2002, 91–98; ' +
    'Wei, Visweswaran & Cooper (2011), The application of naive Bayes model averaging to predict Alzheimer’s ' +
    'disease from genome-wide data, JAMIA 18(4):370–375; bnclassify (Mihaljević, Bielza & Larrañaga 2018)',
  requires: ['naive-bayes'],
  params: defineParams({
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'Dirichlet pseudo-count per cell (1 = Laplace)',
    },
    prior: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.5,
      description: 'Prior probability of each arc C → X_i',
    },
  }),
  fit(train, structure, params) {
    const m = train.columns.length;
    assertNaiveBayes(structure, m, 'manb');
    const alpha = params.alpha;
    if (!(alpha > 0) || !Number.isFinite(alpha))
      throw new UserError(`manb: alpha must be a finite number > 0, got ${String(alpha)}`);
    const prior = params.prior;
    if (!(prior > 0 && prior < 1)) throw new UserError(`manb: prior must be in (0, 1), got ${String(prior)}`);
    return fitManb(train, alpha, prior);
  },
});
