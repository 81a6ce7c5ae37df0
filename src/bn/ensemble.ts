/**
 * Ensembles of fitted models: fitEnsemble assembles a structure's members (weights, row subsets and weights,
 * votes, gates, fallback) into a MixtureModel or a GatedMixtureModel. Kept apart from the CPTs (src/bn/cpt.ts)
 * so that the tables, the inference engine and the ensembles depend one way: cpt → ensemble → inference.
 */
import { selectRows, type CodeColumn, type DiscreteData } from './data.js';
import type { Model } from './model.js';
import type { Structure, StructureMember } from './structure.js';
import { MixtureModel, normalizeLogRows, type JointModel } from './inference.js';

/**
 * A member whose complete-row joints GatedMixtureModel can sum straight from dense tables (CptModel
 * implements it); fusedFactors() is null when a table is sparse.
 */
export interface FusableModel extends JointModel {
  readonly m: number;
  readonly classCard: number;
  readonly cards: Int32Array;
  fusedFactors(): FusedFactors | null;
}

function isFusable(model: Model): model is FusableModel {
  return typeof (model as Partial<FusableModel>).fusedFactors === 'function';
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
      if (mem.rowWeights.length !== d!.n)
        throw new Error(`member rowWeights has ${mem.rowWeights.length} entries for ${d!.n} rows`);
      w = mem.rowWeights;
    }
    const model = fitNode(mem.structure, fitSingle, d, w, subsets);
    return { weight: mem.weight, model: mem.vote ? new VoteModel(model) : model, gate: mem.gate };
  });
  if (members.some((mem) => mem.gate) || structure.fallback) {
    return new GatedMixtureModel(
      members,
      combine,
      structure.fallback ? fitNode(structure.fallback, fitSingle, data, weights, subsets) : undefined,
    );
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
      for (let c = 0; c < C; c++) if (p[o + c] > best) best = p[o + c];
      let ties = 0;
      for (let c = 0; c < C; c++) if (p[o + c] === best) ties++;
      for (let c = 0; c < C; c++) out[o + c] = p[o + c] === best ? 1 / ties : 0;
    }
    return out;
  }
}

/**
 * A dense CptModel's factors flattened for fusedJoint, in NetworkInference's summation order (the factors
 * with the class in node order, then the others in node order) and with its strides, so the sums are the
 * engine's to the last bit: factor f's log θ for class c is tabs[f][Σ_q x[attr[q]] · stride[q] + c ·
 * classStride[f]] (q in start[f]..start[f+1); classStride 0 for a factor without the class).
 */
export interface FusedFactors {
  readonly tabs: readonly Float64Array[];
  readonly classStride: Int32Array;
  readonly start: Int32Array;
  readonly attr: Int32Array;
  readonly stride: Int32Array;
}

/** Scratch space of fusedJoint, allocated once per posterior call and shared by the members. */
interface FusedScratch {
  /** The open rows of the block in hand with every attribute observed. */
  readonly rows: Int32Array;
  /** Per listed row: the cell of the current factor's table (before adding the class). */
  readonly bases: Int32Array;
  /** Per listed row i: the member's log joint, C values from i · C. */
  readonly joint: Float64Array;
}

/**
 * Rows summed at a time by fusedJoint: its scratch is a block's, not the data set's (a million test rows
 * of two classes took 24 MB of it before); each row's sums are the same either way.
 */
const FUSED_BLOCK_ROWS = 4096;

function fusedScratch(n: number, C: number): FusedScratch {
  const b = Math.min(n, FUSED_BLOCK_ROWS);
  return { rows: new Int32Array(b), bases: new Int32Array(b), joint: new Float64Array(b * C) };
}

/**
 * One member's weighted log joint added into the streaming log-sum-exp of GatedMixtureModel (acc = largest
 * term, scaled = Σ exp(term − acc)) for its open rows: complete rows summed here from the member's
 * tables, factor by factor (NetworkInference's order, so the same sums), a block of rows at a time; a row
 * with a missing attribute read from the member's own logJoint (exact marginalisation; computed once, when
 * there is such a row). The loops are small functions of their own, which V8 optimises quickly even in a
 * one-shot process.
 */
