/**
 * Class-posterior inference for a discrete Bayesian network over the attributes and the class, in log space.
 *
 * For every row and class value c we compute log P(c, x_obs), where x_obs are the observed attributes of the
 * row, and normalise with log-sum-exp. Two variants:
 *  - 'posterior' keeps only the factors whose value can depend on c (every factor mentioning the class, and
 *    factors linked to one through missing attributes); the dropped factors are constant in c and cancel.
 *  - 'joint' keeps every factor, giving the exact log P(c, x_obs) (needed to average joints across models).
 * Both give the same posterior whenever P(x_obs) > 0. When P(x_obs) = 0 (possible with zero MLE cells) the
 * posterior is undefined; 'posterior' then reflects the class-dependent factors only, and a row whose
 * class-dependent score is -Infinity for every class gets the uniform distribution (normalizeLogRows).
 *
 * Complete rows (for 'posterior': every attribute in a class factor observed) take a fast path with no
 * per-row allocation: one indexed lookup per (class factor, class value).
 *
 * Rows with missing attributes are marginalised exactly:
 *  1. barren nodes are pruned: a missing attribute that is not an ancestor of an observed attribute or of the
 *     class sums out to 1 (its factor and its descendants' factors vanish);
 *  2. the remaining factors are restricted to the observed values, and the missing attributes are summed
 *     out by variable elimination (log space; greedy order by smallest intermediate table, ties to the
 *     lowest node index). This is the same sum as enumerating each connected group of missing attributes,
 *     but linear rather than exponential in the group size for tree-shaped groups (TAN, kDB chains).
 *  An intermediate table above MAX_ELIMINATION_CELLS cells is an error naming the row and the attribute.
 *  The elimination depends only on which attributes are missing, so it is compiled once per missing
 *  pattern (cached on the model) and replayed on each row with that pattern without allocating.
 *
 * Sparse CPTs (SparseNodeCpt: rows of the training configurations plus one default row) are read through
 * an accessor: the value of a cell is its configuration's row when indexed, else the default row's entry,
 * i.e. exactly the entry the dense table would hold. Both paths above read cells this way, so results are
 * the same as with the dense tables and the marginalisation stays exact (no approximation). Restricting a
 * family to the observed values enumerates only the assignments of its missing members, so its cost does
 * not depend on the size of the full table; the MAX_ELIMINATION_CELLS limit on those restricted and
 * intermediate tables is the same for sparse and dense CPTs.
 *
 * Loop counters that index typed arrays are compared unsigned (`i >>> 0 < n`): the same test for every count
 * here (0 ≤ i < 2^31), but a counter that runs the wrong way becomes 2^32 − 1 and ends the loop at once, where
 * `i < n` would let it read undefined from a typed array forever (a mutation test then times out instead of
 * failing). The comparison costs no measurable time (docs/testing.md, "Mutation testing").
 */
import type { CodeColumn, DiscreteData } from './data.js';
import type { Model } from './model.js';
import type { NodeCpt } from './tables.js';
import { ConfigIndex } from './counts.js';

export const MAX_ELIMINATION_CELLS = 1_000_000;

/** A model that can also report exact log P(c, x_obs) (n × classCard, row-major). */
export interface JointModel extends Model {
  logJoint(data: DiscreteData): Float64Array;
}

/**
 * Normalises each row of log scores (n × C) in place into probabilities with log-sum-exp.
 * A row where every class has log score -Infinity (zero probability under every class, e.g. an MLE zero)
 * carries no information about the class, so it becomes the uniform distribution 1/C.
 */
export function normalizeLogRows(scores: Float64Array, C: number): Float64Array {
  const n = scores.length / C;
  for (let r = 0; r >>> 0 < n; r++) {
    const o = r * C;
    let mx = -Infinity;
    for (let c = 0; c >>> 0 < C; c++) {
      const v = scores[o + c];
      if (v !== v) throw new Error(`inference: NaN log score in row ${r}`);
      if (v > mx) mx = v;
    }
    if (mx === -Infinity) {
      for (let c = 0; c >>> 0 < C; c++) scores[o + c] = 1 / C;
      continue;
    }
    let s = 0;
    for (let c = 0; c >>> 0 < C; c++) {
      const e = Math.exp(scores[o + c] - mx);
      scores[o + c] = e;
      s += e;
    }
    for (let c = 0; c >>> 0 < C; c++) scores[o + c] /= s;
  }
  return scores;
}

/** log Σ exp(a[i]) over the first len entries, stable; -Infinity when every entry is. */
export function logSumExp(a: Float64Array, len: number): number {
  let mx = -Infinity;
  for (let i = 0; i >>> 0 < len; i++) if (a[i] > mx) mx = a[i];
  if (mx === -Infinity) return -Infinity;
  let s = 0;
  for (let i = 0; i >>> 0 < len; i++) s += Math.exp(a[i] - mx);
  return mx + Math.log(s);
}

