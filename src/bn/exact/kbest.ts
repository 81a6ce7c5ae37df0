/**
 * The K best networks (Tian, He & Ram 2010, "Bayesian model averaging using the k-best Bayesian network
 * structures", UAI) and the K best Markov equivalence classes (Chen & Tian 2014, "Finding the k-best
 * equivalence classes of Bayesian network structures for model averaging", AAAI), by the same subset DP as
 * the single best network (dp.ts) with a list of K entries per variable subset W.
 *
 * For each W (in order of size) and each candidate sink X ∈ W, the networks over W with sink X are the pairs
 * (a network over W \ {X} from its list, a parent set of X inside W \ {X}). If a network is among the K best
 * over W, its restriction to W \ {X} is among the K best over W \ {X} and X's parent set among X's K best
 * inside W \ {X} (otherwise K distinct better networks exist). Both lists are sorted, so a heap over the
 * columns (sink, parent rank j) enumerates the candidates best first, stopping when K distinct entries are
 * accepted; candidates below a lower bound of the K-th accepted score never enter it (see kBestFrom).
 *
 * Distinctness:
 *  - A DAG with several sinks is generated once per sink; only the candidate whose sink is the DAG's
 *    highest-numbered sink is accepted (the sinks of every stored network are kept, so the test is a mask
 *    operation). In 'dag' mode (Tian et al.) every DAG is thus accepted exactly once.
 *  - 'ec' (Chen & Tian): each list holds one representative DAG per equivalence class. Adding X as a sink
 *    with parents Pa to equivalent DAGs gives equivalent DAGs (same skeleton; the new v-structures a→X←b
 *    depend only on Pa and the old adjacencies), and two candidates with the same sink are never equivalent
 *    (different parent sets give X different adjacencies; equal parent sets and non-equivalent rests stay
 *    non-equivalent), so the argument above holds for classes. The highest-sink rule keeps at least one
 *    candidate per class (from any candidate of the class, moving to a higher sink of its DAG reaches one
 *    that passes, sink numbers only growing), but different DAGs of one class may still arrive through
 *    different sinks: they are recognised by skeleton and v-structures (Verma & Pearl 1990), compared only on
 *    the nodes where the two back-pointer chains differ (see equivalent in kBestFrom). Copies have the
 *    same score up to rounding (the same local scores summed in another order), so a candidate is only
 *    compared with accepted entries whose score is within SCORE_TIE_TOLERANCE. This needs a
 *    score-equivalent score: BDeu, log-likelihood, AIC and BIC all are.
 *
 * Memory: back-pointers (sink, rank in the sub-list, parent set: 8 bytes) for K entries of every subset, and
 * scores and sink masks (16 bytes an entry) for two layers of subset sizes only.
 */
import { binomialTable } from './bits.js';
import { checkMemory, localScoreBytes, throwIfAborted, type LocalScores } from './localscores.js';
import { allCandidates, candidateScratchBytes, type ExactNetwork, type ParentCandidates } from './dp.js';
import { UserError } from '../../util/errors.js';

export type KBestMode = 'dag' | 'ec';

/** Relative score difference below which two entries may be copies of one DAG or class. */
const SCORE_TIE_TOLERANCE = 1e-9;

export const MAX_K = 10000;

/** Longest per-subset parent list kept in memory; deeper ranks are found by scanning the candidate list. */
const PARENT_PREFIX = 3;

/** Fixed memory of a K-best search (the candidate lists are checked as they grow). */
export function kBestBytes(nVars: number, rows: number, K: number): number {
  const size = 2 ** nVars;
  const binom = binomialTable(nVars);
  const maxLayer = binom[nVars][Math.floor(nVars / 2)];
  const maxParentLayer = nVars > 0 ? binom[nVars - 1][Math.floor((nVars - 1) / 2)] : 1;
  return (
    localScoreBytes(nVars, rows) +
    candidateScratchBytes(nVars) +
    8 * K * size +
    (32 * K + 16 + 16 * PARENT_PREFIX) * maxLayer +
    8 * nVars * maxParentLayer * PARENT_PREFIX +
    4 * maxParentLayer * (nVars + 2) +
    (16 + 12 * nVars) * K * (nVars + 4)
  );
}

/** The K best networks ('dag') or the best representatives of the K best classes ('ec'), best first. */
export function kBestNetworks(
  ls: LocalScores,
  K: number,
  mode: KBestMode,
  limitMB: number,
  signal?: AbortSignal,
): ExactNetwork[] {
  if (!Number.isInteger(K) || K < 1 || K > MAX_K)
    throw new UserError(`K-best search: K must be an integer in 1..${MAX_K}, got ${K}`);
  const n = ls.n;
  const what = kBestWhat(n, K, mode);
  const fixed = kBestBytes(n, ls.rows, K);
  checkMemory(fixed, limitMB, what);
  const cand = allCandidates(ls, Math.max(K, 2), fixed, limitMB, what, signal, OWN_BYTES);
  return kBestFrom(ls, cand, K, mode, signal);
}