function fusedJoint(
  f: FusedFactors,
  weight: number,
  data: DiscreteData,
  open: Uint8Array,
  complete: Uint8Array,
  wsum: Float64Array,
  acc: Float64Array,
  scaled: Float64Array,
  scratch: FusedScratch,
  logJoint: () => Float64Array,
): void {
  const n = data.n;
  const C = data.classCard;
  const cols = data.columns;
  const lw = Math.log(weight);
  const { rows, bases, joint } = scratch;
  const { tabs, classStride, start, attr, stride } = f;
  let incomplete = false;
  for (let r0 = 0; r0 < n; r0 += rows.length) {
    const r1 = Math.min(n, r0 + rows.length);
    let nr = 0;
    for (let r = r0; r < r1; r++) {
      if (!open[r]) continue;
      wsum[r] += weight;
      if (complete[r]) rows[nr++] = r;
      else incomplete = true;
    }
    if (nr === 0) continue;
    joint.fill(0, 0, nr * C);
    for (let k = 0; k < tabs.length; k++) {
      bases.fill(0, 0, nr);
      for (let q = start[k]; q < start[k + 1]; q++) addBase(cols[attr[q]], stride[q], rows, nr, bases);
      addCells(tabs[k], classStride[k], bases, nr, C, joint);
    }
    for (let i = 0; i < nr; i++) addLogTerms(joint, i * C, lw, C, acc, scaled, rows[i] * C);
  }
  if (incomplete) {
    const lj = logJoint();
    for (let r = 0; r < n; r++) if (open[r] && !complete[r]) addLogTerms(lj, r * C, lw, C, acc, scaled, r * C);
  }
}

function addBase(col: CodeColumn, stride: number, rows: Int32Array, nr: number, bases: Int32Array): void {
  for (let i = 0; i < nr; i++) bases[i] += col[rows[i]] * stride;
}

function addCells(tab: Float64Array, cs: number, bases: Int32Array, nr: number, C: number, joint: Float64Array): void {
  for (let i = 0; i < nr; i++) {
    const b = bases[i];
    const o = i * C;
    for (let c = 0; c < C; c++) joint[o + c] += tab[b + c * cs];
  }
}

/** Streaming log-sum-exp: the terms src[so + c] + lw into (acc, scaled) at offset ao. */
function addLogTerms(
  src: Float64Array,
  so: number,
  lw: number,
  C: number,
  acc: Float64Array,
  scaled: Float64Array,
  ao: number,
): void {
  for (let c = 0; c < C; c++) {
    const b = src[so + c] + lw;
    if (b === -Infinity) continue;
    const i = ao + c;
    const a = acc[i];
    if (b <= a) scaled[i] += Math.exp(b - a);
    else {
      scaled[i] = scaled[i] * Math.exp(a - b) + 1;
      acc[i] = b;
    }
  }
}

/**
 * A mixture whose members apply only to some rows (AODE: a super-parent is used for a row only when its
 * value there is frequent enough). For each row the open members' weights are renormalised and combined
 * like MixtureModel ('posterior': weighted posteriors; 'joint': P(c | x) ∝ Σ_k w_k P_k(c, x_obs)). A row with
 * no open member gets the fallback model's posterior (uniform without a fallback). With 'joint' and dense
 * CptModel members (AODE's SPODEs) the joints of complete rows are summed by fusedJoint straight from the
 * members' tables into one reusable buffer; the sums are those of the members' own logJoint.
 */
export class GatedMixtureModel implements Model {
  readonly members: readonly {
    readonly weight: number;
    readonly model: Model;
    readonly gate?: StructureMember['gate'];
  }[];
  readonly combine: 'posterior' | 'joint';
  readonly fallback?: Model;
  private fused: FusedFactors[] | null | undefined;

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

