/**
 * Unpruned classification trees on discrete attributes (multiway splits, one branch per value), the
 * learner behind the `decision-tree` baseline, the random forest's trees and AWNB's attribute weights.
 *
 * Growing (ID3/C4.5 style; Quinlan 1986, 1993):
 * - Split measure, entropy in bits: information gain, or C4.5's gain ratio (gain / split information,
 *   chosen among the attributes whose gain is at least the average gain of the candidates, less 1e-3,
 *   which keeps C4.5 from preferring near-trivial splits with tiny split information).
 * - Missing values (C4.5): gain is computed on the rows where the attribute is known and multiplied by
 *   their weight fraction; split information counts "missing" as one more outcome. A row with the split
 *   attribute missing goes down every branch with its weight times the branch's share of the known weight.
 *   At prediction a missing value likewise sends the row down every branch with those shares.
 * - A node becomes a leaf when its weight is below 2 (no minimum leaf size otherwise, as Weka's RandomTree
 *   with -M 1), when it is pure, at the depth limit, or when no split gains more than 1e-6 bits
 *   (Weka's Utils.gr tolerance). A split needs two non-empty branches.
 * - featuresPerSplit = K > 0: Weka's RandomTree attribute sampling. At every node attributes are drawn
 *   without replacement; at least K are evaluated, and drawing goes on past K until one with positive
 *   gain is found. Ties go to the lower attribute index.
 * - Leaves give class probabilities: Laplace (w_c + 1) / (W + C), or relative frequencies w_c / W (Weka's
 *   RandomTree). An empty branch (a value with no training weight) predicts its parent's distribution.
 * Rows carry weights (bootstrap multiplicities), so a row drawn twice counts twice.
 */
import { defineParams, registerBaseline, type Model } from '../registry.js';
import { attributeCount, type DiscreteData } from '../bn/data.js';
import type { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';

type SplitCriterion = 'gain' | 'gainRatio';

interface TreeOptions {
  readonly criterion: SplitCriterion;
  /** Attributes drawn per node (RandomTree's K); 0 = evaluate every attribute. */
  readonly featuresPerSplit: number;
  /** Most tests on a path from the root; 0 = unlimited. */
  readonly maxDepth: number;
  readonly leaf: 'laplace' | 'frequency';
}

/** A grown tree in flat arrays; node 0 is the root. */
export interface Tree {
  readonly nodes: number;
  readonly classCard: number;
  /** Tested attribute, or -1 at a leaf. */
  readonly attr: Int32Array;
  /** Children of an internal node are firstChild .. firstChild + cards[attr] - 1 (one per value). */
  readonly firstChild: Int32Array;
  /** Share of the parent's known training weight that reached this node (used for missing values). */
  readonly prop: Float64Array;
  /** nodes × classCard class probabilities of each node. */
  readonly dist: Float64Array;
  /** Depth of the node (root 0); the root's test is at testing depth 1. */
  readonly depth: Int32Array;
}

const MIN_GAIN = 1e-6;
const MIN_SPLIT_WEIGHT = 2;

function entropyBits(counts: Float64Array, offset: number, len: number, total: number): number {
  if (total <= 0) return 0;
  let h = 0;
  for (let c = 0; c < len; c++) {
    const v = counts[offset + c];
    if (v > 0) h -= v * Math.log2(v);
  }
  return h / total + Math.log2(total);
}

/** Scratch of splitMeasures: tab[x * C + c], miss[c], branchW[x] are left filled for attribute a. */
interface SplitScratch {
  tab: Float64Array;
  miss: Float64Array;
  branchW: Float64Array;
  known: Float64Array;
}

interface SplitMeasures {
  /** Information gain in bits, times the known fraction (C4.5). */
  readonly gain: number;
  /** Split information in bits, missing counted as one more outcome. */
  readonly splitInfo: number;
  readonly gainRatio: number;
}

/** C4.5 split measures of attribute a on weighted rows (total weight W); 0 gain unless two branches are non-empty. */
export function splitMeasures(
  data: DiscreteData,
  a: number,
  rows: Int32Array,
  w: Float64Array,
  W: number,
  scratch?: SplitScratch,
): SplitMeasures {
  const C = data.classCard;
  const r = data.cards[a];
  const s = scratch ?? {
    tab: new Float64Array(r * C),
    miss: new Float64Array(C),
    branchW: new Float64Array(r),
    known: new Float64Array(C),
  };
  const { tab, miss, branchW, known } = s;
  const y = data.classColumn;
  tab.fill(0, 0, r * C);
  miss.fill(0);
  const col = data.columns[a];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const x = col[row];
    if (x < 0) miss[y[row]] += w[i];
    else tab[x * C + y[row]] += w[i];
  }
  let wMiss = 0;
  for (let c = 0; c < C; c++) wMiss += miss[c];
  const wKnown = W - wMiss;
  const none = { gain: 0, splitInfo: 0, gainRatio: 0 };
  if (wKnown <= 1e-12 * W) return none;
  known.fill(0);
  let nonEmpty = 0;
  let hCond = 0;
  for (let v = 0; v < r; v++) {
    let bw = 0;
    for (let c = 0; c < C; c++) {
      const t = tab[v * C + c];
      bw += t;
      known[c] += t;
    }
    branchW[v] = bw;
    if (bw > 0) {
      nonEmpty++;
      hCond += (bw / wKnown) * entropyBits(tab, v * C, C, bw);
    }
  }
  if (nonEmpty < 2) return none;
  const gain = (wKnown / W) * (entropyBits(known, 0, C, wKnown) - hCond);
  let splitInfo = 0;
  for (let v = 0; v < r; v++) {
    const p = branchW[v] / W;
    if (p > 0) splitInfo -= p * Math.log2(p);
  }
  if (wMiss > 0) splitInfo -= (wMiss / W) * Math.log2(wMiss / W);
  return { gain, splitInfo, gainRatio: splitInfo > 0 ? gain / splitInfo : 0 };
}