/** How a K-best problem is named in messages. */
export function kBestWhat(n: number, K: number, mode: KBestMode): string {
  return `K-best ${mode === 'ec' ? 'equivalence-class' : 'DAG'} search (K = ${K}) over ${n} variables`;
}

/** Next mask with the same number of bits (Gosper's hack), or -1 past `limit`. */
function nextSameBits(w: number, limit: number): number {
  const lo = w & -w;
  const r = w + lo;
  if (r >= limit || r === 0) return -1;
  return (((r ^ w) >>> 2) / lo) | r;
}

/**
 * Bytes per candidate parent set of kBestFrom's own tables: its mask and score in the flat arrays, its
 * position and rank by size.
 */
const OWN_BYTES = 20;

/** Largest number of candidates (all variables together): a position takes 30 bits of a heap entry's key. */
const MAX_POSITIONS = 2 ** 30;

/** Every variable's candidates concatenated: x's at [start[x], start[x + 1]), in x's order. */
function flatCandidates(cand: readonly ParentCandidates[]): {
  masks: Int32Array;
  scores: Float64Array;
  start: Int32Array;
} {
  const start = new Int32Array(cand.length + 1);
  for (let x = 0; x < cand.length; x++) start[x + 1] = start[x] + cand[x].masks.length;
  const total = start[cand.length];
  if (total >= MAX_POSITIONS)
    throw new UserError(`K-best search: ${total} candidate parent sets, over ${MAX_POSITIONS}`);
  const masks = new Int32Array(total);
  const scores = new Float64Array(total);
  for (let x = 0; x < cand.length; x++) {
    masks.set(cand[x].masks, start[x]);
    scores.set(cand[x].scores, start[x]);
  }
  return { masks, scores, start };
}

/**
 * Each variable's candidate positions grouped by the size of the set, with the colexicographic rank of the
 * compressed set among the sets of that size: the entries of size t are [start[t], start[t + 1]). (A
 * function of its own, like the other set-up loops, so that the search loop is the only long loop of
 * kBestFrom and is compiled once. Its two loops over the candidates are functions of their own too: a
 * function compiled while its first loop runs reaches the code after that loop with no record of the types
 * it meets there, is thrown away and compiled again, twice per variable list at first.)
 */
function candidatesBySize(
  candMask: Int32Array,
  candStart: Int32Array,
  n: number,
  bin: Int32Array,
): { pos: Int32Array[]; rank: Int32Array[]; start: Int32Array[] } {
  const out = { pos: [] as Int32Array[], rank: [] as Int32Array[], start: [] as Int32Array[] };
  for (let x = 0; x < n; x++) {
    const masks = candMask.subarray(candStart[x], candStart[x + 1]);
    const m = masks.length;
    const start = new Int32Array(n + 1);
    const size = new Int32Array(m);
    const rank = new Int32Array(m);
    sizesAndRanks(masks, x, (1 << x) - 1, n + 2, bin, size, rank, start);
    for (let k = 0; k < n; k++) start[k + 1] += start[k];
    const pos = new Int32Array(m);
    const rk = new Int32Array(m);
    groupBySize(size, rank, candStart[x], start.slice(0, n), pos, rk);
    out.pos.push(pos);
    out.rank.push(rk);
    out.start.push(start);
  }
  return out;
}

/**
 * Size and compressed colexicographic rank of each of x's candidates; start[size + 1] counts them. (lowMask,
 * the bits below x, and stride, the row length of bin, come from the caller: the first call runs its start
 * before the function has a feedback vector, so an operation placed before the loop had no type feedback
 * when the function was compiled, and that code was thrown away on its next call.)
 */
function sizesAndRanks(
  masks: Int32Array,
  x: number,
  lowMask: number,
  stride: number,
  bin: Int32Array,
  size: Int32Array,
  rank: Int32Array,
  start: Int32Array,
): void {
  for (let p = 0; p < masks.length; p++) {
    const full = masks[p];
    const c = ((full >>> (x + 1)) << x) | (full & lowMask);
    let k = 0;
    let rk = 0;
    for (let q = c; q !== 0; q &= q - 1) rk += bin[(31 - Math.clz32(q & -q)) * stride + ++k];
    size[p] = k;
    rank[p] = rk;
    start[k + 1]++;
  }
}

/**
 * Positions (offset added: positions in the flat candidate arrays) and ranks in order of size (stable): fill[k]
 * is the next free entry of size k.
 */
function groupBySize(
  size: Int32Array,
  rank: Int32Array,
  offset: number,
  fill: Int32Array,
  pos: Int32Array,
  rk: Int32Array,
): void {
  for (let p = 0; p < size.length; p++) {
    const at = fill[size[p]]++;
    pos[at] = offset + p;
    rk[at] = rank[p];
  }
}

/** Padding of a parent prefix past its last candidate (larger than every position). */
const NONE = 0x7fffffff;

