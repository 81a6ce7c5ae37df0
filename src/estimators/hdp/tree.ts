/**
 * One context tree (Petitjean et al. 2018, §4.3) for one conditional distribution P(X | branch variables),
 * and its collapsed Gibbs sampler (§4.4, Algorithms 1–5), as the authors' code runs it.
 *
 * Tree: the root (depth 0) is the marginal φ_X; depth d branches on the d-th branch variable (the class
 * first, then the other parents in the given order); leaves (depth D) hold the data counts n. Only
 * branches that the data reaches exist. Internal nodes hold n_k = Σ_children t_k (Eq. 10), kept up to date
 * as the children's pseudo-counts t move. Nodes are numbered breadth-first, so the nodes of one depth are
 * contiguous and every parent precedes its children.
 *
 * Sampler, per iteration: pseudo-counts leaves → root (Alg. 3/4, window ±w, a decrease that would leave the
 * parent with n_k < t_k is impossible); concentrations when scheduled (Alg. 5, Beta/Gamma augmentation,
 * tied groups); after burn-in, p = (n + c · p_parent) / (N + c) top-down (Eqs. 12–14) and its running sum.
 * Root: t_k = min(1, n_k), concentration fixed at its initial value and never sampled, base 1/K.
 */
import type { CodeColumn } from '../../bn/data.js';
import type { LogStirlingCache } from './stirling.js';
import { digamma, type Variates } from '../../stats/random.js';
import { MAX_TK, SweepKernel } from './sweep-kernel.js';

export type Tying = 'none' | 'same-parent' | 'level' | 'single';

export interface SamplerSettings {
  readonly iterations: number;
  readonly burnIn: number;
  readonly tying: Tying;
  /** Gamma(shape, rate) prior on every sampled concentration; (0, 0) is the paper's improper prior. */
  readonly priorShape: number;
  readonly priorRate: number;
  /** Concentrations are sampled in iteration `iter` (0-based) when (iter + ⌊f/2⌋) mod f = 0. */
  readonly concentrationEvery: number;
  readonly maxConcentration: number;
  /** Initial value of every concentration; also the root's fixed concentration. */
  readonly initialConcentration: number;
  readonly window: number;
}

export { MAX_TK };
/** Int32 fields per sampled (node, value) pair in the sweep's record array. */
const REC = 6;
/** Largest K × (parent configurations) a tree is built from dense counts of (see the constructor). */
const DENSE_CELLS = 1 << 16;
/** q ~ Beta(c, N) is floored at 1e-75 in the authors' code, so log(1/q) ≤ 75 ln 10. */
const MAX_LOG_INV_Q = 75 * Math.LN10;

/** A tree's nodes and links, and the data counts of its leaves (leafCount[l·K + k] for node leafNode[l]). */
interface TreeShape {
  readonly size: number;
  readonly depthStart: Int32Array;
  readonly parent: Int32Array;
  readonly childStart: Int32Array;
  readonly children: Int32Array;
  readonly leafNode: Int32Array;
  readonly leafCount: Int32Array;
}

/**
 * The tree of few parent configurations (`configs` of them; every median-binarised tree of the authors'
 * setting): the rows of each full configuration counted in one pass over the data, then the tree read off
 * the counts. Breadth-first order is the configurations' lexicographic order depth by depth (parents in
 * order, each one's children by value), so the nodes, their numbering and their counts are those of
 * generalShape; this is a few typed-array operations per row, which is most of what tree building costs in a
 * fresh process (the rows are visited before V8 has optimised anything).
 */
