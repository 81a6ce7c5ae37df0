import { describe, it, expect } from 'vitest';
import { lbfgsb, MoreThuente } from '../../src/bn/lbfgsb.js';

/** The 25-variable bounded problem of L-BFGS-B's driver1 (Zhu et al. 1997): an extended Rosenbrock function. */
function driver1(x: Float64Array, g: Float64Array): number {
  const n = x.length;
  let f = 0.25 * (x[0] - 1) ** 2;
  for (let i = 1; i < n; i++) f += (x[i] - x[i - 1] ** 2) ** 2;
  f *= 4;
  let t1 = x[1] - x[0] ** 2;
  g[0] = 2 * (x[0] - 1) - 16 * x[0] * t1;
  for (let i = 1; i < n - 1; i++) {
    const t2 = t1;
    t1 = x[i + 1] - x[i] ** 2;
    g[i] = 8 * t2 - 16 * x[i] * t1;
  }
  g[n - 1] = 8 * t1;
  return f;
}
const n = 25;
const lower = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : -100));
const upper = new Array<number>(n).fill(100);

function rosenbrock(x: Float64Array, g: Float64Array): number {
  const a = x[1] - x[0] ** 2;
  const b = 1 - x[0];
  g[0] = -400 * x[0] * a - 2 * b;
  g[1] = 200 * a;
  return 100 * a * a + b * b;
}

describe('L-BFGS-B against R 4.2 optim(method = "L-BFGS-B")', () => {
  it('driver1 (25 variables, odd ones bounded below by 1): the same 27 evaluations and point as R', () => {
    // R: n <- 25; fn/gr as driver1; lo <- ifelse(seq_len(n) %% 2 == 1, 1, -100)
    //    o <- optim(rep(3, n), fn, gr, method = 'L-BFGS-B', lower = lo, upper = rep(100, n), control = list(pgtol = 1e-5))
    //    o$value 7.7986677151824979e-10, o$counts 27 27, x[1:5] 1.0000002401928039 0.99999830765841902
    //    1.0000003305604379 1.0000012879655982 1.0000025591562736, "CONVERGENCE: REL_REDUCTION_OF_F <= FACTR*EPSMCH"
    const r = lbfgsb(driver1, new Array<number>(n).fill(3), { lower, upper, pgtol: 1e-5 });
    expect(r.evaluations).toBe(27);
    expect(r.message).toBe('CONVERGENCE: REL_REDUCTION_OF_F <= FACTR*EPSMCH');
    expect(Math.abs(r.f - 7.7986677151824979e-10)).toBeLessThan(1e-18); // f is a sum of tiny squares: 1e-8 relative
    const R = [1.0000002401928039, 0.99999830765841902, 1.0000003305604379, 1.0000012879655982, 1.0000025591562736];
    R.forEach((v, i) => expect(Math.abs(r.x[i] - v)).toBeLessThan(1e-12));
  });

  it('driver1: the point returned satisfies the KKT conditions of the box problem (independent check)', () => {
    const r = lbfgsb(driver1, new Array<number>(n).fill(3), { lower, upper, factr: 10, pgtol: 1e-10 });
    const g = new Float64Array(n);
    driver1(r.x, g);
    for (let i = 0; i < n; i++) {
      expect(r.x[i]).toBeGreaterThanOrEqual(lower[i]);
      expect(r.x[i]).toBeLessThanOrEqual(upper[i]);
      // Interior: zero gradient; at the lower bound: gradient ≥ 0 (pointing into the box).
      if (r.x[i] > lower[i] + 1e-9) expect(Math.abs(g[i])).toBeLessThan(1e-5);
      else expect(g[i]).toBeGreaterThan(-1e-5);
    }
    // The minimum of this problem is 0 at x = 1 (every term vanishes there and x = 1 is feasible).
    expect(r.f).toBeLessThan(1e-12);
  });

  it('Rosenbrock with a binding bound: x = (0.5, 0.25), 31 evaluations, as R', () => {
    // R: fr <- function(x) 100 * (x[2] - x[1]^2)^2 + (1 - x[1])^2; grr: its gradient
    //    optim(c(-1.2, 1), fr, grr, method = 'L-BFGS-B', lower = c(-2, -2), upper = c(0.5, 2))
    //    $value 0.25, $par 0.5 0.25, $counts 31 31, "CONVERGENCE: NORM OF PROJECTED GRADIENT <= PGTOL"
    const r = lbfgsb(rosenbrock, [-1.2, 1], { lower: [-2, -2], upper: [0.5, 2] });
    expect(r.evaluations).toBe(31);
    expect(Array.from(r.x)).toEqual([0.5, 0.25]);
    expect(r.f).toBe(0.25);
    expect(r.convergence).toBe(0);
  });

  it('Rosenbrock without bounds: 47 evaluations, as R', () => {
    // R: optim(c(-1.2, 1), fr, grr, method = 'L-BFGS-B') → $counts 47 47, $par 0.9999997167506105 0.99999947178021376
    const r = lbfgsb(rosenbrock, [-1.2, 1], { lower: [-Infinity, -Infinity], upper: [Infinity, Infinity] });
    expect(r.evaluations).toBe(47);
    expect(Math.abs(r.x[0] - 0.9999997167506105)).toBeLessThan(1e-11);
    expect(Math.abs(r.x[1] - 0.99999947178021376)).toBeLessThan(1e-11);
  });

  it('maxit counts as R does: stops at the (maxit + 1)-th new iterate with convergence code 1', () => {
    const r = lbfgsb(driver1, new Array<number>(n).fill(3), { lower, upper, maxit: 5 });
    expect(r.convergence).toBe(1);
    expect(r.iterations).toBe(6);
  });
});

describe('Moré–Thuente line search', () => {
  it("accepts a step satisfying the strong Wolfe conditions on Moré & Thuente's function 1", () => {
    // φ(α) = −α / (α² + β), β = 2 (Moré & Thuente 1994, Table 1), ftol = 1e-3, gtol = 0.1, from α0 = 1e-3.
    const beta = 2;
    const phi = (a: number) => -a / (a * a + beta);
    const dphi = (a: number) => (a * a - beta) / (a * a + beta) ** 2;
    const ls = new MoreThuente(1e-3, 0.1, 0.1, 0, 1e10);
    expect(ls.start(1e-3, phi(0), dphi(0))).toBe('fg');
    let task: string = 'fg';
    let evals = 0;
    while (task === 'fg' && evals < 30) {
      evals++;
      task = ls.next(phi(ls.stp), dphi(ls.stp));
    }
    expect(task).toBe('conv');
    const a = ls.stp;
    expect(phi(a)).toBeLessThanOrEqual(phi(0) + 1e-3 * a * dphi(0));
    expect(Math.abs(dphi(a))).toBeLessThanOrEqual(0.1 * Math.abs(dphi(0)));
    // The paper reports 1.4 for this case (6 evaluations).
    expect(a).toBeCloseTo(1.4, 1);
  });
});