/** A sparse CPT as the inference reads it. */
interface SparseRef {
  index: ConfigIndex;
  rows: Float64Array;
  card: number;
  /** Offset of the default row in rows. */
  def: number;
}

function sparseRef(cpt: NodeCpt): SparseRef | null {
  if (!cpt.index) return null;
  return { index: cpt.index, rows: cpt.rows, card: cpt.card, def: cpt.index.size * cpt.card };
}

/** Entry `cell` (= config * card + value) of a sparse CPT: its configuration's row, or the default row. */
function sparseCell(sp: SparseRef, cell: number): number {
  const cfg = Math.floor(cell / sp.card);
  const id = sp.index.get(cfg);
  return sp.rows[(id < 0 ? sp.def : id * sp.card) + (cell - cfg * sp.card)];
}

/**
 * A sparse family with the class among its parents, regrouped by context (the configuration with the class
 * value set to 0): contexts numbers the contexts seen in training, and offsets[b * C + c] is where the row of
 * context b with class value c starts in rows (the default row when that configuration has no row).
 */
interface ClassBlocks {
  contexts: ConfigIndex;
  offsets: Int32Array;
}

/**
 * Builds the ClassBlocks of a sparse family whose class has stride ccs (in configurations), or null when the
 * blocks would take more memory than the rows themselves (many classes, few rows per context).
 */
function classBlocks(sp: SparseRef, ccs: number, C: number): ClassBlocks | null {
  const { index, card, def } = sp;
  const K = index.size;
  const ctxOf = new Float64Array(K);
  const cls = new Int32Array(K);
  const contexts = new ConfigIndex(K);
  for (let id = 0; id < K; id++) {
    const key = index.key(id);
    const c = Math.floor(key / ccs) % C;
    cls[id] = c;
    ctxOf[id] = contexts.add(key - c * ccs);
  }
  if (contexts.size * C > 2 * K * card) return null;
  const offsets = new Int32Array(contexts.size * C).fill(def);
  for (let id = 0; id >>> 0 < K; id++) offsets[ctxOf[id] * C + cls[id]] = id * card;
  return { contexts, offsets };
}

/**
 * Compiled network: per-node families and strides plus the flattened class factors for the fast path.
 * cards has length m + 1 (attributes, then the class).
 */
export class NetworkInference {
  readonly m: number;
  readonly classCard: number;
  private readonly cards: Int32Array;
  private readonly cpts: readonly NodeCpt[];
  /**
   * fam[v] = [v, ...parents[v]]; famStride[v][q] = stride of fam[v][q] in the full table of node v (cells;
   * exact doubles, since a sparse family's full table can exceed 2^31 cells).
   */
  private readonly fam: Int32Array[];
  private readonly famStride: Float64Array[];
  /** sparse[v]: node v's sparse CPT, or null for a dense one. */
  private readonly sparse: (SparseRef | null)[];
  /**
   * Class factors (families containing the class), flattened for the fast path, in node order. The Int32
   * strides serve dense CPTs; the F(loat64) copies serve sparse ones, whose full table may have more than
   * 2^31 cells (their Int32 strides then wrap, and are never read).
   */
  private readonly cfNode: Int32Array;
  private readonly cfClassStride: Int32Array;
  private readonly cfClassStrideF: Float64Array;
  private readonly cfStart: Int32Array;
  private readonly cfAttr: Int32Array;
  private readonly cfAttrStride: Int32Array;
  private readonly cfAttrStrideF: Float64Array;
  /** Factors not mentioning the class (used by 'joint' only), flattened likewise. */
  private readonly ofNode: Int32Array;
  private readonly ofStart: Int32Array;
  private readonly ofAttr: Int32Array;
  private readonly ofAttrStride: Int32Array;
  private readonly ofAttrStrideF: Float64Array;
  /** Attributes that appear in some class factor: the class's Markov blanket. */
  private readonly blanket: Int32Array;
  /** Per sparse class factor with the class as a parent: its ClassBlocks, or null when not worth building. */
  private readonly classBlocks = new Map<number, ClassBlocks | null>();
  /** Compiled marginalisation plans keyed by the row's missing attributes. */
  private readonly posteriorPlans = new Map<string, Plan>();
  private readonly jointPlans = new Map<string, Plan>();
  /**
   * Diagnostics since construction: rows that went through exact marginalisation (every other row took the
   * fast path) and marginalisation plans compiled (once per missing pattern and mode while it stays cached).
   * They show where the time of a prediction goes; no result depends on them.
   */
  exactRows = 0;
  plansCompiled = 0;