function denseShape(
  child: CodeColumn,
  K: number,
  branchCols: readonly CodeColumn[],
  branchCards: readonly number[],
  rows: number,
  configs: number,
): TreeShape {
  const D = branchCols.length;
  const counts = new Int32Array(configs * K);
  for (let r = 0; r < rows; r++) {
    const x = child[r];
    if (x < 0) continue;
    let key = 0;
    let d = 0;
    for (; d < D; d++) {
      const v = branchCols[d][r];
      if (v < 0) break;
      key = key * branchCards[d] + v;
    }
    if (d === D) counts[key * K + x]++;
  }
  // ids[d][prefix]: the node of each configuration of the first d branch variables, −1 where no row goes
  const ids: Int32Array[] = [];
  let width = configs;
  let level = new Int32Array(width);
  for (let c = 0; c < width; c++) {
    let sum = 0;
    for (let k = 0; k < K; k++) sum += counts[c * K + k];
    level[c] = sum > 0 ? 1 : 0;
  }
  ids[D] = level;
  for (let d = D - 1; d >= 0; d--) {
    const card = branchCards[d];
    width /= card;
    const up = new Int32Array(width);
    for (let q = 0; q < width; q++) {
      let any = 0;
      for (let v = 0; v < card; v++) any |= level[q * card + v];
      up[q] = any;
    }
    ids[d] = up;
    level = up;
  }
  // Without a complete row the root is alone and has no child slots, as in generalShape.
  const levels = ids[0][0] ? D : 0;
  const depthStart = new Int32Array(D + 2);
  let size = 1;
  depthStart[1] = 1;
  ids[0][0] = 0;
  for (let d = 1; d <= D; d++) {
    const l = ids[d];
    if (d <= levels) for (let q = 0; q < l.length; q++) l[q] = l[q] ? size++ : -1;
    depthStart[d + 1] = size;
  }
  const parent = new Int32Array(size);
  parent[0] = -1;
  const childStart = new Int32Array(size).fill(-1);
  let slotTotal = 0;
  for (let d = 0; d < levels; d++) slotTotal += (depthStart[d + 1] - depthStart[d]) * branchCards[d];
  const children = new Int32Array(slotTotal);
  for (let d = 0, o = 0; d < levels; d++) {
    const card = branchCards[d];
    const here = ids[d];
    const below = ids[d + 1];
    for (let q = 0; q < here.length; q++) {
      const i = here[q];
      if (i < 0) continue;
      childStart[i] = o;
      for (let v = 0; v < card; v++, o++) {
        const c = below[q * card + v];
        children[o] = c;
        if (c >= 0) parent[c] = i;
      }
    }
  }
  // the leaves, in configuration order, with their counts
  const leaves = levels === D ? ids[D] : new Int32Array(0);
  let nLeaves = 0;
  for (let c = 0; c < leaves.length; c++) if (leaves[c] >= 0) nLeaves++;
  const leafNode = new Int32Array(nLeaves);
  const leafCount = new Int32Array(nLeaves * K);
  for (let c = 0, l = 0; c < leaves.length; c++) {
    if (leaves[c] < 0) continue;
    leafNode[l] = leaves[c];
    leafCount.set(counts.subarray(c * K, (c + 1) * K), l * K);
    l++;
  }
  return { size, depthStart, parent, childStart, children, leafNode, leafCount };
}