/**
 * The DP given the candidate parent sets (computed with K' >= max(K, 2)).
 *
 * Parent lists: for every variable x and compressed subset C of the others, the positions (in the flat
 * candidate arrays, where x's sorted list is one run) of the best PARENT_PREFIX candidates ⊆ C, ascending and
 * NONE-padded, as the smallest distinct positions of {C} ∪ ⋃_{y ∈ C} list(C \ {y}) (any subset in the top L
 * of C is in the top L of C \ {y} for every y ∉ it). The lists are built one subset size at a time, two sizes
 * kept, just ahead of the network layer that needs them; a rank beyond a full prefix is found by scanning the
 * candidate list past the prefix's end.
 *
 * Per subset W the candidates are enumerated best first by a bounded merge: a heap of (score, sink, i, j),
 * ties broken by (sink, i, j) ascending, so the accepted order is the sorted order of all valid candidates
 * whatever the heap's shape. Only candidates that pass the highest-sink test enter the heap: each column
 * (sink x, parent rank j) enters with its first passing entry, and a popped entry brings in the next
 * passing entry of its column. Nothing below a lower bound of the K-th accepted score enters it (such a
 * candidate is never popped before K are accepted):
 *  - all candidates of W's highest member pass the highest-sink test (no member of W lies above it) and are
 *    pairwise distinct networks (classes), so its a best sub-networks × its b best parent sets, a·b ≥ K,
 *    give K entries at or above A[a − 1] + B[b − 1] (each is accepted or a copy of an accepted class);
 *  - for any sink, the same rectangles are K distinct networks (classes) over W whether or not they pass
 *    the test, and the lists are exact, so the K-th best result is at least their minimum up to rounding
 *    (the same network summed in another order; local scores are all <= 0 up to rounding, so the relative
 *    error stays near n·2^-53, far below the margin of SCORE_TIE_TOLERANCE taken off).
 * A sink whose best pair is below the bound is skipped after one sum; a column is opened only when its head
 * reaches the bound. The per-subset data (list length, scores, sink masks) share cache lines; the best and
 * the rectangle corners of every subset are also kept packed, read for every sink of every W.
 *
 * The 'ec' duplicate test (equivalent) follows the two back-pointer chains together only until they meet
 * and compares skeletons and v-structures on the nodes peeled before that (for a copy that differs from the
 * accepted DAG in one reversed edge between the two sinks, after two steps), instead of building whole-graph
 * keys from the full chains. The work of one subset is a function of its own (processSubset), so the
 * optimising compiler handles it, and recompiles it after a late deoptimisation, as a unit of modest size.
 */
