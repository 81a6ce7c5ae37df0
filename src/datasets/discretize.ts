/**
 * Discretisation of one numeric attribute into intervals (−inf,c1], (c1,c2], …, (cm,inf).
 *
 * - 'mdl': Fayyad & Irani (1993) recursive entropy splitting with their MDL stopping rule, exactly as Weka's
 *   weka.filters.supervised.attribute.Discretize with default options (no Kononenko, no better encoding):
 *   candidates only between distinct adjacent values, first strictly smaller conditional entropy wins,
 *   log2(N−1) for the cut-point cost, k = number of classes with a nonzero count, entropies in bits computed
 *   with Weka's ContingencyTables arithmetic (Σ n·ln n terms) so near-ties resolve the same way.
 * - 'median': one cut at the training median (mean of the two middle values when the count is even), so
 *   value <= median → bin 0 and value > median → bin 1. No cut when the median equals the largest training
 *   value (every training value would fall in bin 0) or when there are no training values.
 * - 'equal-frequency': Weka's unsupervised Discretize -F placement. Walk the sorted values; at each boundary
 *   between distinct values, once the running count reaches the target size (remaining count / remaining
 *   bins), cut either here or at the previous boundary, whichever is closer to the target; ties in value are
 *   never split, so fewer than k bins can result. Cut points are midpoints between adjacent distinct values.
 * - 'none': no cuts (callers reject numeric columns with 'none'; see preprocess.ts).
 *
 * Missing values (NaN) are ignored when fitting and map to MISSING.
 */
import { forEachRowChunk, MISSING, type CodeColumn, type RowSet } from '../bn/data.js';
import { UserError } from '../util/errors.js';

export type DiscretizeMethod = 'mdl' | 'median' | 'equal-frequency' | 'none';

interface FittedCuts {
  readonly cuts: number[];
}

export const DEFAULT_EQUAL_FREQUENCY_BINS = 10;

/**
 * fitDiscretizer for a coded numeric column (ids into the ascending distinct values, -1 = missing; see
 * RawTable): one pass over the training rows counts them per distinct value and class, and the cuts come
 * from those counts, with no sort. The cuts are those of fitDiscretizer on the same values: every method
 * reads the sorted training values only through their class counts at distinct values (MDL evaluates a
 * candidate only between distinct values, so the last row of a run of equal values sees exactly the counts
 * of all runs up to it), and median and equal-frequency read the sorted values themselves, rebuilt here.
 */
export function fitDiscretizerCoded(
  ids: CodeColumn,
  distinct: Float64Array,
  classes: CodeColumn,
  classCard: number,
  rows: RowSet,
  method: DiscretizeMethod,
  opts: { readonly bins?: number } = {},
): FittedCuts {
  if (method === 'none') return { cuts: [] };
  const K = classCard;
  const all = new Int32Array(distinct.length * K);
  let m = 0;
  forEachRowChunk(rows, (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const r = chunk[i];
      const id = ids[r];
      if (id >= 0) {
        all[id * K + classes[r]]++;
        m++;
      }
    }
  });
  // Keep the distinct values some training row has, in order, with their class counts.
  let G = 0;
  const gv = new Float64Array(distinct.length);
  const gc = new Int32Array(distinct.length * K);
  for (let d = 0; d < distinct.length; d++) {
    let t = 0;
    for (let c = 0; c < K; c++) t += all[d * K + c];
    if (t === 0) continue;
    gv[G] = distinct[d];
    // Copied value by value: a subarray per distinct value was most of a fold's garbage on wide numeric data.
    for (let c = 0; c < K; c++) gc[G * K + c] = all[d * K + c];
    G++;
  }
  const v = gv.subarray(0, G);
  const counts = gc.subarray(0, G * K);
  switch (method) {
    case 'mdl':
      return { cuts: mdlCutsGrouped(v, counts, K, m) };
    case 'median':
      return { cuts: medianCut(expandGroups(v, counts, K, m)) };
    case 'equal-frequency': {
      const bins = opts.bins ?? DEFAULT_EQUAL_FREQUENCY_BINS;
      if (!Number.isInteger(bins) || bins < 2) {
        throw new UserError(`equal-frequency discretisation needs an integer number of bins >= 2, got ${bins}`);
      }
      return { cuts: equalFrequencyCuts(expandGroups(v, counts, K, m), bins) };
    }
    default:
      throw new UserError(
        `unknown discretisation method '${String(method)}' (known: mdl, median, equal-frequency, none)`,
      );
  }
}

