/**
 * Limited-memory BFGS with optional box constraints, for small smooth problems (WANBIA's weights).
 *
 * - Direction: the two-loop recursion (Nocedal & Wright 2006, Numerical Optimization, Algorithm 7.4) with
 *   the initial scaling γ = sᵀy / yᵀy, on the variables that are free: a variable at a bound whose
 *   gradient pushes it outwards is held fixed for the iteration (projected active set, as in the
 *   "projected L-BFGS" family; Bertsekas 1982). Curvature pairs are applied restricted to the free
 *   variables and skipped when their restricted sᵀy is not positive.
 * - Step: a line search satisfying the strong Wolfe conditions (Algorithms 3.5 and 3.6, c1 = 1e-4,
 *   c2 = 0.9, safeguarded cubic interpolation), capped at the largest step that stays in the box. When
 *   the cap is reached while the function still decreases, the capped step is taken (sufficient decrease
 *   holds) and the variables that reached a bound become active.
 * - Stopping, with the defaults of R's optim(method = "L-BFGS-B") (which bnclassify's WANBIA uses):
 *   at most 100 iterations; relative reduction (f_k − f_{k+1}) / max(|f_k|, |f_{k+1}|, 1) ≤ factr · ε with
 *   factr = 1e7; or max |projected gradient| ≤ pgtol (default 0, i.e. off, as in optim). Memory 5 pairs.
 */

type Objective = (x: Float64Array, grad: Float64Array) => number;

interface LbfgsOptions {
  /** Number of stored curvature pairs (optim's lmm). */
  readonly memory?: number;
  readonly maxIterations?: number;
  /** Converged when the relative reduction of f is at most factr · machine epsilon. */
  readonly factr?: number;
  /** Converged when max |projected gradient| ≤ pgtol. */
  readonly pgtol?: number;
  readonly lower?: ArrayLike<number>;
  readonly upper?: ArrayLike<number>;
  readonly signal?: AbortSignal;
}

export interface LbfgsResult {
  readonly x: Float64Array;
  readonly f: number;
  readonly grad: Float64Array;
  readonly iterations: number;
  readonly evaluations: number;
  readonly converged: boolean;
  readonly message: string;
}

interface LineSearchResult {
  /** Accepted step; 0 when no acceptable step was found. */
  readonly alpha: number;
  readonly f: number;
  readonly dphi: number;
  readonly evaluations: number;
  /** 'wolfe': both strong Wolfe conditions; 'bound': the step cap reached with sufficient decrease. */
  readonly status: 'wolfe' | 'bound' | 'failed';
}

const EPS = 2.220446049250313e-16;

/** Minimiser of the cubic through (a, fa, da), (b, fb, db), or NaN when it does not exist. */
function cubicMin(a: number, fa: number, da: number, b: number, fb: number, db: number): number {
  const d1 = da + db - (3 * (fa - fb)) / (a - b);
  const disc = d1 * d1 - da * db;
  if (!(disc >= 0)) return NaN;
  const d2 = Math.sign(b - a) * Math.sqrt(disc);
  return b - ((b - a) * (db + d2 - d1)) / (db - da + 2 * d2);
}

/**
 * Strong Wolfe line search on φ(α) (φ returns value and derivative) for α in (0, alphaMax]:
 * φ(α) ≤ φ(0) + c1 α φ'(0) and |φ'(α)| ≤ c2 |φ'(0)|. Requires φ'(0) < 0.
 */
