/**
 * Empirical (plug-in, maximum-likelihood) information measures between attributes and the class.
 *
 * Base: natural logarithm, so every value is in nats (bnclassify's `cmi(..., unit = "log")`, the unit its
 * CL-ODE scores use). Divide by Math.LN2 for bits.
 *
 * Missing values: available case. I(X;C) uses the rows where X is observed; I(Xi;Xj|C) uses the rows where
 * both Xi and Xj are observed, and all its marginals (N_ic, N_jc, N_c, N) come from that same table, as
 * bnclassify's `cmi_table` does. With no usable row the value is 0.
 */
import { attributeCount, codeColumn, forEachViewChunk, rowViewOf, type DiscreteData } from './data.js';
import {
  accumulatePairCodes,
  accumulatePairCodes4,
  accumulatePairCodes4Rows,
  accumulatePairCodesRows,
  attributeClassCodes,
  attributeClassCounts,
  pairClassCounts,
} from './counts.js';
import { xlogx, xlogxTable } from './xlogx.js';

/** I(X;C) from counts t[x * C + c]. */
export function miFromCounts(t: Float64Array, rx: number, C: number): number {
  const nc = new Float64Array(C);
  let total = 0;
  for (let x = 0; x < rx; x++) {
    for (let c = 0; c < C; c++) {
      const v = t[x * C + c];
      nc[c] += v;
      total += v;
    }
  }
  if (total === 0) return 0;
  let s = 0;
  for (let x = 0; x < rx; x++) {
    let nx = 0;
    for (let c = 0; c < C; c++) nx += t[x * C + c];
    if (nx === 0) continue;
    for (let c = 0; c < C; c++) {
      const v = t[x * C + c];
      if (v > 0) s += v * Math.log((v * total) / (nx * nc[c]));
    }
  }
  return Math.max(0, s / total);
}

/** Scratch buffers for cmiFromCounts, so the pairwise loop allocates nothing per pair. */
interface CmiScratch {
  nic: Float64Array;
  njc: Float64Array;
  nc: Float64Array;
  /** Set by cmiFromCounts: the table's total count N. */
  total: number;
}

function cmiScratch(maxCard: number, C: number): CmiScratch {
  return {
    nic: new Float64Array(maxCard * C),
    njc: new Float64Array(maxCard * C),
    nc: new Float64Array(C),
    total: 0,
  };
}

/**
 * I(Xi;Xj|C) = Σ N_ijc/N · ln(N_ijc N_c / (N_ic N_jc)) from counts t[(xi * rj + xj) * C + c], computed as
 * (Σ N_ijc ln N_ijc + Σ N_c ln N_c − Σ N_ic ln N_ic − Σ N_jc ln N_jc) / N with marginals taken from the
 * same (available-case) table. Returns the value clamped at 0 (rounding can give -1e-17 for independent tables).
 */
export function cmiFromCounts(
  t: Float64Array | Int32Array,
  ri: number,
  rj: number,
  C: number,
  scratch?: CmiScratch,
): number {
  const s = scratch ?? cmiScratch(Math.max(ri, rj), C);
  const { nic, njc, nc } = s;
  nic.fill(0, 0, ri * C);
  njc.fill(0, 0, rj * C);
  nc.fill(0, 0, C);
  for (let a = 0; a < ri; a++) {
    for (let b = 0; b < rj; b++) {
      const base = (a * rj + b) * C;
      const ia = a * C;
      const jb = b * C;
      for (let c = 0; c < C; c++) {
        const v = t[base + c];
        nic[ia + c] += v;
        njc[jb + c] += v;
      }
    }
  }
  let total = 0;
  for (let a = 0; a < ri; a++) for (let c = 0; c < C; c++) nc[c] += nic[a * C + c];
  for (let c = 0; c < C; c++) total += nc[c];
  s.total = total;
  if (total === 0) return 0;
  const L = xlogxTable(Math.ceil(total));
  let sum = 0;
  const cells = ri * rj * C;
  for (let k = 0; k < cells; k++) sum += xlogx(L, t[k]);
  for (let c = 0; c < C; c++) sum += xlogx(L, nc[c]);
  for (let k = 0; k < ri * C; k++) sum -= xlogx(L, nic[k]);
  for (let k = 0; k < rj * C; k++) sum -= xlogx(L, njc[k]);
  return Math.max(0, sum / total);
}

