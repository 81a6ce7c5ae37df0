/**
 * Per-fold Laplace tables and per-row class scores for one-dependence structures: the evaluator of tan-hc and
 * tan-hcsp (see src/structures/tan-hc.ts for the search it serves and its cost).
 */
import type { DiscreteData } from '../../bn/data.js';
import { logSumExp } from '../../bn/inference.js';
import { FoldEvaluatorBase, foldLogTables } from './common.js';
import type { RowSink } from './bnclassify-cv.js';

/** Cached per-fold log-probability tables would exceed this many cells: the cache is cleared. */
const CACHE_CELLS = 1 << 23;

/**
 * Per-fold Laplace tables and current per-row class scores for one-dependence structures.
 * Family tables are laid out [fold][c][x_parent][x_child] (class first, as in FamilyCounts).
 */
export class OdeFoldEvaluator extends FoldEvaluatorBase {
  private readonly rowComplete: Uint8Array;
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
    super(data, foldOf, k, alpha);
    this.rowComplete = new Uint8Array(this.n).fill(1);
    for (const col of data.columns) for (let r = 0; r < this.n; r++) if (col[r] < 0) this.rowComplete[r] = 0;
    const C = this.C;
    this.nbLog = [];
    let maxCard = 1;
    for (let a = 0; a < this.m; a++) {
      this.nbLog.push(this.countFamily(a, -1));
      maxCard = Math.max(maxCard, data.cards[a]);
    }
    this.maxCard = maxCard;
    this.S = new Float64Array(this.n * C);
    this.cand = new Float64Array(C);
    this.lam = new Float64Array(this.m * maxCard);
    this.tmp = new Float64Array(maxCard);
  }

  /** Per-fold log θ(x_a | c[, x_p]) from one pass over the rows (available case). */
  private countFamily(a: number, p: number): Float64Array {
    const C = this.C;
    const ra = this.data.cards[a];
    const xa = this.data.columns[a];
    const y = this.data.classColumn;
    const fo = this.foldOf;
    const n = this.n;
    if (p < 0) {
      const size = C * ra;
      const cnt = new Float64Array(this.k * size);
      for (let r = 0; r < n; r++) {
        const v = xa[r];
        if (v >= 0) cnt[fo[r] * size + y[r] * ra + v]++;
      }
      return foldLogTables(cnt, C, ra, this.k, this.alpha);
    }
    const rp = this.data.cards[p];
    const xp = this.data.columns[p];
    const size = C * rp * ra;
    const cnt = new Float64Array(this.k * size);
    for (let r = 0; r < n; r++) {
      const v = xa[r];
      const u = xp[r];
      if ((v | u) < 0) continue;
      cnt[fo[r] * size + (y[r] * rp + u) * ra + v]++;
    }
    return foldLogTables(cnt, C * rp, ra, this.k, this.alpha);
  }

  /** Family table of attribute a with attribute parent p (-1: class only). */
  family(a: number, p: number): Float64Array {
    if (p < 0) return this.nbLog[a];
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
        const u = par[v];
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
    const f = this.foldOf[r];
    const cols = this.data.columns;
    const cards = this.data.cards;
    if (this.rowComplete[r]) {
      for (let c = 0; c < C; c++) out[c] = this.classLog[f * C + c];
      for (let a = 0; a < m; a++) {
        const p = par[a];
        const t = this.family(a, p);
        const ra = cards[a];
        const xa = cols[a][r];
        if (p < 0) {
          const o = f * C * ra;
          for (let c = 0; c < C; c++) out[c] += t[o + c * ra + xa];
        } else {
          const rp = cards[p];
          const o = f * C * rp * ra;
          const xp = cols[p][r];
          for (let c = 0; c < C; c++) out[c] += t[o + (c * rp + xp) * ra + xa];
        }
      }
      return;
    }
    const lam = this.lam;
    const mc = this.maxCard;
    const tmp = this.tmp;
    for (let c = 0; c < C; c++) {
      lam.fill(0);
      let total = this.classLog[f * C + c];
      for (let q = m - 1; q >= 0; q--) {
        const v = order[q];
        const p = par[v];
        const rv = cards[v];
        const xv = cols[v][r];
        const t = this.family(v, p);
        const lo = xv < 0 ? 0 : xv;
        const hi = xv < 0 ? rv : xv + 1;
        if (p < 0) {
          const o = f * C * rv + c * rv;
          for (let x = lo; x < hi; x++) tmp[x - lo] = t[o + x] + lam[v * mc + x];
          total += logSumExp(tmp, hi - lo);
          continue;
        }
        const rp = cards[p];
        const xp = cols[p][r];
        const plo = xp < 0 ? 0 : xp;
        const phi = xp < 0 ? rp : xp + 1;
        for (let u = plo; u < phi; u++) {
          const o = f * C * rp * rv + (c * rp + u) * rv;
          for (let x = lo; x < hi; x++) tmp[x - lo] = t[o + x] + lam[v * mc + x];
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
    const deltas = this.arcDeltas(tails, heads);
    const na = heads.length;
    const saved = heads.map((a) => par[a]);
    for (let i = 0; i < na; i++) par[heads[i]] = tails[i];
    const result =
      na === 1 ? this.scoreOneArc(tails[0], heads[0], deltas[0], par) : this.scoreArcs(tails, heads, deltas, par);
    for (let i = 0; i < na; i++) par[heads[i]] = saved[i];
    return result;
  }

  /**
   * Hands every row's class scores under the current structure plus arcs tails[i] → heads[i] (none: the
   * current structure) to `sink`, fold by fold (bnclassify-cv.ts draws R's ties from them). `par` as in score.
   */
  visitRows(tails: readonly number[], heads: readonly number[], par: Int32Array, sink: RowSink): void {
    const C = this.C;
    if (heads.length === 0) {
      for (let f = 0; f < this.k; f++) for (const r of this.foldRows[f]) sink(f, r, this.S, r * C);
      return;
    }
    const deltas = this.arcDeltas(tails, heads);
    const saved = heads.map((a) => par[a]);
    for (let i = 0; i < heads.length; i++) par[heads[i]] = tails[i];
    this.scoreArcs(tails, heads, deltas, par, sink);
    for (let i = 0; i < heads.length; i++) par[heads[i]] = saved[i];
  }

  /** Per-fold differences of each head's family table with its new tail and without (class only). */
  private arcDeltas(tails: readonly number[], heads: readonly number[]): Float64Array[] {
    const C = this.C;
    const cards = this.data.cards;
    const na = heads.length;
    const deltas: Float64Array[] = [];
    for (let i = 0; i < na; i++) {
      const a = heads[i];
      const p = tails[i];
      const ra = cards[a];
      const rp = cards[p];
      const pt = this.family(a, p);
      const nt = this.nbLog[a];
      const d = new Float64Array(pt.length);
      for (let f = 0; f < this.k; f++) {
        for (let c = 0; c < C; c++) {
          for (let u = 0; u < rp; u++) {
            const o = f * C * rp * ra + (c * rp + u) * ra;
            const ob = f * C * ra + c * ra;
            for (let x = 0; x < ra; x++) d[o + x] = pt[o + x] - nt[ob + x];
          }
        }
      }
      deltas.push(d);
    }
    return deltas;
  }

  /** The hot path of tan-hc: one arc p → a, class scores updated and the argmax taken in one pass per row. */
  private scoreOneArc(p: number, a: number, d: Float64Array, par: Int32Array): number {
    const C = this.C;
    const S = this.S;
    const y = this.data.classColumn;
    const xa = this.data.columns[a];
    const xp = this.data.columns[p];
    const ra = this.data.cards[a];
    const st = this.data.cards[p] * ra;
    const out = this.cand;
    let order: Int32Array | null = null;
    let sum = 0;
    for (let f = 0; f < this.k; f++) {
      const rows = this.foldRows[f];
      const fo = f * C * st;
      let credit = 0;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const u = xp[r];
        const v = xa[r];
        const ys = y[r];
        let mx = -Infinity;
        let ties = 0;
        let yv = 0;
        if ((u | v) >= 0) {
          // Both observed: only a's term changes (exact, also when other attributes are missing).
          const base = fo + u * ra + v;
          const o = r * C;
          for (let c = 0; c < C; c++) {
            const s = S[o + c] + d[base + c * st];
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
            const s = out[c];
            if (s > mx) {
              mx = s;
              ties = 1;
            } else if (s === mx) ties++;
          }
          yv = out[ys];
        }
        if (yv === mx) credit += 1 / ties;
      }
      sum += credit / rows.length;
    }
    return sum / this.k;
  }

  /** Several arcs at once (a super-parent with all its candidate children); with `sink`, the rows go there. */
  private scoreArcs(
    tails: readonly number[],
    heads: readonly number[],
    deltas: Float64Array[],
    par: Int32Array,
    sink?: RowSink,
  ): number {
    const C = this.C;
    const S = this.S;
    const y = this.data.classColumn;
    const cards = this.data.cards;
    const cols = this.data.columns;
    const na = heads.length;
    const xa = heads.map((a) => cols[a]);
    const xp = tails.map((p) => cols[p]);
    const ra = Int32Array.from(heads, (a) => cards[a]);
    const st = Int32Array.from(heads, (a, i) => cards[tails[i]] * cards[a]);
    const base = new Int32Array(na);
    const out = this.cand;
    let order: Int32Array | null = null;
    let sum = 0;
    for (let f = 0; f < this.k; f++) {
      const rows = this.foldRows[f];
      let credit = 0;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        let simple = true;
        for (let q = 0; q < na; q++) {
          const u = xp[q][r];
          const v = xa[q][r];
          if ((u | v) < 0) {
            simple = false;
            break;
          }
          base[q] = f * C * st[q] + u * ra[q] + v;
        }
        if (simple) {
          const o = r * C;
          for (let c = 0; c < C; c++) {
            let s = S[o + c];
            for (let q = 0; q < na; q++) s += deltas[q][base[q] + c * st[q]];
            out[c] = s;
          }
        } else {
          order ??= this.topo(par);
          this.rowScores(r, par, order, out);
        }
        if (sink) {
          sink(f, r, out, 0);
          continue;
        }
        let mx = -Infinity;
        let ties = 0;
        for (let c = 0; c < C; c++) {
          const s = out[c];
          if (s > mx) {
            mx = s;
            ties = 1;
          } else if (s === mx) ties++;
        }
        if (out[y[r]] === mx) credit += 1 / ties;
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
      const rows = this.foldRows[f];
      let credit = 0;
      for (let i = 0; i < rows.length; i++) {
        const o = rows[i] * C;
        let mx = -Infinity;
        let ties = 0;
        for (let c = 0; c < C; c++) {
          const s = S[o + c];
          if (s > mx) {
            mx = s;
            ties = 1;
          } else if (s === mx) ties++;
        }
        if (S[o + y[rows[i]]] === mx) credit += 1 / ties;
      }
      sum += credit / rows.length;
    }
    return sum / this.k;
  }
}