  constructor(cards: Int32Array, cpts: readonly NodeCpt[]) {
    const m = cards.length - 1;
    if (m < 0) throw new Error('inference: cards must include the class');
    if (cpts.length !== m + 1) throw new Error(`inference: ${cpts.length} CPTs for ${m + 1} nodes`);
    this.m = m;
    this.classCard = cards[m];
    this.cards = cards;
    this.cpts = cpts;
    this.fam = [];
    this.famStride = [];
    this.sparse = [];
    const classFactors: number[] = [];
    const otherFactors: number[] = [];
    const inBlanket = new Uint8Array(m + 1);
    for (let v = 0; v <= m; v++) {
      const cpt = cpts[v];
      const ps = cpt.parents;
      if (cpt.card !== cards[v])
        throw new Error(`inference: CPT of node ${v} has card ${cpt.card}, expected ${cards[v]}`);
      let configs = 1;
      for (const p of ps) {
        if (!Number.isInteger(p) || p < 0 || p > m || p === v)
          throw new Error(`inference: node ${v} has invalid parent ${p}`);
        configs *= cards[p];
      }
      if (cpt.index) {
        if (cpt.configs !== configs)
          throw new Error(`inference: sparse CPT of node ${v} has ${cpt.configs} configurations, expected ${configs}`);
        if (cpt.rows.length !== (cpt.index.size + 1) * cpt.card) {
          throw new Error(
            `inference: sparse CPT of node ${v} has ${cpt.rows.length} cells, expected ${(cpt.index.size + 1) * cpt.card}`,
          );
        }
      } else if (cpt.logp.length !== configs * cpt.card) {
        throw new Error(`inference: CPT of node ${v} has ${cpt.logp.length} cells, expected ${configs * cpt.card}`);
      }
      this.sparse.push(sparseRef(cpt));
      const f = Int32Array.from([v, ...ps]);
      // Strides: the child's is 1, a parent's the product of the child's and the later parents' cards, i.e.
      // the table's size divided by the cards up to that parent (exact: integers below 2^53). Written without
      // a loop counter, so that no mutation of one can make the constructor loop forever.
      const st = new Float64Array(f.length);
      st[0] = 1;
      let s = configs * cards[v];
      ps.forEach((p, q) => {
        s /= cards[p];
        st[q + 1] = s;
      });
      this.fam.push(f);
      this.famStride.push(st);
      if (f.includes(m)) {
        classFactors.push(v);
        for (const u of f) if (u !== m) inBlanket[u] = 1;
      } else {
        otherFactors.push(v);
      }
    }
    // Each factor's attributes (all but the class) and their strides, concatenated: factor x's are at
    // start[x] .. start[x + 1].
    const flatten = (nodes: number[]): { start: Int32Array; attr: Int32Array; stride: Float64Array } => {
      const start = new Int32Array(nodes.length + 1);
      const attr: number[] = [];
      const stride: number[] = [];
      nodes.forEach((v, x) => {
        const f = this.fam[v];
        const st = this.famStride[v];
        for (let q = 0; q >>> 0 < f.length; q++) {
          if (f[q] === m) continue;
          attr.push(f[q]);
          stride.push(st[q]);
        }
        start[x + 1] = attr.length;
      });
      return { start, attr: Int32Array.from(attr), stride: Float64Array.from(stride) };
    };
    // The Int32 copies of the strides serve the dense tables (at most 2^20 cells); a sparse table's strides may
    // pass 2^31 and wrap there, but its factors read only the Float64 ones.
    const cf = flatten(classFactors);
    this.cfNode = Int32Array.from(classFactors);
    this.cfClassStrideF = Float64Array.from(classFactors, (v) => this.famStride[v][this.fam[v].indexOf(m)]);
    this.cfClassStride = Int32Array.from(this.cfClassStrideF);
    this.cfStart = cf.start;
    this.cfAttr = cf.attr;
    this.cfAttrStride = Int32Array.from(cf.stride);
    this.cfAttrStrideF = cf.stride;
    const of = flatten(otherFactors);
    this.ofNode = Int32Array.from(otherFactors);
    this.ofStart = of.start;
    this.ofAttr = of.attr;
    this.ofAttrStride = Int32Array.from(of.stride);
    this.ofAttrStrideF = of.stride;
    // forEach rather than a counted loop: with no attribute (m = 0), a loop test turned around (a >= m) by a
    // mutation would never end.
    const blanket: number[] = [];
    inBlanket.forEach((inside, a) => {
      if (inside) blanket.push(a);
    });
    this.blanket = Int32Array.from(blanket);
  }