/** Empirical I(X_a; C) in nats over rows where X_a is observed. */
export function mutualInformation(data: DiscreteData, a: number): number {
  return miFromCounts(attributeClassCounts(data, a), data.cards[a], data.classCard);
}

/** Empirical I(X_i; X_j | C) in nats over rows where X_i and X_j are observed. */
export function conditionalMutualInformation(data: DiscreteData, i: number, j: number): number {
  const t = pairClassCounts(data, i, j);
  return cmiFromCounts(t, data.cards[i], data.cards[j], data.classCard);
}

interface PairwiseCmi {
  readonly m: number;
  /** m × m row-major, symmetric, zero diagonal: I(Xi;Xj|C) in nats. */
  readonly cmi: Float64Array;
  /** m × m row-major, symmetric: rows where both Xi and Xj are observed (the N of each available-case table). */
  readonly n: Float64Array;
}

/**
 * I(Xi;Xj|C) for every attribute pair: for each j, one pass over the rows fills the tables of four
 * attributes i < j at once (reused buffers; see accumulatePairCodes4). Checks `signal` between attributes
 * so long runs can be cancelled.
 */
export function pairwiseCmi(data: DiscreteData, signal?: AbortSignal): PairwiseCmi {
  const m = attributeCount(data);
  const C = data.classCard;
  const n = data.n;
  const cmi = new Float64Array(m * m);
  const used = new Float64Array(m * m);
  let maxCard = 1;
  for (let a = 0; a < m; a++) maxCard = Math.max(maxCard, data.cards[a]);
  // Int32 counts keep four pair tables twice as likely to stay in L1/L2 as doubles would.
  const tables = [0, 1, 2, 3].map(() => new Int32Array(maxCard * maxCard * C));
  const scratch = cmiScratch(maxCard, C);
  // One byte per row when every (value, class) code fits: a quarter of Int32 on 10^7 rows.
  const zj = codeColumn(maxCard * C, n);
  // A row view is counted chunk by chunk, never copied (the training rows of a large data set); zj is
  // indexed by the view's rows, so a chunk of rows offset.. reads zj from offset.
  const view = rowViewOf(data);
  const store = (i: number, j: number, t: Int32Array): void => {
    const v = cmiFromCounts(t, data.cards[i], data.cards[j], C, scratch);
    cmi[i * m + j] = cmi[j * m + i] = v;
    used[i * m + j] = used[j * m + i] = scratch.total;
  };
  for (let j = 1; j < m; j++) {
    signal?.throwIfAborted();
    attributeClassCodes(data, j, zj);
    const stride = data.cards[j] * C;
    let i = 0;
    for (; i + 4 <= j; i += 4) {
      for (let k = 0; k < 4; k++) tables[k].fill(0, 0, data.cards[i + k] * stride);
      const [t0, t1, t2, t3] = tables as [Int32Array, Int32Array, Int32Array, Int32Array];
      if (view) {
        forEachViewChunk(view, [i, i + 1, i + 2, i + 3], (c, rows, off) => {
          const z = zj.subarray(off, off + rows.length);
          accumulatePairCodes4Rows(c[0], c[1], c[2], c[3], rows, z, stride, rows.length, t0, t1, t2, t3);
        });
      } else {
        const cols = data.columns;
        accumulatePairCodes4(cols[i], cols[i + 1], cols[i + 2], cols[i + 3], zj, stride, n, t0, t1, t2, t3);
      }
      for (let k = 0; k < 4; k++) store(i + k, j, tables[k]);
    }
    for (; i < j; i++) {
      const t = tables[0];
      t.fill(0, 0, data.cards[i] * stride);
      if (view) {
        forEachViewChunk(view, [i], (c, rows, off) =>
          accumulatePairCodesRows(c[0], rows, zj.subarray(off, off + rows.length), stride, rows.length, t),
        );
      } else accumulatePairCodes(data.columns[i], zj, stride, n, t);
      store(i, j, t);
    }
  }
  return { m, cmi, n: used };
}
