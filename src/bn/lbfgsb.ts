/**
 * L-BFGS-B (Byrd, Lu, Nocedal & Zhu 1995, "A limited memory algorithm for bound constrained
 * optimization", SIAM J. Sci. Comput. 16(5):1190–1208; Zhu, Byrd, Lu & Nocedal 1997, "Algorithm 778",
 * ACM TOMS 23(4):550–560), version 2.3 as R's optim(method = "L-BFGS-B") runs it, written from the papers
 * and R's documentation (?optim): machine epsilon DBL_EPSILON, defaults m = 5, factr = 1e7, pgtol = 0,
 * maxit = 100. One iteration:
 *  1. generalized Cauchy point (paper §4, Algorithm CP): the first local minimiser of the quadratic model
 *     m(x) = f + gᵀ(x − x_k) + ½(x − x_k)ᵀB(x − x_k), B = θI − W M Wᵀ (the compact L-BFGS matrix,
 *     W = [Y θS], M⁻¹ = [[−D, Lᵀ], [L, θSᵀS]]), along the projected steepest-descent path, visiting the
 *     breakpoints in increasing order and updating f′, f″ as in the paper (f″ kept ≥ ε·f″₀, as R's code);
 *  2. subspace minimisation (§5.1, the direct primal method): the Newton step of m over the variables free at
 *     the Cauchy point, by Sherman–Morrison–Woodbury, d̂ = (1/θ) r̂ + (1/θ²) ZᵀW K⁻¹ WᵀZ r̂ with
 *     K = M⁻¹ − (1/θ) WᵀZZᵀW and r̂ = −Zᵀ(g + B(x^c − x_k)); then (version 2.3) truncated to the box along d̂
 *     from the Cauchy point (the variable that stops it is put on its bound);
 *  3. line search from x_k towards that point: Moré & Thuente (1994, ACM TOMS 20(3):286–307) dcsrch with
 *     ftol = 1e-3, gtol = 0.9, xtol = 0.1, the step 1 at most the largest step in the box (1 in the first
 *     iteration), at most 20 evaluations; a failed search restarts from steepest descent (memory dropped),
 *     or ends the run (“ABNORMAL_TERMINATION_IN_LNSRCH”) if the memory was already empty;
 *  4. stop when max |projected gradient| ≤ pgtol, or (f_k − f_{k+1}) ≤ factr·ε·max(|f_k|, |f_{k+1}|, 1);
 *     else update S, Y (skipped when sᵀy ≤ ε·(−g_kᵀs)), θ = yᵀy / sᵀy, and T = θSᵀS + L D⁻¹ Lᵀ = JJᵀ.
 * As R's driver does, the run also stops when a 101st new iterate is produced with maxit = 100 (R counts
 * iterations and stops when the count exceeds maxit), returning that iterate.
 */

type BoxObjective = (x: Float64Array, grad: Float64Array) => number;

interface LbfgsbOptions {
  readonly lower: ArrayLike<number>;
  readonly upper: ArrayLike<number>;
  /** Curvature pairs kept (optim's lmm). */
  readonly m?: number;
  readonly factr?: number;
  readonly pgtol?: number;
  readonly maxit?: number;
  readonly signal?: AbortSignal;
}

interface LbfgsbResult {
  readonly x: Float64Array;
  readonly f: number;
  readonly grad: Float64Array;
  /** New iterates produced (R's counts are in evaluations). */
  readonly iterations: number;
  readonly evaluations: number;
  /** optim's convergence code: 0 converged, 1 maxit reached, 52 abnormal line-search termination. */
  readonly convergence: 0 | 1 | 52;
  readonly message: string;
}

const EPSMCH = 2.220446049250313e-16;
const BIG = 1e10;

/** Result of one Moré–Thuente step (dcstep), in place on the state object. */
interface StepState {
  stx: number;
  fx: number;
  dx: number;
  sty: number;
  fy: number;
  dy: number;
  stp: number;
  brackt: boolean;
}