interface Work {
  id: number;
  rows: Int32Array;
  w: Float64Array;
  depth: number;
  parent: number;
}

/** Grows a tree on the given rows of data (weights = multiplicities). */
export function growTree(
  data: DiscreteData,
  rows: Int32Array,
  weights: Float64Array,
  opts: TreeOptions,
  rng?: Rng,
): Tree {
  const m = attributeCount(data);
  const C = data.classCard;
  const y = data.classColumn;
  const cols = data.columns;
  const cards = data.cards;
  let maxCard = 1;
  for (let a = 0; a < m; a++) maxCard = Math.max(maxCard, cards[a]);
  const K = opts.featuresPerSplit > 0 ? Math.min(opts.featuresPerSplit, m) : m;
  if (K < m && !rng) throw new Error('growTree: attribute sampling needs an Rng');

  const attr: number[] = [-1];
  const firstChild: number[] = [-1];
  const prop: number[] = [1];
  const depthOf: number[] = [0];
  // Class distributions, grown by doubling (C numbers per node).
  let dist = new Float64Array(Math.max(64, C) * C);
  const classW = new Float64Array(C);
  const tab = new Float64Array(maxCard * C);
  const miss = new Float64Array(C);
  const branchW = new Float64Array(maxCard);
  const window = new Int32Array(m);
  const gains = new Float64Array(m);
  const ratios = new Float64Array(m);
  const evaluated: number[] = [];
  const known = new Float64Array(C);

  const scratch: SplitScratch = { tab, miss, branchW, known };
  const evaluate = (a: number, rowsN: Int32Array, w: Float64Array, W: number): [number, number] => {
    const r = splitMeasures(data, a, rowsN, w, W, scratch);
    return [r.gain, r.gainRatio];
  };

  const setDist = (id: number, W: number): void => {
    for (let c = 0; c < C; c++) {
      dist[id * C + c] = opts.leaf === 'laplace' ? (classW[c] + 1) / (W + C) : classW[c] / W;
    }
  };

  const stack: Work[] = [{ id: 0, rows, w: weights, depth: 0, parent: -1 }];
  while (stack.length > 0) {
    const { id, rows: nr, w, depth, parent } = stack.pop()!;
    classW.fill(0);
    let W = 0;
    for (let i = 0; i < nr.length; i++) {
      classW[y[nr[i]]] += w[i];
      W += w[i];
    }
    if (W <= 0) {
      // Empty branch: the parent's distribution (the root of an empty sample predicts uniformly).
      for (let c = 0; c < C; c++) dist[id * C + c] = parent >= 0 ? dist[parent * C + c] : 1 / C;
      continue;
    }
    setDist(id, W);
    let maxW = 0;
    for (let c = 0; c < C; c++) maxW = Math.max(maxW, classW[c]);
    if (W < MIN_SPLIT_WEIGHT || maxW >= W * (1 - 1e-12) || (opts.maxDepth > 0 && depth >= opts.maxDepth) || m === 0)
      continue;

    // Candidate attributes: all of them, or RandomTree's sampling.
    evaluated.length = 0;
    if (K >= m) {
      for (let a = 0; a < m; a++) {
        const [g, gr] = evaluate(a, nr, w, W);
        gains[a] = g;
        ratios[a] = gr;
        evaluated.push(a);
      }
    } else {
      for (let a = 0; a < m; a++) window[a] = a;
      let size = m;
      let k = K;
      let found = false;
      while (size > 0 && (k-- > 0 || !found)) {
        const pick = rng!.int(size);
        const a = window[pick];
        window[pick] = window[size - 1];
        window[size - 1] = a;
        size--;
        const [g, gr] = evaluate(a, nr, w, W);
        gains[a] = g;
        ratios[a] = gr;
        evaluated.push(a);
        if (g > MIN_GAIN) found = true;
      }
    }
    let best = -1;
    if (opts.criterion === 'gain') {
      for (const a of evaluated) {
        if (gains[a] > MIN_GAIN && (best < 0 || gains[a] > gains[best] || (gains[a] === gains[best] && a < best)))
          best = a;
      }
    } else {
      let sum = 0;
      let cnt = 0;
      for (const a of evaluated) {
        if (gains[a] > MIN_GAIN) {
          sum += gains[a];
          cnt++;
        }
      }
      const avg = cnt > 0 ? sum / cnt : 0;
      for (const a of evaluated) {
        if (!(gains[a] > MIN_GAIN) || gains[a] < avg - 1e-3) continue;
        if (best < 0 || ratios[a] > ratios[best] || (ratios[a] === ratios[best] && a < best)) best = a;
      }
    }
    if (best < 0) continue;

    // Split on `best`: branch sizes and known weights, then partition the rows.
    const r = cards[best];
    const col = cols[best];
    const sizes = new Int32Array(r);
    branchW.fill(0, 0, r);
    let nMiss = 0;
    let wKnown = 0;
    for (let i = 0; i < nr.length; i++) {
      const x = col[nr[i]];
      if (x < 0) nMiss++;
      else {
        sizes[x]++;
        branchW[x] += w[i];
        wKnown += w[i];
      }
    }
    const first = attr.length;
    attr[id] = best;
    firstChild[id] = first;
    const shares = Array.from({ length: r }, (_, v) => branchW[v] / wKnown);
    const childRows = shares.map((s, v) => new Int32Array(sizes[v] + (s > 0 ? nMiss : 0)));
    const childW = childRows.map((cr) => new Float64Array(cr.length));
    const fill = new Int32Array(r);
    for (let i = 0; i < nr.length; i++) {
      const row = nr[i];
      const x = col[row];
      if (x >= 0) {
        const k = fill[x]++;
        childRows[x][k] = row;
        childW[x][k] = w[i];
      } else {
        for (let v = 0; v < r; v++) {
          if (!(shares[v] > 0)) continue;
          const k = fill[v]++;
          childRows[v][k] = row;
          childW[v][k] = w[i] * shares[v];
        }
      }
    }
    for (let v = 0; v < r; v++) {
      attr.push(-1);
      firstChild.push(-1);
      prop.push(shares[v]);
      depthOf.push(depth + 1);
    }
    if (attr.length * C > dist.length) {
      const grown = new Float64Array(Math.max(dist.length * 2, attr.length * C));
      grown.set(dist);
      dist = grown;
    }
    for (let v = r - 1; v >= 0; v--)
      stack.push({ id: first + v, rows: childRows[v], w: childW[v], depth: depth + 1, parent: id });
  }
  return {
    nodes: attr.length,
    classCard: C,
    attr: Int32Array.from(attr),
    firstChild: Int32Array.from(firstChild),
    prop: Float64Array.from(prop),
    dist: dist.slice(0, attr.length * C),
    depth: Int32Array.from(depthOf),
  };
}

