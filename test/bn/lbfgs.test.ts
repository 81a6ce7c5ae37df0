import { describe, it, expect } from 'vitest';
import { lbfgs, wolfeLineSearch } from '../../src/bn/lbfgs.js';

/** Rosenbrock in n dimensions: minimum 0 at (1, ..., 1). */
function rosenbrock(x: Float64Array, g: Float64Array): number {
  let f = 0;
  g.fill(0);
  for (let i = 0; i + 1 < x.length; i++) {
    const a = x[i + 1] - x[i] * x[i];
    const b = 1 - x[i];
    f += 100 * a * a + b * b;
    g[i] += -400 * x[i] * a - 2 * b;
    g[i + 1] += 200 * a;
  }
  return f;
}

describe('wolfeLineSearch', () => {
  // Test functions of Moré & Thuente (1994), Table 1 (φ(α) = −α/(α² + β), β = 2) and a quadratic.
  const cases: [string, (a: number) => { f: number; d: number }, number][] = [
    ['-a/(a^2+2)', (a) => ({ f: -a / (a * a + 2), d: (a * a - 2) / (a * a + 2) ** 2 }), 1e-3],
    ['-a/(a^2+2) from far', (a) => ({ f: -a / (a * a + 2), d: (a * a - 2) / (a * a + 2) ** 2 }), 10],
    ['(a-3)^2', (a) => ({ f: (a - 3) ** 2, d: 2 * (a - 3) }), 1],
    ['(a-3)^2 overshoot', (a) => ({ f: (a - 3) ** 2, d: 2 * (a - 3) }), 100],
  ];
  it.each(cases)('returns a step satisfying the strong Wolfe conditions: %s', (_, phi, a0) => {
    const { f: f0, d: d0 } = phi(0);
    const r = wolfeLineSearch(phi, f0, d0, a0);
    expect(r.status).toBe('wolfe');
    expect(r.f).toBeLessThanOrEqual(f0 + 1e-4 * r.alpha * d0);
    expect(Math.abs(r.dphi)).toBeLessThanOrEqual(0.9 * Math.abs(d0));
    expect(phi(r.alpha).f).toBe(r.f);
  });

  it('stops at the step cap when the function still decreases there', () => {
    const phi = (a: number) => ({ f: -a, d: -1 });
    const r = wolfeLineSearch(phi, 0, -1, 1, 0.25);
    expect(r).toMatchObject({ alpha: 0.25, status: 'bound' });
  });

  it('refuses an ascent direction', () => {
    expect(wolfeLineSearch((a) => ({ f: a, d: 1 }), 0, 1, 1).status).toBe('failed');
  });
});

describe('lbfgs', () => {
  it('minimises the 2-D Rosenbrock function from (-1.2, 1)', () => {
    const r = lbfgs(rosenbrock, [-1.2, 1], { maxIterations: 200, factr: 10 });
    expect(r.x[0]).toBeCloseTo(1, 5);
    expect(r.x[1]).toBeCloseTo(1, 5);
    expect(r.f).toBeLessThan(1e-10);
    expect(r.converged).toBe(true);
  });

  it('minimises a 10-D Rosenbrock function', () => {
    const r = lbfgs(rosenbrock, new Float64Array(10).fill(-0.5), { maxIterations: 500, factr: 10, memory: 7 });
    for (const v of r.x) expect(v).toBeCloseTo(1, 4);
  });

  it('solves a bound-constrained quadratic (KKT solution known in closed form)', () => {
    // f(x) = Σ (x_i − c_i)², box [0, 1]: the solution is c clipped to the box.
    const c = [1.7, -0.4, 0.3, 1, 0.999, -2];
    const fg = (x: Float64Array, g: Float64Array) => {
      let f = 0;
      for (let i = 0; i < x.length; i++) {
        f += (x[i] - c[i]) ** 2;
        g[i] = 2 * (x[i] - c[i]);
      }
      return f;
    };
    const r = lbfgs(fg, new Float64Array(6).fill(0.5), {
      lower: new Float64Array(6),
      upper: new Float64Array(6).fill(1),
      pgtol: 1e-10,
    });
    expect([...r.x].map((v) => +v.toFixed(9))).toEqual([1, 0, 0.3, 1, 0.999, 0]);
    // Variables at a bound sit exactly on it.
    expect(r.x[0]).toBe(1);
    expect(r.x[1]).toBe(0);
  });

  it('respects the box on a coupled problem (Rosenbrock with x ≤ 0.5)', () => {
    // With x1 ≤ 0.5 the constrained minimum of 2-D Rosenbrock is at x1 = 0.5, x2 = 0.25 (∂f/∂x2 = 0 ⇒ x2 = x1²,
    // and ∂f/∂x1 = −2(1 − x1) < 0 there, so the bound is active).
    const r = lbfgs(rosenbrock, [-1, 2], { lower: [-5, -5], upper: [0.5, 5], maxIterations: 300, factr: 10 });
    expect(r.x[0]).toBe(0.5);
    expect(r.x[1]).toBeCloseTo(0.25, 6);
  });

  it('checks the bounds', () => {
    expect(() => lbfgs(rosenbrock, [0, 0], { lower: [1, 0], upper: [0, 1] })).toThrow(/lower bound/);
  });
});