export function wolfeLineSearch(
  phi: (alpha: number) => { f: number; d: number },
  f0: number,
  d0: number,
  alphaInit: number,
  alphaMax = Infinity,
  c1 = 1e-4,
  c2 = 0.9,
  maxEvaluations = 40,
): LineSearchResult {
  if (!(d0 < 0)) return { alpha: 0, f: f0, dphi: d0, evaluations: 0, status: 'failed' };
  let evals = 0;
  const evalAt = (a: number): { f: number; d: number } => {
    evals++;
    return phi(a);
  };
  const armijo = (a: number, f: number): boolean => f <= f0 + c1 * a * d0;
  const curvature = (d: number): boolean => Math.abs(d) <= -c2 * d0;

  const zoom = (lo: number, flo: number, dlo: number, hi: number, fhi: number, dhi: number): LineSearchResult => {
    while (evals < maxEvaluations) {
      const left = Math.min(lo, hi);
      const right = Math.max(lo, hi);
      const width = right - left;
      if (width <= EPS * Math.max(1, right)) break;
      let a = cubicMin(lo, flo, dlo, hi, fhi, dhi);
      // Safeguard: stay at least 10% of the interval away from its ends, else bisect.
      if (!Number.isFinite(a) || a < left + 0.1 * width || a > right - 0.1 * width) a = left + 0.5 * width;
      const { f, d } = evalAt(a);
      if (!Number.isFinite(f) || !armijo(a, f) || f >= flo) {
        hi = a;
        fhi = f;
        dhi = d;
      } else {
        if (curvature(d)) return { alpha: a, f, dphi: d, evaluations: evals, status: 'wolfe' };
        if (d * (hi - lo) >= 0) {
          hi = lo;
          fhi = flo;
          dhi = dlo;
        }
        lo = a;
        flo = f;
        dlo = d;
      }
    }
    // Out of evaluations: lo satisfies sufficient decrease (or is 0).
    return lo > 0
      ? { alpha: lo, f: flo, dphi: dlo, evaluations: evals, status: 'bound' }
      : { alpha: 0, f: f0, dphi: d0, evaluations: evals, status: 'failed' };
  };

  let aPrev = 0;
  let fPrev = f0;
  let dPrev = d0;
  let a = Math.min(alphaInit, alphaMax);
  if (!(a > 0)) return { alpha: 0, f: f0, dphi: d0, evaluations: 0, status: 'failed' };
  for (let i = 0; evals < maxEvaluations; i++) {
    const { f, d } = evalAt(a);
    if (!Number.isFinite(f) || !armijo(a, f) || (i > 0 && f >= fPrev)) return zoom(aPrev, fPrev, dPrev, a, f, d);
    if (curvature(d)) return { alpha: a, f, dphi: d, evaluations: evals, status: 'wolfe' };
    if (d >= 0) return zoom(a, f, d, aPrev, fPrev, dPrev);
    if (a >= alphaMax) return { alpha: a, f, dphi: d, evaluations: evals, status: 'bound' };
    aPrev = a;
    fPrev = f;
    dPrev = d;
    a = Math.min(2 * a, alphaMax);
  }
  return aPrev > 0
    ? { alpha: aPrev, f: fPrev, dphi: dPrev, evaluations: evals, status: 'bound' }
    : { alpha: 0, f: f0, dphi: d0, evaluations: evals, status: 'failed' };
}

