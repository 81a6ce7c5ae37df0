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
import { selectRows, type DiscreteData } from './data.js';
import { assertDag, type Structure, type StructureMember } from './structure.js';
import type { Model } from '../registry.js';
import {
  familyCounts,
  nodeCard,
  sparseFamilyCounts,
  weightedFamilyCounts,
  type ConfigIndex,
  type FamilyCounts,
} from './counts.js';
import { MixtureModel, NetworkInference, normalizeLogRows, type JointModel } from './inference.js';

export { weightedFamilyCounts };

interface CptShape {
  readonly parents: readonly number[];
  readonly card: number;
  readonly parentCards: Int32Array;
  /** Number of parent configurations of the full table (product of parentCards). */
  readonly configs: number;
}

/** A full table. */
export interface DenseNodeCpt extends CptShape {
  /** log θ[config * card + value]; -Infinity is a zero probability. */
  readonly logp: Float64Array;
  readonly index?: undefined;
}

/** A table holding only the rows of the indexed parent configurations and a shared default row. */
export interface SparseNodeCpt extends CptShape {
  readonly logp?: undefined;
  /** The configurations with a row of their own (ids 0..index.size-1). */
  readonly index: ConfigIndex;
  /** rows[id * card + value] = log θ(value | configuration index.key(id)); row index.size is the default row. */
  readonly rows: Float64Array;
}

export type NodeCpt = DenseNodeCpt | SparseNodeCpt;

/**
 * Where configuration cfg's row starts: cpt.logp for a dense table, cpt.rows (its own row, or the default
 * row when it is not indexed) for a sparse one.
 */
export function cptRowOffset(cpt: NodeCpt, cfg: number): number {
  if (!cpt.index) return cfg * cpt.card;
  const id = cpt.index.get(cfg);
  return (id < 0 ? cpt.index.size : id) * cpt.card;
}

/** The array cptRowOffset indexes into. */
export function cptTable(cpt: NodeCpt): Float64Array {
  return cpt.index ? cpt.rows : cpt.logp;
}

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

export interface CptFitOptions {
  /** Store families with more cells than this sparsely (default SPARSE_CPT_CELLS; 0 = every family). */
  readonly sparseAbove?: number;
}

/** A Bayesian network over the attributes (nodes 0..m-1) and the class (node m) with tabular CPTs. */
export class CptModel implements JointModel {
  readonly m: number;
  readonly classCard: number;
  /** Cardinalities of nodes 0..m (the class last). */
  readonly cards: Int32Array;
  readonly cpts: readonly NodeCpt[];
  private readonly engine: NetworkInference;