  /** Throws unless data has this network's attributes, cardinalities and class cardinality. */
  checkData(data: DiscreteData): void {
    const m = this.m;
    if (data.columns.length !== m)
      throw new Error(`inference: data has ${data.columns.length} attributes, model has ${m}`);
    if (data.classCard !== this.classCard) {
      throw new Error(`inference: data has ${data.classCard} classes, model has ${this.classCard}`);
    }
    for (let a = 0; a >>> 0 < m; a++) {
      if (data.cards[a] !== this.cards[a]) {
        throw new Error(`inference: attribute ${a} has ${data.cards[a]} values in data, ${this.cards[a]} in the model`);
      }
    }
  }

  /**
   * Log scores n × C. full = false: log P(c, x_obs) up to a per-row constant ('posterior');
   * full = true: exactly log P(c, x_obs) ('joint').
   */
  logScores(data: DiscreteData, full: boolean): Float64Array {
    this.checkData(data);
    const n = data.n;
    const m = this.m;
    const C = this.classCard;
    const out = new Float64Array(n * C);
    const cols = data.columns;
    // Which rows are complete enough for the fast path.
    const complete = new Uint8Array(n).fill(1);
    if (full) {
      for (let a = 0; a < m; a++) {
        const col = cols[a];
        for (let r = 0; r >>> 0 < n; r++) if (col[r] < 0) complete[r] = 0;
      }
    } else {
      for (const a of this.blanket) {
        const col = cols[a];
        for (let r = 0; r >>> 0 < n; r++) if (col[r] < 0) complete[r] = 0;
      }
    }
    // Fast path, factor by factor (in node order, dense or sparse) over all complete rows.
    const nf = this.cfNode.length;
    for (let f = 0; f < nf; f++) {
      const v = this.cfNode[f];
      const sp = this.sparse[v]!;
      if (sp) {
        this.sparseClassFactor(f, v === m, sp, cols, complete, out);
        continue;
      }
      const lp = this.cpts[v].logp!;
      const cs = this.cfClassStride[f];
      const s0 = this.cfStart[f];
      const s1 = this.cfStart[f + 1];
      // Special cases for one and two attributes (naive Bayes, TAN); the class prior (no attribute) goes
      // through the general loop, whose empty inner loop costs nothing measurable.
      if (s1 - s0 === 1) {
        const col = cols[this.cfAttr[s0]];
        const st = this.cfAttrStride[s0];
        for (let r = 0; r >>> 0 < n; r++) {
          if (!complete[r]) continue;
          const base = col[r] * st;
          const o = r * C;
          for (let c = 0; c >>> 0 < C; c++) out[o + c] += lp[base + c * cs];
        }
      } else if (s1 - s0 === 2) {
        const colA = cols[this.cfAttr[s0]];
        const stA = this.cfAttrStride[s0];
        const colB = cols[this.cfAttr[s0 + 1]];
        const stB = this.cfAttrStride[s0 + 1];
        for (let r = 0; r >>> 0 < n; r++) {
          if (!complete[r]) continue;
          const base = colA[r] * stA + colB[r] * stB;
          const o = r * C;
          for (let c = 0; c >>> 0 < C; c++) out[o + c] += lp[base + c * cs];
        }
      } else {
        for (let r = 0; r >>> 0 < n; r++) {
          if (!complete[r]) continue;
          let base = 0;
          for (let q = s0; q < s1; q++) base += cols[this.cfAttr[q]][r] * this.cfAttrStride[q];
          const o = r * C;
          for (let c = 0; c >>> 0 < C; c++) out[o + c] += lp[base + c * cs];
        }
      }
    }
    if (full) {
      // Factors without the class add the same constant to every class value.
      const no = this.ofNode.length;
      for (let f = 0; f < no; f++) {
        const s0 = this.ofStart[f];
        const s1 = this.ofStart[f + 1];
        const sp = this.sparse[this.ofNode[f]]!;
        if (sp) {
          for (let r = 0; r >>> 0 < n; r++) {
            if (!complete[r]) continue;
            let cell = 0;
            for (let q = s0; q < s1; q++) cell += cols[this.ofAttr[q]][r] * this.ofAttrStrideF[q];
            const v = sparseCell(sp, cell);
            const o = r * C;
            for (let c = 0; c >>> 0 < C; c++) out[o + c] += v;
          }
          continue;
        }
        const lp = this.cpts[this.ofNode[f]].logp!;
        for (let r = 0; r >>> 0 < n; r++) {
          if (!complete[r]) continue;
          let idx = 0;
          for (let q = s0; q < s1; q++) idx += cols[this.ofAttr[q]][r] * this.ofAttrStride[q];
          const v = lp[idx];
          const o = r * C;
          for (let c = 0; c >>> 0 < C; c++) out[o + c] += v;
        }
      }
    }
    for (let r = 0; r >>> 0 < n; r++) if (!complete[r]) this.rowWithMissing(data, r, full, out);
    return out;
  }

