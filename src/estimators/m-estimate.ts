/**
 * m-estimates with back-off, the baseline of Petitjean, Buntine, Webb & Zaidi (2018), Machine Learning
 * 107:1303–1331 (their authors' code: fpetitjean/HDP `convertCountToProbsBackOff`, SkDB `mEstimate`).
 *
 * Every node's parents are read in their listed order (class first, then the attribute parents in the
 * learner's order: CMI order for kDB/SkDB, the tree parent for TAN). The contexts of a node form a tree: the
 * empty context, then the first parent's value, then the first two, ... For a full parent configuration the
 * estimate comes from the deepest context along its path that has at least one count (with the first d
 * parents observed):
 *     θ(x | ctx) = (n(x, ctx) + m/r) / (n(ctx) + m),
 * r the child's cardinality; an empty root context gives 1/r. So a parent configuration never seen in
 * training backs off "as many levels as necessary to find at least one count" (the paper).
 * Missing values: available case per context, a row counts in the depth-d context when the child and the
 * first d parents are observed in it (so a shorter context can use more rows than the full family).
 * Representation: when every family table is small (≤ 2^20 cells, ≤ 2^23 in all) the back-off estimates are
 * written into full CPTs and the model is an ordinary CptModel (exact inference with missing test values,
 * log P(c, x) for joint ensembles such as AODE). Larger structures (kDB-5 / SkDB on letter or adult) keep
 * one context tree per node with only the contexts training rows reach (BackoffTreeModel): the same
 * probabilities on complete rows; a missing test value is handled as in available-case training (see
 * BackoffTreeModel) instead of by exact marginalisation.
 * Loop counters are compared unsigned (`i >>> 0 < n`, descending `d >>> 0 < L`), as in bn/inference.ts: the
 * same test for every count here, but a counter turned the wrong way ends the loop at once instead of running
 * forever (a mutation test then fails instead of timing out).
 *
 * m: fixed (`m`, default 1, the authors' code default), or with `select: holdout` chosen as in the paper
 * from {0, 0.05, 0.2, 1, 5, 20} on a random holdout of min(⌊N/10⌋, 5000) training rows (ctx.rng): each
 * candidate is fitted on the other rows and scored by RMSE on the holdout (averaged over classes, as
 * src/metrics reports it; the paper does not say which loss it used); the smallest RMSE wins (the first in
 * grid order on ties) and the model is refitted on all rows. With fewer than 10 rows there is no holdout
 * and `m` is used.
 */