  constructor(cards: ArrayLike<number>, cpts: readonly NodeCpt[]) {
    this.cards = Int32Array.from(cards);
    this.m = this.cards.length - 1;
    this.classCard = this.cards[this.m]!;
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
    const cpt = this.cpts[v]!;
    if (parentValues.length !== cpt.parents.length) throw new Error(`prob: node ${v} has ${cpt.parents.length} parents`);
    let cfg = 0;
    for (let i = 0; i < parentValues.length; i++) cfg = cfg * cpt.parentCards[i]! + parentValues[i]!;
    return Math.exp(cptTable(cpt)[cptRowOffset(cpt, cfg) + value]!);
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
  const m = train.columns.length;
  if (structure.m !== m) throw new Error(`structure has ${structure.m} attributes, data has ${m}`);
  assertDag(structure);
  const sparseAbove = options.sparseAbove ?? SPARSE_CPT_CELLS;
  const cards = new Int32Array(m + 1);
  for (let v = 0; v <= m; v++) cards[v] = nodeCard(train, v);
  const cpts: NodeCpt[] = [];
  for (let v = 0; v <= m; v++) {
    const parents = [...structure.parents[v]!];
    let cells = cards[v]!;
    for (const p of parents) cells *= nodeCard(train, p);
    if (cells > sparseAbove) {
      const fc = sparseFamilyCounts(train, v, parents, rowWeights);
      const rows = estimate(fc, v);
      if (rows.length !== fc.counts.length) {
        throw new Error(`estimator returned ${rows.length} cells for node ${v}, expected ${fc.counts.length}`);
      }
      cpts.push({ parents, card: fc.childCard, parentCards: fc.parentCards, configs: fc.configs, index: fc.index, rows });
      continue;
    }
    const fc = rowWeights ? weightedFamilyCounts(train, v, parents, rowWeights) : familyCounts(train, v, parents);
    const logp = estimate(fc, v);
    if (logp.length !== fc.counts.length) {
      throw new Error(`estimator returned ${logp.length} cells for node ${v}, expected ${fc.counts.length}`);
    }
    cpts.push({ parents, card: fc.childCard, parentCards: fc.parentCards, configs: fc.configs, logp });
  }
  return new CptModel(cards, cpts);
}

/**
 * Fits a structure: a CptModel, or for an ensemble (structure.members) a mixture of the members' models
 * combined as structure.combine says (weighted posteriors by default, weighted joints for 'joint'), with
 * per-row member gates and a fallback when the structure has them (see fitEnsemble).
 */
export function fitModel(train: DiscreteData, structure: Structure, estimate: FamilyEstimator, options: CptFitOptions = {}): Model {
  return fitEnsemble(structure, (s, data = train, rowWeights) => fitCptModel(data, s, estimate, rowWeights, options), train);
}

/**
 * Fits one single structure. `train` is the data to fit on (a member's own rows when it has them) and
 * `rowWeights` its row weights; both are passed only when fitEnsemble was given the training data.
 */
export type FitSingle = (s: Structure, train?: DiscreteData, rowWeights?: Float64Array) => Model;

/**
 * Fits every single structure of `structure` with fitSingle and assembles the ensemble: a MixtureModel, or a
 * GatedMixtureModel when members carry gates or the structure has a fallback. Estimators with their own
 * model class use this to honour members, combine, gates and fallback the same way fitModel does.
 * Members' `rows` and `rowWeights` are honoured when `train` is given (fitSingle then receives the member's
 * data and weights); without it every member is fitted by fitSingle's own data. A `vote` member
 * contributes a one-hot vote for its most probable class.
 */
export function fitEnsemble(structure: Structure, fitSingle: FitSingle, train?: DiscreteData): Model {
  return fitNode(structure, fitSingle, train, undefined, new Map());
}

function fitNode(
  structure: Structure,
  fitSingle: FitSingle,
  data: DiscreteData | undefined,
  weights: Float64Array | undefined,
  subsets: Map<Int32Array, DiscreteData>,
): Model {
  if (!structure.members || structure.members.length === 0) return fitSingle(structure, data, weights);
  const combine = structure.combine ?? 'posterior';
  const members = structure.members.map((mem) => {
    let d = data;
    let w = weights;
    if (data && mem.rows) {
      // One copy per distinct rows array: SubbKB's K members of a subsample share theirs.
      d = subsets.get(mem.rows);
      if (!d) {
        d = selectRows(data, mem.rows);
        subsets.set(mem.rows, d);
      }
      w = undefined;
    }
    if (data && mem.rowWeights) {
      if (mem.rowWeights.length !== d!.n) throw new Error(`member rowWeights has ${mem.rowWeights.length} entries for ${d!.n} rows`);
      w = mem.rowWeights;
    }
    const model = fitNode(mem.structure, fitSingle, d, w, subsets);
    return { weight: mem.weight, model: mem.vote ? new VoteModel(model) : model, gate: mem.gate };
  });
  if (members.some((mem) => mem.gate) || structure.fallback) {
    return new GatedMixtureModel(members, combine, structure.fallback ? fitNode(structure.fallback, fitSingle, data, weights, subsets) : undefined);
  }
  return new MixtureModel(members, combine);
}

/** A model's hard decision as a distribution: 1 for its most probable class (ties shared equally). */
export class VoteModel implements Model {
  readonly model: Model;
  constructor(model: Model) {
    this.model = model;
  }
  posterior(data: DiscreteData): Float64Array {
    const p = this.model.posterior(data);
    const C = data.classCard;
    const out = new Float64Array(p.length);
    for (let r = 0; r < data.n; r++) {
      const o = r * C;
      let best = -Infinity;
      for (let c = 0; c < C; c++) if (p[o + c]! > best) best = p[o + c]!;
      let ties = 0;
      for (let c = 0; c < C; c++) if (p[o + c] === best) ties++;
      for (let c = 0; c < C; c++) out[o + c] = p[o + c] === best ? 1 / ties : 0;
    }
    return out;
  }
}

/**
 * A mixture whose members apply only to some rows (AODE: a super-parent is used for a row only when its
 * value there is frequent enough). For each row the open members' weights are renormalised and combined
 * like MixtureModel ('posterior': weighted posteriors; 'joint': P(c | x) ∝ Σ_k w_k P_k(c, x_obs)). A row with
 * no open member gets the fallback model's posterior (uniform without a fallback).
 */
export class GatedMixtureModel implements Model {
  readonly members: readonly { readonly weight: number; readonly model: Model; readonly gate?: StructureMember['gate'] }[];
  readonly combine: 'posterior' | 'joint';
  readonly fallback?: Model;

