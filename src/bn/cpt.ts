/**
 * Conditional probability tables and the fitted network model every CPT-based estimator returns.
 *
 * A dense node table stores log θ laid out exactly like its FamilyCounts: logp[config * card + value], config
 * the mixed-radix index of the parents in their listed order (first parent most significant). A sparse
 * table (families above SPARSE_CPT_CELLS cells) stores only the rows of the parent configurations seen in
 * training, found through a ConfigIndex, plus one default row that every other configuration shares; the
 * estimators it serves (smoothedLogProbs: mle, dirichlet, eap) give every unseen configuration the same row,
 * so both forms hold the same numbers.
 */
import { attributeCount, type DiscreteData } from './data.js';
import { assertDag, type Structure } from './structure.js';
import type { Model } from './model.js';
import { familyCounts, nodeCard, sparseFamilyCounts, weightedFamilyCounts, type FamilyCounts } from './counts.js';
import { NetworkInference, normalizeLogRows } from './inference.js';
import { fitEnsemble, type FusableModel, type FusedFactors } from './ensemble.js';
import { cptRowOffset, cptTable, type NodeCpt } from './tables.js';

export { weightedFamilyCounts };
// Re-exported so that the estimators keep one import for tables, fitting and ensembles.
export { fitEnsemble, GatedMixtureModel, VoteModel, type FitSingle } from './ensemble.js';
export { cptRowOffset, cptTable, type DenseNodeCpt, type NodeCpt, type SparseNodeCpt } from './tables.js';

/**
 * Turns one family's counts into its log-probability table (same layout). `node` is the child (m = class).
 * It must work row by row: each configuration's row may depend on that row's counts and on childCard,
 * parentCards and configs of the full table, not on other rows; the sparse path relies on this (it passes
 * SparseFamilyCounts, whose last all-zero row yields the default row).
 */
export type FamilyEstimator = (counts: FamilyCounts, node: number) => Float64Array;

/**
 * Families whose full table has more cells than this are counted and stored sparsely. Up to here a dense
 * table is at most 8 MiB and cheaper to fill and read than a hash index; above it the table is mostly rows
 * no training row reaches.
 */
export const SPARSE_CPT_CELLS = 1 << 20;

interface CptFitOptions {
  /** Store families with more cells than this sparsely (default SPARSE_CPT_CELLS; 0 = every family). */
  readonly sparseAbove?: number;
}

/** A Bayesian network over the attributes (nodes 0..m-1) and the class (node m) with tabular CPTs. */
export class CptModel implements FusableModel {
  readonly m: number;
  readonly classCard: number;
  /** Cardinalities of nodes 0..m (the class last). */
  readonly cards: Int32Array;
  readonly cpts: readonly NodeCpt[];
  private readonly engine: NetworkInference;

  constructor(cards: ArrayLike<number>, cpts: readonly NodeCpt[]) {
    this.cards = Int32Array.from(cards);
    this.m = this.cards.length - 1;
    this.classCard = this.cards[this.m];
    this.cpts = cpts;
    assertDag({ m: this.m, parents: cpts.map((c) => c.parents) });
    this.engine = new NetworkInference(this.cards, cpts);
  }

  /** P(c | x_obs), n × classCard row-major; missing attributes are marginalised exactly. */
  posterior(data: DiscreteData): Float64Array {
    return normalizeLogRows(this.engine.logScores(data, false), this.classCard);
  }

  /** log P(c, x_obs), n × classCard row-major (not normalised). */
  logJoint(data: DiscreteData): Float64Array {
    return this.engine.logScores(data, true);
  }

  /** θ(value | parent values) of node v; parentValues in the order of cpts[v].parents. */
  prob(v: number, value: number, parentValues: readonly number[] = []): number {
    const cpt = this.cpts[v];
    if (parentValues.length !== cpt.parents.length)
      throw new Error(`prob: node ${v} has ${cpt.parents.length} parents`);
    let cfg = 0;
    for (let i = 0; i < parentValues.length; i++) cfg = cfg * cpt.parentCards[i] + parentValues[i];
    return Math.exp(cptTable(cpt)[cptRowOffset(cpt, cfg) + value]);
  }

  /** The dense tables flattened for GatedMixtureModel's fused joint; null when a table is sparse. */
  fusedFactors(): FusedFactors | null {
    return fusedFactors(this);
  }
}

/**
 * Fits every node's CPT of a single (non-ensemble) structure from available-case family counts; with
 * rowWeights (one per row of train) the counts are sums of the rows' weights. A family with more than
 * options.sparseAbove (default SPARSE_CPT_CELLS) cells is counted over its observed parent configurations
 * only and stored as a SparseNodeCpt; `estimate` then receives SparseFamilyCounts.
 */
export function fitCptModel(
  train: DiscreteData,
  structure: Structure,
  estimate: FamilyEstimator,
  rowWeights?: Float64Array,
  options: CptFitOptions = {},
): CptModel {
  const m = attributeCount(train);
  if (structure.m !== m) throw new Error(`structure has ${structure.m} attributes, data has ${m}`);
  assertDag(structure);
  const sparseAbove = options.sparseAbove ?? SPARSE_CPT_CELLS;
  const cards = new Int32Array(m + 1);
  for (let v = 0; v <= m; v++) cards[v] = nodeCard(train, v);
  const cpts: NodeCpt[] = [];
  for (let v = 0; v <= m; v++) {
    const parents = [...structure.parents[v]];
    let cells = cards[v];
    for (const p of parents) cells *= nodeCard(train, p);
    if (cells > sparseAbove) {
      const fc = sparseFamilyCounts(train, v, parents, rowWeights);
      const rows = estimate(fc, v);
      if (rows.length !== fc.counts.length) {
        throw new Error(`estimator returned ${rows.length} cells for node ${v}, expected ${fc.counts.length}`);
      }
      cpts.push({
        parents,
        card: fc.childCard,
        parentCards: fc.parentCards,
        configs: fc.configs,
        index: fc.index,
        rows,
      });
      continue;
    }
    const fc = rowWeights ? weightedFamilyCounts(train, v, parents, rowWeights) : keptFamilyCounts(train, v, parents);
    const logp = estimate(fc, v);
    if (logp.length !== fc.counts.length) {
      throw new Error(`estimator returned ${logp.length} cells for node ${v}, expected ${fc.counts.length}`);
    }
    cpts.push({ parents, card: fc.childCard, parentCards: fc.parentCards, configs: fc.configs, logp });
  }
  return new CptModel(cards, cpts);
}

