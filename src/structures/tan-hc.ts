/**
 * TAN-HC (Keogh & Pazzani 2002, "hill-climbing search" over augmenting arcs), as bnclassify's `tan_hc`
 * implements it (Mihaljević, Bielza & Larrañaga 2018; R/learn-hc.R, R/learn-hc-operators.R):
 *  - one stratified k-fold partition of the training data is drawn at the start (from ctx.rng) and kept
 *    for the whole search; a structure's score is its mean per-fold accuracy;
 *  - the search starts from naive Bayes; each step scores every one-dependence-preserving arc
 *    Xi → Xj with Xj an orphan (no attribute parent) and Xi not in Xj's tree. Adding Xi → Xj or Xj → Xi
 *    between two orphans gives Markov-equivalent structures, so only the one whose tail's column name sorts
 *    first is scored (bnclassify methods vignette: "Xi alphabetically before Xj"; names are compared by
 *    code unit, equal names by column index);
 *  - stop rule (is_improvement): the best candidate is taken while max − epsilon ≥ current score, so with
 *    epsilon 0 an arc that keeps the accuracy equal is still added; the search also stops at accuracy 1 or
 *    when no arc can be added. Ties between the best candidates are broken at random (ctx.rng), as
 *    bnclassify's max_random does.
 * Accuracy: the predicted class is the argmax of log P(c, x_obs); a row whose argmax is shared by t
 * classes counts 1/t if the true class is among them (the expectation of bnclassify's random tie break).
 * Parameters inside the wrapper: Dirichlet with α = `smooth` per cell, default 1 (Laplace; bnclassify's
 * own default is 0, its documented examples use 1). Missing values: available-case counts, and rows with a
 * missing value are classified by exact marginalisation over the forest (bnclassify uses gRain for those).
 *
 * Cost: every family's per-fold counts come from one pass over the rows (counts of all folds at once,
 * training counts = total − fold), cached per (child, parent) pair, so scoring an arc recounts at most the
 * one changed family; the per-row class scores of the current structure are kept, and a candidate arc only
 * swaps its child's term (exact for every row where the arc's two attributes are observed; other rows are
 * re-evaluated over the whole forest). A search is O(m³) arc evaluations of O(N·C) each, hence
 * maxAttributes = 200. With fewer rows than k the folds are the rows (leave-one-out); with fewer than two
 * rows there is nothing to cross-validate and naive Bayes is returned.
 */
