/**
 * Exact structure search by dynamic programming over variable subsets (Silander & Myllymäki 2006,
 * "A simple approach for finding the globally optimal Bayesian network structure", UAI; as in their `bene`).
 *
 *  1. Best parents in each candidate set:  bps_X(C) = argmax { s(X, C), bps_X(C \ {y}) : y ∈ C }.
 *  2. Best sinks:  best(W) = max_{X ∈ W} best(W \ {X}) + s(X, bps_X(W \ {X})), keeping the argmax sink.
 *  3. Peel the sinks from the full set back to ∅; each sink takes its best parents among its predecessors.
 *
 * Step 1 works on a sorted list of "candidate" parent sets per variable instead of a table of best scores:
 * a set that has K subsets scoring at least as well is not needed in a list of the K best networks
 * (replacing it by each of those subsets gives K distinct networks at least as good, and for K-best
 * equivalence classes K distinct classes, since the variable's adjacencies differ), so it is dropped
 * (for K = 1 this is the usual rule of Teyssier & Koller 2005 / de Campos & Ji 2011: a set not strictly better
 * than all its subsets is dropped). bestPos_X(C) then stores the position in that list of the best candidate
 * inside C, so the tables of the DP are 4-byte positions rather than 8-byte scores.
 */
import { compress, popcount } from './bits.js';
import { checkMemory, localScoreBytes, throwIfAborted, type LocalScores } from './localscores.js';
import { UserError } from '../../util/errors.js';

/** The parent sets of one variable that can occur in a K-best network, best first. */
export interface ParentCandidates {
  /** Parent sets as masks over the DP variables, sorted by score (descending), ties by mask (ascending). */
  readonly masks: Int32Array;
  readonly scores: Float64Array;
  /** bestPos[c] = position in masks of the best candidate ⊆ the compressed set c (K = 1 only). */
  readonly bestPos: Int32Array;
}

/** Reused per-variable work arrays (2^(n-1) entries each). */
interface CandidateScratch {
  ls: Float64Array;
  /** The two halves of one buffer: markCandidates' best score inside each set, and sortByScore's keys and permutations. */
  bs: Float64Array;
  pb: Float64Array;
  /** The same buffer, as one pair of bounds per set for the K-best scan (markCandidatesK). */
  pairs: Float64Array;
  q: Float64Array;
  kept: Uint8Array;
  /** One number and its bits, and the digit counts of sortByScore. */
  bits: Float64Array;
  radix: Int32Array;
}

export function candidateScratch(n: number): CandidateScratch {
  const M = 2 ** Math.max(0, n - 1);
  const bounds = new ArrayBuffer(16 * M);
  return {
    ls: new Float64Array(M),
    bs: new Float64Array(bounds, 0, M),
    pb: new Float64Array(bounds, 8 * M, M),
    pairs: new Float64Array(bounds),
    q: new Float64Array(M),
    kept: new Uint8Array(M),
    bits: new Float64Array(1),
    radix: new Int32Array(2048),
  };
}

export function candidateScratchBytes(n: number): number {
  return 33 * 2 ** Math.max(0, n - 1);
}

/**
 * The candidate parent sets of DP variable x for a K-best search: every set with fewer than K strict
 * subsets scoring at least as well. (A set with K such subsets can be replaced by each of them, giving K
 * distinct networks, or classes, that score at least as well, so some list of the K best does without it;
 * ties matter for variables whose score never changes, e.g. a constant column.) Sound shortcuts: a set
 * strictly better than all its strict subsets is kept; a set with a dropped strict subset scoring at least
 * as well is dropped (that subset already has K such subsets of its own); otherwise the subsets scoring at
 * least as well are counted, stopping at K.
 */
