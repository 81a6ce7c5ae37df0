/**
 * Distribution functions used by the comparison tests.
 *
 * Implemented from published algorithms rather than taken from a dependency so that tail accuracy is under
 * our control (see the reference notes on `1 − cdf` underflow in several npm packages):
 *
 * - log-gamma: Lanczos (1964) approximation, g = 7, 9 coefficients (relative error ≈ 1e-15);
 * - regularized incomplete gamma P(a, x), Q(a, x): series for x < a + 1, otherwise the Legendre continued
 *   fraction evaluated with the modified Lentz algorithm (Press et al., Numerical Recipes, §6.2);
 * - regularized incomplete beta I_x(a, b): continued fraction with modified Lentz and the usual symmetry
 *   switch at x > (a + 1)/(a + b + 2) (Numerical Recipes §6.4);
 * - standard normal cdf through erfc(t) = Q(1/2, t²), so both tails are computed directly (never as 1 − cdf);
 * - standard normal quantile: Abramowitz & Stegun 26.2.23 starting value refined by Halley's method on the
 *   accurate cdf (full double precision);
 * - chi-square and F upper tails through Q and I_x;
 * - binomial probabilities by the multiplicative recurrence (log-space when the first term underflows);
 * - the exact null distribution of the Wilcoxon signed-rank statistic by dynamic programming over ranks
 *   (as R's `csignrank`).
 *
 * Upper-tail helpers are named `*Sf` (survival function, P(X > x)).
 */

import { StatsInputError } from './validate.js';

const EPS = Number.EPSILON;
const FPMIN = Number.MIN_VALUE / EPS;
const MAX_ITER = 100_000;
const LN_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const SQRT_2PI = Math.sqrt(2 * Math.PI);

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** log Γ(x) for x > 0 (Lanczos approximation; reflection formula below 0.5). */
export function logGamma(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x <= 0 && Number.isInteger(x)) return Infinity;
  if (x < 0.5) {
    // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  }
  const z = x - 1;
  let a = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i] / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return LN_SQRT_2PI + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Series representation of P(a, x), valid (and fast) for x < a + 1. */