/** Any tree: built with growable arrays, then renumbered breadth-first. */
function generalShape(
  child: CodeColumn,
  K: number,
  branchCols: readonly CodeColumn[],
  branchCards: readonly number[],
  rows: number,
): TreeShape {
  const D = branchCols.length;
  const par: number[] = [-1];
  const dep: number[] = [0];
  const slotStart: number[] = [];
  const slots: number[] = [];
  const cnt: number[] = [];
  const addNode = (p: number, d: number): number => {
    const id = par.length;
    par.push(p);
    dep.push(d);
    return id;
  };
  // slot arrays are created lazily per internal node
  const slotOf = (node: number, d: number): number => {
    let s = slotStart[node];
    if (s === undefined) {
      s = slots.length;
      slotStart[node] = s;
      for (let v = 0; v < branchCards[d]; v++) slots.push(-1);
    }
    return s;
  };
  const leafCounts = new Map<number, number>(); // leaf id → offset in cnt
  rows: for (let r = 0; r < rows; r++) {
    const x = child[r];
    if (x < 0) continue;
    let node = 0;
    for (let d = 0; d < D; d++) {
      const v = branchCols[d][r];
      if (v < 0) continue rows;
    }
    for (let d = 0; d < D; d++) {
      const v = branchCols[d][r];
      const s = slotOf(node, d) + v;
      let c = slots[s];
      if (c < 0) {
        c = addNode(node, d + 1);
        slots[s] = c;
      }
      node = c;
    }
    let o = leafCounts.get(node);
    if (o === undefined) {
      o = cnt.length;
      leafCounts.set(node, o);
      for (let k = 0; k < K; k++) cnt.push(0);
    }
    cnt[o + x]++;
  }
  // Breadth-first renumbering.
  const total = par.length;
  const order = new Int32Array(total);
  const newId = new Int32Array(total);
  order[0] = 0;
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const u = order[head++];
    const d = dep[u];
    const s = slotStart[u];
    if (s === undefined) continue;
    for (let v = 0; v < branchCards[d]; v++) {
      const c = slots[s + v];
      if (c >= 0) order[tail++] = c;
    }
  }
  for (let i = 0; i < total; i++) newId[order[i]] = i;
  const parent = new Int32Array(total);
  const childStart = new Int32Array(total).fill(-1);
  const depthStart = new Int32Array(D + 2);
  let slotTotal = 0;
  for (let i = 0; i < total; i++) {
    const u = order[i];
    parent[i] = u === 0 ? -1 : newId[par[u]];
    if (slotStart[u] !== undefined) {
      childStart[i] = slotTotal;
      slotTotal += branchCards[dep[u]];
    }
    depthStart[dep[u] + 1]++;
  }
  for (let d = 0; d <= D; d++) depthStart[d + 1] += depthStart[d];
  const children = new Int32Array(slotTotal).fill(-1);
  for (let i = 0; i < total; i++) {
    const u = order[i];
    const s = slotStart[u];
    if (s === undefined) continue;
    const o = childStart[i];
    const card = branchCards[dep[u]];
    for (let v = 0; v < card; v++) {
      const c = slots[s + v];
      if (c >= 0) children[o + v] = newId[c];
    }
  }
  const leafNode = new Int32Array(leafCounts.size);
  const leafCount = new Int32Array(leafCounts.size * K);
  let l = 0;
  for (const [leaf, o] of leafCounts) {
    leafNode[l] = newId[leaf];
    for (let k = 0; k < K; k++) leafCount[l * K + k] = cnt[o + k];
    l++;
  }
  return { size: total, depthStart, parent, childStart, children, leafNode, leafCount };
}

export class ContextTree {
  /** Cardinality of the child variable. */
  readonly K: number;
  /** Depth of the leaves (number of branch variables). */
  readonly depth: number;
  readonly size: number;
  /** Nodes of depth d are depthStart[d] .. depthStart[d + 1] − 1. */
  readonly depthStart: Int32Array;
  readonly parent: Int32Array;
  /** Offset of a node's child slots in `children` (one slot per value of its branch variable); −1 for leaves. */
  readonly childStart: Int32Array;
  readonly children: Int32Array;
  /** n[i·K + k]: data counts at leaves, Σ children t at internal nodes. */
  readonly n: Int32Array;
  readonly t: Int32Array;
  readonly nSum: Int32Array;
  readonly tSum: Int32Array;
  /** Running sum of the per-iteration estimates p[i·K + k], and how many iterations it holds. */
  readonly pSum: Float64Array;
  recorded = 0;
  /** Final concentration values per node (after the last iteration), for diagnostics. */
  concentration: Float64Array;

