/**
 * Fitting one context tree per conditional distribution of a structure, and the fitted classifier.
 *
 * Branch order of each tree: the class first (when it is a parent), then the other parents in the order
 * the structure lists them (kDB lists them in decreasing CMI, TAN has one). The class node's own
 * distribution is the `classPrior` setting.
 *
 * Prediction:
 *  - complete rows: log P(c, x) = log θ_class(c) + Σ_v log θ_v(x_v | c, pa_v), each θ read from the deepest
 *    existing node of the path (back-off for parent combinations unseen in training); for posteriors the
 *    families that do not involve the class are constant in c and skipped. Memory is that of the trees,
 *    however many parent configurations a family has.
 *  - rows with a missing attribute: the averaged estimates are written out as full CPTs (every parent
 *    configuration, with the same back-off) once, and the shared exact inference (bn/inference.ts,
 *    barren-node pruning and variable elimination) marginalises the missing values. Both paths give the
 *    same numbers on complete rows (tested).
 */
import type { DiscreteData } from '../../bn/data.js';
import { MISSING, selectRows } from '../../bn/data.js';
import type { Structure } from '../../bn/structure.js';
import { assertDag } from '../../bn/structure.js';
import { familyCounts, nodeCard, nodeColumn } from '../../bn/counts.js';
import { CptModel, smoothedLogProbs, type NodeCpt } from '../../bn/cpt.js';
import { normalizeLogRows, type JointModel } from '../../bn/inference.js';
import type { LearnContext } from '../../registry.js';
import type { Rng } from '../../util/rng.js';
import { LogStirlingCache } from './stirling.js';
import { Variates } from '../../stats/random.js';
import { ContextTree, type SamplerSettings } from './tree.js';

export type ClassPrior = 'm-estimate' | 'hdp';

export interface HdpSettings extends SamplerSettings {
  readonly classPrior: ClassPrior;
}

/** Refuse to write out CPTs (for rows with missing values) larger than this many cells in total. */
export const MAX_MATERIALIZED_CELLS = 1 << 24;

/** One fitted conditional distribution. */
export interface HdpFamily {
  readonly node: number;
  /** Structure parents in the structure's order (the CPT layout). */
  readonly parents: readonly number[];
  /** Branch variables of the tree, in branching order (the class first when it is a parent). */
  readonly branch: readonly number[];
  readonly K: number;
  /** The tree, or null when the distribution is an m-estimate (classPrior 'm-estimate'). */
  readonly tree: ContextTree | null;
  /** log of the averaged estimate per tree node: logAvg[i·K + k]; for m-estimates, the CPT (structure order). */
  readonly logp: Float64Array;
}

/** Fits every family of a single (non-ensemble) structure. */
export function fitHdpFamilies(
  train: DiscreteData,
  structure: Structure,
  s: HdpSettings,
  rng: Rng,
  stirling: LogStirlingCache,
  signal?: AbortSignal,
): HdpFamily[] {
  const m = train.columns.length;
  if (structure.m !== m) throw new Error(`structure has ${structure.m} attributes, data has ${m}`);
  assertDag(structure);
  const families: HdpFamily[] = [];
  for (let v = 0; v <= m; v++) {
    const parents = [...structure.parents[v]];
    const K = nodeCard(train, v);
    if (v === m && s.classPrior === 'm-estimate') {
      // (n_y + 1/C) / (N + 1): the class prior of the authors' BNC code (ESKDB); with parents, per configuration.
      const fc = familyCounts(train, v, parents);
      families.push({ node: v, parents, branch: parents, K, tree: null, logp: smoothedLogProbs(fc, 1 / K) });
      continue;
    }
    const branch = parents.includes(m) ? [m, ...parents.filter((p) => p !== m)] : parents;
    const tree = new ContextTree(
      nodeColumn(train, v),
      K,
      branch.map((p) => nodeColumn(train, p)),
      branch.map((p) => nodeCard(train, p)),
      train.n,
    );
    if (tree.depth === 0) tree.rootOnly(s.initialConcentration);
    else tree.sample(s, stirling, new Variates(rng.derive(`hdp/node/${v}`)), signal);
    const logp = new Float64Array(tree.size * K);
    for (let i = 0; i < tree.size; i++) tree.average(i, logp, i * K);
    for (let i = 0; i < logp.length; i++) logp[i] = Math.log(logp[i]);
    families.push({ node: v, parents, branch, K, tree, logp });
  }
  return families;
}