/** Moré & Thuente's safeguarded step (dcstep): updates the interval of uncertainty and proposes a step. */
function dcstep(s: StepState, fp: number, dp: number, stpmin: number, stpmax: number): void {
  const { stx, fx, dx, sty, fy, dy, stp } = s;
  const sgnd = dp * (dx / Math.abs(dx));
  let stpf: number;
  if (fp > fx) {
    // Case 1: higher function value; the minimum is bracketed.
    const theta = (3 * (fx - fp)) / (stp - stx) + dx + dp;
    const sc = Math.max(Math.abs(theta), Math.abs(dx), Math.abs(dp));
    let gamma = sc * Math.sqrt((theta / sc) ** 2 - (dx / sc) * (dp / sc));
    if (stp < stx) gamma = -gamma;
    const p = gamma - dx + theta;
    const q = gamma - dx + gamma + dp;
    const r = p / q;
    const stpc = stx + r * (stp - stx);
    const stpq = stx + (dx / ((fx - fp) / (stp - stx) + dx) / 2) * (stp - stx);
    stpf = Math.abs(stpc - stx) < Math.abs(stpq - stx) ? stpc : stpc + (stpq - stpc) / 2;
    s.brackt = true;
  } else if (sgnd < 0) {
    // Case 2: lower value, derivatives of opposite sign; bracketed.
    const theta = (3 * (fx - fp)) / (stp - stx) + dx + dp;
    const sc = Math.max(Math.abs(theta), Math.abs(dx), Math.abs(dp));
    let gamma = sc * Math.sqrt((theta / sc) ** 2 - (dx / sc) * (dp / sc));
    if (stp > stx) gamma = -gamma;
    const p = gamma - dp + theta;
    const q = gamma - dp + gamma + dx;
    const r = p / q;
    const stpc = stp + r * (stx - stp);
    const stpq = stp + (dp / (dp - dx)) * (stx - stp);
    stpf = Math.abs(stpc - stp) > Math.abs(stpq - stp) ? stpc : stpq;
    s.brackt = true;
  } else if (Math.abs(dp) < Math.abs(dx)) {
    // Case 3: lower value, same sign, derivative decreasing in magnitude.
    const theta = (3 * (fx - fp)) / (stp - stx) + dx + dp;
    const sc = Math.max(Math.abs(theta), Math.abs(dx), Math.abs(dp));
    let gamma = sc * Math.sqrt(Math.max(0, (theta / sc) ** 2 - (dx / sc) * (dp / sc)));
    if (stp > stx) gamma = -gamma;
    const p = gamma - dp + theta;
    const q = gamma + (dx - dp) + gamma;
    const r = p / q;
    let stpc: number;
    if (r < 0 && gamma !== 0) stpc = stp + r * (stx - stp);
    else if (stp > stx) stpc = stpmax;
    else stpc = stpmin;
    const stpq = stp + (dp / (dp - dx)) * (stx - stp);
    if (s.brackt) {
      stpf = Math.abs(stpc - stp) < Math.abs(stpq - stp) ? stpc : stpq;
      if (stp > stx) stpf = Math.min(stp + 0.66 * (sty - stp), stpf);
      else stpf = Math.max(stp + 0.66 * (sty - stp), stpf);
    } else {
      stpf = Math.abs(stpc - stp) > Math.abs(stpq - stp) ? stpc : stpq;
      stpf = Math.min(stpmax, stpf);
      stpf = Math.max(stpmin, stpf);
    }
  } else {
    // Case 4: lower value, same sign, derivative not decreasing in magnitude.
    if (s.brackt) {
      const theta = (3 * (fp - fy)) / (sty - stp) + dy + dp;
      const sc = Math.max(Math.abs(theta), Math.abs(dy), Math.abs(dp));
      let gamma = sc * Math.sqrt((theta / sc) ** 2 - (dy / sc) * (dp / sc));
      if (stp > sty) gamma = -gamma;
      const p = gamma - dp + theta;
      const q = gamma - dp + gamma + dy;
      const r = p / q;
      stpf = stp + r * (sty - stp);
    } else if (stp > stx) stpf = stpmax;
    else stpf = stpmin;
  }
  if (fp > fx) {
    s.sty = stp;
    s.fy = fp;
    s.dy = dp;
  } else {
    if (sgnd < 0) {
      s.sty = stx;
      s.fy = fx;
      s.dy = dx;
    }
    s.stx = stp;
    s.fx = fp;
    s.dx = dp;
  }
  s.stp = stpf;
}

/**
 * Moré–Thuente line search (dcsrch) as a state machine: start(), then next(f, g) after each evaluation at
 * the proposed step until it returns 'conv' or 'warn' (accept) or 'error'.
 */