import { registerStructure, type LearnContext } from '../registry.js';
import { attributeCount, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { stratifiedKFold } from '../folds/split.js';
import type { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';
import { logSumExp } from '../bn/inference.js';

export type OdeWrapperParams = { k?: number; epsilon?: number; smooth?: number };

export interface OdeWrapperResult {
  /** Attribute parent of each attribute, -1 for none. */
  readonly parent: Int32Array;
  /** Mean fold accuracy of the final structure. */
  readonly score: number;
  /** Scores of the accepted states, naive Bayes first. */
  readonly scores: number[];
  readonly folds: number;
}

/** Cached per-fold log-probability tables would exceed this many cells: the cache is cleared. */
const CACHE_CELLS = 1 << 23;
const SCORE_TOL = 1e-12;

/**
 * Per-fold Laplace tables and current per-row class scores for one-dependence structures.
 * Family tables are laid out [fold][c][x_parent][x_child] (class first, as in FamilyCounts).
 */
export class OdeFoldEvaluator {
  readonly m: number;
  readonly C: number;
  readonly k: number;
  readonly n: number;
  private readonly data: DiscreteData;
  private readonly alpha: number;
  readonly foldOf: Int32Array;
  private readonly foldRows: Int32Array[];
  private readonly rowComplete: Uint8Array;
  private readonly classLog: Float64Array;
  private readonly nbLog: Float64Array[];
  private readonly pairs = new Map<number, Float64Array>();
  private cachedCells = 0;
  /** Class scores of the current structure, n × C. */
  private readonly S: Float64Array;
  private readonly cand: Float64Array;
  private readonly maxCard: number;
  private readonly lam: Float64Array;
  private readonly tmp: Float64Array;

  constructor(data: DiscreteData, foldOf: Int32Array, k: number, alpha: number) {
    this.data = data;
    this.m = attributeCount(data);
    this.C = data.classCard;
    this.k = k;
    this.n = data.n;
    this.alpha = alpha;
    this.foldOf = foldOf;
    const sizes = new Int32Array(k);
    for (let r = 0; r < this.n; r++) sizes[foldOf[r]!]++;
    this.foldRows = Array.from({ length: k }, (_, f) => new Int32Array(sizes[f]!));
    const fill = new Int32Array(k);
    for (let r = 0; r < this.n; r++) this.foldRows[foldOf[r]!]![fill[foldOf[r]!]!++] = r;
    this.rowComplete = new Uint8Array(this.n).fill(1);
    for (const col of data.columns) for (let r = 0; r < this.n; r++) if (col[r]! < 0) this.rowComplete[r] = 0;
    // Class prior per fold.
    const C = this.C;
    const cc = new Float64Array(k * C);
    for (let r = 0; r < this.n; r++) cc[foldOf[r]! * C + data.classColumn[r]!]++;
    this.classLog = this.logTables(cc, 1, C);
    this.nbLog = [];
    let maxCard = 1;
    for (let a = 0; a < this.m; a++) {
      this.nbLog.push(this.countFamily(a, -1));
      maxCard = Math.max(maxCard, data.cards[a]!);
    }
    this.maxCard = maxCard;
    this.S = new Float64Array(this.n * C);
    this.cand = new Float64Array(C);
    this.lam = new Float64Array(this.m * maxCard);
    this.tmp = new Float64Array(maxCard);
  }

  /** Training log-probabilities per fold from per-fold counts [fold][config][value] (training = total − fold). */
  private logTables(perFold: Float64Array, configs: number, r: number): Float64Array {
    const size = configs * r;
    const k = this.k;
    const total = new Float64Array(size);
    for (let f = 0; f < k; f++) for (let i = 0; i < size; i++) total[i] += perFold[f * size + i]!;
    const out = new Float64Array(k * size);
    const a = this.alpha;
    for (let f = 0; f < k; f++) {
      const o = f * size;
      for (let j = 0; j < configs; j++) {
        let nj = 0;
        for (let x = 0; x < r; x++) nj += total[j * r + x]! - perFold[o + j * r + x]!;
        const ld = Math.log(nj + r * a);
        for (let x = 0; x < r; x++) out[o + j * r + x] = Math.log(total[j * r + x]! - perFold[o + j * r + x]! + a) - ld;
      }
    }
    return out;
  }

  /** Per-fold log θ(x_a | c[, x_p]) from one pass over the rows (available case). */
  private countFamily(a: number, p: number): Float64Array {
    const C = this.C;
    const ra = this.data.cards[a]!;
    const xa = this.data.columns[a]!;
    const y = this.data.classColumn;
    const fo = this.foldOf;
    const n = this.n;
    if (p < 0) {
      const size = C * ra;
      const cnt = new Float64Array(this.k * size);
      for (let r = 0; r < n; r++) {
        const v = xa[r]!;
        if (v >= 0) cnt[fo[r]! * size + y[r]! * ra + v]++;
      }
      return this.logTables(cnt, C, ra);
    }
    const rp = this.data.cards[p]!;
    const xp = this.data.columns[p]!;
    const size = C * rp * ra;
    const cnt = new Float64Array(this.k * size);
    for (let r = 0; r < n; r++) {
      const v = xa[r]!;
      const u = xp[r]!;
      if ((v | u) < 0) continue;
      cnt[fo[r]! * size + (y[r]! * rp + u) * ra + v]++;
    }
    return this.logTables(cnt, C * rp, ra);
  }

  /** Family table of attribute a with attribute parent p (-1: class only). */
  family(a: number, p: number): Float64Array {
    if (p < 0) return this.nbLog[a]!;
    const key = a * this.m + p;
    let t = this.pairs.get(key);
    if (!t) {
      t = this.countFamily(a, p);
      if (this.cachedCells + t.length > CACHE_CELLS) {
        this.pairs.clear();
        this.cachedCells = 0;
      }
      this.pairs.set(key, t);
      this.cachedCells += t.length;
    }
    return t;
  }

  /** Parents-before-children order of a forest. */
  private topo(par: Int32Array): Int32Array {
    const m = this.m;
    const order = new Int32Array(m);
    const placed = new Uint8Array(m);
    let t = 0;
    // Each pass places the nodes whose parent is placed; a forest needs at most depth + 1 passes.
    while (t < m) {
      const before = t;
      for (let v = 0; v < m; v++) {
        if (placed[v]) continue;
        const u = par[v]!;
        if (u < 0 || placed[u]) {
          placed[v] = 1;
          order[t++] = v;
        }
      }
      if (t === before) throw new Error('tan-hc: parent array has a cycle');
    }
    return order;
  }

  /**
   * out[c] = log P(c, x_obs) of row r under the forest `par`, with fold f's tables. Rows with missing
   * values are summed out exactly, children before parents (log space).
   */
  private rowScores(r: number, par: Int32Array, order: Int32Array, out: Float64Array): void {
    const C = this.C;
    const m = this.m;
    const f = this.foldOf[r]!;
    const cols = this.data.columns;
    const cards = this.data.cards;
    if (this.rowComplete[r]) {
      for (let c = 0; c < C; c++) out[c] = this.classLog[f * C + c]!;
      for (let a = 0; a < m; a++) {
        const p = par[a]!;
        const t = this.family(a, p);
        const ra = cards[a]!;
        const xa = cols[a]![r]!;
        if (p < 0) {
          const o = f * C * ra;
          for (let c = 0; c < C; c++) out[c] += t[o + c * ra + xa]!;
        } else {
          const rp = cards[p]!;
          const o = f * C * rp * ra;
          const xp = cols[p]![r]!;
          for (let c = 0; c < C; c++) out[c] += t[o + (c * rp + xp) * ra + xa]!;
        }
      }
      return;
    }
    const lam = this.lam;
    const mc = this.maxCard;
    const tmp = this.tmp;
    for (let c = 0; c < C; c++) {
      lam.fill(0);
      let total = this.classLog[f * C + c]!;
      for (let q = m - 1; q >= 0; q--) {
        const v = order[q]!;
        const p = par[v]!;
        const rv = cards[v]!;
        const xv = cols[v]![r]!;
        const t = this.family(v, p);
        const lo = xv < 0 ? 0 : xv;
        const hi = xv < 0 ? rv : xv + 1;
        if (p < 0) {
          const o = f * C * rv + c * rv;
          for (let x = lo; x < hi; x++) tmp[x - lo] = t[o + x]! + lam[v * mc + x]!;
          total += logSumExp(tmp, hi - lo);
          continue;
        }
        const rp = cards[p]!;
        const xp = cols[p]![r]!;
        const plo = xp < 0 ? 0 : xp;
        const phi = xp < 0 ? rp : xp + 1;
        for (let u = plo; u < phi; u++) {
          const o = f * C * rp * rv + (c * rp + u) * rv;
          for (let x = lo; x < hi; x++) tmp[x - lo] = t[o + x]! + lam[v * mc + x]!;
          lam[p * mc + u] += logSumExp(tmp, hi - lo);
        }
      }
      out[c] = total;
    }
  }

  /** Sets the current structure and returns its mean fold accuracy. */
  setCurrent(par: Int32Array): number {
    const order = this.topo(par);
    const C = this.C;
    const out = this.cand;
    for (let r = 0; r < this.n; r++) {
      this.rowScores(r, par, order, out);
      this.S.set(out, r * C);
    }
    return this.currentAccuracy();
  }

  /**
   * Mean fold accuracy of the current structure plus arcs tails[i] → heads[i] (each head an orphan).
   * `par` must be the current parent array; it is restored before returning.
   */
  score(tails: readonly number[], heads: readonly number[], par: Int32Array): number {
    const C = this.C;
    const cards = this.data.cards;
    const na = heads.length;
    const deltas: Float64Array[] = [];
    for (let i = 0; i < na; i++) {
      const a = heads[i]!;
      const p = tails[i]!;
      const ra = cards[a]!;
      const rp = cards[p]!;
      const pt = this.family(a, p);
      const nt = this.nbLog[a]!;
      const d = new Float64Array(pt.length);
      for (let f = 0; f < this.k; f++) {
        for (let c = 0; c < C; c++) {
          for (let u = 0; u < rp; u++) {
            const o = f * C * rp * ra + (c * rp + u) * ra;
            const ob = f * C * ra + c * ra;
            for (let x = 0; x < ra; x++) d[o + x] = pt[o + x]! - nt[ob + x]!;
          }
        }
      }
      deltas.push(d);
    }
    const saved = heads.map((a) => par[a]!);
    for (let i = 0; i < na; i++) par[heads[i]!] = tails[i]!;
    const result = na === 1 ? this.scoreOneArc(tails[0]!, heads[0]!, deltas[0]!, par) : this.scoreArcs(tails, heads, deltas, par);
    for (let i = 0; i < na; i++) par[heads[i]!] = saved[i]!;
    return result;
  }

  /** The hot path of tan-hc: one arc p → a, class scores updated and the argmax taken in one pass per row. */
  private scoreOneArc(p: number, a: number, d: Float64Array, par: Int32Array): number {
    const C = this.C;
    const S = this.S;
    const y = this.data.classColumn;
    const xa = this.data.columns[a]!;
    const xp = this.data.columns[p]!;
    const ra = this.data.cards[a]!;
    const st = this.data.cards[p]! * ra;
    const out = this.cand;
    let order: Int32Array | null = null;
    let sum = 0;
    for (let f = 0; f < this.k; f++) {
      const rows = this.foldRows[f]!;
      const fo = f * C * st;
      let credit = 0;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        const u = xp[r]!;
        const v = xa[r]!;
        const ys = y[r]!;
        let mx = -Infinity;
        let ties = 0;
        let yv = 0;
        if ((u | v) >= 0) {
          // Both observed: only a's term changes (exact, also when other attributes are missing).
          const base = fo + u * ra + v;
          const o = r * C;
          for (let c = 0; c < C; c++) {
            const s = S[o + c]! + d[base + c * st]!;
            if (s > mx) {
              mx = s;
              ties = 1;
            } else if (s === mx) ties++;
            if (c === ys) yv = s;
          }
        } else {
          order ??= this.topo(par);
          this.rowScores(r, par, order, out);
          for (let c = 0; c < C; c++) {
            const s = out[c]!;
            if (s > mx) {
              mx = s;
              ties = 1;
            } else if (s === mx) ties++;
          }
          yv = out[ys]!;
        }
        if (yv === mx) credit += 1 / ties;
      }
      sum += credit / rows.length;
    }
    return sum / this.k;
  }

  /** Several arcs at once (a super-parent with all its candidate children). */
  private scoreArcs(tails: readonly number[], heads: readonly number[], deltas: Float64Array[], par: Int32Array): number {
    const C = this.C;
    const S = this.S;
    const y = this.data.classColumn;
    const cards = this.data.cards;
    const cols = this.data.columns;
    const na = heads.length;
    const xa = heads.map((a) => cols[a]!);
    const xp = tails.map((p) => cols[p]!);
    const ra = Int32Array.from(heads, (a) => cards[a]!);
    const st = Int32Array.from(heads, (a, i) => cards[tails[i]!]! * cards[a]!);
    const base = new Int32Array(na);
    const out = this.cand;
    let order: Int32Array | null = null;
    let sum = 0;
    for (let f = 0; f < this.k; f++) {
      const rows = this.foldRows[f]!;
      let credit = 0;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        let simple = true;
        for (let q = 0; q < na; q++) {
          const u = xp[q]![r]!;
          const v = xa[q]![r]!;
          if ((u | v) < 0) {
            simple = false;
            break;
          }
          base[q] = f * C * st[q]! + u * ra[q]! + v;
        }
        if (simple) {
          const o = r * C;
          for (let c = 0; c < C; c++) {
            let s = S[o + c]!;
            for (let q = 0; q < na; q++) s += deltas[q]![base[q]! + c * st[q]!]!;
            out[c] = s;
          }
        } else {
          order ??= this.topo(par);
          this.rowScores(r, par, order, out);
        }
        let mx = -Infinity;
        let ties = 0;
        for (let c = 0; c < C; c++) {
          const s = out[c]!;
          if (s > mx) {
            mx = s;
            ties = 1;
          } else if (s === mx) ties++;
        }
        if (out[y[r]!] === mx) credit += 1 / ties;
      }
      sum += credit / rows.length;
    }
    return sum / this.k;
  }

  /** Mean over folds of the fold accuracy of the current scores S. */
  private currentAccuracy(): number {
    const C = this.C;
    const S = this.S;
    const y = this.data.classColumn;
    let sum = 0;
    for (let f = 0; f < this.k; f++) {
      const rows = this.foldRows[f]!;
      let credit = 0;
      for (let i = 0; i < rows.length; i++) {
        const o = rows[i]! * C;
        let mx = -Infinity;
        let ties = 0;
        for (let c = 0; c < C; c++) {
          const s = S[o + c]!;
          if (s > mx) {
            mx = s;
            ties = 1;
          } else if (s === mx) ties++;
        }
        if (S[o + y[rows[i]!]!] === mx) credit += 1 / ties;
      }
      sum += credit / rows.length;
    }
    return sum / this.k;
  }
}


