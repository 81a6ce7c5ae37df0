/**
 * The objective and gradient of WANBIA `variant: bnclassify`, evaluated in the order and with the rounding
 * of bnclassify 0.4.8 (R/learn-params-wanbia.R, R/infer.R, src/infer.cpp, src/basic-misc.cpp) and the
 * matrixStats 0.63 rowLogSumExps it calls, so that R's L-BFGS-B and bn/lbfgsb.ts see the same numbers
 * (where a line search steps at 1e-12, one last bit of the objective decides between a restart and a stop).
 *
 * With θ(x | c) = (N_xc + α) / (N_c + r α) and P(c) = (N_c + α) / (n + C α) as double quotients:
 *
 *   objective  f(w) = −Σ_j log p_j(y_j), summed as R's sum() does (x87 long double, rounded once), where
 *     θ_w(x | c) = θ(x | c)^w / s_c (R's `^`, then s_c = Σ_x θ^w in double, x ascending),
 *     S_jc = log P(c) + Σ_i log θ_wi(x_ji | c)  (double, attributes in column order),
 *     l_j = M + log1p(Σ_{c ≠ first argmax} exp(S_jc − M)) with M = max_c S_jc (a double sum, classes
 *           ascending: the installed matrixStats agrees with that, not with a long double sum),
 *     p_j(c) = exp(S_jc − l_j);
 *   gradient   g_i(w) = Σ_j ( −log θ(x_ji | y_j) + Σ_c log θ(x_ji | c) · p_j(c) ), the inner sum accumulated
 *     as R's rowSums (long double, from 0) and the outer as R's sum().
 *
 * log, exp and x^y are rounded correctly (util/exact-float.ts), as glibc returns them in all but about one
 * case in a thousand; log1p is V8's (fdlibm's, which glibc's log1p is derived from). Data with a missing
 * attribute value fall back to wanbiaObjective in wanbia.ts (bnclassify's own code takes another path there).
 */
import type { DiscreteData } from '../bn/data.js';
import { attributeClassCounts } from '../bn/counts.js';
import { expRounded, lnRounded, powRounded, sumExtended } from '../util/exact-float.js';

/** A closure (w, grad) → f over the training data, allocated once per fit. */
export function bnclassifyWanbiaObjective(
  train: DiscreteData,
  alpha: number,
): (w: ArrayLike<number>, grad: Float64Array) => number {
  const C = train.classCard;
  const m = train.columns.length;
  const n = train.n;
  const y = train.classColumn;
  const nc = new Float64Array(C);
  for (let r = 0; r < n; r++) nc[y[r]]++;
  let priorSum = 0;
  for (let c = 0; c < C; c++) priorSum += nc[c] + alpha;
  const logPrior = Float64Array.from(nc, (v) => lnRounded((v + alpha) / priorSum));
  // θ at [x * C + c] and its log (the gradient's unweighted tables).
  const theta: Float64Array[] = [];
  const logTheta: Float64Array[] = [];
  for (let a = 0; a < m; a++) {
    const r = train.cards[a];
    const t = attributeClassCounts(train, a);
    const th = new Float64Array(r * C);
    for (let c = 0; c < C; c++) {
      let s = 0;
      for (let x = 0; x < r; x++) s += t[x * C + c] + alpha;
      for (let x = 0; x < r; x++) th[x * C + c] = (t[x * C + c] + alpha) / s;
    }
    theta.push(th);
    logTheta.push(th.map(lnRounded));
  }
  const logW = theta.map((th) => new Float64Array(th.length));
  const S = new Float64Array(n * C);
  const terms = new Float64Array(Math.max(n, C));
  const rowTerms = new Float64Array(C);

  return (w, grad) => {
    // The weighted, renormalised tables, logged.
    for (let a = 0; a < m; a++) {
      const th = theta[a];
      const out = logW[a];
      const r = th.length / C;
      const wa = w[a];
      for (let c = 0; c < C; c++) {
        let s = 0;
        for (let x = 0; x < r; x++) {
          const v = powRounded(th[x * C + c], wa);
          out[x * C + c] = v;
          s += v;
        }
        for (let x = 0; x < r; x++) out[x * C + c] = lnRounded(out[x * C + c] / s);
      }
    }
    // Log joint per row and class, then the posterior.
    for (let j = 0; j < n; j++) {
      const o = j * C;
      for (let c = 0; c < C; c++) S[o + c] = logPrior[c];
      for (let a = 0; a < m; a++) {
        const b = train.columns[a][j] * C;
        const L = logW[a];
        for (let c = 0; c < C; c++) S[o + c] += L[b + c];
      }
      let iMax = 0;
      for (let c = 1; c < C; c++) if (S[o + c] > S[o + iMax]) iMax = c;
      const M = S[o + iMax];
      let z = 0;
      for (let c = 0; c < C; c++) if (c !== iMax) z += expRounded(S[o + c] - M);
      const l = C === 1 ? M : M + Math.log1p(z);
      for (let c = 0; c < C; c++) S[o + c] = expRounded(S[o + c] - l);
      terms[j] = lnRounded(S[o + y[j]]);
    }
    const f = -sumExtended(terms, n);
    for (let a = 0; a < m; a++) {
      const col = train.columns[a];
      const L = logTheta[a];
      for (let j = 0; j < n; j++) {
        const b = col[j] * C;
        const o = j * C;
        for (let c = 0; c < C; c++) rowTerms[c] = L[b + c] * S[o + c];
        terms[j] = -L[b + y[j]] + sumExtended(rowTerms, C);
      }
      grad[a] = sumExtended(terms, n);
    }
    return f;
  };
}