/** The classifier of one structure with HDP estimates. */
export class HdpModel implements JointModel {
  private cpt: CptModel | null = null;

  constructor(
    readonly families: readonly HdpFamily[],
    readonly m: number,
    readonly classCard: number,
    readonly cards: Int32Array,
  ) {}

  diagnostics(): { nodes: number; trees: number } {
    let nodes = 0;
    let trees = 0;
    for (const f of this.families) {
      if (!f.tree) continue;
      trees++;
      nodes += f.tree.size;
    }
    return { nodes, trees };
  }

  /** P(c | x_obs), n × classCard row-major. */
  posterior(data: DiscreteData): Float64Array {
    return this.scores(data, false);
  }

  /** log P(c, x_obs), n × classCard row-major (not normalised): for joint ensembles such as AODE. */
  logJoint(data: DiscreteData): Float64Array {
    return this.scores(data, true);
  }

  /** full = false: normalised posteriors (class-free families skipped); full = true: exact log joints. */
  private scores(data: DiscreteData, full: boolean): Float64Array {
    if (data.columns.length !== this.m || data.classCard !== this.classCard) {
      throw new Error(
        `hdp: data has ${data.columns.length} attributes and ${data.classCard} classes, model ${this.m} and ${this.classCard}`,
      );
    }
    const n = data.n;
    const C = this.classCard;
    const out = new Float64Array(n * C);
    const missingRows: number[] = [];
    const isMissing = new Uint8Array(n);
    for (const col of data.columns) {
      for (let r = 0; r < n; r++) if (col[r] === MISSING) isMissing[r] = 1;
    }
    for (let r = 0; r < n; r++) if (isMissing[r]) missingRows.push(r);
    for (const f of this.families) this.addFamily(f, data, isMissing, out, full);
    if (!full) normalizeLogRows(out, C);
    if (missingRows.length > 0) {
      const sub = selectRows(data, missingRows);
      const cpt = this.materialize();
      const p = full ? cpt.logJoint(sub) : cpt.posterior(sub);
      for (let q = 0; q < missingRows.length; q++) {
        const r = missingRows[q];
        for (let c = 0; c < C; c++) out[r * C + c] = p[q * C + c];
      }
    }
    return out;
  }

