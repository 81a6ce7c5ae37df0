/**
 * aCLL-TAN: the tree-augmented naive Bayes that maximises the approximate conditional log-likelihood of
 * Carvalho, Adão & Mateus (2013, Entropy 15:2716), as used by Sugahara, Aomi & Ueno (2022):
 *
 *   aCLL(G) = Σ_i Σ_j Σ_k Σ_c (N_ijck + β Σ_c' N_ijc'k) · ln(N⁺_ijck / N⁺_ij·c),
 *   N⁺_ijck = N_ijck + β Σ_c' N_ijc'k if that is >= N', else N';  N⁺_ij·c = Σ_k N⁺_ijck,
 *
 * with j the configuration of X_i's parents other than the class. The score decomposes over the attributes,
 * so the best TAN is a maximum spanning arborescence over the edge gains aCLL_i(C, X_j) − aCLL_i(C), which
 * need not be symmetric (the N' floor): found exactly with Chu–Liu/Edmonds, the root chosen optimally
 * through a virtual root that may have one child only.
 *
 * β and N' are settings (the paper finds β by Monte Carlo; its values are not reported). Default
 * β = −1/r_0: aCLL approximates −ln Σ_c P(c, x) by β Σ_c ln P(c, x) + const, and the tangent where the
 * classes' joints are equal has slope −1/r_0; the weights N_ijck − mean_c' N_ijc'k then contrast each
 * class with the average. Default N' = 0.5. Missing values: available case, as TAN's CMI.
 */
import { defineParams, registerStructure } from '../registry.js';
import type { Structure } from '../bn/structure.js';
import { accumulatePairCodes, accumulatePairCodes4, attributeClassCodes, attributeClassCounts } from '../bn/counts.js';
import { maximumArborescence } from '../bn/exact/arborescence.js';
import { UserError } from '../util/errors.js';

/**
 * aCLL term of one attribute from counts t[(k * q + j) * C + c] (k: the attribute's value, j: its
 * non-class parent configuration, q of them; q = 1 without such a parent).
 */
export function acllTerm(
  t: Float64Array | Int32Array,
  r: number,
  q: number,
  C: number,
  beta: number,
  nprime: number,
  buf: Float64Array,
): number {
  let total = 0;
  for (let j = 0; j < q; j++) {
    // N⁺ per (c, k) and its sums over k
    for (let c = 0; c < C; c++) buf[c] = 0;
    for (let k = 0; k < r; k++) {
      let s = 0;
      for (let c = 0; c < C; c++) s += t[(k * q + j) * C + c];
      for (let c = 0; c < C; c++) {
        const wv = t[(k * q + j) * C + c] + beta * s;
        const plus = wv >= nprime ? wv : nprime;
        buf[C + k * C + c] = plus;
        buf[c] += plus;
      }
    }
    for (let k = 0; k < r; k++) {
      let s = 0;
      for (let c = 0; c < C; c++) s += t[(k * q + j) * C + c];
      for (let c = 0; c < C; c++) {
        const wv = t[(k * q + j) * C + c] + beta * s;
        if (wv !== 0) total += wv * Math.log(buf[C + k * C + c] / buf[c]);
      }
    }
  }
  return total;
}