import { defineParams, registerEstimator, type Model } from '../registry.js';
import { MISSING, selectRows, type CodeColumn, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { CptModel, fitEnsemble, weightedFamilyCounts, type NodeCpt } from '../bn/cpt.js';
import { assertDag, structureOnRows } from '../bn/structure.js';
import { familyCounts, nodeCard, nodeColumn } from '../bn/counts.js';
import { normalizeLogRows, type JointModel } from '../bn/inference.js';
import { rmse } from '../metrics/index.js';
import type { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';

/** The paper's grid of m values for holdout selection. */
export const M_GRID: readonly number[] = [0, 0.05, 0.2, 1, 5, 20];
const HOLDOUT_MAX = 5000;

// A native scan per family, repeated rather than cached: familyCounts reads the same columns anyway, and a
// module-level cache keyed by column kept state across calls (and across mutation-test runs).
function hasMissing(col: CodeColumn): boolean {
  return col.includes(MISSING);
}

/**
 * Back-off m-estimate CPT of node v with the given ordered parents: log θ laid out like FamilyCounts
 * (config mixed radix, first parent most significant).
 */
export function mEstimateCpt(
  data: DiscreteData,
  v: number,
  parents: readonly number[],
  m: number,
  rowWeights?: Float64Array,
): NodeCpt {
  const count = (ps: readonly number[]) =>
    rowWeights ? weightedFamilyCounts(data, v, ps, rowWeights) : familyCounts(data, v, ps);
  const full = count(parents);
  const r = full.childCard;
  const L = parents.length;
  // levels[d][ctx * r + x]: counts of the depth-d contexts (first d parents).
  const levels: Float64Array[] = new Array<Float64Array>(L + 1);
  levels[L] = full.counts;
  const complete = !hasMissing(nodeColumn(data, v)) && parents.every((p) => !hasMissing(nodeColumn(data, p)));
  for (let d = L - 1; d >>> 0 < L; d--) {
    if (complete) {
      // Summing out parent d of the deeper level: a depth-d context's cells there are a block of card(p_d)
      // runs of r cells. The loop walks the deeper level's blocks, so it ends whatever size t was given.
      const rp = full.parentCards[d];
      const deeper = levels[d + 1];
      const block = rp * r;
      const t = new Float64Array(deeper.length / rp);
      for (let o = 0, j = 0; o >>> 0 < deeper.length; o += block, j += r) {
        for (let u = 0; u >>> 0 < rp; u++) for (let x = 0; x >>> 0 < r; x++) t[j + x] += deeper[o + u * r + x];
      }
      levels[d] = t;
    } else {
      levels[d] = count(parents.slice(0, d)).counts;
    }
  }
  // Totals per context (the loop walks t, as above).
  const totals = levels.map((t) => {
    const s = new Float64Array(t.length / r);
    for (let o = 0, j = 0; o >>> 0 < t.length; o += r, j++) for (let x = 0; x >>> 0 < r; x++) s[j] += t[o + x];
    return s;
  });
  // strides[d]: how many full configurations share one depth-d context, read off the sizes of the tables
  // (so that a wrongly sized table gives wrong estimates, not just unused cells).
  const strides = totals.map((s) => full.configs / s.length);
  const logp = new Float64Array(full.counts.length);
  const mr = m / r;
  for (let j = 0; j >>> 0 < full.configs; j++) {
    // The deepest context on j's path that has a count; d = -1 when even the root has none.
    let d = L;
    let ctx = j;
    for (; d >= 0; d--) {
      ctx = Math.floor(j / strides[d]);
      if (totals[d][ctx] > 0) break;
    }
    const o = j * r;
    if (d < 0) {
      logp.fill(-Math.log(r), o, o + r);
      continue;
    }
    const t = levels[d];
    const ld = Math.log(totals[d][ctx] + m);
    for (let x = 0; x >>> 0 < r; x++) logp[o + x] = Math.log(t[ctx * r + x] + mr) - ld;
  }
  return { parents: [...parents], card: r, parentCards: full.parentCards, configs: full.configs, logp };
}

/** CptModel of a single structure with back-off m-estimates (full tables). */
export function fitMEstimateNetwork(
  train: DiscreteData,
  structure: Structure,
  m: number,
  rowWeights?: Float64Array,
): CptModel {
  const M = train.columns.length;
  if (structure.m !== M) throw new Error(`structure has ${structure.m} attributes, data has ${M}`);
  assertDag(structure);
  const cards = new Int32Array(M + 1);
  const cpts: NodeCpt[] = [];
  for (let v = 0; v >>> 0 <= M; v++) {
    cards[v] = nodeCard(train, v);
    cpts.push(mEstimateCpt(train, v, structure.parents[v], m, rowWeights));
  }
  return new CptModel(cards, cpts);
}

/**
 * A structure whose largest family table has more cells than this (or whose tables add up to more than
 * DENSE_TOTAL_CELLS) is fitted as a BackoffTreeModel instead of a CptModel: kDB-5 on letter would need
 * tables of 10^8 cells, while its context trees hold at most N contexts per depth.
 */
const DENSE_FAMILY_CELLS = 1 << 20;
const DENSE_TOTAL_CELLS = 1 << 23;

/** Cell limits of the full-table representation; a parameter so that tests can reach both sides cheaply. */
interface DenseLimits {
  readonly family: number;
  readonly total: number;
}
export const DENSE_LIMITS: DenseLimits = { family: DENSE_FAMILY_CELLS, total: DENSE_TOTAL_CELLS };

/** Whether the structure's full tables stay within the limits (reads the cardinalities only). */
export function fitsFullTables(train: DiscreteData, structure: Structure, limits: DenseLimits = DENSE_LIMITS): boolean {
  let total = 0;
  let largest = 0;
  structure.parents.forEach((ps, v) => {
    let cells = nodeCard(train, v);
    for (const p of ps) cells *= nodeCard(train, p);
    total += cells;
    largest = Math.max(largest, cells);
  });
  return largest <= limits.family && total <= limits.total;
}

/**
 * Index of key in sorted distinct keys, or -1: a binary search, the hot path of prediction with context trees.
 * Its loop stops only at the key or an empty range, not also after ⌊log2 n⌋ + 1 steps: every bounded form
 * tried made that prediction slower (a step counter in the loop by 17 %, a fixed number of steps by 20–30 %,
 * recursion by 50 %).
 */
function find(keys: Float64Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid];
    if (k < key) lo = mid + 1;
    else if (k > key) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Sorted distinct values of keys[0..len). */
function distinct(keys: Float64Array, len: number): Float64Array {
  const sorted = keys.slice(0, len).sort();
  // u: the distinct keys kept so far, at the front; the first key (if any) is always one.
  let u = Math.min(len, 1);
  for (let i = 1; i >>> 0 < len; i++) if (sorted[i] !== sorted[u - 1]) sorted[u++] = sorted[i];
  return sorted.slice(0, u);
}

/**
 * The context tree of one node, holding only contexts that training rows reach: per depth d, the sorted
 * keys (parent context id · card + value) of its contexts (their ids are the positions), each context's
 * total count, and the sorted (context id · r + x) keys of its non-zero cells with their counts.
 */
export class BackoffTree {
  readonly node: number;
  readonly parents: readonly number[];
  readonly r: number;
  private readonly m: number;
  private readonly parentCards: Int32Array;
  private readonly ctxKeys: Float64Array[] = [];
  private readonly totals: Float64Array[] = [];
  private readonly cellKeys: Float64Array[] = [];
  private readonly cellCounts: Float64Array[] = [];

  constructor(data: DiscreteData, node: number, parents: readonly number[], m: number, rowWeights?: Float64Array) {
    this.node = node;
    this.parents = [...parents];
    this.r = nodeCard(data, node);
    this.m = m;
    this.parentCards = Int32Array.from(parents, (p) => nodeCard(data, p));
    const x = nodeColumn(data, node);
    const r = this.r;
    // Rows still in a context at the current depth (the first live entries), and their context ids.
    const rows = new Int32Array(data.n);
    let live = 0;
    for (let i = 0; i >>> 0 < data.n; i++) if (x[i] >= 0) rows[live++] = i;
    let ctx = new Float64Array(live);
    const keys = new Float64Array(live);
    for (let d = 0; d >>> 0 <= parents.length; d++) {
      if (d > 0) {
        const col = nodeColumn(data, parents[d - 1]);
        const card = this.parentCards[d - 1];
        let k = 0;
        for (let t = 0; t >>> 0 < live; t++) {
          const v = col[rows[t]];
          if (v < 0) continue; // available case: the row stops at its first missing parent
          rows[k] = rows[t];
          keys[k] = ctx[t] * card + v;
          k++;
        }
        live = k;
        const values = distinct(keys, live);
        this.ctxKeys.push(values);
        ctx = new Float64Array(live);
        for (let t = 0; t >>> 0 < live; t++) ctx[t] = find(values, keys[t]);
      } else {
        this.ctxKeys.push(new Float64Array(1)); // the root context, key 0
      }
      const nCtx = this.ctxKeys[d].length;
      const totals = new Float64Array(nCtx);
      for (let t = 0; t >>> 0 < live; t++) {
        totals[ctx[t]] += rowWeights ? rowWeights[rows[t]] : 1;
        keys[t] = ctx[t] * r + x[rows[t]];
      }
      const cells = distinct(keys, live);
      const counts = new Float64Array(cells.length);
      for (let t = 0; t >>> 0 < live; t++) counts[find(cells, keys[t])] += rowWeights ? rowWeights[rows[t]] : 1;
      this.totals.push(totals);
      this.cellKeys.push(cells);
      this.cellCounts.push(counts);
    }
  }

  /** Contexts and cells held per depth (root first): one for each distinct one that training rows reach. */
  sizes(): { contexts: number[]; cells: number[] } {
    return { contexts: this.ctxKeys.map((k) => k.length), cells: this.cellKeys.map((k) => k.length) };
  }

  /** log θ(x | deepest context with counts along the path); value(p) is parent p's value or MISSING. */
  logProb(value: (parent: number) => number, xv: number): number {
    const m = this.m;
    if (!(this.totals[0][0] > 0)) return -Math.log(this.r);
    let d = 0;
    let ctx = 0;
    for (let q = 1; q >>> 0 <= this.parents.length; q++) {
      const v = value(this.parents[q - 1]);
      if (v < 0) break;
      const id = find(this.ctxKeys[q], ctx * this.parentCards[q - 1] + v);
      // No row reached the context (or only rows of weight 0): back off.
      if (id < 0 || this.totals[q][id] <= 0) break;
      ctx = id;
      d = q;
    }
    const c = find(this.cellKeys[d], ctx * this.r + xv);
    const n = c < 0 ? 0 : this.cellCounts[d][c];
    return Math.log(n + m / this.r) - Math.log(this.totals[d][ctx] + m);
  }
}

/**
 * Back-off m-estimates kept as context trees (for families too large for full tables). On rows whose
 * values are all observed it gives exactly the CptModel's probabilities. A missing value is handled as in
 * available-case training, not by exact marginalisation: a node whose own value is missing contributes no
 * factor, and a node with a missing parent uses the context before that parent (the m-estimate of the
 * shorter context, i.e. the training rows' empirical mixture over the missing parent).
 */
export class BackoffTreeModel implements JointModel {
  readonly m: number;
  readonly classCard: number;
  readonly cards: Int32Array;
  readonly trees: readonly BackoffTree[];

  constructor(train: DiscreteData, structure: Structure, m: number, rowWeights?: Float64Array) {
    const M = train.columns.length;
    if (structure.m !== M) throw new Error(`structure has ${structure.m} attributes, data has ${M}`);
    assertDag(structure);
    this.m = M;
    this.classCard = train.classCard;
    this.cards = Int32Array.from({ length: M + 1 }, (_, v) => nodeCard(train, v));
    this.trees = structure.parents.map((ps, v) => new BackoffTree(train, v, ps, m, rowWeights));
  }

  logJoint(data: DiscreteData): Float64Array {
    const M = this.m;
    const C = this.classCard;
    if (data.columns.length !== M || data.classCard !== C || data.cards.some((k, a) => k !== this.cards[a])) {
      throw new Error('m-estimate: data do not match the model (attributes, cardinalities or classes)');
    }
    const n = data.n;
    const out = new Float64Array(n * C);
    const cols = data.columns;
    let row = 0;
    let cls = 0;
    const value = (p: number): number => (p === M ? cls : cols[p][row]);
    for (const tree of this.trees) {
      const v = tree.node;
      // A node without the class among its parents has one factor per row, added to every class.
      const withClass = tree.parents.includes(M);
      for (row = 0; row >>> 0 < n; row++) {
        const o = row * C;
        if (v === M) {
          for (cls = 0; cls >>> 0 < C; cls++) out[o + cls] += tree.logProb(value, cls);
          continue;
        }
        const xv = cols[v][row];
        if (xv < 0) continue;
        if (!withClass) {
          const lp = tree.logProb(value, xv);
          for (let c = 0; c >>> 0 < C; c++) out[o + c] += lp;
          continue;
        }
        for (cls = 0; cls >>> 0 < C; cls++) out[o + cls] += tree.logProb(value, xv);
      }
    }
    return out;
  }

  posterior(data: DiscreteData): Float64Array {
    return normalizeLogRows(this.logJoint(data), this.classCard);
  }
}

/** Full tables when they are small enough (exact inference with missing values), context trees otherwise. */
export function fitMEstimateSingle(
  train: DiscreteData,
  structure: Structure,
  m: number,
  rowWeights?: Float64Array,
  limits: DenseLimits = DENSE_LIMITS,
): Model {
  return fitsFullTables(train, structure, limits)
    ? fitMEstimateNetwork(train, structure, m, rowWeights)
    : new BackoffTreeModel(train, structure, m, rowWeights);
}

/** Ensembles as fitModel fits them: members' own rows and row weights (counts become sums of weights). */
function fitMEstimate(train: DiscreteData, structure: Structure, m: number): Model {
  return fitEnsemble(structure, (s, data = train, rowWeights) => fitMEstimateSingle(data, s, m, rowWeights), train);
}

/** Holdout selection of m (see the module comment). Returns the chosen m and the RMSE of every candidate. */
export function selectM(
  train: DiscreteData,
  structure: Structure,
  rng: Rng,
  grid: readonly number[] = M_GRID,
): { m: number; losses: number[] } | null {
  const nh = Math.min(Math.floor(train.n / 10), HOLDOUT_MAX);
  if (nh < 1) return null;
  const perm = rng.shuffle(Array.from({ length: train.n }, (_, i) => i));
  // The first nh rows of the permutation are held out; both parts keep the rows in ascending order.
  const held = new Uint8Array(train.n);
  for (let i = 0; i >>> 0 < nh; i++) held[perm[i]] = 1;
  const hold: number[] = [];
  const rest: number[] = [];
  for (let i = 0; i >>> 0 < train.n; i++) (held[i] ? hold : rest).push(i);
  const fitPart = selectRows(train, rest);
  const holdPart = selectRows(train, hold);
  // Ensemble members fitted on rows of their own keep those of the fit part (renumbered into it).
  const fitStructure = structureOnRows(structure, rest, train.n);
  const losses = grid.map((m) =>
    rmse(fitMEstimate(fitPart, fitStructure, m).posterior(holdPart), holdPart.classColumn, train.classCard),
  );
  // The first smallest loss in grid order.
  const best = losses.reduce((b, loss, i) => (loss < losses[b] ? i : b), 0);
  return { m: grid[best], losses };
}

export const mEstimate = registerEstimator({
  id: 'm-estimate',
  revision: 1,
  title: 'm-estimates with back-off to the deepest observed context',
  citation:
    'Petitjean, Buntine, Webb & Zaidi (2018), Accurate parameter estimation for Bayesian network classifiers ' +
    'using hierarchical Dirichlet processes, Machine Learning 107:1303–1331 (m-estimate baseline); ' +
    'Cestnik (1990), Estimating probabilities: a crucial task in machine learning, ECAI',
  orderDependence: {
    columns:
      'a family backs off by dropping parents in the order the structure lists them; learners that list parents by column index (B-RAI) make that order follow the columns',
  },
  params: defineParams({
    m: {
      type: 'number',
      minimum: 0,
      default: 1,
      description: 'Equivalent sample size m of (n + m/r)/(N + m); used when select is none',
    },
    select: {
      enum: ['none', 'holdout'],
      default: 'none',
      description: 'holdout: choose m from {0, 0.05, 0.2, 1, 5, 20} by RMSE on min(N/10, 5000) held-out rows',
    },
  }),
  fit(train, structure, params, ctx) {
    const m = params.m;
    const select = params.select;
    if (!(m >= 0) || !Number.isFinite(m))
      throw new UserError(`m-estimate: m must be a finite number >= 0, got ${String(m)}`);
    if (select !== 'none' && select !== 'holdout') {
      throw new UserError(`m-estimate: select must be 'none' or 'holdout', got '${String(select)}'`);
    }
    const chosen = select === 'holdout' ? (selectM(train, structure, ctx.rng.derive('m-holdout'))?.m ?? m) : m;
    return fitMEstimate(train, structure, chosen);
  },
});