/** Minimises fg (value, gradient written into its second argument) from x0, within optional bounds. */
export function lbfgs(fg: Objective, x0: ArrayLike<number>, opts: LbfgsOptions = {}): LbfgsResult {
  const n = x0.length;
  const mem = opts.memory ?? 5;
  const maxIt = opts.maxIterations ?? 100;
  const factr = opts.factr ?? 1e7;
  const pgtol = opts.pgtol ?? 0;
  const lo = Float64Array.from({ length: n }, (_, i) => (opts.lower ? opts.lower[i] : -Infinity));
  const hi = Float64Array.from({ length: n }, (_, i) => (opts.upper ? opts.upper[i] : Infinity));
  for (let i = 0; i < n; i++) {
    if (!(lo[i] <= hi[i])) throw new Error(`lbfgs: lower bound ${lo[i]} above upper bound ${hi[i]} for variable ${i}`);
  }
  const clampInto = (out: Float64Array): void => {
    for (let i = 0; i < n; i++) out[i] = Math.min(hi[i], Math.max(lo[i], out[i]));
  };

  let x = Float64Array.from(x0);
  clampInto(x);
  let g = new Float64Array(n);
  let f = fg(x, g);
  let evaluations = 1;
  if (!Number.isFinite(f)) throw new Error(`lbfgs: objective is ${f} at the starting point`);

  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const free = new Uint8Array(n);
  const d = new Float64Array(n);
  const q = new Float64Array(n);
  const alphas = new Float64Array(mem);
  const xt = new Float64Array(n);
  const gt = new Float64Array(n);
  let lastAlpha = NaN;
  let lastF = NaN;

  const maskedDot = (a: Float64Array, b: Float64Array): number => {
    let s = 0;
    for (let i = 0; i < n; i++) if (free[i]) s += a[i] * b[i];
    return s;
  };

  let iterations = 0;
  let message = 'maximum number of iterations reached';
  let converged = false;
  for (; iterations < maxIt; iterations++) {
    opts.signal?.throwIfAborted();
    // Free variables and the projected gradient.
    let pgMax = 0;
    for (let i = 0; i < n; i++) {
      const atLo = x[i] <= lo[i] && g[i] > 0;
      const atHi = x[i] >= hi[i] && g[i] < 0;
      free[i] = atLo || atHi ? 0 : 1;
      if (free[i]) pgMax = Math.max(pgMax, Math.abs(g[i]));
    }
    if (pgMax <= pgtol) {
      converged = true;
      message = 'projected gradient below pgtol';
      break;
    }
    // Two-loop recursion on the free variables.
    for (let i = 0; i < n; i++) q[i] = free[i] ? g[i] : 0;
    const k = S.length;
    const rho = new Float64Array(k);
    for (let j = k - 1; j >= 0; j--) {
      const sy = maskedDot(S[j], Y[j]);
      if (!(sy > 0)) continue;
      rho[j] = 1 / sy;
      const a = rho[j] * maskedDot(S[j], q);
      alphas[j] = a;
      for (let i = 0; i < n; i++) if (free[i]) q[i] -= a * Y[j][i];
    }
    let gamma = 1;
    if (k > 0) {
      const yy = maskedDot(Y[k - 1], Y[k - 1]);
      const sy = maskedDot(S[k - 1], Y[k - 1]);
      if (sy > 0 && yy > 0) gamma = sy / yy;
    }
    for (let i = 0; i < n; i++) q[i] *= gamma;
    for (let j = 0; j < k; j++) {
      if (rho[j] === 0) continue;
      const b = rho[j] * maskedDot(Y[j], q);
      const c = alphas[j] - b;
      for (let i = 0; i < n; i++) if (free[i]) q[i] += c * S[j][i];
    }
    for (let i = 0; i < n; i++) {
      // A free variable sitting on a bound may not step out of the box.
      const di = free[i] ? -q[i] : 0;
      d[i] = (di < 0 && x[i] <= lo[i]) || (di > 0 && x[i] >= hi[i]) ? 0 : di;
    }
    let slope = 0;
    for (let i = 0; i < n; i++) slope += g[i] * d[i];
    let steepest = false;
    if (!(slope < 0)) {
      // Not a descent direction (stale curvature): restart from the projected steepest descent.
      S.length = 0;
      Y.length = 0;
      for (let i = 0; i < n; i++) d[i] = free[i] ? -g[i] : 0;
      slope = 0;
      for (let i = 0; i < n; i++) slope += g[i] * d[i];
      steepest = true;
    }
    // Largest step inside the box.
    let alphaMax = Infinity;
    let dmax = 0;
    for (let i = 0; i < n; i++) {
      const di = d[i];
      dmax = Math.max(dmax, Math.abs(di));
      if (di < 0 && lo[i] > -Infinity) alphaMax = Math.min(alphaMax, (lo[i] - x[i]) / di);
      else if (di > 0 && hi[i] < Infinity) alphaMax = Math.min(alphaMax, (hi[i] - x[i]) / di);
    }
    const alphaInit = S.length === 0 || steepest ? Math.min(1, 1 / dmax) : 1;
    const xk = x;
    const phi = (a: number): { f: number; d: number } => {
      for (let i = 0; i < n; i++) xt[i] = xk[i] + a * d[i];
      clampInto(xt);
      if (a >= alphaMax) {
        // Snap the variables that reach a bound exactly onto it (rounding would leave them a hair inside).
        for (let i = 0; i < n; i++) {
          if (d[i] < 0 && xt[i] - lo[i] <= 1e-12 * Math.max(1, Math.abs(lo[i]))) xt[i] = lo[i];
          else if (d[i] > 0 && hi[i] - xt[i] <= 1e-12 * Math.max(1, Math.abs(hi[i]))) xt[i] = hi[i];
        }
      }
      const fv = fg(xt, gt);
      evaluations++;
      lastAlpha = a;
      lastF = fv;
      let dv = 0;
      for (let i = 0; i < n; i++) dv += gt[i] * d[i];
      return { f: fv, d: dv };
    };
    const ls = wolfeLineSearch(phi, f, slope, alphaInit, alphaMax);
    if (ls.status === 'failed') {
      if (S.length > 0) {
        S.length = 0;
        Y.length = 0;
        continue;
      }
      message = 'line search found no decrease';
      converged = true;
      break;
    }
    if (lastAlpha !== ls.alpha) phi(ls.alpha);
    const xNew = Float64Array.from(xt);
    const gNew = Float64Array.from(gt);
    const fNew = lastF;
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    let sy = 0;
    for (let i = 0; i < n; i++) {
      s[i] = xNew[i] - x[i];
      y[i] = gNew[i] - g[i];
      sy += s[i] * y[i];
    }
    if (sy > EPS * Math.max(1, Math.abs(fNew))) {
      S.push(s);
      Y.push(y);
      if (S.length > mem) {
        S.shift();
        Y.shift();
      }
    }
    const reduction = f - fNew;
    x = xNew;
    g = gNew;
    const fPrev = f;
    f = fNew;
    if (reduction <= factr * EPS * Math.max(Math.abs(fPrev), Math.abs(fNew), 1)) {
      iterations++;
      converged = true;
      message = 'relative reduction of f below factr * epsilon';
      break;
    }
  }
  return { x, f, grad: g, iterations, evaluations, converged, message };
}