export const acllTan = registerStructure({
  id: 'acll-tan',
  revision: 1,
  title: 'TAN maximising the approximate conditional log-likelihood (aCLL), exact over trees',
  citation:
    'Carvalho, Adão & Mateus (2013), Efficient approximation of the conditional relative entropy with applications to ' +
    'discriminative learning of Bayesian network classifiers, Entropy 15(7):2716–2735; Chu & Liu (1965), Edmonds (1967)',
  params: defineParams({
    beta: { type: 'number', description: 'β of aCLL (default −1/r_0, r_0 the number of classes)' },
    nprime: { type: 'number', exclusiveMinimum: 0, default: 0.5, description: "N', the floor of the modified counts" },
  }),
  learn(train, params, ctx): Structure {
    const m = train.columns.length;
    const C = train.classCard;
    const beta = params.beta ?? -1 / C;
    const nprime = params.nprime;
    if (!Number.isFinite(beta)) throw new UserError(`acll-tan: beta must be a finite number, got ${beta}`);
    if (!(nprime > 0)) throw new UserError(`acll-tan: nprime must be > 0, got ${nprime}`);
    const parents: number[][] = [];
    for (let a = 0; a < m; a++) parents.push([m]);
    parents.push([]);
    if (m <= 1) return { m, parents, info: { root: m === 1 ? 0 : -1 } };
    let maxCard = 1;
    for (let a = 0; a < m; a++) maxCard = Math.max(maxCard, train.cards[a]);
    const buf = new Float64Array(C + maxCard * C);
    const base = new Float64Array(m);
    for (let a = 0; a < m; a++)
      base[a] = acllTerm(attributeClassCounts(train, a), train.cards[a], 1, C, beta, nprime, buf);
    // Edge weights over the attributes plus a virtual root R = m.
    const n = m + 1;
    const w = new Float64Array(n * n).fill(-Infinity);
    const swapped = new Float64Array(maxCard * maxCard * C);
    let scale = 1;
    const visit = (i: number, j: number, t: Int32Array): void => {
      const ri = train.cards[i];
      const rj = train.cards[j];
      // t[(xi * rj + xj) * C + c]; X_j's term with parent X_i needs [(xj * ri + xi) * C + c]
      for (let a = 0; a < ri; a++)
        for (let b = 0; b < rj; b++)
          for (let c = 0; c < C; c++) swapped[(b * ri + a) * C + c] = t[(a * rj + b) * C + c];
      const gi = acllTerm(t, ri, rj, C, beta, nprime, buf) - base[i]; // j → i
      const gj = acllTerm(swapped, rj, ri, C, beta, nprime, buf) - base[j]; // i → j
      w[j * n + i] = gi;
      w[i * n + j] = gj;
      scale += Math.abs(gi) + Math.abs(gj);
    };
    // Pair tables four at a time, as pairwiseCmi counts them (one pass over the rows per four pairs).
    const tables = [0, 1, 2, 3].map(() => new Int32Array(maxCard * maxCard * C));
    const zj = new Int32Array(train.n);
    const cols = train.columns;
    for (let j = 1; j < m; j++) {
      ctx.signal?.throwIfAborted();
      attributeClassCodes(train, j, zj);
      const stride = train.cards[j] * C;
      let i = 0;
      for (; i + 4 <= j; i += 4) {
        for (let k = 0; k < 4; k++) tables[k].fill(0, 0, train.cards[i + k] * stride);
        const [t0, t1, t2, t3] = tables as [Int32Array, Int32Array, Int32Array, Int32Array];
        accumulatePairCodes4(cols[i], cols[i + 1], cols[i + 2], cols[i + 3], zj, stride, train.n, t0, t1, t2, t3);
        for (let k = 0; k < 4; k++) visit(i + k, j, tables[k]);
      }
      for (; i < j; i++) {
        const t = tables[0];
        t.fill(0, 0, train.cards[i] * stride);
        accumulatePairCodes(cols[i], zj, stride, train.n, t);
        visit(i, j, t);
      }
    }
    // The virtual root may have one child only: each of its edges costs more than all gains together.
    for (let a = 0; a < m; a++) w[m * n + a] = -2 * scale;
    const parent = maximumArborescence(n, m, w);
    let root = -1;
    let score = 0;
    for (let a = 0; a < m; a++) {
      score += base[a];
      if (parent[a] === m) root = a;
      else {
        parents[a] = [m, parent[a]];
        score += w[parent[a] * n + a];
      }
    }
    return { m, parents, info: { root, acll: score } };
  },
});