  /**
   * Builds the tree from the rows where the child and every branch variable are observed (available case).
   * `branchCols[d]` is the column of the variable tested at depth d, with cardinality `branchCards[d]`.
   */
  constructor(
    child: CodeColumn,
    K: number,
    branchCols: readonly CodeColumn[],
    branchCards: readonly number[],
    rows: number,
  ) {
    const D = branchCols.length;
    this.K = K;
    this.depth = D;
    let configs = 1;
    for (let d = 0; d < D; d++) configs *= branchCards[d];
    const shape =
      D > 0 && configs * K <= DENSE_CELLS && configs <= 4 * rows
        ? denseShape(child, K, branchCols, branchCards, rows, configs)
        : generalShape(child, K, branchCols, branchCards, rows);
    this.size = shape.size;
    this.depthStart = shape.depthStart;
    this.parent = shape.parent;
    this.childStart = shape.childStart;
    this.children = shape.children;
    this.n = new Int32Array(this.size * K);
    this.t = new Int32Array(this.size * K);
    this.nSum = new Int32Array(this.size);
    this.tSum = new Int32Array(this.size);
    this.pSum = new Float64Array(this.size * K);
    this.concentration = new Float64Array(this.size);
    const { leafNode, leafCount } = shape;
    for (let l = 0; l < leafNode.length; l++) {
      const i = leafNode[l];
      for (let k = 0; k < K; k++) this.n[i * K + k] = leafCount[l * K + k];
    }
  }

  /** Number of rows that reached the leaves (= the root's data total). */
  dataCount(): number {
    let s = 0;
    const first = this.depthStart[this.depth];
    for (let i = first * this.K; i < this.size * this.K; i++) s += this.n[i];
    return s;
  }

  /** The deepest existing node on the path of `values` (branch values in order; stops at a missing child). */
  find(values: ArrayLike<number>): number {
    let node = 0;
    for (let d = 0; d < this.depth; d++) {
      const s = this.childStart[node];
      const v = values[d];
      if (s < 0 || v < 0) break;
      const c = this.children[s + v];
      if (c < 0) break;
      node = c;
    }
    return node;
  }

  /**
   * Initial pseudo-counts, bottom-up (Alg. 2, Eq. 15): internal n_k = Σ children t_k; root t_k = min(1, n_k);
   * other nodes t_k = n_k if n_k ≤ 1, else max(1, ⌊c (ψ(c + n_k) − ψ(c))⌋) with c the initial concentration.
   */
  initialise(c: number): void {
    const { K, n, t, nSum, tSum, parent } = this;
    n.fill(0, 0, this.depthStart[this.depth] * K); // internal counts are rebuilt from the leaves
    nSum.fill(0);
    tSum.fill(0);
    t.fill(0);
    this.pSum.fill(0);
    this.recorded = 0;
    const psiC = digamma(c);
    for (let i = this.size - 1; i >= 0; i--) {
      let N = 0;
      let T = 0;
      for (let k = 0; k < K; k++) {
        const nk = n[i * K + k];
        N += nk;
        let tk: number;
        if (i === 0) tk = Math.min(1, nk);
        else if (nk <= 1) tk = nk;
        else tk = Math.max(1, Math.floor(c * (digamma(c + nk) - psiC)));
        t[i * K + k] = tk;
        T += tk;
        if (i > 0) n[parent[i] * K + k] += tk;
      }
      nSum[i] = N;
      tSum[i] = T;
    }
  }

  /**
   * Concentration groups under a tying strategy: group id per node (the root gets the last id, which is
   * fixed and never sampled) and the members of each sampled group.
   */
  groups(tying: Tying): { conc: Int32Array; count: number; members: Int32Array[] } {
    const conc = new Int32Array(this.size);
    const lists: number[][] = [];
    const D = this.depth;
    if (tying === 'none') {
      for (let i = 1; i < this.size; i++) {
        conc[i] = lists.length;
        lists.push([i]);
      }
    } else if (tying === 'level') {
      for (let d = 1; d <= D; d++) {
        const a = this.depthStart[d];
        const b = this.depthStart[d + 1];
        if (b <= a) continue;
        const g = lists.length;
        const l: number[] = [];
        for (let i = a; i < b; i++) {
          conc[i] = g;
          l.push(i);
        }
        lists.push(l);
      }
    } else if (tying === 'single') {
      if (this.size > 1) {
        const l: number[] = [];
        for (let i = 1; i < this.size; i++) {
          conc[i] = 0;
          l.push(i);
        }
        lists.push(l);
      }
    } else {
      // same-parent: the children of one node share a concentration (children are contiguous in BFS order)
      const byParent = new Map<number, number>();
      for (let i = 1; i < this.size; i++) {
        const p = this.parent[i];
        let g = byParent.get(p);
        if (g === undefined) {
          g = lists.length;
          byParent.set(p, g);
          lists.push([]);
        }
        conc[i] = g;
        lists[g].push(i);
      }
    }
    const count = lists.length;
    conc[0] = count;
    return { conc, count, members: lists.map((l) => Int32Array.from(l)) };
  }