  /**
   * Adds log θ of one family to the complete rows' scores. A family without the class adds the same value
   * to every class: skipped for posteriors, added for joints.
   */
  private addFamily(f: HdpFamily, data: DiscreteData, skip: Uint8Array, out: Float64Array, full: boolean): void {
    const m = this.m;
    const C = this.classCard;
    const n = data.n;
    const K = f.K;
    const childIsClass = f.node === m;
    const cols = f.branch.map((p) => (p === m ? data.classColumn : data.columns[p]));
    const D = f.branch.length;
    if (!childIsClass && f.branch[0] !== m) {
      if (!full) return;
      const { childStart, children } = f.tree!;
      const x = data.columns[f.node];
      for (let r = 0; r < n; r++) {
        if (skip[r]) continue;
        let node = 0;
        for (let d = 0; d < D; d++) {
          const ch = children[childStart[node] + cols[d][r]];
          if (ch < 0) break;
          node = ch;
        }
        const v = f.logp[node * K + x[r]];
        for (let c = 0; c < C; c++) out[r * C + c] += v;
      }
      return;
    }
    if (!f.tree) {
      // m-estimate CPT of the class, mixed radix over the parents in structure order
      const pcols = f.parents.map((p) => data.columns[p]);
      const pcards = f.parents.map((p) => this.cards[p]);
      for (let r = 0; r < n; r++) {
        if (skip[r]) continue;
        let cfg = 0;
        for (let q = 0; q < pcols.length; q++) cfg = cfg * pcards[q] + pcols[q][r];
        for (let c = 0; c < C; c++) out[r * C + c] += f.logp[cfg * K + c];
      }
      return;
    }
    const { childStart, children } = f.tree;
    const lp = f.logp;
    if (childIsClass) {
      for (let r = 0; r < n; r++) {
        if (skip[r]) continue;
        let node = 0;
        for (let d = 0; d < D; d++) {
          const s = childStart[node];
          const c = children[s + cols[d][r]];
          if (c < 0) break;
          node = c;
        }
        for (let c = 0; c < C; c++) out[r * C + c] += lp[node * K + c];
      }
      return;
    }
    const x = data.columns[f.node];
    const rootSlots = childStart[0];
    for (let r = 0; r < n; r++) {
      if (skip[r]) continue;
      const xv = x[r];
      for (let c = 0; c < C; c++) {
        let node = 0;
        const first = children[rootSlots + c];
        if (first >= 0) {
          node = first;
          for (let d = 1; d < D; d++) {
            const s = childStart[node];
            const ch = children[s + cols[d][r]];
            if (ch < 0) break;
            node = ch;
          }
        }
        out[r * C + c] += lp[node * K + xv];
      }
    }
  }

  /** The averaged estimates as full CPTs (structure parent order, back-off for unseen configurations). */
  materialize(): CptModel {
    if (this.cpt) return this.cpt;
    let total = 0;
    const sizes = this.families.map((f) => {
      let cells = f.K;
      for (const p of f.parents) cells *= this.cards[p];
      total += cells;
      return cells;
    });
    if (total > MAX_MATERIALIZED_CELLS) {
      throw new Error(
        `hdp: rows with missing values need the estimates as full CPTs (${total} cells > ${MAX_MATERIALIZED_CELLS}); ` +
          `treat missing values as a value (preprocessing missing: as-value)`,
      );
    }
    const cpts: NodeCpt[] = this.families.map((f, v) => {
      const parentCards = Int32Array.from(f.parents.map((p) => this.cards[p]));
      const configs = sizes[v] / f.K;
      if (!f.tree) return { parents: f.parents, card: f.K, parentCards, configs, logp: f.logp };
      const logp = new Float64Array(sizes[v]);
      const k = f.parents.length;
      // position in the tree's branch order of each structure parent
      const pos = f.parents.map((p) => f.branch.indexOf(p));
      const values = new Int32Array(k);
      const branchValues = new Int32Array(k);
      for (let cfg = 0; cfg < configs; cfg++) {
        let rest = cfg;
        for (let q = k - 1; q >= 0; q--) {
          values[q] = rest % parentCards[q];
          rest = Math.floor(rest / parentCards[q]);
        }
        for (let q = 0; q < k; q++) branchValues[pos[q]] = values[q];
        const node = f.tree.find(branchValues);
        logp.set(f.logp.subarray(node * f.K, node * f.K + f.K), cfg * f.K);
      }
      return { parents: f.parents, card: f.K, parentCards, configs, logp };
    });
    this.cpt = new CptModel(this.cards, cpts);
    return this.cpt;
  }
}

/** Node cardinalities 0..m (the class last). */
function nodeCards(train: DiscreteData): Int32Array {
  const m = train.columns.length;
  const cards = new Int32Array(m + 1);
  for (let v = 0; v <= m; v++) cards[v] = nodeCard(train, v);
  return cards;
}

/** Fits the HDP classifier of a single structure. */
export function fitHdpModel(
  train: DiscreteData,
  structure: Structure,
  s: HdpSettings,
  ctx: LearnContext,
  stirling = new LogStirlingCache(),
): HdpModel {
  const families = fitHdpFamilies(train, structure, s, ctx.rng, stirling, ctx.signal);
  return new HdpModel(families, train.columns.length, train.classCard, nodeCards(train));
}
