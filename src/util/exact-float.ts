/**
 * Floating-point helpers for reproducing another program's arithmetic to the last bit (bn/bnclassify-cmi.ts):
 *  - lnRounded(x): ln x correctly rounded to double, as glibc's log returns it (glibc ≥ 2.28 documents
 *    its log as correctly rounded in nearly all cases; V8's Math.log is fdlibm's, within 1 ulp). Computed in
 *    double-double arithmetic (Dekker 1971; Hida, Li & Bailey 2001): x = m·2^e with m in [√½, √2),
 *    ln m = 2·atanh((m − 1)/(m + 1)) by its series, plus e·ln 2, then rounded once.
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
  let e = Math.floor(Math.log2(x));
  let m = x * 2 ** -e; // exact for normal numbers (a power-of-two scaling)
  if (!Number.isFinite(m) || m === 0) {
    // Subnormal or extreme: scale in two steps.
    m = x * 2 ** 600 * 2 ** -(e + 600);
  }
  while (m >= 2) {
    m /= 2;
    e++;
  }
  while (m < 1) {
    m *= 2;
    e--;
  }
  if (m > Math.SQRT2) {
    m /= 2;
    e++;
  }
  // t = (m − 1)/(m + 1); m − 1 is exact for m in [½, 2].
  const t = ddDiv([m - 1, 0], twoSum(m, 1));
  const t2 = ddMul(t, t);
  let sum: DD = [0, 0];
  let pow: DD = t;
  for (let k = 0; k < 60; k++) {
    const term = ddDiv(pow, [2 * k + 1, 0]);
    sum = ddAdd(sum, term);
    if (Math.abs(term[0]) < 1e-36 * Math.abs(sum[0])) break;
    pow = ddMul(pow, t2);
  }
  const lnm: DD = [2 * sum[0], 2 * sum[1]];
  const r = ddAdd(ddMulNum(LN2, e), lnm);
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
    const x = xs[k]!;
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
