/**
 * I(Xi; Xj | C) for every attribute pair computed the way bnclassify 0.4.8 computes its Chow–Liu weights, in
 * the same floating-point steps, so that weights that are equal or zero in exact arithmetic come out with the
 * same last-bit noise (which decides ties and, below zero, drops an edge). bnclassify (R/data-statistics.R,
 * cmi_table) takes the 3-way table of (Xi, Xj, C) over the rows where both attributes are observed, its
 * margins (Xi, C), (Xj, C) and C, and returns
 *
 *   H(Xi,C) + H(Xj,C) − H(Xi,Xj,C) − H(C)   (evaluated left to right),
 *
 * each H by the entropy package's ML estimator (entropy.empirical → entropy.plugin): f = n / Σn, then
 * f = f / Σf again, then H = −Σ f·ln f over the cells with f > 0, the cells visited in R's array order (the
 * first dimension fastest: Xi, then Xj, then C). R's sum() accumulates in long double (x87, 64-bit
 * significand) and rounds once to double, and ln is glibc's (correctly rounded in nearly all cases); both
 * are reproduced by util/exact-float.ts (sumExtended, lnRounded).
 * A column that is constant on the training rows gives H(Xi,C) = H(C) and H(Xi,Xj,C) = H(Xj,C) bit for
 * bit, so its weights are (a + b) − b − a: 0 or ±1 ulp of the larger entropy, as in bnclassify.
 */
import { attributeCount, type DiscreteData } from './data.js';
import { pairClassCounts } from './counts.js';
import { lnRounded, sumExtended } from '../util/exact-float.js';

/** entropy::entropy(counts, method = 'ML', unit = 'log') for counts in R's array order. */
export function entropyML(counts: Float64Array, len: number, buf: Float64Array): number {
  const n = sumExtended(counts, len);
  for (let k = 0; k < len; k++) buf[k] = counts[k] / n;
  const s = sumExtended(buf, len);
  for (let k = 0; k < len; k++) {
    const f = buf[k] / s;
    buf[k] = f > 0 ? f * lnRounded(f) : 0;
  }
  return -sumExtended(buf, len);
}

/** bnclassify's weight of (i, j): its cmi_table on the available-case (Xi, Xj, C) table. */
export function bnclassifyCmi(data: DiscreteData, i: number, j: number): number {
  const ri = data.cards[i];
  const rj = data.cards[j];
  const C = data.classCard;
  const t = pairClassCounts(data, i, j); // t[(a * rj + b) * C + c]
  const size = ri * rj * C;
  const xyz = new Float64Array(size);
  const xz = new Float64Array(ri * C);
  const yz = new Float64Array(rj * C);
  const z = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    for (let b = 0; b < rj; b++) {
      for (let a = 0; a < ri; a++) {
        const v = t[(a * rj + b) * C + c];
        xyz[a + ri * (b + rj * c)] = v;
        xz[a + ri * c] += v;
        yz[b + rj * c] += v;
        z[c] += v;
      }
    }
  }
  const buf = new Float64Array(size);
  const hxz = entropyML(xz, ri * C, buf);
  const hyz = entropyML(yz, rj * C, buf);
  const hxyz = entropyML(xyz, size, buf);
  const hz = entropyML(z, C, buf);
  return hxz + hyz - hxyz - hz;
}

/** m × m row-major symmetric matrix of bnclassifyCmi (zero diagonal). */
export function bnclassifyPairwiseCmi(data: DiscreteData, signal?: AbortSignal): Float64Array {
  const m = attributeCount(data);
  const w = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    signal?.throwIfAborted();
    for (let j = i + 1; j < m; j++) w[i * m + j] = w[j * m + i] = bnclassifyCmi(data, i, j);
  }
  return w;
}