function gammaSeries(a: number, x: number): number {
  let ap = a;
  let del = 1 / a;
  let sum = del;
  for (let n = 0; n < MAX_ITER; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Continued fraction for Q(a, x) (modified Lentz), valid for x ≥ a + 1. */
function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / FPMIN;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = b + an / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** Regularized lower incomplete gamma P(a, x) = γ(a, x)/Γ(a). */
export function regularizedGammaP(a: number, x: number): number {
  if (!(a > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  if (x === Infinity) return 1;
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x);
}

/** Regularized upper incomplete gamma Q(a, x) = Γ(a, x)/Γ(a), computed directly in the upper tail. */
function regularizedGammaQ(a: number, x: number): number {
  if (!(a > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 1;
  if (x === Infinity) return 0;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

/** Continued fraction for the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < FPMIN) d = FPMIN;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < FPMIN) d = FPMIN;
    c = 1 + aa / c;
    if (Math.abs(c) < FPMIN) c = FPMIN;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(logFront);
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/**
 * Standard normal distribution function Φ(z) (`lowerTail = true`) or 1 − Φ(z) (`lowerTail = false`),
 * each tail computed directly: Φ(−|z|) = ½·erfc(|z|/√2) = ½·Q(½, z²/2).
 */
export function normalCdf(z: number, lowerTail = true): number {
  if (Number.isNaN(z)) return NaN;
  const x = lowerTail ? z : -z;
  if (x === -Infinity) return 0;
  if (x === Infinity) return 1;
  const half = 0.5 * regularizedGammaQ(0.5, 0.5 * x * x);
  return x < 0 ? half : 1 - half;
}

/** Standard normal density. */
function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / SQRT_2PI;
}

/** Two-sided normal p-value 2·Φ(−|z|). */
export function normalTwoSidedP(z: number): number {
  if (Number.isNaN(z)) return NaN;
  return Math.min(1, 2 * normalCdf(-Math.abs(z)));
}

/**
 * Standard normal quantile Φ⁻¹(p) for the lower tail (as R `qnorm(p)`).
 * For accuracy near 1 pass the upper-tail probability with `lowerTail = false` (as R `qnorm(q, lower.tail = FALSE)`).
 */
export function normalQuantile(p: number, lowerTail = true): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (!lowerTail) return -normalQuantile(p, true);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (p > 0.5) return -normalQuantile(1 - p, true);
  // Abramowitz & Stegun 26.2.23 (|error| < 4.5e-4) as a starting value for p ≤ 0.5.
  const t = Math.sqrt(-2 * Math.log(p));
  let x = -(
    t -
    (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t)
  );
  // Halley refinement on the accurate cdf.
  for (let i = 0; i < 100; i++) {
    const pdf = normalPdf(x);
    if (pdf === 0) break;
    const e = normalCdf(x) - p;
    const u = e / pdf;
    const step = u / (1 + 0.5 * x * u);
    x -= step;
    if (Math.abs(step) <= 4 * EPS * Math.max(1, Math.abs(x))) break;
  }
  return x;
}

/** Chi-square distribution function P(X ≤ x) with `df` degrees of freedom. */
export function chiSquareCdf(x: number, df: number): number {
  if (!(df > 0)) return NaN;
  return regularizedGammaP(df / 2, x / 2);
}

/** Chi-square upper tail P(X > x), computed directly (accurate far into the tail). */
export function chiSquareSf(x: number, df: number): number {
  if (!(df > 0)) return NaN;
  return regularizedGammaQ(df / 2, x / 2);
}

/** F distribution upper tail P(F > f) with (df1, df2) degrees of freedom. */
export function fSf(f: number, df1: number, df2: number): number {
  if (!(df1 > 0) || !(df2 > 0) || Number.isNaN(f)) return NaN;
  if (f <= 0) return 1;
  if (f === Infinity) return 0;
  // P(F > f) = I_{df2/(df2 + df1·f)}(df2/2, df1/2)
  return regularizedBeta(df2 / (df2 + df1 * f), df2 / 2, df1 / 2);
}

/** F distribution function P(F ≤ f). */
export function fCdf(f: number, df1: number, df2: number): number {
  if (!(df1 > 0) || !(df2 > 0) || Number.isNaN(f)) return NaN;
  if (f <= 0) return 0;
  if (f === Infinity) return 1;
  return regularizedBeta((df1 * f) / (df1 * f + df2), df1 / 2, df2 / 2);
}

/**
 * Student t distribution function P(T ≤ t) with `df` > 0 degrees of freedom (`lowerTail = false`: P(T > t)),
 * through the incomplete beta: P(|T| > |t|) = I_{df/(df + t²)}(df/2, 1/2), each tail computed directly.
 */
export function studentTCdf(t: number, df: number, lowerTail = true): number {
  if (!(df > 0) || Number.isNaN(t)) return NaN;
  if (t === Infinity) return lowerTail ? 1 : 0;
  if (t === -Infinity) return lowerTail ? 0 : 1;
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5); // P(T > |t|)
  if (t >= 0) return lowerTail ? 1 - tail : tail;
  return lowerTail ? tail : 1 - tail;
}

/** Two-sided Student t p-value P(|T| ≥ |t|). */
export function studentTTwoSidedP(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return NaN;
  if (!Number.isFinite(t)) return 0;
  return regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

/** All binomial probabilities P(X = k), k = 0..n, for X ~ Bin(n, p). */
export function binomialPmfAll(n: number, p: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new StatsInputError(`n must be a non-negative integer, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new StatsInputError(`p must be in [0, 1], got ${p}`);
  const out = new Array<number>(n + 1).fill(0);
  if (p === 0) {
    out[0] = 1;
    return out;
  }
  if (p === 1) {
    out[n] = 1;
    return out;
  }
  const first = Math.pow(1 - p, n);
  const ratio = p / (1 - p);
  if (first > 1e-280) {
    out[0] = first;
    for (let k = 0; k < n; k++) out[k + 1] = (out[k] * (n - k) * ratio) / (k + 1);
  } else {
    let lp = n * Math.log1p(-p);
    const lr = Math.log(ratio);
    out[0] = Math.exp(lp);
    for (let k = 0; k < n; k++) {
      lp += Math.log((n - k) / (k + 1)) + lr;
      out[k + 1] = Math.exp(lp);
    }
  }
  return out;
}

/**
 * Exact null distribution of the Wilcoxon signed-rank statistic V = R⁺ for `n` untied, non-zero
 * differences: element s is P(V = s), s = 0..n(n+1)/2. Computed by the recurrence
 * f_k(s) = ½·(f_{k−1}(s) + f_{k−1}(s − k)) over ranks k = 1..n (as R's `csignrank`, in probabilities).
 */
export function signRankDistribution(n: number): Float64Array {
  if (!Number.isInteger(n) || n < 0) throw new StatsInputError(`n must be a non-negative integer, got ${n}`);
  const max = (n * (n + 1)) / 2;
  const f = new Float64Array(max + 1);
  f[0] = 1;
  let top = 0;
  for (let k = 1; k <= n; k++) {
    top += k;
    for (let s = top; s >= 0; s--) {
      const shifted = s >= k ? f[s - k] : 0;
      f[s] = 0.5 * (f[s] + shifted);
    }
  }
  return f;
}

/** P(V ≤ q) for the signed-rank statistic with `n` differences (R `psignrank(q, n)`). */
export function signRankCdf(q: number, n: number): number {
  const f = signRankDistribution(n);
  const hi = Math.floor(q + 1e-7);
  if (hi < 0) return 0;
  if (hi >= f.length - 1) return 1;
  let s = 0;
  for (let i = 0; i <= hi; i++) s += f[i];
  return Math.min(1, s);
}

/** P(V > q) for the signed-rank statistic (R `psignrank(q, n, lower.tail = FALSE)`), summed directly. */
export function signRankSf(q: number, n: number): number {
  const f = signRankDistribution(n);
  const lo = Math.floor(q + 1e-7) + 1;
  if (lo <= 0) return 1;
  let s = 0;
  for (let i = Math.max(lo, 0); i < f.length; i++) s += f[i];
  return Math.min(1, s);
}