export class MoreThuente {
  private brackt = false;
  private stage = 1;
  private finit = 0;
  private ginit = 0;
  private gtest = 0;
  private width = 0;
  private width1 = 0;
  private stmin = 0;
  private stmax = 0;
  private readonly st: StepState = { stx: 0, fx: 0, dx: 0, sty: 0, fy: 0, dy: 0, stp: 0, brackt: false };
  stp = 0;

  constructor(
    private readonly ftol: number,
    private readonly gtol: number,
    private readonly xtol: number,
    private readonly stpmin: number,
    private readonly stpmax: number,
  ) {}

  /** Starts at step stp with f(0), f'(0); returns 'fg' (evaluate at this.stp) or 'error'. */
  start(stp: number, f: number, g: number): 'fg' | 'error' {
    if (stp < this.stpmin || stp > this.stpmax || g >= 0) return 'error';
    this.stp = stp;
    this.brackt = false;
    this.stage = 1;
    this.finit = f;
    this.ginit = g;
    this.gtest = this.ftol * g;
    this.width = this.stpmax - this.stpmin;
    this.width1 = this.width / 0.5;
    Object.assign(this.st, { stx: 0, fx: f, dx: g, sty: 0, fy: f, dy: g, brackt: false });
    this.stmin = 0;
    this.stmax = stp + 4 * stp;
    return 'fg';
  }

  /** f and g (the directional derivative) at this.stp. */
  next(f: number, g: number): 'fg' | 'conv' | 'warn' {
    const stp = this.stp;
    const ftest = this.finit + stp * this.gtest;
    if (this.stage === 1 && f <= ftest && g >= 0) this.stage = 2;
    let task: 'fg' | 'conv' | 'warn' = 'fg';
    if (this.brackt && (stp <= this.stmin || stp >= this.stmax)) task = 'warn';
    if (this.brackt && this.stmax - this.stmin <= this.xtol * this.stmax) task = 'warn';
    if (stp === this.stpmax && f <= ftest && g <= this.gtest) task = 'warn';
    if (stp === this.stpmin && (f > ftest || g >= this.gtest)) task = 'warn';
    if (f <= ftest && Math.abs(g) <= this.gtol * -this.ginit) task = 'conv';
    if (task !== 'fg') return task;
    const s = this.st;
    s.stp = stp;
    s.brackt = this.brackt;
    const gt = this.gtest;
    if (this.stage === 1 && f <= s.fx && f > ftest) {
      // The modified function ψ(α) = f(α) − f(0) − α·ftol·f'(0).
      s.fx -= s.stx * gt;
      s.fy -= s.sty * gt;
      s.dx -= gt;
      s.dy -= gt;
      dcstep(s, f - stp * gt, g - gt, this.stmin, this.stmax);
      s.fx += s.stx * gt;
      s.fy += s.sty * gt;
      s.dx += gt;
      s.dy += gt;
    } else {
      dcstep(s, f, g, this.stmin, this.stmax);
    }
    this.brackt = s.brackt;
    let next = s.stp;
    if (this.brackt) {
      if (Math.abs(s.sty - s.stx) >= 0.66 * this.width1) next = s.stx + 0.5 * (s.sty - s.stx);
      this.width1 = this.width;
      this.width = Math.abs(s.sty - s.stx);
    }
    if (this.brackt) {
      this.stmin = Math.min(s.stx, s.sty);
      this.stmax = Math.max(s.stx, s.sty);
    } else {
      this.stmin = next + 1.1 * (next - s.stx);
      this.stmax = next + 4 * (next - s.stx);
    }
    next = Math.max(next, this.stpmin);
    next = Math.min(next, this.stpmax);
    if (
      (this.brackt && (next <= this.stmin || next >= this.stmax)) ||
      (this.brackt && this.stmax - this.stmin <= this.xtol * this.stmax)
    )
      next = s.stx;
    this.stp = next;
    return 'fg';
  }
}