  /**
   * Fast path of class factor f with a sparse CPT: out[r, c] += log θ read through the index, for the
   * complete rows. With the class as the child a row needs one lookup (the class values are the row's
   * entries); with the class as a parent, one per class value.
   */
  private sparseClassFactor(
    f: number,
    classIsChild: boolean,
    sp: SparseRef,
    cols: readonly CodeColumn[],
    complete: Uint8Array,
    out: Float64Array,
  ): void {
    const C = this.classCard;
    const n = complete.length;
    const s0 = this.cfStart[f];
    const s1 = this.cfStart[f + 1];
    const attr = this.cfAttr;
    const stride = this.cfAttrStrideF;
    const { index, rows, card, def } = sp;
    if (classIsChild) {
      for (let r = 0; r >>> 0 < n; r++) {
        if (!complete[r]) continue;
        let base = 0;
        for (let q = s0; q < s1; q++) base += cols[attr[q]][r] * stride[q];
        const id = index.get(base / card); // every stride here is a multiple of card
        const off = id < 0 ? def : id * card;
        const o = r * C;
        for (let c = 0; c >>> 0 < C; c++) out[o + c] += rows[off + c];
      }
      return;
    }
    // cell = cfg * card + x with cfg = cfg0 + c * ccs: the class's stride in configurations.
    const ccs = this.cfClassStrideF[f] / card;
    let blocks = this.classBlocks.get(f);
    if (blocks === undefined) {
      blocks = classBlocks(sp, ccs, C);
      this.classBlocks.set(f, blocks);
    }
    if (blocks) {
      // One lookup per row for the context; the class values' rows are then read from its block.
      const { contexts, offsets } = blocks;
      for (let r = 0; r >>> 0 < n; r++) {
        if (!complete[r]) continue;
        let base = 0;
        for (let q = s0; q < s1; q++) base += cols[attr[q]][r] * stride[q];
        const cfg0 = Math.floor(base / card);
        const x = base - cfg0 * card;
        const o = r * C;
        const b = contexts.get(cfg0);
        if (b < 0) {
          const v = rows[def + x];
          for (let c = 0; c >>> 0 < C; c++) out[o + c] += v;
        } else {
          const bo = b * C;
          for (let c = 0; c >>> 0 < C; c++) out[o + c] += rows[offsets[bo + c] + x];
        }
      }
      return;
    }
    for (let r = 0; r >>> 0 < n; r++) {
      if (!complete[r]) continue;
      let base = 0;
      for (let q = s0; q < s1; q++) base += cols[attr[q]][r] * stride[q];
      const cfg0 = Math.floor(base / card);
      const x = base - cfg0 * card;
      const o = r * C;
      for (let c = 0; c >>> 0 < C; c++) {
        const id = index.get(cfg0 + c * ccs);
        out[o + c] += rows[(id < 0 ? def : id * card) + x];
      }
    }
  }

  /** Exact log scores for one row with missing attributes (see the module comment). */
  private rowWithMissing(data: DiscreteData, r: number, full: boolean, out: Float64Array): void {
    const m = this.m;
    const cols = data.columns;
    this.exactRows++;
    let key = '';
    for (let a = 0; a < m; a++) if (cols[a][r] < 0) key += `${a},`;
    const cache = full ? this.jointPlans : this.posteriorPlans;
    let plan = cache.get(key);
    if (!plan) {
      if (cache.size >= PLAN_CACHE_LIMIT) cache.clear();
      plan = this.compilePlan(data, r, full);
      this.plansCompiled++;
      cache.set(key, plan);
    }
    runPlan(plan, cols, r, this.classCard, out);
  }