/**
 * Adds scale × P_tree(c | row) into out[row * C + c] for every row of data. A missing value at a test sends
 * the row down every branch weighted by the branch's training share.
 */
export function addTreeDistribution(tree: Tree, data: DiscreteData, out: Float64Array, scale = 1): void {
  const C = tree.classCard;
  const cols = data.columns;
  const { attr, firstChild, prop, dist } = tree;
  const nodeStack: number[] = [];
  const weightStack: number[] = [];
  for (let r = 0; r < data.n; r++) {
    const o = r * C;
    // Fast path: follow observed values down a single path.
    let node = 0;
    let a = attr[0];
    while (a >= 0) {
      const x = cols[a][r];
      if (x < 0) break;
      node = firstChild[node] + x;
      a = attr[node];
    }
    if (a < 0) {
      for (let c = 0; c < C; c++) out[o + c] += scale * dist[node * C + c];
      continue;
    }
    nodeStack.length = 0;
    weightStack.length = 0;
    nodeStack.push(node);
    weightStack.push(scale);
    while (nodeStack.length > 0) {
      const nd = nodeStack.pop()!;
      const wt = weightStack.pop()!;
      const at = attr[nd];
      if (at < 0) {
        for (let c = 0; c < C; c++) out[o + c] += wt * dist[nd * C + c];
        continue;
      }
      const x = cols[at][r];
      const f = firstChild[nd];
      if (x >= 0) {
        nodeStack.push(f + x);
        weightStack.push(wt);
      } else {
        for (let v = 0; v < data.cards[at]; v++) {
          const p = prop[f + v];
          if (p > 0) {
            nodeStack.push(f + v);
            weightStack.push(wt * p);
          }
        }
      }
    }
  }
}