/** Index of a maximum of xs (within SCORE_TOL), chosen uniformly among the tied ones. */
function maxRandom(xs: readonly number[], rng: Rng): number {
  let mx = -Infinity;
  for (const x of xs) if (x > mx) mx = x;
  const best: number[] = [];
  xs.forEach((x, i) => {
    if (x >= mx - SCORE_TOL) best.push(i);
  });
  return best.length === 1 ? best[0]! : best[rng.int(best.length)]!;
}

/** Root of v's tree in a forest. */
function rootOf(par: Int32Array, v: number): number {
  while (par[v]! >= 0) v = par[v]!;
  return v;
}

/** Attribute order by column name (code units), ties by index: the tail of an orphan–orphan arc sorts first. */
function nameRank(data: DiscreteData): Int32Array {
  const m = attributeCount(data);
  const idx = Array.from({ length: m }, (_, a) => a);
  idx.sort((a, b) => (data.names[a]! < data.names[b]! ? -1 : data.names[a]! > data.names[b]! ? 1 : a - b));
  const rank = new Int32Array(m);
  idx.forEach((a, pos) => (rank[a] = pos));
  return rank;
}

/** bnclassify's augment_ode: every arc that keeps a one-dependence forest, one of each equivalent pair. */
export function hcCandidates(par: Int32Array, rank: Int32Array): { tails: number[]; heads: number[] } {
  const m = par.length;
  const tails: number[] = [];
  const heads: number[] = [];
  const root = Int32Array.from({ length: m }, (_, v) => rootOf(par, v));
  for (let to = 0; to < m; to++) {
    if (par[to]! >= 0) continue;
    for (let from = 0; from < m; from++) {
      if (from === to || root[from] === to) continue;
      // Between two orphans keep only the arc whose tail sorts first.
      if (par[from]! < 0 && rank[from]! > rank[to]!) continue;
      tails.push(from);
      heads.push(to);
    }
  }
  return { tails, heads };
}