  /** Per member its flattened factors when every member is a dense FusableModel (CptModel) fitting data's shape, else null. */
  private fusedMembers(data: DiscreteData): FusedFactors[] | null {
    if (this.fused === undefined) {
      const all: FusedFactors[] = [];
      for (const { model } of this.members) {
        const f = isFusable(model) ? model.fusedFactors() : null;
        if (!f) {
          this.fused = null;
          return null;
        }
        all.push(f);
      }
      this.fused = all;
    }
    if (!this.fused) return null;
    for (const { model } of this.members) {
      // A mismatch goes the generic way, where the member's own check reports it.
      const cm = model as FusableModel;
      if (data.columns.length !== cm.m || data.classCard !== cm.classCard) return null;
      for (let a = 0; a < cm.m; a++) if (data.cards[a] !== cm.cards[a]) return null;
    }
    return this.fused;
  }

  posterior(data: DiscreteData): Float64Array {
    const n = data.n;
    const C = data.classCard;
    const joint = this.combine === 'joint';
    // Running per-row sums: weights of open members, and the weighted posteriors, or for 'joint' a streaming
    // log-sum-exp of the weighted joints: acc = the largest term so far, scaled = Σ exp(term − acc), so each
    // term costs one exp (the sum is rescaled when a larger term arrives).
    const wsum = new Float64Array(n);
    const acc = new Float64Array(n * C).fill(joint ? -Infinity : 0);
    const scaled = new Float64Array(joint ? n * C : 0);
    const open = new Uint8Array(n);
    // Dense CptModel members: their joints are summed here row by row, straight from the tables (see
    // fusedJoint), for the rows where every attribute is observed.
    const fused = joint ? this.fusedMembers(data) : null;
    let complete: Uint8Array | undefined;
    let scratch: FusedScratch | undefined;
    if (fused) {
      scratch = fusedScratch(n, C);
      complete = new Uint8Array(n).fill(1);
      for (const col of data.columns) for (let r = 0; r < n; r++) if (col[r] < 0) complete[r] = 0;
    }
    for (let k = 0; k < this.members.length; k++) {
      const { weight, model, gate } = this.members[k];
      if (weight === 0) continue;
      let any = false;
      if (gate) {
        const col = data.columns[gate.attribute];
        const ok = new Uint8Array(Math.max(0, ...gate.values) + 1);
        for (const v of gate.values) ok[v] = 1;
        for (let r = 0; r < n; r++) {
          const v = col[r];
          open[r] = v >= 0 && v < ok.length && ok[v] === 1 ? 1 : 0;
          if (open[r]) any = true;
        }
      } else {
        open.fill(1);
        any = n > 0;
      }
      if (!any) continue;
      if (joint && fused) {
        fusedJoint(fused[k], weight, data, open, complete!, wsum, acc, scaled, scratch!, () =>
          (model as JointModel).logJoint(data),
        );
        continue;
      }
      if (joint) {
        const lw = Math.log(weight);
        const lj = (model as JointModel).logJoint(data);
        for (let r = 0; r < n; r++) {
          if (!open[r]) continue;
          wsum[r] += weight;
          addLogTerms(lj, r * C, lw, C, acc, scaled, r * C);
        }
      } else {
        const p = model.posterior(data);
        for (let r = 0; r < n; r++) {
          if (!open[r]) continue;
          wsum[r] += weight;
          for (let c = 0; c < C; c++) acc[r * C + c] += weight * p[r * C + c];
        }
      }
    }
    if (joint) for (let i = 0; i < n * C; i++) if (acc[i] !== -Infinity) acc[i] += Math.log(scaled[i]);
    let fb: Float64Array | undefined;
    const out = joint ? normalizeLogRows(acc, C) : acc;
    for (let r = 0; r < n; r++) {
      if (wsum[r] > 0) {
        if (!joint) for (let c = 0; c < C; c++) out[r * C + c] /= wsum[r];
        continue;
      }
      if (this.fallback) {
        fb ??= this.fallback.posterior(data);
        for (let c = 0; c < C; c++) out[r * C + c] = fb[r * C + c];
      } else {
        for (let c = 0; c < C; c++) out[r * C + c] = 1 / C;
      }
    }
    return out;
  }
}