function kBestFrom(
  ls: LocalScores,
  cand: readonly ParentCandidates[],
  K: number,
  mode: KBestMode,
  signal?: AbortSignal,
): ExactNetwork[] {
  const n = ls.n;
  if (n === 0) return [{ parents: new Int32Array(0), score: ls.constant }];
  const size = 2 ** n;
  const binom = binomialTable(n);
  // C(a, b) at bin[a·(n + 2) + b], as 32-bit integers (C(30, 15) < 2^31) for the rank arithmetic of the search.
  const stride = n + 2;
  const bin = new Int32Array((n + 1) * stride);
  for (let a = 0; a <= n; a++) for (let b = 0; b < stride; b++) bin[a * stride + b] = binom[a][b];
  // Every variable's candidates in one pair of arrays, x's at [candStart[x], candStart[x + 1]): a position is
  // an index into them, so reading a candidate's mask or score is one typed-array access.
  const { masks: candMask, scores: candScore, start: candStart } = flatCandidates(cand);
  let maxLayer = 1;
  for (let s = 0; s <= n; s++) maxLayer = Math.max(maxLayer, binom[n][s]);
  let maxPLayer = 1;
  for (let s = 0; s < n; s++) maxPLayer = Math.max(maxPLayer, binom[n - 1][s]);
  const P = PARENT_PREFIX;
  // Back-pointer of entry r of the subset W at 2·(W·K + r): the sink's parent mask, then
  // sink | (rank in the sub-list << 5). Indexed by the mask itself (every subset has its K slots, as many as
  // by layer and rank), so following a chain needs no rank computation: the rest of entry (W, r) is
  // (W \ {sink}, rank in the sub-list). A layer is written in increasing mask order.
  const back = new Int32Array(2 * size * K);
  // The per-layer tables below each hold two layers, the sets of size s in half s & 1 (the layer being
  // built and the one it reads), in arrays allocated once: an array bound once is a constant of the compiled
  // search (a single kBestFrom call has its closures' context specialised), where swapping two arrays
  // would reload each from the context on every access.
  // The lists, 16 bytes per entry e = half·layHalf + rank·K + r: the score (Float64 index 2e), the network's
  // sinks as a mask (Int32 index 4e + 2), and in entry 0 of each subset the list length (Int32 index
  // 4e + 3); one subset's data thus shares cache lines.
  const layHalf = maxLayer * K;
  const layBuf = new ArrayBuffer(32 * layHalf);
  const layF = new Float64Array(layBuf);
  const layI = new Int32Array(layBuf);
  // The best score and the rectangle corners of each subset, packed KB = P + 1 to a subset (32 bytes, one
  // cache line), read for every sink of every W: [half·kbHalf + rank·KB] the best score, [… + 1 + e] the
  // score of entry rows[e] − 1 of the list (-Infinity if the list is shorter), where rows[e] = ⌈K / (e + 1)⌉,
  // so rows[e] entries × (e + 1) parent sets make at least K pairs.
  const KB = P + 1;
  const rows = Array.from({ length: P }, (_, e) => Math.ceil(K / (e + 1)));
  const kbHalf = maxLayer * KB;
  const kbs = new Float64Array(2 * kbHalf);
  // the empty set (layer 0, half 0): one network, score 0
  layF[0] = 0;
  layI[3] = 1;
  kbs[0] = 0;
  for (let e = 0; e < P; e++) kbs[1 + e] = rows[e] === 1 ? 0 : -Infinity;

  // Parent-prefix layers: [half·pHalf + (x·maxPLayer + rank of C among the subsets of its size)·P + 0..P).
  const pHalf = n * maxPLayer * P;
  const pLay = new Int32Array(2 * pHalf);
  const subRanks = new Int32Array(n);
  const bitsBuf = new Int32Array(n);
  /**
   * Colexicographic ranks of mask \ {b} for every member b, in increasing order of b, into `out`; returns
   * the number of members (left in bitsBuf). rank(C \ b_i) = Σ_{k<i} C(b_k, k) + Σ_{k>i} C(b_k, k − 1)
   * (1-based k).
   */
  const ranksWithout = (mask: number, out: Int32Array): number => {
    let t = 0;
    for (let q = mask; q !== 0; q &= q - 1) bitsBuf[t++] = 31 - Math.clz32(q & -q);
    let suffix = 0;
    for (let i = t - 1; i >= 0; i--) {
      out[i] = suffix;
      suffix += bin[bitsBuf[i] * stride + i]; // C(b, k − 1) with k = i + 1
    }
    let prefix = 0;
    for (let i = 0; i < t; i++) {
      out[i] = out[i] + prefix;
      prefix += bin[bitsBuf[i] * stride + i + 1];
    }
    return t;
  };
  // Per layer: the sets C (compressed masks) and the ranks of their immediate subsets, computed once and
  // shared by every variable, so the merge below can run variable by variable over a cache-sized slice.
  const layerSubRanks = new Int32Array(maxPLayer * Math.max(1, n - 1));
  // Each variable's candidates by size, then colexicographic rank of the compressed set: own[x][rank] of a
  // layer is filled from them (a dense table of positions by set would be read out of order, 2^(n-1) a variable).
  const { pos: ownPos, rank: ownRank, start: ownStart } = candidatesBySize(candMask, candStart, n, bin);
  const ownLayer = new Int32Array(maxPLayer);
  /**
   * The parent lists of the sets of size t (layer t), from those of layer t - 1: the sets and the offsets of
   * their immediate subsets' lists are listed once for all variables, then each variable's lists are merged
   * by a call of their own (a call per variable rather than one loop over all of them: the merge is then
   * compiled once, as a function called many times, instead of being compiled while its loop runs and again
   * for the next layer).
   */
  const buildParentLayer = (t: number): void => {
    const count = layerSubsets(t);
    for (let x = 0; x < n; x++) parentListsOf(x, t, count);
  };
  /** Lists the offsets (rank · P) of the immediate subsets of each set of size t; returns the number of sets. */
  const layerSubsets = (t: number): number => {
    const limit = 2 ** (n - 1);
    let count = 0;
    for (let C = t === 0 ? 0 : (1 << t) - 1; C >= 0 && C < limit; count++) {
      ranksWithout(C, subRanks);
      for (let q = 0; q < t; q++) layerSubRanks[count * t + q] = subRanks[q] * P;
      if (t === 0) {
        count++;
        break;
      }
      C = nextSameBits(C, limit);
    }
    return count;
  };
  /** Variable x's parent lists of the `count` sets of size t. */
  const parentListsOf = (x: number, t: number, count: number): void => {
    const src = ((t + 1) & 1) * pHalf; // layer t - 1
    const dst = (t & 1) * pHalf;
    const base = x * maxPLayer;
    const from = src + base * P; // x's prefixes of layer t - 1
    ownLayer.fill(NONE, 0, count);
    {
      const pos = ownPos[x];
      const rk = ownRank[x];
      for (let e = ownStart[x][t], end = ownStart[x][t + 1]; e < end; e++) ownLayer[rk[e]] = pos[e];
    }
    for (let r = 0; r < count; r++) {
      // The P = 3 smallest distinct positions of {own} ∪ the sub-lists, kept in a0 < a1 < a2; each
      // sub-list is ascending, so it is left at its first entry that cannot enter. Most sub-lists are the
      // three already found (C \ {y} holds C's best sets for every y outside them): skipped at once.
      let a0 = ownLayer[r];
      let a1 = NONE;
      let a2 = NONE;
      for (let q = r * t, qEnd = q + t; q < qEnd; q++) {
        const p = from + layerSubRanks[q];
        // (all three read and compared on every pass: a comparison first met in optimised code throws
        // that code away, and in the first layers the second and third entries never match)
        const v0 = pLay[p];
        const v1 = pLay[p + 1];
        const v2 = pLay[p + 2];
        if (v0 >= a2 || ((v0 ^ a0) | (v1 ^ a1) | (v2 ^ a2)) === 0) continue;
        for (let e = p; e < p + P; e++) {
          const v = pLay[e];
          if (v >= a2) break;
          if (v < a1) {
            if (v < a0) {
              a2 = a1;
              a1 = a0;
              a0 = v;
            } else if (v !== a0) {
              a2 = a1;
              a1 = v;
            }
          } else if (v !== a1) a2 = v;
        }
      }
      const out = dst + (base + r) * P;
      pLay[out] = a0;
      pLay[out + 1] = a1;
      pLay[out + 2] = a2;
    }
  };

  // Per sink of the current W: the entry where the list of W \ {x} starts, the offset of its parent prefix,
  // and the parent ranks past the prefix found so far by scanning (extLen 0: none yet).
  const sinkBase = new Int32Array(n);
  const pOff = new Int32Array(n);
  const ext = new Int32Array(n * K);
  const extLen = new Int32Array(n);
  const extDone = new Uint8Array(n);
  /**
   * Position (in the flat candidate arrays, within x's run) of parent rank j, P <= j < K, inside `sub` =
   * W \ {x}, or -1 (collect reads the ranks below P from the prefix itself).
   */
  const parentAt = (x: number, sub: number, j: number): number => {
    const po = pOff[x];
    const eo = x * K;
    if (extLen[x] === 0) {
      if (pLay[po + P - 1] === NONE) return -1; // a short prefix holds every candidate inside sub
      for (let e = 0; e < P; e++) ext[eo + e] = pLay[po + e];
      extLen[x] = P;
      extDone[x] = P === K ? 1 : 0;
    }
    while (j >= extLen[x] && !extDone[x]) {
      const end = candStart[x + 1];
      const outside = ~sub;
      let len = extLen[x];
      let p = ext[eo + len - 1] + 1;
      while (p < end && (candMask[p] & outside) !== 0) p++;
      if (p >= end) extDone[x] = 1;
      else {
        ext[eo + len++] = p;
        extLen[x] = len;
        extDone[x] = len === K ? 1 : 0; // a store on every pass, so it is not first met in optimised code
      }
    }
    return j < extLen[x] ? ext[eo + j] : -1;
  };

  const wRanks = new Int32Array(n);
  const cRanks = new Int32Array(n);
  const sinkH = new Float64Array(n);

  // The candidates of the current W at or above the bound, then a max-heap of them by score, ties by the
  // packed (sink, i, position of the parent set) ascending, so the order is deterministic. For one sink the
  // positions of W \ {x}'s parent ranks increase with the rank, so this is the order of (sink, i, j), and a
  // popped entry needs no parent-rank lookup. (5 + 14 + 30 bits: exact in a double.) At most one entry per
  // column (sink, parent rank < K) is in the heap at a time, so n·K slots never overflow.
  const hS = new Float64Array(n * K + 1);
  const hT = new Float64Array(n * K + 1);
  let hN = 0;
  // Packed as (x · TIE_XI + i) · TIE_I + pp: the product leaves the small-integer range from the first
  // layers on, so the optimised code treats it as a double from the start instead of deoptimising later.
  const TIE_XI = 2 ** 14;
  const TIE_I = 2 ** 30;
  const INV_TIE_I = 2 ** -30; // exact: a power of two
  // The heap functions take no floating-point arguments (the entry to place is already in hS/hT): a double
  // passed to a call that is not inlined is boxed, millions of short-lived allocations per search.
  /** Adds the entry written at hS/hT[hN]. */
  const siftUp = (): void => {
    let p = hN++;
    const s = hS[p];
    const t = hT[p];
    while (p > 0) {
      const q = (p - 1) >> 1;
      const qs = hS[q];
      if (qs > s || (qs === s && hT[q] < t)) break;
      hS[p] = qs;
      hT[p] = hT[q];
      p = q;
    }
    hS[p] = s;
    hT[p] = t;
  };
  /** Moves the entry at the root down to its place in hS/hT[0, hN). */
  const siftDown = (): void => {
    const s = hS[0];
    const t = hT[0];
    let p = 0;
    for (;;) {
      let c = 2 * p + 1;
      if (c >= hN) break;
      const r = c + 1;
      if (r < hN && (hS[r] > hS[c] || (hS[r] === hS[c] && hT[r] < hT[c]))) c = r;
      if (s > hS[c] || (s === hS[c] && t < hT[c])) break;
      hS[p] = hS[c];
      hT[p] = hT[c];
      p = c;
    }
    hS[p] = s;
    hT[p] = t;
  };
  // The bound of the current W, for collect (a slot rather than an argument, see above).
  const boundAt = new Float64Array(1);

  /**
   * Opens the columns of sink x (column j: parent rank j with the sub-networks in order) whose heads reach
   * the bound: each pushes its first entry that passes the highest-sink test, and a popped entry pushes the
   * next one of its column (see below).
   */
  const collect = (x: number, sub: number): void => {
    const bound = boundAt[0];
    const base = sinkBase[x];
    const nc = layI[4 * base + 3];
    const high = -1 << (x + 1);
    const top = layF[2 * base];
    const po = pOff[x];
    for (let j = 0; j < K; j++) {
      const pp = j < P ? pLay[po + j] : parentAt(x, sub, j);
      if (pp < 0 || pp === NONE) return;
      const ps = candScore[pp];
      if (!(top + ps >= bound)) return; // and so is every later column
      const above = ~candMask[pp] & high;
      let i = 0;
      while (i < nc && (layI[4 * (base + i) + 2] & above) !== 0) i++;
      if (i < nc) {
        const sc = layF[2 * (base + i)] + ps;
        if (sc >= bound) {
          hS[hN] = sc;
          hT[hN] = (x * TIE_XI + i) * TIE_I + pp;
          siftUp();
        }
      }
    }
  };

  // Accepted entries of the current W (sink and score), and the parents met while walking two networks.
  const ecMode = mode === 'ec';
  const accX = new Int32Array(K);
  const accScore = new Float64Array(K);
  const dagA = new Int32Array(n);
  const dagB = new Int32Array(n);
  const adjA = new Int32Array(n);
  const adjB = new Int32Array(n);

  /** Writes into dag[off + v] the parents of the network `rank` over the subset `rest`. */
  const unwind = (rest: number, rank: number, dag: Int32Array, off: number): void => {
    let cur = rest;
    let r = rank;
    while (cur !== 0) {
      const idx = 2 * (cur * K + r);
      const code = back[idx + 1];
      const x = code & 31;
      dag[off + x] = back[idx];
      r = code >>> 5;
      cur ^= 1 << x;
    }
  };

  /**
   * Whether two networks over W (each given as its sink, the sink's parents and the network's rank in the
   * list of W minus the sink) are Markov equivalent. Both back-pointer chains are followed together, one
   * sink at a time, until they reach the same entry (R, r), at the latest the empty network: the two DAGs
   * then agree on every parent set inside R, no node of R has a parent among the peeled nodes W \ R, and
   * equivalentOn compares the peeled nodes only.
   */
  const equivalent = (
    xa: number,
    paA: number,
    ra0: number,
    xb: number,
    paB: number,
    rb0: number,
    W: number,
  ): boolean => {
    dagA[xa] = paA;
    dagB[xb] = paB;
    let ca = W ^ (1 << xa);
    let cb = W ^ (1 << xb);
    let ra = ra0;
    let rb = rb0;
    while (ca !== cb || ra !== rb) {
      // Two different entries of one list are different classes, and the restrictions of equivalent DAGs to
      // a set that is ancestral in both (no node of it has a parent among the peeled ones) are equivalent.
      if (ca === cb) return false;
      const ia = 2 * (ca * K + ra);
      const ib = 2 * (cb * K + rb);
      const codeA = back[ia + 1];
      const codeB = back[ib + 1];
      const ya = codeA & 31;
      const yb = codeB & 31;
      dagA[ya] = back[ia];
      dagB[yb] = back[ib];
      ra = codeA >>> 5;
      rb = codeB >>> 5;
      ca ^= 1 << ya;
      cb ^= 1 << yb;
    }
    return equivalentOn(dagA, dagB, W ^ ca, adjA, adjB);
  };

  /** The list of the subset W (colexicographic rank rankInLayer among its size) from the lists of the layer below. */
  const processSubset = (W: number, rankInLayer: number): void => {
    hN = 0;
    const sBits = ranksWithout(W, wRanks);
    // the halves of the layer read (size sBits − 1) and of the layer written (size sBits)
    const prevHalf = (sBits + 1) & 1;
    const curHalf = sBits & 1;
    const prevE = prevHalf * layHalf;
    const prevK = prevHalf * kbHalf;
    const pSrc = prevHalf * pHalf;
    // Ranks of compress(W \ {b_i}, b_i) among the parent sets of b_i: the members after b_i move down one
    // position and one index, so rank = Σ_{k<i} C(b_k, k) + Σ_{k>i} C(b_k − 1, k − 1) (1-based k).
    let suffix = 0;
    for (let i = sBits - 1; i >= 0; i--) {
      cRanks[i] = suffix;
      if (i > 0) suffix += bin[(bitsBuf[i] - 1) * stride + i];
    }
    let prefix = 0;
    for (let i = 0; i < sBits; i++) {
      cRanks[i] = cRanks[i] + prefix;
      prefix += bin[bitsBuf[i] * stride + i + 1];
    }
    // The rectangle bound of every sink (see above): entry rows[e] − 1 of the rest's list (-Infinity if
    // shorter) + parent rank e, for rectangles of rows[e] × (e + 1) pairs, rows[e]·(e + 1) ≥ K; the highest
    // member's, exact, is the bound so far when the loop ends, and the largest of all, less the rounding
    // margin, may raise it. Also each sink's best pair.
    let kthBound = -Infinity;
    let bound = -Infinity;
    let q = 0;
    for (let t = W; t !== 0; t &= t - 1, q++) {
      const x = 31 - Math.clz32(t & -t);
      const po = pSrc + (x * maxPLayer + cRanks[q]) * P;
      const b0 = candScore[pLay[po]]; // the empty set is a candidate: never NONE
      const ko = prevK + wRanks[q] * KB + 1;
      let k = kbs[ko] + b0;
      if (K > 1) {
        const p1 = pLay[po + 1];
        if (p1 !== NONE) {
          const k1 = kbs[ko + 1] + candScore[p1];
          if (k1 > k) k = k1;
          const p2 = pLay[po + 2];
          if (p2 !== NONE && K > 2) {
            const k2 = kbs[ko + 2] + candScore[p2];
            if (k2 > k) k = k2;
          }
        }
      }
      if (k > kthBound) kthBound = k;
      bound = k; // the last sink is the highest member
      sinkH[q] = kbs[ko - 1] + b0;
    }
    kthBound -= SCORE_TIE_TOLERANCE * Math.max(1, Math.abs(kthBound));
    if (kthBound > bound) bound = kthBound;
    boundAt[0] = bound;
    q = 0;
    for (let t = W; t !== 0; t &= t - 1, q++) {
      if (!(sinkH[q] >= bound)) continue;
      const x = 31 - Math.clz32(t & -t);
      sinkBase[x] = prevE + wRanks[q] * K;
      pOff[x] = pSrc + (x * maxPLayer + cRanks[q]) * P;
      extLen[x] = 0;
      collect(x, W ^ (1 << x));
    }
    let accepted = 0;
    const wEntry = W * K;
    const e0 = curHalf * layHalf + rankInLayer * K; // where W's list goes
    while (hN > 0 && accepted < K) {
      const score = hS[0];
      const tie = hT[0];
      const xi = (tie * INV_TIE_I) | 0; // x · TIE_XI + i
      const x = xi >>> 14;
      const i = xi & (TIE_XI - 1);
      const pp = tie - xi * TIE_I;
      const pa = candMask[pp];
      const base = sinkBase[x];
      const sinks = (layI[4 * (base + i) + 2] & ~pa) | (1 << x);
      {
        // the next entry of the column that passes the highest-sink test replaces the popped root (one
        // sift instead of a pop and a push; the keys are distinct, so the order popped is the same)
        const above = ~pa & (-1 << (x + 1));
        const nc = layI[4 * base + 3];
        let ni = i + 1;
        while (ni < nc && (layI[4 * (base + ni) + 2] & above) !== 0) ni++;
        const s1 = ni < nc ? layF[2 * (base + ni)] + candScore[pp] : Number.NaN; // NaN fails the test below
        if (s1 >= bound) {
          hS[0] = s1;
          hT[0] = (x * TIE_XI + ni) * TIE_I + pp;
        } else {
          // a pop: the last entry moves to the root
          hN--;
          hS[0] = hS[hN];
          hT[0] = hT[hN];
        }
        // one call site of the sift, so the compiled processSubset holds one copy of it
        if (hN > 1) siftDown();
      }
      // 'ec': different DAGs of one class may still arrive from different sinks
      let dup = false;
      // the accepted entries from the last up, while their scores tie (the decrement sits in the test, so it
      // has run before the code is optimised)
      let r = ecMode ? accepted : 0;
      while (r-- > 0) {
        if (accScore[r] - score > SCORE_TIE_TOLERANCE * (score < -1 ? -score : score > 1 ? score : 1)) break;
        if (accX[r] === x) continue;
        const idx = 2 * (wEntry + r);
        const code = back[idx + 1];
        const ax = code & 31;
        if (equivalent(ax, back[idx], code >>> 5, x, pa, i, W)) {
          dup = true;
          break;
        }
      }
      if (dup) continue;
      const idx = 2 * (wEntry + accepted);
      back[idx] = pa;
      back[idx + 1] = x | (i << 5);
      accX[accepted] = x;
      accScore[accepted] = score;
      const e = e0 + accepted;
      layF[2 * e] = score;
      layI[4 * e + 2] = sinks;
      accepted++;
    }
    if (accepted === 0) throw new UserError('K-best search: no network has a finite score');
    layI[4 * e0 + 3] = accepted;
    const k0 = curHalf * kbHalf + rankInLayer * KB;
    kbs[k0] = layF[2 * e0];
    for (let e = 0; e < P; e++) kbs[k0 + 1 + e] = accepted >= rows[e] ? layF[2 * (e0 + rows[e] - 1)] : -Infinity;
  };

  // The layer loop and the output are functions of their own, so kBestFrom's body never runs long enough to
  // be compiled itself: the subset loop (131,071 iterations on 17 variables) would otherwise have the whole
  // body compiled on the stack, and compiled again once the code after the loop, which it had not yet
  // seen run, is reached.
  /** The lists of the subsets of size s, in increasing mask order (= colexicographic rank order). */
  const runLayer = (s: number): void => {
    let rankInLayer = 0;
    for (let W = (1 << s) - 1; W >= 0; W = nextSameBits(W, size), rankInLayer++) {
      if ((rankInLayer & 0x3ff) === 0) throwIfAborted(signal); // from the first subset: not first met compiled
      processSubset(W, rankInLayer);
    }
  };
  /** The networks of the full set's list, from its back-pointers. */
  const networks = (): ExactNetwork[] => {
    const full = size - 1;
    const out: ExactNetwork[] = [];
    const e0 = (n & 1) * layHalf; // the full set, alone in layer n
    for (let r = 0; r < layI[4 * e0 + 3]; r++) {
      const dag = new Int32Array(n);
      unwind(full, r, dag, 0);
      out.push({ parents: dag, score: layF[2 * (e0 + r)] + ls.constant });
    }
    return out;
  };

  for (let s = 1; s <= n; s++) {
    throwIfAborted(signal);
    buildParentLayer(s - 1); // parent lists for subsets of size s - 1, from those of size s - 2
    runLayer(s);
  }
  return networks();
}