  /**
   * Runs the Gibbs sampler (Alg. 1) from the initial state; afterwards `average()` gives the estimates.
   * `logWeights` computes every window from the log tables (the slow reference path the ratio products
   * are tested against) instead of only when the products leave the double range. `kernel`: the
   * WebAssembly sampler (sweep.wat) runs the iterations, with this JavaScript loop for the pairs it hands
   * back; null runs them all here. Both give the same numbers bit for bit (test/estimators/hdp-wasm.test.ts).
   */
  sample(
    s: SamplerSettings,
    stirling: LogStirlingCache,
    vr: Variates,
    signal?: AbortSignal,
    logWeights = false,
    kernel: SweepKernel | null = logWeights ? null : SweepKernel.get(),
  ): void {
    const { K, parent, size } = this;
    let pSum: Float64Array = this.pSum;
    this.initialise(s.initialConcentration);
    const { conc, count: G, members } = this.groups(s.tying);
    // The state the sweep moves. With the WebAssembly kernel these are views of its memory (the tree's own
    // arrays are copied in here and back at the end), renewed when its memory grows (between iterations).
    let { n, t, nSum, tSum } = this;
    // Group values; index G is the root's fixed concentration.
    let cVal: Float64Array = new Float64Array(G + 1).fill(s.initialConcentration);
    const cLog = new Float64Array(G + 1).fill(Math.log(s.initialConcentration));
    // lrf[g][N] = log Γ(c_g + N) − log Γ(c_g), filled lazily up to lrfLen[g] and reset when c_g changes.
    const lrf: Float64Array[] = [];
    const lrfLen = new Int32Array(G + 1);
    for (let g = 0; g <= G; g++) {
      lrf.push(new Float64Array(64));
      lrfLen[g] = 1;
    }
    const extendLrf = (g: number, upTo: number): Float64Array => {
      let a = lrf[g];
      if (a.length <= upTo) {
        const b = new Float64Array(Math.max(upTo + 1, a.length * 2));
        b.set(a.subarray(0, lrfLen[g]));
        a = b;
        lrf[g] = a;
      }
      const c = cVal[g];
      for (let N = lrfLen[g]; N <= upTo; N++) a[N] = a[N - 1] + Math.log(c + N - 1);
      lrfLen[g] = upTo + 1;
      return a;
    };
    const w = s.window;
    const lp = new Float64Array(2 * w + 1);
    const every = s.concentrationEvery;
    const offset = Math.floor(every / 2);
    let pCur: Float64Array = new Float64Array(size * K);
    const { ratioT, ratioN, rowCapN, filled, filledN } = stirling;
    // The (node, value) pairs that can ever be sampled, deepest nodes first, values ascending. A node's n_k
    // never exceeds the data count of value k below it (t ≤ n at every level), and n_k ≤ 1 fixes t = n, so
    // only pairs with at least two such rows below them are listed: deep trees over sparse data are mostly
    // chains of single rows, which never move.
    const below = new Int32Array(size * K);
    below.set(n.subarray(this.depthStart[this.depth] * K), this.depthStart[this.depth] * K);
    for (let i = size - 1; i >= 1; i--) {
      const o = parent[i] * K;
      for (let k = 0; k < K; k++) below[o + k] += below[i * K + k];
    }
    // One record per pair, REC int32 each: the flat offsets of (i, k) and (parent, k), the ids of the node
    // and of its parent, and their concentration groups, so the sweep reads one contiguous stream.
    let nPairs = 0;
    for (let i = size - 1; i >= 1; i--) for (let k = 0; k < K; k++) if (below[i * K + k] >= 2) nPairs++;
    const pairs = new Int32Array(nPairs * REC);
    for (let i = size - 1, q = 0; i >= 1; i--) {
      const p = parent[i];
      for (let k = 0; k < K; k++) {
        if (below[i * K + k] < 2) continue;
        pairs[q] = i * K + k;
        pairs[q + 1] = p * K + k;
        pairs[q + 2] = i;
        pairs[q + 3] = p;
        pairs[q + 4] = conc[i];
        pairs[q + 5] = conc[p];
        q += REC;
      }
    }
    const pairsEnd = pairs.length;
    const forceLogs = logWeights === true; // a plain boolean: the test below is one compare in the hot loop
    // The groups' members one after another (group g from memberStart[g]), for the kernel's step 2.
    const memberStart = new Int32Array(G + 1);
    for (let g = 0; g < G; g++) memberStart[g + 1] = memberStart[g] + members[g].length;
    const memberList = new Int32Array(memberStart[G]);
    for (let g = 0; g < G; g++) memberList.set(members[g], memberStart[g]);
    const rng = vr.rng;
    const iters = s.iterations;
    if (kernel) {
      const v = kernel.begin(pairs, memberList, parent, conc, K, G + 1, 2 * w + 1);
      v.n.set(n);
      v.t.set(t);
      v.nSum.set(nSum);
      v.tSum.set(tSum);
      v.cVal.set(cVal);
      v.pSum.set(this.pSum);
      kernel.sync(stirling);
      ({ n, t, nSum, tSum, cVal, pCur, pSum } = kernel.views);
    }
    /**
     * One pair's pseudo-count (Alg. 3 and 4): the whole sweep without the kernel, and with it the pairs it
     * hands back (tables to grow, or the log path).
     */
    const step = (q: number): void => {
      const ik = pairs[q];
      const nn = n[ik];
      if (nn < 2) return; // t = n is forced (and already holds)
      const pk = pairs[q + 1];
      const tOld = t[ik];
      const pn = n[pk];
      const pt = t[pk];
      let lo = tOld - w;
      if (lo < 1) lo = 1;
      if (lo < tOld - (pn - pt)) lo = tOld - (pn - pt);
      let hi = tOld + w;
      if (hi > nn) hi = nn;
      if (hi > MAX_TK) hi = MAX_TK;
      if (hi <= lo) return; // tOld is the only admissible value
      const p = pairs[q + 3];
      const pN = nSum[p]; // current: the previous values' moves have changed it
      // Make the tables cover every lookup below: B(n, lo+1..hi) and P(pn + lo−tOld+1 .. pn + hi−tOld, pt).
      const J = hi >> 6;
      if (J >= filled.length || nn >= filled[J]) stirling.ensure(nn, hi);
      const pj = pt >> 6;
      const pRow = pn + hi - tOld;
      if (pj >= filledN.length || pRow >= filledN[pj]) stirling.ensureN(pRow, pt);
      // Unnormalised P(t) = S(n, t) c^t S(pn + t − tOld, pt) / [Γ(c_p + N_p + t − tOld) / Γ(c_p)]
      // (Alg. 4), relative to t = lo, by the neighbour ratios
      //   P(t) / P(t−1) = B(n, t) · c · P_n(pn + t − tOld, pt) / (c_p + N_p + t − 1 − tOld).
      const m = hi - lo;
      const c = cVal[pairs[q + 4]];
      const pRatio = ratioN[pj];
      const pIdx0 = (pt & 63) * rowCapN[pj] + pn - tOld + lo + 1 - (pj << 6);
      let den = cVal[pairs[q + 5]] + pN + lo - tOld;
      let v = 1;
      let sum = 1;
      // tiny: some weight fell below 1e-280 (the old `min(weights) < 1e-280`, without Math.min's NaN and −0
      // branches; where they differ, a NaN weight, the sum is NaN and the log path is taken either way).
      let tiny = 0;
      lp[0] = 1;
      const jl = (lo + 1) >> 6;
      if (jl === J) {
        const own = ratioT[jl];
        const oB = ((nn - (jl << 6)) << 6) + ((lo + 1) & 63) - 1;
        const pB = pIdx0 - 1;
        // Two steps per pass: V8 re-checks the arrays once per loop iteration, not once per step.
        let x = 1;
        for (; x < m; x += 2) {
          v *= (own[oB + x] * c * pRatio[pB + x]) / den;
          den += 1;
          lp[x] = v;
          sum += v;
          tiny |= +(v < 1e-280);
          v *= (own[oB + x + 1] * c * pRatio[pB + x + 1]) / den;
          den += 1;
          lp[x + 1] = v;
          sum += v;
          tiny |= +(v < 1e-280);
        }
        if (x === m) {
          v *= (own[oB + x] * c * pRatio[pB + x]) / den;
          den += 1;
          lp[x] = v;
          sum += v;
          tiny |= +(v < 1e-280);
        }
      } else {
        let pIdx = pIdx0;
        for (let x = 1; x <= m; x++) {
          const tt = lo + x;
          const j = tt >> 6;
          v *= (ratioT[j][((nn - (j << 6)) << 6) + (tt & 63)] * c * pRatio[pIdx++]) / den;
          den += 1;
          lp[x] = v;
          sum += v;
          tiny |= +(v < 1e-280);
        }
      }
      if (!(sum < 1e280) || tiny !== 0 || forceLogs) {
        // Products out of range (extreme counts or concentrations): the same weights from the logs.
        stirling.ensure(nn > pRow ? nn : pRow, hi > pt ? hi : pt);
        const pg = pairs[q + 5];
        let lr = lrf[pg];
        if (pN + hi - tOld >= lrfLen[pg]) lr = extendLrf(pg, pN + hi - tOld);
        const logc = cLog[pairs[q + 4]];
        let mx = -Infinity;
        for (let x = 0; x <= m; x++) {
          const tt = lo + x;
          const w = stirling.get(nn, tt) + tt * logc + stirling.get(pn - tOld + tt, pt) - lr[pN - tOld + tt];
          lp[x] = w;
          if (w > mx) mx = w;
        }
        sum = 0;
        for (let x = 0; x <= m; x++) {
          const e = Math.exp(lp[x] - mx);
          lp[x] = e;
          sum += e;
        }
      }
      let u = rng.next() * sum;
      // x = the first j < m with u − lp[0] − … − lp[j−1] < lp[j], else m. Counted without a data-dependent
      // branch (the stopping point is random, so a loop that exits there mispredicts on most pairs): once
      // a test fails, `on` stays 0 and the later subtractions no longer matter.
      let x = 0;
      let on = 1;
      for (let j = 0; j < m; j++) {
        on &= +(u >= lp[j]);
        x += on;
        u -= lp[j];
      }
      // Unconditional (a stay adds 0): a taken/not-taken branch here is a coin flip for the predictor.
      const d = lo + x - tOld;
      t[ik] = lo + x;
      tSum[pairs[q + 2]] += d;
      n[pk] += d;
      nSum[p] += d;
    };
    for (let iter = 0; iter < iters; iter++) {
      if ((iter & 63) === 0) signal?.throwIfAborted();
      // 1. pseudo-counts, deepest nodes first (Alg. 3 and 4)
      if (kernel) {
        let q = kernel.run(0, pairsEnd, rng, w, MAX_TK);
        if (q >= 0) {
          for (; q >= 0; q = kernel.run(q + REC, pairsEnd, rng, w, MAX_TK)) step(q);
          // The rows the handed-back pairs added to the tables, for the next iteration. Only they grow the
          // tables while this tree samples, so an iteration that handed nothing back has nothing to copy
          // (most of them: with small trees, this call was a good part of an iteration's own cost).
          if (kernel.sync(stirling)) ({ n, t, nSum, tSum, cVal, pCur, pSum } = kernel.views);
        }
      } else {
        for (let q = 0; q < pairsEnd; q += REC) step(q);
      }
      // 2. concentrations (Alg. 5), each tied group from the Beta/Gamma augmentation
      if ((iter + offset) % every === 0) {
        for (let g = 0; g < G; g++) {
          const c = cVal[g];
          let shape = s.priorShape;
          let rate = s.priorRate;
          if (kernel) {
            // the same loop in the kernel, with Variates' draws ported bit for bit (sweep.wat)
            const acc = kernel.views.acc;
            acc[0] = shape;
            acc[1] = rate;
            kernel.concentrations(memberStart[g], memberStart[g + 1], c, vr, MAX_LOG_INV_Q);
            shape = acc[0];
            rate = acc[1];
          } else {
            const mem = members[g];
            for (let q = 0; q < mem.length; q++) {
              const j = mem[q];
              const N = nSum[j];
              if (N === 0) continue;
              shape += tSum[j];
              const li = vr.logInvBeta(c, N);
              rate += li < MAX_LOG_INV_Q ? li : MAX_LOG_INV_Q;
            }
          }
          let next = shape > 0 && rate > 0 ? vr.gamma(shape) / rate : s.maxConcentration;
          if (!(next <= s.maxConcentration)) next = s.maxConcentration;
          if (!(next > 0)) next = Number.MIN_VALUE;
          if (next !== c) {
            cVal[g] = next;
            cLog[g] = Math.log(next);
            lrfLen[g] = 1;
          }
        }
      }
      // 3. estimates after burn-in (Eqs. 12–14), top-down
      if (iter >= s.burnIn) {
        const c0 = cVal[G];
        const N0 = nSum[0];
        for (let k = 0; k < K; k++) {
          const v = (n[k] + c0 / K) / (N0 + c0);
          pCur[k] = v;
          pSum[k] += v;
        }
        if (kernel) {
          kernel.estimates();
        } else if (K === 2) {
          // binary child (every median-binarised attribute): the same operations, unrolled
          for (let i = 1, io = 2; i < size; i++, io += 2) {
            const c = cVal[conc[i]];
            const inv = 1 / (nSum[i] + c);
            const po = parent[i] << 1;
            const v0 = (n[io] + c * pCur[po]) * inv;
            const v1 = (n[io + 1] + c * pCur[po + 1]) * inv;
            pCur[io] = v0;
            pCur[io + 1] = v1;
            pSum[io] += v0;
            pSum[io + 1] += v1;
          }
        } else {
          for (let i = 1; i < size; i++) {
            const c = cVal[conc[i]];
            const inv = 1 / (nSum[i] + c);
            const io = i * K;
            const po = parent[i] * K;
            for (let k = 0; k < K; k++) {
              const v = (n[io + k] + c * pCur[po + k]) * inv;
              pCur[io + k] = v;
              pSum[io + k] += v;
            }
          }
        }
        this.recorded++;
      }
    }
    for (let i = 0; i < size; i++) this.concentration[i] = cVal[conc[i]];
    if (kernel) {
      this.n.set(n);
      this.t.set(t);
      this.nSum.set(nSum);
      this.tSum.set(tSum);
      this.pSum.set(pSum);
    }
  }

  /**
   * Deterministic estimate of a tree without branch variables (D = 0): the root alone holds the data,
   * p = (n_k + c0/K) / (N + c0), identical at every iteration.
   */
  rootOnly(c0: number): void {
    const { K, n, pSum } = this;
    let N = 0;
    for (let k = 0; k < K; k++) N += n[k];
    for (let k = 0; k < K; k++) pSum[k] = (n[k] + c0 / K) / (N + c0);
    this.recorded = 1;
    this.nSum[0] = N;
    this.concentration[0] = c0;
  }

  /** Averaged estimate of node i (the mean over recorded iterations), written into out[o .. o + K). */
  average(i: number, out: Float64Array, o = 0): void {
    const K = this.K;
    const inv = 1 / this.recorded;
    let s = 0;
    for (let k = 0; k < K; k++) {
      const v = this.pSum[i * K + k] * inv;
      out[o + k] = v;
      s += v;
    }
    for (let k = 0; k < K; k++) out[o + k] /= s; // guards the rounding of the running sums
  }
}