/** bnclassify's superparent_children: each attribute with the orphans it may take as children. */
export function superParentChildren(par: Int32Array): { sp: number; children: number[] }[] {
  const m = par.length;
  const orphans: number[] = [];
  for (let v = 0; v < m; v++) if (par[v]! < 0) orphans.push(v);
  if (orphans.length <= 1) return [];
  const out: { sp: number; children: number[] }[] = [];
  for (let s = 0; s < m; s++) {
    const r = rootOf(par, s);
    // An orphan is an ancestor of s only if it is the root of s's tree.
    const children = orphans.filter((o) => o !== s && o !== r);
    if (children.length > 0) out.push({ sp: s, children });
  }
  return out;
}

/** The greedy CV-accuracy search of bnclassify's greedy_search with the augment_ode or augment_ode_sp step. */
export function odeWrapperSearch(
  data: DiscreteData,
  opts: { k: number; epsilon: number; alpha: number; superParent: boolean },
  rng: Rng,
  signal?: AbortSignal,
): OdeWrapperResult {
  const m = attributeCount(data);
  const parent = new Int32Array(m).fill(-1);
  const k = Math.min(opts.k, data.n);
  if (k < 2 || m === 0) return { parent, score: NaN, scores: [], folds: k };
  const foldOf = stratifiedKFold(data.classColumn, data.classCard, k, rng.derive('folds'));
  const ties = rng.derive('ties');
  const ev = new OdeFoldEvaluator(data, foldOf, k, opts.alpha);
  const rank = nameRank(data);
  let current = ev.setCurrent(parent);
  const scores = [current];
  for (;;) {
    signal?.throwIfAborted();
    if (Math.abs(current - 1) < SCORE_TOL) break;
    let tails: number[];
    let heads: number[];
    if (opts.superParent) {
      const sps = superParentChildren(parent);
      if (sps.length === 0) break;
      const spScores = sps.map(({ sp, children }) => {
        signal?.throwIfAborted();
        return ev.score(
          children.map(() => sp),
          children,
          parent,
        );
      });
      const best = sps[maxRandom(spScores, ties)]!;
      heads = best.children;
      tails = heads.map(() => best.sp);
    } else {
      ({ tails, heads } = hcCandidates(parent, rank));
    }
    if (heads.length === 0) break;
    const cs: number[] = [];
    for (let i = 0; i < heads.length; i++) {
      if ((i & 63) === 0) signal?.throwIfAborted();
      cs.push(ev.score([tails[i]!], [heads[i]!], parent));
    }
    let mx = -Infinity;
    for (const s of cs) if (s > mx) mx = s;
    if (!(mx - opts.epsilon >= current - SCORE_TOL)) break;
    const pick = maxRandom(cs, ties);
    parent[heads[pick]!] = tails[pick]!;
    current = ev.setCurrent(parent);
    scores.push(current);
  }
  return { parent, score: current, scores, folds: k };
}