  /**
   * Compiles the marginalisation for one pattern of missing attributes (that of row r): barren pruning,
   * the factor scopes, the elimination order and the buffers. Only observed values differ between rows
   * with the same pattern, so the plan is cached and replayed without allocation.
   */
  private compilePlan(data: DiscreteData, r: number, full: boolean): Plan {
    const m = this.m;
    const obs = new Uint8Array(m + 1);
    for (let a = 0; a < m; a++) obs[a] = data.columns[a][r] >= 0 ? 1 : 0;
    obs[m] = 1;
    // 1. Relevant nodes: ancestors (inclusive) of the observed attributes and of the class, listed in found as
    // they are marked. The walk reads that list once from the start: a loop over a list that only grows by
    // newly marked nodes, where a stack popped until empty could loop forever if a step went wrong.
    const rel = new Uint8Array(m + 1);
    const found: number[] = [];
    for (let v = 0; v >>> 0 <= m; v++) {
      if (obs[v]) {
        rel[v] = 1;
        found.push(v);
      }
    }
    for (let i = 0; i >>> 0 < found.length; i++) {
      for (const p of this.cpts[found[i]].parents) {
        if (!rel[p]) {
          rel[p] = 1;
          found.push(p);
        }
      }
    }
    // 2. Each relevant family restricted to the observed values: a direct class term, a constant, or a table.
    const direct: Term[] = [];
    const constants: Term[] = [];
    const tables: TableSpec[] = [];
    const symbolic: SymFactor[] = [];
    for (let v = 0; v >>> 0 <= m; v++) {
      if (!rel[v]) continue;
      const f = this.fam[v];
      const st = this.famStride[v];
      const sp = this.sparse[v]!;
      const lp = this.cpts[v].logp ?? EMPTY;
      const obsAttrs: number[] = [];
      const obsStrides: number[] = [];
      const scope: { u: number; stride: number }[] = [];
      let cs = -1;
      for (let q = 0; q >>> 0 < f.length; q++) {
        const u = f[q];
        if (u === m) cs = st[q];
        if (u === m || !obs[u]) scope.push({ u, stride: st[q] });
        else {
          obsAttrs.push(u);
          obsStrides.push(st[q]);
        }
      }
      const term: Term = { lp, sp, cs, attrs: Int32Array.from(obsAttrs), strides: Float64Array.from(obsStrides) };
      const hasMissing = scope.some((s) => s.u !== m);
      if (!hasMissing) {
        if (cs >= 0) direct.push(term);
        else if (full) constants.push(term);
        continue;
      }
      const cards = scope.map((s) => this.cards[s.u]);
      let size = 1;
      for (const c of cards) size *= c;
      if (size > MAX_ELIMINATION_CELLS) {
        throw new Error(
          `inference: row ${r}: the family of node ${v} over its missing attributes needs ${size} cells ` +
            `(> ${MAX_ELIMINATION_CELLS}); too many missing values for exact marginalisation`,
        );
      }
      // offsets[t]: CPT offset of the t-th scope assignment (row-major, last fastest).
      const offsets = new Float64Array(size);
      const assign = new Int32Array(scope.length);
      let off = 0;
      for (let t = 0; t >>> 0 < size; t++) {
        offsets[t] = off;
        for (let q = scope.length - 1; q >= 0; q--) {
          assign[q]++;
          off += scope[q].stride;
          if (assign[q] < cards[q]) break;
          off -= scope[q].stride * cards[q];
          assign[q] = 0;
        }
      }
      tables.push({ ...term, offsets, buf: new Float64Array(size) });
      symbolic.push({ vars: scope.map((s) => s.u), cards, buf: tables.length - 1 });
    }
    const buffers: Float64Array[] = tables.map((t) => t.buf);
    // In 'posterior' mode, drop groups of missing attributes that never meet the class: constant in c.
    let kept = symbolic;
    if (!full) {
      const uf = Int32Array.from({ length: m + 1 }, (_, v) => v);
      const find = (v: number): number => {
        while (uf[v] !== v) {
          uf[v] = uf[uf[v]];
          v = uf[v];
        }
        return v;
      };
      for (const fa of symbolic) {
        const first = find(fa.vars[0]);
        for (let q = 1; q >>> 0 < fa.vars.length; q++) {
          const b = find(fa.vars[q]);
          if (b !== first) uf[b] = first;
        }
      }
      const classRoot = find(m);
      kept = symbolic.filter((fa) => find(fa.vars[0]) === classRoot);
    }
    // 3. Elimination order and steps (greedy: smallest table first, ties to the lowest node index). Each step
    // sums out one of the missing attributes left, so there are exactly as many steps as such attributes: a
    // loop bounded by that count cannot run on if a step failed to remove its attribute.
    const steps: Step[] = [];
    let pool = kept;
    const missing = [...new Set(pool.flatMap((fa) => fa.vars))].filter((u) => u !== m).sort((a, b) => a - b);
    const summed = new Uint8Array(m + 1);
    for (let k = 0; k >>> 0 < missing.length; k++) {
      let best = -1;
      let bestSize = Infinity;
      for (const x of missing) {
        if (summed[x]) continue;
        const scope = new Map<number, number>();
        for (const fa of pool) if (fa.vars.includes(x)) fa.vars.forEach((u, q) => scope.set(u, fa.cards[q]));
        let size = 1;
        for (const c of scope.values()) size *= c;
        if (size < bestSize) {
          best = x;
          bestSize = size;
        }
      }
      if (bestSize > MAX_ELIMINATION_CELLS) {
        throw new Error(
          `inference: row ${r}: summing out missing attribute ${best} needs a table of ${bestSize} cells ` +
            `(> ${MAX_ELIMINATION_CELLS}); too many connected missing values for exact marginalisation`,
        );
      }
      const touching = pool.filter((fa) => fa.vars.includes(best));
      pool = pool.filter((fa) => !fa.vars.includes(best));
      const { step, result } = compileStep(touching, best, buffers);
      steps.push(step);
      pool.push(result);
      summed[best] = 1;
    }
    // Whatever remains is over the class alone or over nothing.
    const results = pool.map((fa) => ({ buf: fa.buf, hasClass: fa.vars.length > 0 }));
    return { direct, constants, tables, steps, buffers, results };
  }
}

