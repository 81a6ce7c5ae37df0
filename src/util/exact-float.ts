/**
 * Floating-point helpers for reproducing another program's arithmetic to the last bit (bn/bnclassify-cmi.ts, estimators/wanbia-bnclassify.ts):
 *  - lnRounded(x), expRounded(x), powRounded(x, y): ln x, e^x and x^y correctly rounded to double, as glibc's
 *    log, exp and pow return them in all but about one case in a thousand (glibc ≥ 2.28 documents them within
 *    0.52 ulp; V8's Math.log/exp/pow are fdlibm's, within 1 ulp, and differ from glibc in about 5–10 % of
 *    cases). Computed in double-double arithmetic (Dekker 1971; Hida, Li & Bailey 2001): e^x as 2^k·e^r with
 *    e^(r/256) by its Taylor polynomial, squared 8 times; ln x by one Newton step from Math.log; x^y as
 *    e^(y·ln x); each rounded once.
 *  - sumExtended(xs): Σ xs as R's sum() of a double vector computes it on x86-64, accumulated in an x87 long
 *    double (64-bit significand, round to nearest even after every addition) and rounded once to double.
 */

// Double-double numbers as [hi, lo] pairs with |lo| ≤ ulp(hi)/2.
type DD = [number, number];

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function fastTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

const SPLITTER = 134217729; // 2^27 + 1

function twoProd(a: number, b: number): DD {
  const p = a * b;
  let c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLITTER * b;
  const bh = c - (c - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function ddAdd(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  const [t, f] = twoSum(a[1], b[1]);
  const [s1, e1] = fastTwoSum(s, e + t);
  return fastTwoSum(s1, e1 + f);
}

function ddMul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return fastTwoSum(p, e + (a[0] * b[1] + a[1] * b[0]));
}

function ddMulNum(a: DD, b: number): DD {
  const [p, e] = twoProd(a[0], b);
  return fastTwoSum(p, e + a[1] * b);
}

function ddDiv(a: DD, b: DD): DD {
  const q1 = a[0] / b[0];
  let r = ddAdd(a, ddMulNum(b, -q1));
  const q2 = r[0] / b[0];
  r = ddAdd(r, ddMulNum(b, -q2));
  const q3 = r[0] / b[0];
  const [s, e] = fastTwoSum(q1, q2);
  return ddAdd([s, e], [q3, 0]);
}

const LN2: DD = [0.6931471805599453, 2.3190468138462996e-17];

/** ln x correctly rounded (x > 0 finite; other inputs as Math.log). */
export function lnRounded(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return Math.log(x);
  if (x === 1) return 0;
  const r = lnNewtonDD(x);
  return r[0] + r[1];
}

// 1/k! as double-doubles, k = 0..12, for expDD's Horner scheme.
const INV_FACT: DD[] = [];
{
  let f: DD = [1, 0];
  for (let k = 0; k <= 12; k++) {
    if (k > 0) f = ddMulNum(f, k);
    INV_FACT.push(ddDiv([1, 0], f));
  }
}

/**
 * e^a of a double-double a (|a| < 709), as a double-double: a = k ln 2 + r, e^(r/2^8) by its Taylor
 * polynomial of degree 12 (Horner), squared 8 times, times 2^k.
 */
function expDD(a: DD): DD {
  const k = Math.round(a[0] / LN2[0]);
  const r = ddAdd(a, ddMulNum(LN2, -k));
  const s: DD = [r[0] / 256, r[1] / 256];
  let p: DD = INV_FACT[12];
  for (let j = 11; j >= 0; j--) p = ddAdd(ddMul(p, s), INV_FACT[j]);
  for (let j = 0; j < 8; j++) p = ddMul(p, p);
  // 2^k in two factors, each a normal double.
  const k1 = Math.trunc(k / 2);
  const f1 = 2 ** k1;
  const f2 = 2 ** (k - k1);
  return [p[0] * f1 * f2, p[1] * f1 * f2];
}

/** ln x (x > 0 finite) as a double-double by one Newton step from Math.log: y + (x e^(−y) − 1) − (…)²/2. */
function lnNewtonDD(x: number): DD {
  const y = Math.log(x);
  const e = expDD([-y, 0]);
  const d = ddAdd(ddMulNum(e, x), [-1, 0]);
  return ddAdd([y, 0], [d[0] - (d[0] * d[0]) / 2, d[1]]);
}

/** e^x correctly rounded, as glibc's exp returns it (≤ 0.502 ulp; V8's Math.exp is fdlibm's, within 1 ulp). */
export function expRounded(x: number): number {
  if (x === 0) return 1;
  if (!Number.isFinite(x) || x > 709 || x < -745) return Math.exp(x);
  const r = expDD([x, 0]);
  return r[0] + r[1];
}

/**
 * x^y correctly rounded, as R's `^` on a double vector computes it on Linux (R_pow: y = 2 → x·x, x = 1 or
 * y = 0 → 1, x = 0 → 0 for y > 0, otherwise glibc's pow, documented within 0.52 ulp), for finite x ≥ 0.
 */
export function powRounded(x: number, y: number): number {
  if (y === 2) return x * x;
  if (x === 1 || y === 0) return 1;
  if (y === 1) return x;
  if (x === 0) return y > 0 ? 0 : y < 0 ? Infinity : y;
  if (!(x > 0) || !Number.isFinite(x) || !Number.isFinite(y)) return Math.pow(x, y);
  const l = ddMulNum(lnNewtonDD(x), y);
  if (l[0] > 709 || l[0] < -745) return Math.pow(x, y);
  const r = expDD(l);
  return r[0] + r[1];
}

/** Exponent of a finite nonzero double: 2^E ≤ |v| < 2^(E+1). */
function exponentOf(v: number): number {
  let e = Math.floor(Math.log2(Math.abs(v)));
  if (2 ** e > Math.abs(v)) e--;
  else if (2 ** (e + 1) <= Math.abs(v)) e++;
  return e;
}

/** Round to nearest, ties to even, of a double to an integer. */
function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Σ xs[0..len) accumulated as an x87 long double (64-bit significand, nearest even) and rounded to double. */
export function sumExtended(xs: ArrayLike<number>, len = xs.length): number {
  // The accumulator is hi + lo exactly, with hi + lo representable in 64 significant bits.
  let hi = 0;
  let lo = 0;
  for (let k = 0; k < len; k++) {
    const x = xs[k];
    if (x === 0) continue;
    // Exact sum hi + lo + x as s + (r1 + r2) with |r| small relative to s.
    const [s, e1] = twoSum(hi, x);
    const [t, e2] = twoSum(e1, lo);
    const [s2, e3] = fastTwoSum(s, t);
    if (s2 === 0) {
      hi = e3 + e2;
      lo = 0;
      continue;
    }
    // Round to 64 significant bits: the low part to a multiple of q = 2^(E − 63).
    let E = exponentOf(s2);
    const rest = e3 + e2;
    // Just below a power of two the grid is twice as fine.
    if (Math.abs(s2) === 2 ** E && rest !== 0 && rest < 0 !== s2 < 0) E--;
    const q = 2 ** (E - 63);
    let low = roundHalfEven(rest / q) * q;
    let high = s2;
    [high, low] = fastTwoSum(high, low);
    hi = high;
    lo = low;
  }
  return hi + lo;
}