  constructor(
    members: readonly { readonly weight: number; readonly model: Model; readonly gate?: StructureMember['gate'] }[],
    combine: 'posterior' | 'joint',
    fallback?: Model,
  ) {
    if (members.length === 0) throw new Error('GatedMixtureModel: no members');
    for (const { weight, model } of members) {
      if (!Number.isFinite(weight) || weight < 0) throw new Error(`GatedMixtureModel: invalid weight ${weight}`);
      if (combine === 'joint' && typeof (model as Partial<JointModel>).logJoint !== 'function') {
        throw new Error("GatedMixtureModel: combine 'joint' needs members with logJoint");
      }
    }
    this.members = members;
    this.combine = combine;
    if (fallback) this.fallback = fallback;
  }

  posterior(data: DiscreteData): Float64Array {
    const n = data.n;
    const C = data.classCard;
    const joint = this.combine === 'joint';
    // Running per-row sums: weights of open members, and the weighted posteriors or log-add-exp of joints.
    const wsum = new Float64Array(n);
    const acc = new Float64Array(n * C).fill(joint ? -Infinity : 0);
    const open = new Uint8Array(n);
    for (const { weight, model, gate } of this.members) {
      if (weight === 0) continue;
      let any = false;
      if (gate) {
        const col = data.columns[gate.attribute]!;
        const ok = new Uint8Array(Math.max(0, ...gate.values) + 1);
        for (const v of gate.values) ok[v] = 1;
        for (let r = 0; r < n; r++) {
          const v = col[r]!;
          open[r] = v >= 0 && v < ok.length && ok[v] === 1 ? 1 : 0;
          if (open[r]) any = true;
        }
      } else {
        open.fill(1);
        any = n > 0;
      }
      if (!any) continue;
      if (joint) {
        const lw = Math.log(weight);
        const lj = (model as JointModel).logJoint(data);
        for (let r = 0; r < n; r++) {
          if (!open[r]) continue;
          wsum[r] += weight;
          for (let c = 0; c < C; c++) {
            const i = r * C + c;
            const a = acc[i]!;
            const b = lj[i]! + lw;
            if (b === -Infinity) continue;
            acc[i] = a >= b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
          }
        }
      } else {
        const p = model.posterior(data);
        for (let r = 0; r < n; r++) {
          if (!open[r]) continue;
          wsum[r] += weight;
          for (let c = 0; c < C; c++) acc[r * C + c] += weight * p[r * C + c]!;
        }
      }
    }
    let fb: Float64Array | undefined;
    const out = joint ? normalizeLogRows(acc, C) : acc;
    for (let r = 0; r < n; r++) {
      if (wsum[r]! > 0) {
        if (!joint) for (let c = 0; c < C; c++) out[r * C + c]! /= wsum[r]!;
        continue;
      }
      if (this.fallback) {
        fb ??= this.fallback.posterior(data);
        for (let c = 0; c < C; c++) out[r * C + c] = fb[r * C + c]!;
      } else {
        for (let c = 0; c < C; c++) out[r * C + c] = 1 / C;
      }
    }
    return out;
  }
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
    for (let k = 0; k < r; k++) nj += counts[o + k]!;
    const denom = nj + r * a;
    if (denom === 0) {
      out.fill(uniform, o, o + r);
      continue;
    }
    const ld = Math.log(denom);
    for (let k = 0; k < r; k++) out[o + k] = Math.log(counts[o + k]! + a) - ld;
  }
  return out;
}