/** The sorted training values: each distinct value repeated as often as training rows have it. */
function expandGroups(v: Float64Array, counts: Int32Array, K: number, m: number): Float64Array {
  const out = new Float64Array(m);
  let k = 0;
  for (let g = 0; g < v.length; g++) {
    let t = 0;
    for (let c = 0; c < K; c++) t += counts[g * K + c];
    out.fill(v[g], k, k + t);
    k += t;
  }
  return out;
}

/** Bin of value: the first j with value <= cuts[j], else cuts.length; MISSING for NaN. */
export function applyCuts(value: number, cuts: readonly number[]): number {
  if (Number.isNaN(value)) return MISSING;
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (value <= cuts[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Interval labels "(-inf,c1]", "(c1,c2]", …, "(cm,inf)"; ["All"] when there are no cuts. */
export function cutLabels(cuts: readonly number[]): string[] {
  if (cuts.length === 0) return ['All'];
  let text = cuts.map(shortNumber);
  // Rounded text must still tell adjacent cuts apart; fall back to full precision if not.
  if (new Set(text).size !== text.length) text = cuts.map((c) => String(c));
  const out = [`(-inf,${text[0]}]`];
  for (let j = 1; j < text.length; j++) out.push(`(${text[j - 1]},${text[j]}]`);
  out.push(`(${text[text.length - 1]},inf)`);
  return out;
}

/** At most 6 decimals (as Weka prints cut points), 6 significant digits for tiny magnitudes. */
function shortNumber(x: number): string {
  if (x !== 0 && Math.abs(x) < 1e-3) return String(Number(x.toPrecision(6)));
  return String(Number(x.toFixed(6)));
}

// ---------------------------------------------------------------------------------------------------------
// MDL (Fayyad & Irani) with Weka's arithmetic

const LOG2 = Math.log(2);

function log2(x: number): number {
  return Math.log(x) / LOG2;
}

/** n·ln n with 0 for n <= 0 (Weka ContingencyTables.lnFunc). */
function lnFunc(n: number): number {
  return n <= 0 ? 0 : n * Math.log(n);
}

/** Entropy in bits of a count vector (Weka ContingencyTables.entropy). */
export function entropyBits(counts: ArrayLike<number>): number {
  let ret = 0;
  let sum = 0;
  for (let i = 0; i < counts.length; i++) {
    ret -= lnFunc(counts[i]);
    sum += counts[i];
  }
  if (Math.abs(sum) < 1e-6) return 0;
  return (ret + lnFunc(sum)) / (sum * LOG2);
}

/** Class entropy conditioned on the side, in bits (Weka ContingencyTables.entropyConditionedOnRows). */
export function conditionalEntropyBits(left: ArrayLike<number>, right: ArrayLike<number>): number {
  let ret = 0;
  let total = 0;
  for (const row of [left, right]) {
    let rowSum = 0;
    for (let j = 0; j < row.length; j++) {
      ret = ret + lnFunc(row[j]);
      rowSum += row[j];
    }
    ret = ret - lnFunc(rowSum);
    total += rowSum;
  }
  if (Math.abs(total) < 1e-6) return 0;
  return -ret / (total * LOG2);
}

function nonzero(counts: ArrayLike<number>): number {
  let k = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > 0) k++;
  return k;
}

interface MdlSplit {
  /** Last index of the left part (in the sorted slice); -1 when no candidate lowers the entropy. */
  readonly index: number;
  readonly cut: number;
  readonly priorEntropy: number;
  /** Conditional entropy of the chosen split (= priorEntropy when index is -1). */
  readonly entropy: number;
  readonly gain: number;
  /** (log2(N−1) + Δ) / N; NaN when index is -1. */
  readonly threshold: number;
  readonly accepted: boolean;
}

/** The n·ln n entries computed so far, shared by every call (a pure table: each entry is always the same double). */
let lnShared = new Float64Array(1);

/**
 * n·ln n for n = 0..max: counts are whole numbers, so a lookup gives the same doubles as lnFunc. One table
 * serves every numeric column of every fold (letter's 16 columns × 10 folds computed 2.9 million logarithms
 * for tables of 18,000 entries each); it grows to the largest max asked for.
 */
export function lnTable(max: number): Float64Array {
  if (max >= lnShared.length) {
    const grown = new Float64Array(Math.max(max + 1, 2 * lnShared.length));
    grown.set(lnShared);
    for (let c = lnShared.length; c < grown.length; c++) grown[c] = c * Math.log(c);
    lnShared = grown;
  }
  return lnShared.subarray(0, max + 1);
}

/** c·ln c from the table when it reaches c, else computed: the same double either way. */
function xlnx(ln: Float64Array, c: number): number {
  return c < ln.length ? ln[c] : c * Math.log(c);
}

/**
 * conditionalEntropyBits for whole-number counts, same summation order, no allocation. `ln` may stop short
 * of the counts (mdlCutsGrouped's does at LN_TABLE_MAX): larger ones are computed as the table would hold them.
 */
function conditionalEntropyTab(left: Float64Array, right: Float64Array, k: number, ln: Float64Array): number {
  let ret = 0;
  let nl = 0;
  for (let j = 0; j < k; j++) {
    ret = ret + xlnx(ln, left[j]);
    nl += left[j];
  }
  ret = ret - xlnx(ln, nl);
  let nr = 0;
  for (let j = 0; j < k; j++) {
    ret = ret + xlnx(ln, right[j]);
    nr += right[j];
  }
  ret = ret - xlnx(ln, nr);
  const total = nl + nr;
  return total === 0 ? 0 : -ret / (total * LOG2);
}

/** Fayyad & Irani's MDL acceptance of the best split found. */
function mdlVerdict(
  prior: Float64Array,
  bestLeft: Float64Array,
  bestRight: Float64Array,
  priorEntropy: number,
  best: number,
  bestIndex: number,
  bestCut: number,
  n: number,
): MdlSplit {
  const gain = priorEntropy - best;
  if (bestIndex < 0 || gain <= 0) {
    return { index: bestIndex, cut: bestCut, priorEntropy, entropy: best, gain, threshold: NaN, accepted: false };
  }
  // Without Weka's "better encoding" the number of candidate cuts is taken as N − 1.
  const numCutPoints = n - 1;
  const k = nonzero(prior);
  const k1 = nonzero(bestLeft);
  const k2 = nonzero(bestRight);
  const e1 = entropyBits(bestLeft);
  const e2 = entropyBits(bestRight);
  const delta = log2(Math.pow(3, k) - 2) - (k * priorEntropy - k2 * e2 - k1 * e1);
  const threshold = (log2(numCutPoints) + delta) / n;
  return { index: bestIndex, cut: bestCut, priorEntropy, entropy: best, gain, threshold, accepted: gain > threshold };
}

/**
 * The MDL best split on runs of equal values: v holds the distinct values [first, end) ascending and
 * counts[g·K + c] the rows of value g and class c. A candidate is evaluated at the last row of each run only
 * (Weka never cuts between equal values), where the class counts to its left are those of all runs up to it;
 * `index` is the last run of the left part.
 */
export function mdlBestSplitGrouped(
  v: Float64Array,
  counts: Int32Array,
  K: number,
  first: number,
  end: number,
  ln: Float64Array,
): MdlSplit {
  const left = new Float64Array(K);
  const right = new Float64Array(K);
  let n = 0;
  for (let g = first; g < end; g++) {
    for (let c = 0; c < K; c++) {
      right[c] += counts[g * K + c];
      n += counts[g * K + c];
    }
  }
  const prior = right.slice();
  const priorEntropy = entropyBits(prior);
  let best = priorEntropy;
  let bestIndex = -1;
  let bestCut = NaN;
  const bestLeft = new Float64Array(K);
  const bestRight = new Float64Array(K);
  for (let g = first; g < end - 1; g++) {
    for (let c = 0; c < K; c++) {
      left[c] += counts[g * K + c];
      right[c] -= counts[g * K + c];
    }
    if (v[g] < v[g + 1]) {
      const e = conditionalEntropyTab(left, right, K, ln);
      if (e < best) {
        best = e;
        bestIndex = g;
        bestCut = (v[g] + v[g + 1]) / 2;
        bestLeft.set(left);
        bestRight.set(right);
      }
    }
  }
  return mdlVerdict(prior, bestLeft, bestRight, priorEntropy, best, bestIndex, bestCut, n);
}

/**
 * Entries of mdlCutsGrouped's c·ln c table. A table of every count up to the number of rows was 8 bytes a
 * row per numeric column (72 MB at 9·10^6 training rows, the peak of a fold's preprocessing) and a
 * logarithm per row; the counts a search meets above this are few (one per class and side per candidate).
 */
const LN_TABLE_MAX = 1 << 16;

/** mdlCuts from runs of equal values (see mdlBestSplitGrouped); m is the number of rows. */
export function mdlCutsGrouped(
  v: Float64Array,
  counts: Int32Array,
  K: number,
  m: number,
  lnMax = LN_TABLE_MAX,
): number[] {
  const cuts: number[] = [];
  const ln = lnTable(Math.min(m, lnMax));
  const recurse = (first: number, end: number): void => {
    // One run has no candidate cut.
    if (end - first < 2) return;
    const s = mdlBestSplitGrouped(v, counts, K, first, end, ln);
    if (!s.accepted) return;
    recurse(first, s.index + 1);
    cuts.push(s.cut);
    recurse(s.index + 1, end);
  };
  recurse(0, v.length);
  return cuts;
}

// ---------------------------------------------------------------------------------------------------------
// median and equal frequency

/** Cut at the median of sorted values v (see the module comment for the rule). */
export function medianCut(v: Float64Array): number[] {
  const m = v.length;
  if (m === 0) return [];
  const h = m >> 1;
  const median = m % 2 === 1 ? v[h] : (v[h - 1] + v[h]) / 2;
  return median < v[m - 1] ? [median] : [];
}

/** Weka's equal-frequency cut placement (unsupervised Discretize, useEqualFrequency) for sorted values v. */
export function equalFrequencyCuts(v: Float64Array, bins: number): number[] {
  const m = v.length;
  const maxCuts = bins - 1;
  const cuts: number[] = [];
  let remaining = m;
  let freq = m / bins;
  let counter = 0;
  let last = 0;
  let lastIndex = -1;
  for (let i = 0; i < m - 1; i++) {
    counter += 1;
    remaining -= 1;
    if (v[i] < v[i + 1]) {
      if (counter >= freq) {
        // Cut at the previous boundary when it lands closer to the target size than this one.
        if (freq - last < counter - freq && lastIndex !== -1) {
          cuts.push((v[lastIndex] + v[lastIndex + 1]) / 2);
          counter -= last;
          last = counter;
          lastIndex = i;
        } else {
          cuts.push((v[i] + v[i + 1]) / 2);
          counter = 0;
          last = 0;
          lastIndex = -1;
        }
        freq = (remaining + counter) / (maxCuts + 1 - cuts.length);
      } else {
        lastIndex = i;
        last = counter;
      }
    }
  }
  if (cuts.length < maxCuts && lastIndex !== -1) cuts.push((v[lastIndex] + v[lastIndex + 1]) / 2);
  return cuts;
}
