/**
 * The K best networks (Tian, He & Ram 2010, "Bayesian model averaging using the k-best Bayesian network
 * structures", UAI) and the K best Markov equivalence classes (Chen & Tian 2014, "Finding the k-best
 * equivalence classes of Bayesian network structures for model averaging", AAAI), by the same subset DP as
 * the single best network (dp.ts) with a list of K entries per variable subset W.
 *
 * For each W (in order of size) and each candidate sink X ∈ W, the networks over W with sink X are the pairs
 * (a network over W \ {X} from its list, a parent set of X inside W \ {X}). If a network is among the K best
 * over W, its restriction to W \ {X} is among the K best over W \ {X} and X's parent set among X's K best
 * inside W \ {X} (otherwise K distinct better networks exist). Both lists are sorted, so one heap over all
 * sinks enumerates the candidates best first (from (i, j) the heap receives (i + 1, j), and (0, j + 1) when
 * i = 0, so each pair is generated once), stopping when K distinct entries are accepted.
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
 *    different sinks: they are recognised by skeleton and v-structures (Verma & Pearl 1990). Copies have the
 *    same score up to rounding (the same local scores summed in another order), so a candidate is only
 *    compared with accepted entries whose score is within SCORE_TIE_TOLERANCE. This needs a
 *    score-equivalent score: BDeu, log-likelihood, AIC and BIC all are.
 *
 * Memory: back-pointers (sink, rank in the sub-list, parent set: 8 bytes) for K entries of every subset, and
 * scores for two layers of subset sizes only.
 */
import { binomialTable, compress } from './bits.js';
import { checkMemory, localScoreBytes, throwIfAborted, type LocalScores } from './localscores.js';
import { allCandidates, candidateScratchBytes, type ExactNetwork, type ParentCandidates } from './dp.js';
import { UserError } from '../../util/errors.js';

export type KBestMode = 'dag' | 'ec';

/** Relative score difference below which two entries may be copies of one DAG or class. */
export const SCORE_TIE_TOLERANCE = 1e-9;

export const MAX_K = 10000;

/** Longest per-subset parent list kept in memory; deeper ranks are found by scanning the candidate list. */
export const PARENT_PREFIX = 3;

/** Fixed memory of a K-best search (the candidate lists are checked as they grow). */
export function kBestBytes(nVars: number, rows: number, K: number): number {
  const size = 2 ** nVars;
  const binom = binomialTable(nVars);
  const maxLayer = binom[nVars]![Math.floor(nVars / 2)]!;
  const maxParentLayer = nVars > 0 ? binom[nVars - 1]![Math.floor((nVars - 1) / 2)]! : 1;
  const L = Math.min(K, PARENT_PREFIX);
  return (
    localScoreBytes(nVars, rows) +
    4 * nVars * 2 ** Math.max(0, nVars - 1) +
    candidateScratchBytes(nVars) +
    2 * size +
    8 * K * size +
    24 * K * maxLayer +
    2 * nVars * maxParentLayer * (4 * L + 2) +
    4 * maxParentLayer * (nVars + 1) +
    (16 + 12 * nVars) * K * (nVars + 4)
  );
}