/** Solves the small dense system A x = b (A k × k, row-major) by Gaussian elimination with partial pivoting. */
function solveDense(A: Float64Array, b: Float64Array, k: number): boolean {
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(A[r * k + c]) > Math.abs(A[p * k + c])) p = r;
    if (A[p * k + c] === 0) return false;
    if (p !== c) {
      for (let j = 0; j < k; j++) {
        const t = A[c * k + j];
        A[c * k + j] = A[p * k + j];
        A[p * k + j] = t;
      }
      const t = b[c];
      b[c] = b[p];
      b[p] = t;
    }
    for (let r = c + 1; r < k; r++) {
      const f = A[r * k + c] / A[c * k + c];
      if (f === 0) continue;
      for (let j = c; j < k; j++) A[r * k + j] -= f * A[c * k + j];
      b[r] -= f * b[c];
    }
  }
  for (let r = k - 1; r >= 0; r--) {
    let s = b[r];
    for (let j = r + 1; j < k; j++) s -= A[r * k + j] * b[j];
    b[r] = s / A[r * k + r];
  }
  return true;
}

/** Minimises f over the box [lower, upper] from x0 (projected onto the box first). */
export function lbfgsb(fn: BoxObjective, x0: ArrayLike<number>, opts: LbfgsbOptions): LbfgsbResult {
  const n = x0.length;
  const mMax = opts.m ?? 5;
  const factr = opts.factr ?? 1e7;
  const pgtol = opts.pgtol ?? 0;
  const maxit = opts.maxit ?? 100;
  const lo = Float64Array.from(opts.lower);
  const up = Float64Array.from(opts.upper);
  if (lo.length !== n || up.length !== n) throw new Error('lbfgsb: bounds and x0 differ in length');
  // nbd: 0 free, 1 lower, 2 both, 3 upper.
  const nbd = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const hl = Number.isFinite(lo[i]);
    const hu = Number.isFinite(up[i]);
    nbd[i] = hl && hu ? 2 : hl ? 1 : hu ? 3 : 0;
  }
  const x = Float64Array.from(x0);
  // iwhere: −1 unbounded, 3 fixed (l = u), 0 free, 1 at lower, 2 at upper, −3 free with zero gradient.
  const iwhere = new Int8Array(n);
  let cnstnd = false;
  let boxed = true;
  for (let i = 0; i < n; i++) {
    if (nbd[i] > 0) {
      if (nbd[i] <= 2 && x[i] <= lo[i]) x[i] = lo[i];
      else if (nbd[i] >= 2 && x[i] >= up[i]) x[i] = up[i];
    }
    if (nbd[i] !== 2) boxed = false;
    if (nbd[i] === 0) iwhere[i] = -1;
    else {
      cnstnd = true;
      iwhere[i] = nbd[i] === 2 && up[i] - lo[i] <= 0 ? 3 : 0;
    }
  }
  const epstol = factr * EPSMCH;
  // Limited memory: columns of S (ws) and Y (wy), circular with `head`; SY = SᵀY, SS = SᵀS (m × m, column j =
  // the j-th oldest pair).
  const ws = new Float64Array(n * mMax);
  const wy = new Float64Array(n * mMax);
  const sy = new Float64Array(mMax * mMax);
  const ss = new Float64Array(mMax * mMax);
  const wt = new Float64Array(mMax * mMax); // Cholesky factor J' (upper) of T
  let col = 0;
  let head = 0;
  let theta = 1;
  let iupdat = 0;
  let itail = 0;
  const g = new Float64Array(n);
  let evaluations = 0;
  const evaluate = (at: Float64Array, grad: Float64Array): number => {
    evaluations++;
    const v = fn(at, grad);
    if (!Number.isFinite(v)) throw new Error('lbfgsb: the objective is not finite');
    return v;
  };
  let f = evaluate(x, g);
  const projgr = (): number => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      let gi = g[i];
      if (nbd[i] !== 0) {
        if (gi < 0) {
          if (nbd[i] >= 2) gi = Math.max(x[i] - up[i], gi);
        } else if (nbd[i] <= 2) gi = Math.min(x[i] - lo[i], gi);
      }
      s = Math.max(s, Math.abs(gi));
    }
    return s;
  };
  const colOf = (j: number): number => (head + j) % mMax; // storage column of the j-th pair (0 = oldest)
  const S = (i: number, j: number): number => ws[colOf(j) * n + i];
  const Y = (i: number, j: number): number => wy[colOf(j) * n + i];
  const SY = (i: number, j: number): number => sy[i * mMax + j];
  // M·v for v of length 2col (bmv), through T = JJ': M⁻¹ = [[−D, Lᵀ], [L, θSᵀS]].
  const bmv = (v: Float64Array, out: Float64Array): boolean => {
    if (col === 0) return true;
    // Part I: solve [D^½ 0; −L D^-½ J] [p1; p2] = [v1; v2].
    const p2 = new Float64Array(col);
    for (let i = 0; i < col; i++) {
      let s = 0;
      for (let k = 0; k < i; k++) s += (SY(i, k) * v[k]) / SY(k, k);
      p2[i] = v[col + i] + s;
    }
    // Solve J p2 = p2 with J lower = transpose of the stored upper factor.
    for (let i = 0; i < col; i++) {
      let s = p2[i];
      for (let k = 0; k < i; k++) s -= wt[k * mMax + i] * p2[k];
      if (wt[i * mMax + i] === 0) return false;
      p2[i] = s / wt[i * mMax + i];
    }
    const p1 = new Float64Array(col);
    for (let i = 0; i < col; i++) p1[i] = v[i] / Math.sqrt(SY(i, i));
    // Part II: solve [−D^½ D^-½Lᵀ; 0 Jᵀ] [p1; p2] = [p1; p2].
    for (let i = col - 1; i >= 0; i--) {
      let s = p2[i];
      for (let k = i + 1; k < col; k++) s -= wt[i * mMax + k] * p2[k];
      p2[i] = s / wt[i * mMax + i];
    }
    for (let i = 0; i < col; i++) {
      let s = 0;
      for (let k = i + 1; k < col; k++) s += (SY(k, i) * p2[k]) / SY(i, i);
      p1[i] = -p1[i] / Math.sqrt(SY(i, i)) + s;
    }
    for (let i = 0; i < col; i++) {
      out[i] = p1[i];
      out[col + i] = p2[i];
    }
    return true;
  };
  // T = θ SᵀS + L D⁻¹ Lᵀ (upper half) and its Cholesky factorisation T = J Jᵀ with Jᵀ upper in wt (formt).
  const formt = (): boolean => {
    for (let j = 0; j < col; j++) wt[j] = theta * ss[j];
    for (let i = 1; i < col; i++) {
      for (let j = i; j < col; j++) {
        const k1 = Math.min(i, j);
        let s = 0;
        for (let k = 0; k < k1; k++) s += (SY(i, k) * SY(j, k)) / SY(k, k);
        wt[i * mMax + j] = s + theta * ss[i * mMax + j];
      }
    }
    // Upper Cholesky (LINPACK dpofa): T = RᵀR.
    for (let j = 0; j < col; j++) {
      let s = 0;
      for (let k = 0; k < j; k++) {
        let t = wt[k * mMax + j];
        for (let i = 0; i < k; i++) t -= wt[i * mMax + k] * wt[i * mMax + j];
        t /= wt[k * mMax + k];
        wt[k * mMax + j] = t;
        s += t * t;
      }
      s = wt[j * mMax + j] - s;
      if (s <= 0) return false;
      wt[j * mMax + j] = Math.sqrt(s);
    }
    return true;
  };

  const z = new Float64Array(n);
  const d = new Float64Array(n);
  const t = new Float64Array(n);
  const r = new Float64Array(n);
  const xcpDir = new Float64Array(n);
  let iterations = 0;
  let message = 'CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL';
  let convergence: 0 | 1 | 52 = 0;
  let sbgnrm = projgr();
  if (sbgnrm <= pgtol) return { x, f, grad: g, iterations, evaluations, convergence, message };
  let fold = 0;
  const refresh = (): void => {
    col = 0;
    head = 0;
    theta = 1;
    iupdat = 0;
  };
  for (;;) {
    opts.signal?.throwIfAborted();
    // 1. Generalized Cauchy point (z) and c = Wᵀ(z − x).
    const col2 = 2 * col;
    const p = new Float64Array(col2);
    const c = new Float64Array(col2);
    const v = new Float64Array(col2);
    z.set(x);
    let singular = false;
    {
      const tb: number[] = [];
      const ib: number[] = [];
      let f1 = 0;
      let bnded = true;
      let nfreeVars = 0;
      for (let i = 0; i < n; i++) {
        const neggi = -g[i];
        let tl = 0;
        let tu = 0;
        if (iwhere[i] !== 3 && iwhere[i] !== -1) {
          if (nbd[i] <= 2) tl = x[i] - lo[i];
          if (nbd[i] >= 2) tu = up[i] - x[i];
          const xlower = nbd[i] <= 2 && tl <= 0;
          const xupper = nbd[i] >= 2 && tu <= 0;
          iwhere[i] = 0;
          if (xlower) {
            if (neggi <= 0) iwhere[i] = 1;
          } else if (xupper) {
            if (neggi >= 0) iwhere[i] = 2;
          } else if (Math.abs(neggi) <= 0) iwhere[i] = -3;
        }
        if (iwhere[i] !== 0 && iwhere[i] !== -1) {
          xcpDir[i] = 0;
          continue;
        }
        xcpDir[i] = neggi;
        f1 -= neggi * neggi;
        for (let j = 0; j < col; j++) {
          p[j] += Y(i, j) * neggi;
          p[col + j] += S(i, j) * neggi;
        }
        if (nbd[i] <= 2 && nbd[i] !== 0 && neggi < 0) {
          tb.push(tl / -neggi);
          ib.push(i);
        } else if (nbd[i] >= 2 && neggi > 0) {
          tb.push(tu / neggi);
          ib.push(i);
        } else {
          nfreeVars++;
          if (Math.abs(neggi) > 0) bnded = false;
        }
      }
      for (let j = 0; j < col; j++) p[col + j] *= theta;
      const nbreak = tb.length;
      if (!(nbreak === 0 && nfreeVars === 0)) {
        let f2 = -theta * f1;
        const f2org = f2;
        if (col > 0) {
          if (!bmv(p, v)) singular = true;
          let s = 0;
          for (let j = 0; j < col2; j++) s += v[j] * p[j];
          f2 -= s;
        }
        let dtm = -f1 / f2;
        let tsum = 0;
        let fixedAll = false;
        if (!singular && nbreak > 0) {
          // Breakpoints in increasing order (equal ones in index order).
          const order = Array.from({ length: nbreak }, (_, k) => k).sort((a, b) => tb[a] - tb[b] || ib[a] - ib[b]);
          let tj = 0;
          let nleft = nbreak;
          for (let it = 0; it < nbreak; it++) {
            const tj0 = tj;
            tj = tb[order[it]];
            const ibp = ib[order[it]];
            const dt = tj - tj0;
            if (dtm < dt) break;
            tsum += dt;
            nleft--;
            const dibp = xcpDir[ibp];
            xcpDir[ibp] = 0;
            let zibp: number;
            if (dibp > 0) {
              zibp = up[ibp] - x[ibp];
              z[ibp] = up[ibp];
              iwhere[ibp] = 2;
            } else {
              zibp = lo[ibp] - x[ibp];
              z[ibp] = lo[ibp];
              iwhere[ibp] = 1;
            }
            if (nleft === 0 && nbreak === n) {
              dtm = dt;
              fixedAll = true;
              break;
            }
            const dibp2 = dibp * dibp;
            f1 = f1 + dt * f2 + dibp2 - theta * dibp * zibp;
            f2 -= theta * dibp2;
            if (col > 0) {
              for (let j = 0; j < col2; j++) c[j] += dt * p[j];
              const wbp = new Float64Array(col2);
              for (let j = 0; j < col; j++) {
                wbp[j] = Y(ibp, j);
                wbp[col + j] = theta * S(ibp, j);
              }
              if (!bmv(wbp, v)) {
                singular = true;
                break;
              }
              let wmc = 0;
              let wmp = 0;
              let wmw = 0;
              for (let j = 0; j < col2; j++) {
                wmc += c[j] * v[j];
                wmp += p[j] * v[j];
                wmw += wbp[j] * v[j];
              }
              for (let j = 0; j < col2; j++) p[j] -= dibp * wbp[j];
              f1 += dibp * wmc;
              f2 += 2 * dibp * wmp - dibp2 * wmw;
            }
            f2 = Math.max(EPSMCH * f2org, f2);
            if (nleft > 0) dtm = -f1 / f2;
            else if (bnded) dtm = 0;
            else dtm = -f1 / f2;
          }
        }
        if (!singular) {
          if (!fixedAll) {
            if (dtm <= 0) dtm = 0;
            tsum += dtm;
            for (let i = 0; i < n; i++) z[i] += tsum * xcpDir[i];
          }
          if (col > 0) for (let j = 0; j < col2; j++) c[j] += dtm * p[j];
        }
      }
    }
    if (singular) {
      refresh();
      continue;
    }
    // 2. Subspace minimisation over the variables free at the Cauchy point.
    const free: number[] = [];
    for (let i = 0; i < n; i++) if (iwhere[i] <= 0) free.push(i);
    const nsub = free.length;
    if (nsub > 0 && col > 0) {
      // r̂ = −Zᵀ(g + B(z − x)) = −θ(z − x) − g + W M c on the free variables (cmprlb).
      const mc = new Float64Array(col2);
      if (!bmv(c, mc)) {
        refresh();
        continue;
      }
      const rh = new Float64Array(nsub);
      free.forEach((k, i) => {
        let s = -theta * (z[k] - x[k]) - g[k];
        for (let j = 0; j < col; j++) s += Y(k, j) * mc[j] + S(k, j) * theta * mc[col + j];
        rh[i] = s;
      });
      // K = M⁻¹ − (1/θ) WᵀZZᵀW, W = [Y θS].
      const K = new Float64Array(col2 * col2);
      for (let i = 0; i < col; i++) {
        for (let j = 0; j < col; j++) {
          // M⁻¹ blocks: −D (diagonal), Lᵀ (upper right: L(j,i) = s_jᵀy_i for j > i), L, θSᵀS.
          K[i * col2 + j] = i === j ? -SY(i, i) : 0;
          K[i * col2 + col + j] = j > i ? SY(j, i) : 0;
          K[(col + i) * col2 + j] = i > j ? SY(i, j) : 0;
          const ssij = i <= j ? ss[i * mMax + j] : ss[j * mMax + i];
          K[(col + i) * col2 + col + j] = theta * ssij;
        }
      }
      for (let a = 0; a < col2; a++) {
        for (let b = 0; b < col2; b++) {
          let s = 0;
          for (const k of free) {
            const wa = a < col ? Y(k, a) : theta * S(k, a - col);
            const wb = b < col ? Y(k, b) : theta * S(k, b - col);
            s += wa * wb;
          }
          K[a * col2 + b] -= s / theta;
        }
      }
      const wv = new Float64Array(col2);
      free.forEach((k, i) => {
        for (let j = 0; j < col; j++) {
          wv[j] += Y(k, j) * rh[i];
          wv[col + j] += theta * S(k, j) * rh[i];
        }
      });
      if (!solveDense(K, wv, col2)) {
        refresh();
        continue;
      }
      const dsub = new Float64Array(nsub);
      free.forEach((k, i) => {
        let s = 0;
        for (let j = 0; j < col; j++) s += Y(k, j) * wv[j] + theta * S(k, j) * wv[col + j];
        dsub[i] = rh[i] / theta + s / (theta * theta);
      });
      // Version 2.3: truncate the step from the Cauchy point at the box.
      let alpha = 1;
      let temp1 = alpha;
      let ibd = -1;
      for (let i = 0; i < nsub; i++) {
        const k = free[i];
        const dk = dsub[i];
        if (nbd[k] === 0) continue;
        if (dk < 0 && nbd[k] <= 2) {
          const temp2 = lo[k] - z[k];
          if (temp2 >= 0) temp1 = 0;
          else if (dk * alpha < temp2) temp1 = temp2 / dk;
        } else if (dk > 0 && nbd[k] >= 2) {
          const temp2 = up[k] - z[k];
          if (temp2 <= 0) temp1 = 0;
          else if (dk * alpha > temp2) temp1 = temp2 / dk;
        }
        if (temp1 < alpha) {
          alpha = temp1;
          ibd = i;
        }
      }
      if (alpha < 1 && ibd >= 0) {
        const k = free[ibd];
        const dk = dsub[ibd];
        if (dk > 0) {
          z[k] = up[k];
          dsub[ibd] = 0;
        } else if (dk < 0) {
          z[k] = lo[k];
          dsub[ibd] = 0;
        }
      }
      for (let i = 0; i < nsub; i++) z[free[i]] += alpha * dsub[i];
    }
    // 3. Line search along d = z − x.
    for (let i = 0; i < n; i++) d[i] = z[i] - x[i];
    let dtd = 0;
    for (let i = 0; i < n; i++) dtd += d[i] * d[i];
    const dnorm = Math.sqrt(dtd);
    let stpmx = BIG;
    if (cnstnd) {
      if (iterations === 0) stpmx = 1;
      else {
        for (let i = 0; i < n; i++) {
          const a1 = d[i];
          if (nbd[i] === 0) continue;
          if (a1 < 0 && nbd[i] <= 2) {
            const a2 = lo[i] - x[i];
            if (a2 >= 0) stpmx = 0;
            else if (a1 * stpmx < a2) stpmx = a2 / a1;
          } else if (a1 > 0 && nbd[i] >= 2) {
            const a2 = up[i] - x[i];
            if (a2 <= 0) stpmx = 0;
            else if (a1 * stpmx > a2) stpmx = a2 / a1;
          }
        }
      }
    }
    let stp = iterations === 0 && !boxed ? Math.min(1 / dnorm, stpmx) : 1;
    t.set(x);
    r.set(g);
    fold = f;
    let gd = 0;
    for (let i = 0; i < n; i++) gd += g[i] * d[i];
    const gdold = gd;
    let failed = gd >= 0;
    let ifun = 0;
    if (!failed) {
      const ls = new MoreThuente(1e-3, 0.9, 0.1, 0, stpmx);
      let task: string = ls.start(stp, f, gd);
      if (task === 'error') failed = true;
      while (!failed && task === 'fg') {
        if (ifun >= 20) {
          failed = true;
          break;
        }
        stp = ls.stp;
        ifun++;
        if (stp === 1) x.set(z);
        else for (let i = 0; i < n; i++) x[i] = stp * d[i] + t[i];
        f = evaluate(x, g);
        gd = 0;
        for (let i = 0; i < n; i++) gd += g[i] * d[i];
        task = ls.next(f, gd);
      }
      stp = ls.stp;
    }
    if (failed) {
      x.set(t);
      g.set(r);
      f = fold;
      if (col === 0) {
        message = 'ABNORMAL_TERMINATION_IN_LNSRCH';
        convergence = 52;
        iterations++;
        break;
      }
      refresh();
      continue;
    }
    // A new iterate (R's driver counts it and stops past maxit).
    iterations++;
    sbgnrm = projgr();
    if (iterations > maxit) {
      message = 'NEW_X';
      convergence = 1;
      break;
    }
    if (sbgnrm <= pgtol) {
      message = 'CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL';
      break;
    }
    const ddum = Math.max(Math.abs(fold), Math.abs(f), 1);
    if (fold - f <= epstol * ddum) {
      message = 'CONVERGENCE: REL_REDUCTION_OF_F <= FACTR*EPSMCH';
      break;
    }
    // 4. Update the limited memory: s = stp·d, y = g − g_old.
    for (let i = 0; i < n; i++) r[i] = g[i] - r[i];
    let rr = 0;
    for (let i = 0; i < n; i++) rr += r[i] * r[i];
    let dr: number;
    let dneg: number;
    if (stp === 1) {
      dr = gd - gdold;
      dneg = -gdold;
    } else {
      dr = (gd - gdold) * stp;
      for (let i = 0; i < n; i++) d[i] *= stp;
      dneg = -gdold * stp;
    }
    if (dr <= EPSMCH * dneg) continue;
    iupdat++;
    // matupd: store the pair, shift SS / SY when full, add the new row and column.
    if (iupdat <= mMax) {
      col = iupdat;
      itail = (head + iupdat - 1) % mMax;
    } else {
      itail = (itail + 1) % mMax;
      head = (head + 1) % mMax;
    }
    ws.set(d, itail * n);
    wy.set(r, itail * n);
    theta = rr / dr;
    if (iupdat > mMax) {
      for (let j = 0; j < col - 1; j++) {
        for (let i = 0; i <= j; i++) ss[i * mMax + j] = ss[(i + 1) * mMax + j + 1];
        for (let i = j; i < col - 1; i++) sy[i * mMax + j] = sy[(i + 1) * mMax + j + 1];
      }
    }
    for (let j = 0; j < col - 1; j++) {
      let a = 0;
      let b = 0;
      for (let i = 0; i < n; i++) {
        a += d[i] * Y(i, j);
        b += S(i, j) * d[i];
      }
      sy[(col - 1) * mMax + j] = a;
      ss[j * mMax + col - 1] = b;
    }
    ss[(col - 1) * mMax + col - 1] = stp === 1 ? dtd : stp * stp * dtd;
    sy[(col - 1) * mMax + col - 1] = dr;
    if (!formt()) refresh();
  }
  return { x, f, grad: g, iterations, evaluations, convergence, message };
}