/** Cached plans per model and mode; cleared when this many missing patterns have been seen. */
export const PLAN_CACHE_LIMIT = 4096;

const EMPTY = new Float64Array(0);

/**
 * A factor read straight from a CPT at cell base + Σ value · stride over observed attributes (+ c · cs):
 * lp[cell] for a dense CPT, sparseCell(sp, cell) for a sparse one.
 */
interface Term {
  lp: Float64Array;
  sp: SparseRef | null;
  /** Stride of the class in the full table, or -1 when the family does not contain the class. */
  cs: number;
  attrs: Int32Array;
  strides: Float64Array;
}

/** A CPT restricted to the observed values: buf[t] = cell base + offsets[t] of the CPT. */
interface TableSpec extends Term {
  offsets: Float64Array;
  buf: Float64Array;
}

/**
 * A symbolic factor during planning: its scope and the buffer holding its values (row-major over vars, the
 * last fastest). The scope is in no particular order: every lookup goes through indexOf, and the order only
 * sets a table's layout, never the order in which numbers are added.
 */
interface SymFactor {
  vars: number[];
  cards: number[];
  buf: number;
}

/** buffers[output][o] = log Σ_x Π_inputs, over the union scope with x as the last (fastest) dimension. */
interface Step {
  inputs: Int32Array;
  output: number;
  cards: Int32Array;
  strideMap: Int32Array[];
  rx: number;
  assign: Int32Array;
  idx: Int32Array;
  tmp: Float64Array;
}

interface Plan {
  direct: Term[];
  constants: Term[];
  tables: TableSpec[];
  steps: Step[];
  buffers: Float64Array[];
  results: { buf: number; hasClass: boolean }[];
}

function compileStep(fs: SymFactor[], x: number, buffers: Float64Array[]): { step: Step; result: SymFactor } {
  const cardOf = new Map<number, number>();
  for (const f of fs) f.vars.forEach((u, q) => cardOf.set(u, f.cards[q]));
  const outVars = [...cardOf.keys()].filter((u) => u !== x);
  const outCards = outVars.map((u) => cardOf.get(u)!);
  const U = [...outVars, x];
  const cards = Int32Array.from(U.map((u) => cardOf.get(u)!));
  const d = U.length;
  const rx = cards[d - 1];
  // strideMap[f][q]: stride of U[q] in input f (0 if f does not contain it).
  const strideMap = fs.map((f) => {
    const own = new Int32Array(f.vars.length);
    let s = 1;
    for (let q = f.vars.length - 1; q >>> 0 < f.vars.length; q--) {
      own[q] = s;
      s *= f.cards[q];
    }
    const sm = new Int32Array(d);
    for (let q = 0; q >>> 0 < d; q++) {
      const at = f.vars.indexOf(U[q]);
      sm[q] = at < 0 ? 0 : own[at];
    }
    return sm;
  });
  buffers.push(new Float64Array(outCards.reduce((a, b) => a * b, 1)));
  const output = buffers.length - 1;
  const step: Step = {
    inputs: Int32Array.from(fs.map((f) => f.buf)),
    output,
    cards,
    strideMap,
    rx,
    assign: new Int32Array(d),
    idx: new Int32Array(fs.length),
    tmp: new Float64Array(rx),
  };
  return { step, result: { vars: outVars, cards: outCards, buf: output } };
}

function termBase(t: Term, cols: readonly CodeColumn[], r: number): number {
  let base = 0;
  for (let q = 0; q < t.attrs.length; q++) base += cols[t.attrs[q]][r] * t.strides[q];
  return base;
}