function parentCandidates(
  ls: LocalScores,
  x: number,
  K: number,
  scratch: CandidateScratch,
  signal?: AbortSignal,
): ParentCandidates {
  const n = ls.n;
  const M = 2 ** (n - 1);
  const { kept } = scratch;
  const v = scratch.ls;
  ls.fillLocal(x, v, scratch.q);
  const count = K === 1 ? markCandidates(v, M, scratch, signal) : markCandidatesK(v, K, M, scratch, signal);
  // Sort by score descending, ties by full mask ascending (compression preserves mask order).
  const sorted = sortByScore(keptSets(kept, count), v, scratch);
  const masks = new Int32Array(count);
  const scores = new Float64Array(count);
  fillCandidates(sorted, v, x, masks, scores);
  // K > 1: the K-best search merges per-subset lists itself from the sorted list.
  if (K > 1) return { masks, scores, bestPos: new Int32Array(0) };
  return { masks, scores, bestPos: bestPositions(sorted, M) };
}

// parentCandidates runs its loops in functions of their own: a function compiled while one of its loops
// runs meets the code after that loop with no record of the types there, is thrown away and compiled
// again (on 17 variables, every loop of every variable's call compiled and thrown away once more).

/** The sets c with kept[c] = 1, in increasing order. */
function keptSets(kept: Uint8Array, count: number): Int32Array {
  const order = new Int32Array(count);
  let k = 0;
  for (let c = 0; k < count; c++) if (kept[c]) order[k++] = c;
  return order;
}

/** The candidates' masks over the DP variables (x's own bit left out of the compressed set) and scores. */
function fillCandidates(sorted: Int32Array, v: Float64Array, x: number, masks: Int32Array, scores: Float64Array): void {
  const lowMask = (1 << x) - 1;
  for (let i = 0; i < sorted.length; i++) {
    const c = sorted[i];
    masks[i] = ((c >>> x) << (x + 1)) | (c & lowMask);
    scores[i] = v[c];
  }
}

/** bestPos[c] = position of the best candidate inside the compressed set c (K = 1). */
function bestPositions(sorted: Int32Array, M: number): Int32Array {
  const bestPos = new Int32Array(M).fill(-1);
  for (let i = 0; i < sorted.length; i++) bestPos[sorted[i]] = i;
  // bestPos[c] = min(own position, bestPos of the immediate subsets): the best candidate inside c.
  for (let c = 1; c < M; c++) {
    let best = bestPos[c];
    for (let t = c; t !== 0; t &= t - 1) {
      const p = bestPos[c ^ (t & -t)];
      if (p >= 0 && (best < 0 || p < best)) best = p;
    }
    bestPos[c] = best;
  }
  return bestPos;
}

/**
 * The scan of parentCandidates for the single best parent set (K = 1): kept[c] = 1 for the sets c that score
 * better than every set inside them (scores v), with the best score inside each set in bs; returns how many
 * are kept. markCandidatesK is the same scan for K > 1, which also tracks the best dropped score inside a set.
 */
function markCandidates(v: Float64Array, M: number, scratch: CandidateScratch, signal?: AbortSignal): number {
  const { bs, kept } = scratch;
  let count = 0;
  for (let c = 0; c < M; c++) {
    if ((c & 0xffff) === 0) throwIfAborted(signal); // from the first pass, so not first met in compiled code
    let bsS = -Infinity;
    for (let t = c; t !== 0; t &= t - 1) {
      const b = bs[c ^ (t & -t)];
      if (b > bsS) bsS = b;
    }
    const s = v[c];
    const keep = c === 0 || s > bsS;
    kept[c] = keep ? 1 : 0;
    if (keep) count++;
    bs[c] = s > bsS ? s : bsS;
  }
  return count;
}

/**
 * markCandidates for K > 1, with the best score inside each set and the best score of a dropped set inside it
 * side by side at pairs[2c] and pairs[2c + 1]: the scan reads both for every immediate subset, one cache
 * line instead of two (on 2^19 sets a variable, a tenth of the scan's time); returns how many are kept.
 */