/** The K best networks ('dag') or the best representatives of the K best classes ('ec'), best first. */
export function kBestNetworks(ls: LocalScores, K: number, mode: KBestMode, limitMB: number, signal?: AbortSignal): ExactNetwork[] {
  if (!Number.isInteger(K) || K < 1 || K > MAX_K) throw new UserError(`K-best search: K must be an integer in 1..${MAX_K}, got ${K}`);
  const n = ls.n;
  const what = kBestWhat(n, K, mode);
  const fixed = kBestBytes(n, ls.rows, K);
  checkMemory(fixed, limitMB, what);
  const cand = allCandidates(ls, Math.max(K, 2), fixed, limitMB, what, signal);
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
 * The DP given the candidate parent sets (computed with K' >= max(K, 2), so posOf is present).
 *
 * Parent lists: for every variable x and compressed subset C of the others, the positions (in x's sorted
 * candidate list) of the best min(K, PARENT_PREFIX) candidates ⊆ C, as the smallest distinct positions of
 * {C} ∪ ⋃_{y ∈ C} list(C \ {y}) (any subset in the top L of C is in the top L of C \ {y} for every y ∉ it).
 * The lists are built one subset size at a time, two sizes kept, just ahead of the network layer that
 * needs them; a rank beyond a full prefix is found by scanning the candidate list past the prefix's end.
 */
export function kBestFrom(ls: LocalScores, cand: readonly ParentCandidates[], K: number, mode: KBestMode, signal?: AbortSignal): ExactNetwork[] {
  const n = ls.n;
  if (n === 0) return [{ parents: new Int32Array(0), score: ls.constant }];
  const size = 2 ** n;
  const binom = binomialTable(n);
  let maxLayer = 1;
  for (let s = 0; s <= n; s++) maxLayer = Math.max(maxLayer, binom[n]![s]!);
  let maxPLayer = 1;
  for (let s = 0; s < n; s++) maxPLayer = Math.max(maxPLayer, binom[n - 1]![s]!);
  const L = Math.min(K, PARENT_PREFIX);
  const cnt = new Uint16Array(size);
  // Back-pointer of entry (W, r) at 2·(W·K + r): the sink's parent mask, then sink | (rank in the sub-list << 5).
  const back = new Int32Array(2 * size * K);
  let prevScores = new Float64Array(maxLayer * K);
  let curScores = new Float64Array(maxLayer * K);
  // Sinks of each network (mask), for the two current layers.
  let prevSinks = new Int32Array(maxLayer * K);
  let curSinks = new Int32Array(maxLayer * K);
  cnt[0] = 1;
  prevScores[0] = 0;

  // Parent-list layers: [x][rank of C among the subsets of its size][0..L).
  let pPrev = new Int32Array(n * maxPLayer * L);
  let pPrevLen = new Uint16Array(n * maxPLayer);
  let pCur = new Int32Array(n * maxPLayer * L);
  let pCurLen = new Uint16Array(n * maxPLayer);
  const subRanks = new Int32Array(n);
  const bitsBuf = new Int32Array(n);
  /**
   * Colexicographic ranks of mask \ {b} for every member b, in increasing order of b, into `out`; returns
   * the number of members. rank(C \ b_i) = Σ_{k<i} C(b_k, k) + Σ_{k>i} C(b_k, k − 1) (1-based k).
   */
  const ranksWithout = (mask: number, out: Int32Array): number => {
    let t = 0;
    for (let q = mask; q !== 0; q &= q - 1) bitsBuf[t++] = 31 - Math.clz32(q & -q);
    let suffix = 0;
    for (let i = t - 1; i >= 0; i--) {
      out[i] = suffix;
      suffix += binom[bitsBuf[i]!]![i]!; // C(b, k − 1) with k = i + 1
    }
    let prefix = 0;
    for (let i = 0; i < t; i++) {
      out[i] = out[i]! + prefix;
      prefix += binom[bitsBuf[i]!]![i + 1]!;
    }
    return t;
  };
  // Per layer: the sets C (compressed masks) and the ranks of their immediate subsets, computed once and
  // shared by every variable, so the merge below can run variable by variable over a cache-sized slice.
  const layerSets = new Int32Array(maxPLayer);
  const layerSubRanks = new Int32Array(maxPLayer * Math.max(1, n - 1));
  const buildParentLayer = (t: number): void => {
    const limit = 2 ** (n - 1);
    let count = 0;
    for (let C = t === 0 ? 0 : (1 << t) - 1; C >= 0 && C < limit; count++) {
      layerSets[count] = C;
      ranksWithout(C, subRanks);
      for (let q = 0; q < t; q++) layerSubRanks[count * t + q] = subRanks[q]!;
      if (t === 0) {
        count++;
        break;
      }
      C = nextSameBits(C, limit);
    }
    for (let x = 0; x < n; x++) {
      const base = x * maxPLayer;
      const posOf = cand[x]!.posOf!;
      for (let r = 0; r < count; r++) {
        const out = (base + r) * L;
        // The L smallest distinct positions of {own} ∪ the sub-lists, by insertion into out[0..len); each
        // sub-list is ascending, so it is left as soon as its next entry cannot enter a full list.
        const own = posOf[layerSets[r]!]!;
        let len = 0;
        if (own >= 0) pCur[out + len++] = own;
        for (let q = 0; q < t; q++) {
          const sr = base + layerSubRanks[r * t + q]!;
          const end = sr * L + pPrevLen[sr]!;
          for (let p = sr * L; p < end; p++) {
            const v = pPrev[p]!;
            if (len === L && v >= pCur[out + L - 1]!) break;
            let k = len - 1;
            while (k >= 0 && pCur[out + k]! > v) k--;
            if (k >= 0 && pCur[out + k] === v) continue;
            const last = len < L ? len++ : L - 1;
            for (let z = last; z > k + 1; z--) pCur[out + z] = pCur[out + z - 1]!;
            pCur[out + k + 1] = v;
          }
        }
        pCurLen[base + r] = len;
      }
    }
  };

  // Parent ranks of each sink for the current W: the prefix, extended by scanning when a rank >= L is asked.
  const plPos = cand.map(() => new Int32Array(K));
  const plLen = new Int32Array(n);
  const plDone = new Uint8Array(n);
  const initParents = (x: number, cRank: number): void => {
    const idx = x * maxPLayer + cRank;
    const len = pPrevLen[idx]!;
    const dst = plPos[x]!;
    for (let j = 0; j < len; j++) dst[j] = pPrev[idx * L + j]!;
    plLen[x] = len;
    plDone[x] = len < L ? 1 : 0; // a short prefix holds every candidate inside c
  };
  /** Position (in x's candidate list) of parent rank j inside the full mask `full`, or -1. */
  const parentPos = (x: number, full: number, j: number): number => {
    if (j >= K) return -1;
    while (j >= plLen[x]! && !plDone[x]) {
      const masks = cand[x]!.masks;
      const dst = plPos[x]!;
      const outside = ~full;
      let p = dst[plLen[x]! - 1]! + 1;
      while (p < masks.length && (masks[p]! & outside) !== 0) p++;
      if (p >= masks.length) plDone[x] = 1;
      else dst[plLen[x]!++] = p;
      if (plLen[x] === K) plDone[x] = 1;
    }
    return j < plLen[x]! ? plPos[x]![j]! : -1;
  };

  const wRanks = new Int32Array(n);
  const cRanks = new Int32Array(n);
  const sinkRank = new Int32Array(n);
  const subCnt = new Int32Array(n);

  // Max-heap of candidates by score; ties by the packed (sink, i, j) ascending, so the order is deterministic.
  let cap = 4 * K + 2 * n + 16;
  let hS = new Float64Array(cap);
  let hT = new Float64Array(cap);
  let hN = 0;
  const TIE_X = 2 ** 28;
  const TIE_I = 2 ** 14;
  const push = (s: number, x: number, i: number, j: number): void => {
    if (hN === cap) {
      cap *= 2;
      const f = new Float64Array(cap);
      f.set(hS);
      hS = f;
      const g = new Float64Array(cap);
      g.set(hT);
      hT = g;
    }
    const t = x * TIE_X + i * TIE_I + j;
    let p = hN++;
    while (p > 0) {
      const q = (p - 1) >> 1;
      const qs = hS[q]!;
      if (qs > s || (qs === s && hT[q]! < t)) break;
      hS[p] = qs;
      hT[p] = hT[q]!;
      p = q;
    }
    hS[p] = s;
    hT[p] = t;
  };
  const pop = (): void => {
    hN--;
    if (hN === 0) return;
    const s = hS[hN]!;
    const t = hT[hN]!;
    let p = 0;
    for (;;) {
      let c = 2 * p + 1;
      if (c >= hN) break;
      const r = c + 1;
      if (r < hN && (hS[r]! > hS[c]! || (hS[r] === hS[c] && hT[r]! < hT[c]!))) c = r;
      if (s > hS[c]! || (s === hS[c] && t < hT[c]!)) break;
      hS[p] = hS[c]!;
      hT[p] = hT[c]!;
      p = c;
    }
    hS[p] = s;
    hT[p] = t;
  };

  // Accepted entries of the current W and their reconstructed DAGs / class keys (filled on demand).
  const accX = new Int32Array(K);
  const accScore = new Float64Array(K);
  const accDag = new Int32Array(K * n);
  const accKey = new Int32Array(K * 2 * n);
  const accReady = new Uint8Array(K);
  const candDag = new Int32Array(n);
  const candKey = new Int32Array(2 * n);

  /** Writes into dag[off + v] the parents of the network `rank` over the subset `rest`. */
  const unwind = (rest: number, rank: number, dag: Int32Array, off: number): void => {
    let cur = rest;
    let r = rank;
    while (cur !== 0) {
      const idx = 2 * (cur * K + r);
      const code = back[idx + 1]!;
      const x = code & 31;
      dag[off + x] = back[idx]!;
      r = code >>> 5;
      cur ^= 1 << x;
    }
  };

  const ecKeyInto = (dag: Int32Array, off: number, W: number, key: Int32Array, koff: number): void => {
    for (let t = W; t !== 0; t &= t - 1) {
      const v = 31 - Math.clz32(t & -t);
      key[koff + v] = dag[off + v]!;
    }
    for (let t = W; t !== 0; t &= t - 1) {
      const v = 31 - Math.clz32(t & -t);
      for (let p = dag[off + v]!; p !== 0; p &= p - 1) key[koff + 31 - Math.clz32(p & -p)] |= 1 << v;
    }
    // v-structure participants: parents a of v with a co-parent not adjacent to a
    for (let t = W; t !== 0; t &= t - 1) {
      const v = 31 - Math.clz32(t & -t);
      const pa = dag[off + v]!;
      let part = 0;
      for (let p = pa; p !== 0; p &= p - 1) {
        const a = 31 - Math.clz32(p & -p);
        if ((pa & ~key[koff + a]! & ~(1 << a)) !== 0) part |= 1 << a;
      }
      key[koff + n + v] = part;
    }
  };

  for (let s = 1; s <= n; s++) {
    throwIfAborted(signal);
    {
      // parent lists for subsets of size s - 1, built from those of size s - 2, then made current
      buildParentLayer(s - 1);
      const t1 = pPrev;
      pPrev = pCur;
      pCur = t1;
      const t2 = pPrevLen;
      pPrevLen = pCurLen;
      pCurLen = t2;
    }
    let rankInLayer = 0;
    // Masks of popcount s in increasing order = colexicographic rank order.
    for (let W = (1 << s) - 1; W >= 0; W = nextSameBits(W, size), rankInLayer++) {
      if ((rankInLayer & 0x3ff) === 0x3ff) throwIfAborted(signal);
      hN = 0;
      const sBits = ranksWithout(W, wRanks);
      // Ranks of compress(W \ {b_i}, b_i) among the parent sets of b_i: the members after b_i move down one
      // position and one index, so rank = Σ_{k<i} C(b_k, k) + Σ_{k>i} C(b_k − 1, k − 1) (1-based k).
      let suffix = 0;
      for (let i = sBits - 1; i >= 0; i--) {
        cRanks[i] = suffix;
        if (i > 0) suffix += binom[bitsBuf[i]! - 1]![i]!;
      }
      let prefix = 0;
      for (let i = 0; i < sBits; i++) {
        cRanks[i] = cRanks[i]! + prefix;
        prefix += binom[bitsBuf[i]!]![i + 1]!;
      }
      let q = 0;
      for (let t = W; t !== 0; t &= t - 1, q++) {
        const x = 31 - Math.clz32(t & -t);
        const sub = W ^ (1 << x);
        initParents(x, cRanks[q]!);
        sinkRank[x] = wRanks[q]!;
        subCnt[x] = cnt[sub]!;
        push(prevScores[wRanks[q]! * K]! + cand[x]!.scores[plPos[x]![0]!]!, x, 0, 0);
      }
      let accepted = 0;
      while (hN > 0 && accepted < K) {
        const score = hS[0]!;
        const tie = hT[0]!;
        const x = Math.floor(tie / TIE_X);
        const i = Math.floor(tie / TIE_I) % TIE_I;
        const j = tie % TIE_I;
        pop();
        const sub = W ^ (1 << x);
        const cx = cand[x]!;
        const pp = plPos[x]![j]!;
        const pa = cx.masks[pp]!;
        const sr = sinkRank[x]!;
        // Along i the successor is the next sub-network that leaves x the highest sink (see below): the
        // ones skipped could never be accepted, and their only other successor, (0, j + 1), comes from i = 0.
        const above = ~pa & (-1 << (x + 1));
        let ni = i + 1;
        const nc = subCnt[x]!;
        while (ni < nc && (prevSinks[sr * K + ni]! & above) !== 0) ni++;
        if (ni < nc) push(prevScores[sr * K + ni]! + cx.scores[pp]!, x, ni, j);
        if (i === 0) {
          const np = parentPos(x, sub, j + 1);
          if (np >= 0) push(prevScores[sr * K]! + cx.scores[np]!, x, 0, j + 1);
        }
        // The candidate is generated once per sink of its DAG; only its highest sink may accept it (another
        // candidate from that sink builds an equivalent DAG, so a class in the top K always gets through).
        const sinks = (prevSinks[sr * K + i]! & ~pa) | (1 << x);
        if ((sinks & above) !== 0) continue;
        // 'ec': different DAGs of one class may still arrive from different sinks
        let dup = false;
        let candBuilt = false;
        const tol = SCORE_TIE_TOLERANCE * Math.max(1, Math.abs(score));
        for (let r = mode === 'ec' ? accepted - 1 : -1; r >= 0; r--) {
          if (accScore[r]! - score > tol) break;
          if (accX[r] === x) continue;
          if (!candBuilt) {
            candDag.fill(0);
            unwind(sub, i, candDag, 0);
            candDag[x] = pa;
            if (mode === 'ec') ecKeyInto(candDag, 0, W, candKey, 0);
            candBuilt = true;
          }
          if (!accReady[r]) {
            const off = r * n;
            accDag.fill(0, off, off + n);
            const idx = 2 * (W * K + r);
            const ax = back[idx + 1]! & 31;
            unwind(W ^ (1 << ax), back[idx + 1]! >>> 5, accDag, off);
            accDag[off + ax] = back[idx]!;
            if (mode === 'ec') ecKeyInto(accDag, off, W, accKey, r * 2 * n);
            accReady[r] = 1;
          }
          let same = true;
          if (mode === 'ec') {
            const ko = r * 2 * n;
            for (let t = W; t !== 0 && same; t &= t - 1) {
              const v = 31 - Math.clz32(t & -t);
              if (candKey[v] !== accKey[ko + v] || candKey[n + v] !== accKey[ko + n + v]) same = false;
            }
          } else {
            const off = r * n;
            for (let t = W; t !== 0 && same; t &= t - 1) {
              const v = 31 - Math.clz32(t & -t);
              if (candDag[v] !== accDag[off + v]) same = false;
            }
          }
          if (same) {
            dup = true;
            break;
          }
        }
        if (dup) continue;
        const idx = 2 * (W * K + accepted);
        back[idx] = pa;
        back[idx + 1] = x | (i << 5);
        accX[accepted] = x;
        accScore[accepted] = score;
        accReady[accepted] = 0;
        curScores[rankInLayer * K + accepted] = score;
        curSinks[rankInLayer * K + accepted] = sinks;
        accepted++;
      }
      if (accepted === 0) throw new UserError('K-best search: no network has a finite score');
      cnt[W] = accepted;
    }
    const t = prevScores;
    prevScores = curScores;
    curScores = t;
    const u = prevSinks;
    prevSinks = curSinks;
    curSinks = u;
  }
  const full = size - 1;
  const out: ExactNetwork[] = [];
  for (let r = 0; r < cnt[full]!; r++) {
    const dag = new Int32Array(n);
    unwind(full, r, dag, 0);
    out.push({ parents: dag, score: prevScores[r]! + ls.constant });
  }
  return out;
}

/** Skeleton + v-structure key of a DAG given as parent masks over nodes 0..n-1 (equal keys ⇔ equivalent). */
export function equivalenceKey(parents: ArrayLike<number>): string {
  const n = parents.length;
  const adj = new Int32Array(n);
  for (let v = 0; v < n; v++) adj[v] |= parents[v]!;
  for (let v = 0; v < n; v++) for (let p = parents[v]!; p !== 0; p &= p - 1) adj[31 - Math.clz32(p & -p)] |= 1 << v;
  const parts: number[] = [];
  for (let v = 0; v < n; v++) {
    const pa = parents[v]!;
    let part = 0;
    for (let p = pa; p !== 0; p &= p - 1) {
      const a = 31 - Math.clz32(p & -p);
      if ((pa & ~adj[a]! & ~(1 << a)) !== 0) part |= 1 << a;
    }
    parts.push(part);
  }
  return `${Array.from(adj).join(',')}|${parts.join(',')}`;
}
