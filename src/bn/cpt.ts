/**
 * Conditional probability tables and the fitted network model every CPT-based estimator returns.
 *
 * A node's table stores log θ laid out exactly like its FamilyCounts: logp[config * card + value], config
 * the mixed-radix index of the parents in their listed order (first parent most significant).
 */
import type { DiscreteData } from './data.js';
import { assertDag, type Structure } from './structure.js';
import type { Model } from '../registry.js';
import { familyCounts, nodeCard, type FamilyCounts } from './counts.js';
import { MixtureModel, NetworkInference, normalizeLogRows, type JointModel } from './inference.js';

export interface NodeCpt {
  readonly parents: readonly number[];
  readonly card: number;
  readonly parentCards: Int32Array;
  readonly configs: number;
  /** log θ[config * card + value]; -Infinity is a zero probability. */
  readonly logp: Float64Array;
}

/** Turns one family's counts into its log-probability table (same layout). `node` is the child (m = class). */
export type FamilyEstimator = (counts: FamilyCounts, node: number) => Float64Array;

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
    return Math.exp(cpt.logp[cfg * cpt.card + value]!);
  }
}

/** Fits every node's CPT of a single (non-ensemble) structure from available-case family counts. */
export function fitCptModel(train: DiscreteData, structure: Structure, estimate: FamilyEstimator): CptModel {
  const m = train.columns.length;
  if (structure.m !== m) throw new Error(`structure has ${structure.m} attributes, data has ${m}`);
  assertDag(structure);
  const cards = new Int32Array(m + 1);
  const cpts: NodeCpt[] = [];
  for (let v = 0; v <= m; v++) {
    cards[v] = nodeCard(train, v);
    const parents = [...structure.parents[v]!];
    const fc = familyCounts(train, v, parents);
    const logp = estimate(fc, v);
    if (logp.length !== fc.counts.length) {
      throw new Error(`estimator returned ${logp.length} cells for node ${v}, expected ${fc.counts.length}`);
    }
    cpts.push({ parents, card: fc.childCard, parentCards: fc.parentCards, configs: fc.configs, logp });
  }
  return new CptModel(cards, cpts);
}

/**
 * Fits a structure: a CptModel, or for an ensemble (structure.members) a MixtureModel averaging the
 * members' posteriors with their weights.
 */
export function fitModel(train: DiscreteData, structure: Structure, estimate: FamilyEstimator): Model {
  if (structure.members && structure.members.length > 0) {
    return new MixtureModel(
      structure.members.map(({ weight, structure: s }) => ({ weight, model: fitModel(train, s, estimate) })),
      'posterior',
    );
  }
  return fitCptModel(train, structure, estimate);
}

/**
 * log θ_jk = log((N_jk + a) / (N_j + r·a)) for every parent configuration j, with pseudo-count a per
 * cell (a = 0: maximum likelihood). A configuration whose denominator is 0 (no counts and a = 0) gets the
 * uniform distribution.
 */
export function smoothedLogProbs(fc: FamilyCounts, a: number): Float64Array {
  const { counts, childCard: r, configs } = fc;
  const out = new Float64Array(counts.length);
  const uniform = -Math.log(r);
  for (let j = 0; j < configs; j++) {
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
