/**
 * The random variates and special functions the HDP sampler needs, on the project's seeded Rng.
 *  - Gamma(shape, 1): Marsaglia & Tsang (2000), "A simple method for generating gamma variables", ACM TOMS
 *    26(3); shape < 1 by the boost Gamma(a) = Gamma(a + 1) · U^(1/a), kept in log space so tiny shapes do
 *    not underflow. (The authors' Java code uses commons-math, also Marsaglia–Tsang for shape ≥ 1.)
 *  - Standard normal: Marsaglia's polar method, the second value of each pair cached.
 *  - log(1/q) for q ~ Beta(a, b): a product of Beta(a+i, 1) for small integer b, else q = X/(X+Y) with
 *    X ~ Gamma(a), Y ~ Gamma(b), in log space.
 *  - Digamma ψ(x) for x > 0: recurrence up to x ≥ 10, then the asymptotic series to the x^−12 term.
 */
import type { Rng } from '../util/rng.js';

export class Variates {
  private spare = 0;
  private hasSpare = false;

  constructor(readonly rng: Rng) {}

  /** Writes the spare normal (to[at] = 1 when there is one, else 0; to[at + 1] its value), for a kernel. */
  saveSpare(to: Float64Array, at: number): void {
    to[at] = this.hasSpare ? 1 : 0;
    to[at + 1] = this.spare;
  }

  /** Takes the spare normal back from a kernel that drew normals (the layout of saveSpare). */
  loadSpare(from: Float64Array, at: number): void {
    this.hasSpare = from[at] === 1;
    this.spare = from[at + 1];
  }

  /** Uniform on (0, 1) (never 0, so its log is finite). */
  uniform(): number {
    for (;;) {
      const u = this.rng.next();
      if (u > 0) return u;
    }
  }

  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    for (;;) {
      const u = 2 * this.rng.next() - 1;
      const v = 2 * this.rng.next() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const f = Math.sqrt((-2 * Math.log(s)) / s);
        this.spare = v * f;
        this.hasSpare = true;
        return u * f;
      }
    }
  }

  /** log X for X ~ Gamma(shape, scale 1), shape > 0. */
  logGamma(shape: number): number {
    if (!(shape > 0) || !Number.isFinite(shape)) throw new Error(`Gamma shape must be finite and > 0, got ${shape}`);
    if (shape < 1) return Math.log(this.mtGamma(shape + 1)) + Math.log(this.uniform()) / shape;
    return Math.log(this.mtGamma(shape));
  }

  /** X ~ Gamma(shape, scale 1), shape > 0 (may underflow to 0 for very small shapes; see logGamma). */
  gamma(shape: number): number {
    if (!(shape > 0) || !Number.isFinite(shape)) throw new Error(`Gamma shape must be finite and > 0, got ${shape}`);
    if (shape < 1) return this.mtGamma(shape + 1) * Math.pow(this.uniform(), 1 / shape);
    return this.mtGamma(shape);
  }

  /**
   * log(1/q) for q ~ Beta(a, b), a, b > 0. For an integer b ≤ 16, q = Π_{i<b} U_i^{1/(a+i)} (a product of
   * independent Beta(a+i, 1) is Beta(a, b), by Beta(a, b)·Beta(a+b, c) = Beta(a, b+c)), so log(1/q) is
   * Σ_i −log(U_i)/(a+i): b uniforms instead of two gamma draws, for the many small nodes of deep trees.
   * Otherwise log((X+Y)/X) = log1p(Y/X) with X ~ Gamma(a), Y ~ Gamma(b), from log X and log Y.
   */
  logInvBeta(a: number, b: number): number {
    if (b <= 16 && Number.isInteger(b)) {
      let s = 0;
      for (let i = 0; i < b; i++) s -= Math.log(this.uniform()) / (a + i);
      return s;
    }
    const z = this.logGamma(b) - this.logGamma(a);
    return z > 35 ? z + Math.exp(-z) : Math.log1p(Math.exp(z));
  }

  /** Marsaglia–Tsang for shape ≥ 1. */
  private mtGamma(a: number): number {
    const d = a - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.uniform();
      const x2 = x * x;
      if (u < 1 - 0.0331 * x2 * x2) return d * v;
      if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) return d * v;
    }
  }
}

/** Digamma ψ(x) for x > 0 (truncation error below 1e-15). */
export function digamma(x: number): number {
  if (!(x > 0)) throw new Error(`digamma: x must be > 0, got ${x}`);
  let r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  // ψ(x) ~ ln x − 1/(2x) − Σ B_2k / (2k x^2k)
  const series = f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f * (1 / 132 - f * (691 / 32760))))));
  return r + Math.log(x) - 0.5 / x - series;
}