export function checkWrapperParams(id: string, p: OdeWrapperParams): { k: number; epsilon: number; alpha: number } {
  const k = p.k ?? 5;
  const epsilon = p.epsilon ?? 0;
  const alpha = p.smooth ?? 1;
  if (!Number.isInteger(k) || k < 2) throw new UserError(`${id}: k must be an integer >= 2, got ${String(k)}`);
  if (!(epsilon >= 0) || !Number.isFinite(epsilon)) throw new UserError(`${id}: epsilon must be a number >= 0, got ${String(epsilon)}`);
  if (!(alpha > 0) || !Number.isFinite(alpha)) throw new UserError(`${id}: smooth must be a number > 0, got ${String(alpha)}`);
  return { k, epsilon, alpha };
}

export const WRAPPER_PARAMS = {
  type: 'object',
  properties: {
    k: { type: 'integer', minimum: 2, description: 'Folds of the internal stratified cross-validation' },
    epsilon: { type: 'number', minimum: 0, description: 'Stop unless the best candidate beats the current accuracy minus epsilon' },
    smooth: { type: 'number', exclusiveMinimum: 0, description: 'Dirichlet pseudo-count per cell inside the wrapper (1 = Laplace)' },
  },
  additionalProperties: false,
} as const;

/** The most attributes a wrapper search accepts: each step scores O(m²) arcs, each over every row. */
export const WRAPPER_MAX_ATTRIBUTES = 200;