/**
 * Whether two DAGs (parent masks) that agree on the parents of every node outside D, where no node outside D
 * has a parent in D, are Markov equivalent (Verma & Pearl 1990: same skeleton, same v-structures). Only the
 * nodes Δ ⊆ D whose parents differ are examined (D is typically about 7 nodes, Δ two or three):
 * (i) the skeletons are equal iff every v ∈ Δ has the same parents-and-children-in-Δ in both. An edge whose
 *     head lies outside Δ is in both DAGs; an edge p→v of A with v ∈ Δ is in B as p→v or, only if p ∈ Δ, as
 *     v→p (p outside Δ has the same parents in both, and v→p in B would close the cycle p→v→p in A; a node
 *     of R has no parent in D at all).
 * (ii) then the v-structures a→v←b agree at every v outside Δ (same parents, same adjacencies); at v ∈ Δ, v's
 *     parents in R = the rest are its neighbours there, the same in both, so pairs inside R agree, and those
 *     with a ∈ D agree iff {b ∈ Pa(v) : b ≠ a, b not adjacent to a} agrees for every such a. Whether a ∈ D is
 *     adjacent to b needs only parent masks: b ∈ Pa(a), or a ∈ Pa(b) with b ∈ D (a node of R has no parent
 *     in D).
 * adjA and adjB are scratch arrays (n entries).
 */