function markCandidatesK(
  v: Float64Array,
  K: number,
  M: number,
  scratch: CandidateScratch,
  signal?: AbortSignal,
): number {
  const { pairs, kept } = scratch;
  let count = 0;
  for (let c = 0; c < M; c++) {
    if ((c & 0xffff) === 0) throwIfAborted(signal); // from the first pass, so not first met in compiled code
    let bsS = -Infinity;
    let pbS = -Infinity;
    for (let t = c; t !== 0; t &= t - 1) {
      const sub = 2 * (c ^ (t & -t));
      const b = pairs[sub];
      if (b > bsS) bsS = b;
      const p = pairs[sub + 1];
      if (p > pbS) pbS = p;
    }
    const s = v[c];
    let keep: boolean;
    if (c === 0 || s > bsS) keep = true;
    else if (pbS >= s) keep = false;
    else {
      const k = popcount(c);
      if (k < 30 && (1 << k) - 1 < K)
        keep = true; // fewer strict subsets than K (a shift, not a call of pow)
      else {
        // The strict subsets in increasing order (t ← (t − c) & c), the small ones first: a small set
        // usually scores better than a large one, so the count reaches K early.
        let better = 0;
        for (let t = 0; t !== c; t = (t - c) & c) if (v[t] >= s && ++better >= K) break;
        keep = better < K;
      }
    }
    kept[c] = keep ? 1 : 0;
    if (keep) count++;
    pairs[2 * c] = s > bsS ? s : bsS;
    pairs[2 * c + 1] = keep || pbS > s ? pbS : s;
  }
  return count;
}

/** Shortest list sorted by sortByScore's radix passes. */
export const RADIX_MIN = 512;

/**
 * The sets of `order` (increasing) by score v[c] descending, ties by set ascending: the order of
 * `sort((a, b) => v[b] - v[a] || a - b)`, by a stable least-significant-digit radix sort on the scores' bits
 * (11 bits a pass, passes where every key has the same digit skipped). With K > 1 a variable keeps thousands
 * of candidates, and a comparison sort of them cost more than the search's whole single-best DP. Reuses
 * the scratch arrays bs (keys) and pb (permutations), which the caller no longer needs.
 */
export function sortByScore(order: Int32Array, v: Float64Array, scratch: CandidateScratch): Int32Array {
  const m = order.length;
  // A short list (the single-best search's, typically) sorts faster by comparison than through six
  // passes over 2,048 digit counts.
  if (m < RADIX_MIN) return Int32Array.from(Array.from(order).sort((a, b) => v[b] - v[a] || a - b));
  const { bs, pb } = scratch;
  const hi = new Uint32Array(bs.buffer, bs.byteOffset, m);
  const lo = new Uint32Array(bs.buffer, bs.byteOffset + 4 * m, m);
  let perm = new Int32Array(pb.buffer, pb.byteOffset, m);
  let tmp = new Int32Array(pb.buffer, pb.byteOffset + 4 * m, m);
  const bits = scratch.bits;
  const bitsHi = new Uint32Array(bits.buffer); // [0] the low word, [1] the high word (little-endian, as Node runs)
  for (let i = 0; i < m; i++) {
    bits[0] = v[order[i]] + 0; // -0 → +0: equal scores are ties
    const h = bitsHi[1];
    const l = bitsHi[0];
    // Descending order of the numbers = ascending order of these keys: a negative number keeps its bits
    // (a larger magnitude, a larger key), a non-negative one has all but the sign bit complemented (a
    // larger number, a smaller key; sign bit 0, below every negative number).
    if ((h & 0x80000000) !== 0) {
      hi[i] = h;
      lo[i] = l;
    } else {
      hi[i] = ~h & 0x7fffffff;
      lo[i] = ~l >>> 0;
    }
    perm[i] = i;
  }
  const count = scratch.radix;
  for (let pass = 0; pass < 6; pass++) {
    const key = pass < 3 ? lo : hi;
    const shift = 11 * (pass % 3);
    count.fill(0);
    for (let i = 0; i < m; i++) count[(key[i] >>> shift) & 2047]++;
    if (count[(key[0] >>> shift) & 2047] === m) continue; // one digit: the pass changes nothing
    let sum = 0;
    for (let d = 0; d < 2048; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let j = 0; j < m; j++) {
      const i = perm[j];
      tmp[count[(key[i] >>> shift) & 2047]++] = i;
    }
    const t = perm;
    perm = tmp;
    tmp = t;
  }
  const sorted = new Int32Array(m);
  for (let j = 0; j < m; j++) sorted[j] = order[perm[j]];
  return sorted;
}