export function wrapperStructure(data: DiscreteData, p: OdeWrapperParams, ctx: LearnContext, id: string, superParent: boolean): Structure {
  const { k, epsilon, alpha } = checkWrapperParams(id, p);
  const m = attributeCount(data);
  const res = odeWrapperSearch(data, { k, epsilon, alpha, superParent }, ctx.rng, ctx.signal);
  const parents: number[][] = [];
  let arcs = 0;
  for (let a = 0; a < m; a++) {
    const q = res.parent[a]!;
    parents.push(q < 0 ? [m] : [m, q]);
    if (q >= 0) arcs++;
  }
  parents.push([]);
  const info: Record<string, number> = { arcs, folds: res.folds, steps: Math.max(0, res.scores.length - 1) };
  if (Number.isFinite(res.score)) info.cvAccuracy = res.score;
  return { m, parents, info };
}

export const tanHc = registerStructure<OdeWrapperParams>({
  id: 'tan-hc',
  title: 'TAN by greedy hill-climbing on cross-validated accuracy (augmenting arcs)',
  citation:
    'Keogh & Pazzani (2002), Learning the structure of augmented Bayesian classifiers, International Journal on ' +
    'Artificial Intelligence Tools 11(4):587–601; as bnclassify tan_hc (Mihaljević, Bielza & Larrañaga 2018, R Journal 10(2))',
  params: WRAPPER_PARAMS,
  defaults: { k: 5, epsilon: 0, smooth: 1 },
  maxAttributes: WRAPPER_MAX_ATTRIBUTES,
  learn(train, params, ctx) {
    return wrapperStructure(train, params, ctx, 'tan-hc', false);
  },
});