export function equivalentOn(
  dagA: ArrayLike<number>,
  dagB: ArrayLike<number>,
  D: number,
  adjA: Int32Array,
  adjB: Int32Array,
): boolean {
  let delta = 0;
  for (let t = D; t !== 0; t &= t - 1) {
    const v = 31 - Math.clz32(t & -t);
    if (dagA[v] !== dagB[v]) delta |= 1 << v;
  }
  // (i): parents, then children inside Δ, then the comparison
  for (let t = delta; t !== 0; t &= t - 1) {
    const v = 31 - Math.clz32(t & -t);
    adjA[v] = dagA[v];
    adjB[v] = dagB[v];
  }
  for (let t = delta; t !== 0; t &= t - 1) {
    const v = 31 - Math.clz32(t & -t);
    const bit = 1 << v;
    for (let p = dagA[v] & delta; p !== 0; p &= p - 1) adjA[31 - Math.clz32(p & -p)] |= bit;
    for (let p = dagB[v] & delta; p !== 0; p &= p - 1) adjB[31 - Math.clz32(p & -p)] |= bit;
  }
  for (let t = delta; t !== 0; t &= t - 1) {
    const v = 31 - Math.clz32(t & -t);
    if (adjA[v] !== adjB[v]) return false;
  }
  // (ii): the skeletons are equal, so A's adjacencies serve for both
  for (let t = delta; t !== 0; t &= t - 1) {
    const v = 31 - Math.clz32(t & -t);
    const pa = dagA[v];
    const pb = dagB[v];
    const both = pa | pb;
    for (let q = both & D; q !== 0; q &= q - 1) {
      const bit = q & -q;
      const a = 31 - Math.clz32(bit);
      // a's neighbours among v's parents: its own parents, and the nodes of D that have a as a parent
      let near = dagA[a] & both;
      for (let c = both & D & ~bit; c !== 0; c &= c - 1) {
        const cb = c & -c;
        if ((dagA[31 - Math.clz32(cb)] & bit) !== 0) near |= cb;
      }
      const far = ~near & ~bit;
      if (((pa & bit) !== 0 ? pa & far : 0) !== ((pb & bit) !== 0 ? pb & far : 0)) return false;
    }
  }
  return true;
}

/** Skeleton + v-structure key of a DAG given as parent masks over nodes 0..n-1 (equal keys ⇔ equivalent). */
export function equivalenceKey(parents: ArrayLike<number>): string {
  const n = parents.length;
  const adj = new Int32Array(n);
  for (let v = 0; v < n; v++) adj[v] |= parents[v];
  for (let v = 0; v < n; v++) for (let p = parents[v]; p !== 0; p &= p - 1) adj[31 - Math.clz32(p & -p)] |= 1 << v;
  const parts: number[] = [];
  for (let v = 0; v < n; v++) {
    const pa = parents[v];
    let part = 0;
    for (let p = pa; p !== 0; p &= p - 1) {
      const a = 31 - Math.clz32(p & -p);
      if ((pa & ~adj[a] & ~(1 << a)) !== 0) part |= 1 << a;
    }
    parts.push(part);
  }
  return `${Array.from(adj).join(',')}|${parts.join(',')}`;
}