/** Minimum testing depth of every attribute (the root's test is depth 1); 0 when the tree never tests it. */
export function minTestingDepths(tree: Tree, m: number): Int32Array {
  const out = new Int32Array(m);
  for (let nd = 0; nd < tree.nodes; nd++) {
    const a = tree.attr[nd];
    if (a < 0) continue;
    const d = tree.depth[nd] + 1;
    if (out[a] === 0 || d < out[a]) out[a] = d;
  }
  return out;
}

/** Row-normalises an n × C matrix in place (guards rounding after fractional missing-value paths). */
export function normalizeRows(p: Float64Array, C: number): Float64Array {
  for (let o = 0; o < p.length; o += C) {
    let s = 0;
    for (let c = 0; c < C; c++) s += p[o + c];
    if (s > 0) for (let c = 0; c < C; c++) p[o + c] /= s;
    else for (let c = 0; c < C; c++) p[o + c] = 1 / C;
  }
  return p;
}

/** A single tree as a Model. */
export class TreeModel implements Model {
  constructor(readonly tree: Tree) {}
  posterior(data: DiscreteData): Float64Array {
    const out = new Float64Array(data.n * this.tree.classCard);
    addTreeDistribution(this.tree, data, out);
    return normalizeRows(out, this.tree.classCard);
  }
}

/** All rows of data with weight 1. */
export function allRows(data: DiscreteData): { rows: Int32Array; weights: Float64Array } {
  return { rows: Int32Array.from({ length: data.n }, (_, i) => i), weights: new Float64Array(data.n).fill(1) };
}

export const decisionTree = registerBaseline({
  id: 'decision-tree',
  revision: 1,
  title: 'Unpruned decision tree (C4.5-style multiway splits, gain ratio, Laplace leaves)',
  citation:
    'Quinlan (1993), C4.5: Programs for Machine Learning, Morgan Kaufmann; Quinlan (1986), Induction of decision ' +
    'trees, Machine Learning 1:81–106; Laplace leaf estimates as in Provost & Domingos (2003), Tree induction for ' +
    'probability-based ranking, Machine Learning 52:199–215',
  params: defineParams({
    criterion: {
      enum: ['gainRatio', 'gain'],
      default: 'gainRatio',
      description: 'Split measure: C4.5 gain ratio or ID3 information gain',
    },
    maxDepth: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'Most tests on a root-to-leaf path (0 = unlimited)',
    },
  }),
  fit(train, params) {
    const criterion = params.criterion;
    if (criterion !== 'gain' && criterion !== 'gainRatio') {
      throw new UserError(`decision-tree: criterion must be 'gainRatio' or 'gain', got '${String(criterion)}'`);
    }
    const maxDepth = params.maxDepth;
    if (!Number.isInteger(maxDepth) || maxDepth < 0)
      throw new UserError(`decision-tree: maxDepth must be an integer >= 0, got ${String(maxDepth)}`);
    const { rows, weights } = allRows(train);
    return new TreeModel(growTree(train, rows, weights, { criterion, featuresPerSplit: 0, maxDepth, leaf: 'laplace' }));
  },
});