/**
 * Cells of family counts kept with one training set (keptFamilyCounts): 1 MiB of counts, so the 32 folds a
 * worker keeps (src/runner/execute.ts) hold at most 32 MiB of them; a TAN on letter (MDL cuts) has 42,640 cells.
 */
const KEPT_COUNT_CELLS = 1 << 17;

/** Each training set's kept family counts, by family ("child|parent,parent"), and their cells. */
const keptCounts = new WeakMap<DiscreteData, { cells: number; byFamily: Map<string, FamilyCounts> }>();

/**
 * familyCounts of a training set, kept with it (while it lives) for the next fit of the same family on it: a
 * sweep of estimator settings over one fold (100 Dirichlet α on one structure) counted the same rows once a
 * setting, about 8 % of a trivial job's time in its worker. Up to KEPT_COUNT_CELLS cells a training set; every
 * caller gets its own copy of the counts, so an estimator (a user's too) may change or keep them.
 */
function keptFamilyCounts(train: DiscreteData, child: number, parents: readonly number[]): FamilyCounts {
  let kept = keptCounts.get(train);
  if (!kept) {
    kept = { cells: 0, byFamily: new Map() };
    keptCounts.set(train, kept);
  }
  const family = `${child}|${parents.join(',')}`;
  let fc = kept.byFamily.get(family);
  if (!fc) {
    fc = familyCounts(train, child, parents);
    if (kept.cells + fc.counts.length > KEPT_COUNT_CELLS) return fc;
    kept.cells += fc.counts.length;
    kept.byFamily.set(family, fc);
  }
  // parentCards go into the CPT as they are (no model changes them); the counts are copied for the estimator.
  return { ...fc, counts: fc.counts.slice() };
}

/**
 * Fits a structure: a CptModel, or for an ensemble (structure.members) a mixture of the members' models
 * combined as structure.combine says (weighted posteriors by default, weighted joints for 'joint'), with
 * per-row member gates and a fallback when the structure has them (see fitEnsemble).
 */
export function fitModel(
  train: DiscreteData,
  structure: Structure,
  estimate: FamilyEstimator,
  options: CptFitOptions = {},
): Model {
  return fitEnsemble(
    structure,
    (s, data = train, rowWeights) => fitCptModel(data, s, estimate, rowWeights, options),
    train,
  );
}

function fusedFactors(model: CptModel): FusedFactors | null {
  const m = model.m;
  const cards = model.cards;
  const withClass: number[] = [];
  const without: number[] = [];
  for (let v = 0; v <= m; v++) {
    const cpt = model.cpts[v];
    if (cpt.index) return null;
    (v === m || cpt.parents.includes(m) ? withClass : without).push(v);
  }
  const tabs: Float64Array[] = [];
  const classStride: number[] = [];
  const start = [0];
  const attr: number[] = [];
  const stride: number[] = [];
  for (const v of [...withClass, ...without]) {
    const fam = [v, ...model.cpts[v].parents];
    // Strides as NetworkInference lays the table out: the child 1, then the parents from the last one up.
    const st = new Array<number>(fam.length).fill(1);
    let sz = cards[v];
    for (let q = fam.length - 1; q >= 1; q--) {
      st[q] = sz;
      sz *= cards[fam[q]];
    }
    let cs = 0;
    for (let q = 0; q < fam.length; q++) {
      if (fam[q] === m) cs = st[q];
      else {
        attr.push(fam[q]);
        stride.push(st[q]);
      }
    }
    tabs.push(model.cpts[v].logp!);
    classStride.push(cs);
    start.push(attr.length);
  }
  return {
    tabs,
    classStride: Int32Array.from(classStride),
    start: Int32Array.from(start),
    attr: Int32Array.from(attr),
    stride: Int32Array.from(stride),
  };
}

/**
 * log θ_jk = log((N_jk + a) / (N_j + r·a)) for every parent configuration j, with pseudo-count a per
 * cell (a = 0: maximum likelihood). A configuration whose denominator is 0 (no counts and a = 0) gets the
 * uniform distribution. Row by row, so it serves dense and sparse counts alike (every row of counts).
 */
export function smoothedLogProbs(fc: FamilyCounts, a: number): Float64Array {
  const { counts, childCard: r } = fc;
  const out = new Float64Array(counts.length);
  const uniform = -Math.log(r);
  const rows = counts.length / r;
  for (let j = 0; j < rows; j++) {
    const o = j * r;
    let nj = 0;
    for (let k = 0; k < r; k++) nj += counts[o + k];
    const denom = nj + r * a;
    if (denom === 0) {
      out.fill(uniform, o, o + r);
      continue;
    }
    const ld = Math.log(denom);
    for (let k = 0; k < r; k++) out[o + k] = Math.log(counts[o + k] + a) - ld;
  }
  return out;
}