/** Runs a compiled plan on row r, adding log scores into out[r * C ...]. Allocates nothing. */
function runPlan(plan: Plan, cols: readonly CodeColumn[], r: number, C: number, out: Float64Array): void {
  const o = r * C;
  let constant = 0;
  for (const t of plan.direct) {
    const base = termBase(t, cols, r);
    const sp = t.sp;
    if (sp) for (let c = 0; c >>> 0 < C; c++) out[o + c] += sparseCell(sp, base + c * t.cs);
    else for (let c = 0; c >>> 0 < C; c++) out[o + c] += t.lp[base + c * t.cs];
  }
  for (const t of plan.constants)
    constant += t.sp ? sparseCell(t.sp, termBase(t, cols, r)) : t.lp[termBase(t, cols, r)];
  for (const t of plan.tables) {
    const base = termBase(t, cols, r);
    const { buf, offsets, lp, sp } = t;
    if (sp) for (let i = 0; i >>> 0 < buf.length; i++) buf[i] = sparseCell(sp, base + offsets[i]);
    else for (let i = 0; i >>> 0 < buf.length; i++) buf[i] = lp[base + offsets[i]];
  }
  const bufs = plan.buffers;
  for (const s of plan.steps) {
    const { inputs, cards, strideMap, rx, assign, idx, tmp } = s;
    const nf = inputs.length;
    const d = cards.length;
    const res = bufs[s.output];
    assign.fill(0);
    idx.fill(0);
    for (let oc = 0; oc >>> 0 < res.length; oc++) {
      for (let k = 0; k >>> 0 < rx; k++) {
        let v = 0;
        for (let f = 0; f < nf; f++) v += bufs[inputs[f]][idx[f]];
        tmp[k] = v;
        for (let q = d - 1; q >>> 0 < d; q--) {
          assign[q]++;
          for (let f = 0; f < nf; f++) idx[f] += strideMap[f][q];
          if (assign[q] < cards[q]) break;
          for (let f = 0; f < nf; f++) idx[f] -= strideMap[f][q] * cards[q];
          assign[q] = 0;
        }
      }
      res[oc] = logSumExp(tmp, rx);
    }
  }
  // A result over nothing arises in 'joint' mode only ('posterior' drops the groups that never meet the class).
  for (const { buf, hasClass } of plan.results) {
    if (hasClass) for (let c = 0; c >>> 0 < C; c++) out[o + c] += bufs[buf][c];
    else constant += bufs[buf][0];
  }
  for (let c = 0; c >>> 0 < C; c++) out[o + c] += constant;
}

/**
 * Weighted mixture of models. combine = 'posterior' (default): Σ_k w_k P_k(c | x) / Σ_k w_k, the
 * model-averaging rule of Structure.members. combine = 'joint': P(c | x) ∝ Σ_k w_k P_k(c, x_obs), e.g. AODE
 * (every member must then be a JointModel).
 */
export class MixtureModel implements Model {
  readonly members: readonly { readonly weight: number; readonly model: Model }[];
  readonly combine: 'posterior' | 'joint';

  constructor(
    members: readonly { readonly weight: number; readonly model: Model }[],
    combine: 'posterior' | 'joint' = 'posterior',
  ) {
    if (members.length === 0) throw new Error('MixtureModel: no members');
    let total = 0;
    for (const { weight } of members) {
      if (!Number.isFinite(weight) || weight < 0) throw new Error(`MixtureModel: invalid weight ${weight}`);
      total += weight;
    }
    if (!(total > 0)) throw new Error('MixtureModel: weights sum to 0');
    if (combine === 'joint') {
      for (const { model } of members) {
        if (typeof (model as Partial<JointModel>).logJoint !== 'function') {
          throw new Error("MixtureModel: combine 'joint' needs members with logJoint");
        }
      }
    }
    this.members = members.map(({ weight, model }) => ({ weight: weight / total, model }));
    this.combine = combine;
  }

  posterior(data: DiscreteData): Float64Array {
    const C = data.classCard;
    const size = data.n * C;
    if (this.combine === 'posterior') {
      const out = new Float64Array(size);
      for (const { weight, model } of this.members) {
        if (weight === 0) continue;
        const p = model.posterior(data);
        for (let i = 0; i >>> 0 < size; i++) out[i] += weight * p[i];
      }
      return out;
    }
    // Running log-add-exp of log w_k + log P_k(c, x_obs).
    const acc = new Float64Array(size).fill(-Infinity);
    for (const { weight, model } of this.members) {
      if (weight === 0) continue;
      const lw = Math.log(weight);
      const lj = (model as JointModel).logJoint(data);
      for (let i = 0; i >>> 0 < size; i++) {
        const a = acc[i];
        const b = lj[i] + lw;
        if (b === -Infinity) continue;
        acc[i] = a >= b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
      }
    }
    return normalizeLogRows(acc, C);
  }
}