export interface ExactNetwork {
  /** Parent mask (over DP variables) of each DP variable. */
  readonly parents: Int32Array;
  /** Total score, including LocalScores.constant. */
  readonly score: number;
}

/** Fixed memory of the single-best DP (besides the candidate lists, which are checked as they grow). */
export function bestNetworkBytes(nVars: number, rows: number): number {
  return (
    localScoreBytes(nVars, rows) +
    4 * nVars * 2 ** Math.max(0, nVars - 1) +
    9 * 2 ** nVars +
    candidateScratchBytes(nVars)
  );
}

/**
 * Parent candidates of every variable, with the memory they take (and `perCandidate` more bytes each, for
 * the caller's own tables) checked against the budget.
 */
export function allCandidates(
  ls: LocalScores,
  K: number,
  fixedBytes: number,
  limitMB: number,
  what: string,
  signal?: AbortSignal,
  perCandidate = 0,
): ParentCandidates[] {
  const scratch = candidateScratch(ls.n);
  const out: ParentCandidates[] = [];
  let bytes = fixedBytes;
  for (let x = 0; x < ls.n; x++) {
    throwIfAborted(signal);
    const c = parentCandidates(ls, x, K, scratch, signal);
    bytes += c.masks.byteLength + c.scores.byteLength + perCandidate * c.masks.length;
    checkMemory(bytes, limitMB, what);
    out.push(c);
  }
  return out;
}

/** The highest-scoring network (Silander & Myllymäki 2006). Ties go to the lowest sink index. */
export function bestNetwork(ls: LocalScores, limitMB: number, signal?: AbortSignal): ExactNetwork {
  const n = ls.n;
  const what = `exact search over ${n} variables`;
  const fixed = bestNetworkBytes(n, ls.rows);
  checkMemory(fixed, limitMB, what);
  const cand = allCandidates(ls, 1, fixed, limitMB, what, signal);
  return bestNetworkFrom(ls, cand, signal);
}

/** Steps 2–3 given the candidates. */
function bestNetworkFrom(ls: LocalScores, cand: readonly ParentCandidates[], signal?: AbortSignal): ExactNetwork {
  const n = ls.n;
  if (n === 0) return { parents: new Int32Array(0), score: ls.constant };
  const size = 2 ** n;
  const best = new Float64Array(size);
  const sink = new Uint8Array(size);
  const bestPos = cand.map((c) => c.bestPos);
  const scores = cand.map((c) => c.scores);
  for (let W = 1; W < size; W++) {
    if ((W & 0xffff) === 0) throwIfAborted(signal);
    let b = -Infinity;
    let bx = 0;
    for (let t = W; t !== 0; t &= t - 1) {
      const x = 31 - Math.clz32(t & -t);
      const sub = W ^ (1 << x);
      const c = ((sub >>> (x + 1)) << x) | (sub & ((1 << x) - 1));
      const val = best[sub] + scores[x][bestPos[x][c]];
      if (val > b) {
        b = val;
        bx = x;
      }
    }
    best[W] = b;
    sink[W] = bx;
  }
  const parents = new Int32Array(n);
  let W = size - 1;
  while (W !== 0) {
    const x = sink[W];
    const sub = W ^ (1 << x);
    parents[x] = cand[x].masks[cand[x].bestPos[compress(sub, x)]];
    W = sub;
  }
  if (!Number.isFinite(best[size - 1])) throw new UserError('exact search: no network has a finite score');
  return { parents, score: best[size - 1] + ls.constant };
}
