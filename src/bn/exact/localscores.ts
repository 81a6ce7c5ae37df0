/**
 * Local scores of every parent set of every variable, for exact structure search (Silander & Myllymäki
 * 2006) and the K-best searches built on it.
 *
 * Every supported score is a difference of one set function plus a penalty that depends on cardinalities
 * only (the decomposition bene uses: one contingency-table statistic per variable set):
 *
 *   bdeu    s(X | P) = H(P ∪ X) − H(P),   H(S) = Σ_cells [ln Γ(α/Q(S) + N_cell) − ln Γ(α/Q(S))]
 *   loglik  s(X | P) = E(P ∪ X) − E(P),   E(S) = Σ_cells N_cell ln N_cell
 *   bic     loglik − (ln N / 2)·(r_X − 1)·Q(P)          (= −MDL)
 *   aic     loglik − (r_X − 1)·Q(P)
 *
 * with Q(S) the number of configurations of S (declared cardinalities) and sums over the cells with
 * N_cell > 0. This is exactly Σ_j [ln Γ(α/q) − ln Γ(α/q + N_j)] + Σ_jk [ln Γ(α/(rq) + N_jk) − ln Γ(α/(rq))]
 * (Heckerman, Geiger & Chickering 1995), and the conventions of src/bn/scores.ts.
 *
 * Counting: the statistic of each of the 2^n variable sets is read off the partition of the rows by the
 * set's values. Identical rows are first merged into one row with a weight. The sets are visited depth
 * first (S, then S ∪ {v} for v after max S in an order of decreasing entropy), and each partition is refined
 * from its parent's by one counting pass over the rows still sharing a cell with another distinct row: a
 * cell with one distinct row of weight w never splits again, so it leaves the active list and enters every
 * superset's statistic through running sums (ln Γ(a + 1)/Γ(a) = ln a per weight-1 cell for BDeu). Total
 * cost is the sum over sets of the active distinct rows, far below 2^n · N on real data (the "count each
 * parent set from its subsets' partitions" of the issue; AD-trees cache the same counts in a tree).
 *
 * Missing values: structure scores need one data set for every family, so learning uses the rows in which
 * every variable is observed (complete-case analysis); `rows` says how many.
 *
 * Constraint 'anb' (augmented naive Bayes, Sugahara & Ueno 2021): the class is a parent of every feature
 * and has no parents. The search then runs over the features only, with the class folded into every
 * parent set: s'(X | P) = s(X | P ∪ {C}), and the class's own family s(C | ∅) is a constant. This halves
 * the search (2^m subsets instead of 2^(m+1)) and is equivalent to giving every excluded family −∞.
 */
import type { DiscreteData } from '../data.js';
import { lgamma } from '../scores.js';
import { UserError } from '../../util/errors.js';

export type ExactScore = 'bdeu' | 'bic' | 'aic' | 'loglik';
export const EXACT_SCORES: readonly ExactScore[] = ['bdeu', 'loglik', 'bic', 'aic'];
export type ExactConstraint = 'none' | 'anb';

/** Default memory budget of an exact search (the goal: peak memory ≤ 2 GB). */
export const DEFAULT_MEMORY_LIMIT_MB = 2048;
/** Masks are 32-bit; 2^30 sets of statistics would already need 8 GB. */
const MAX_EXACT_VARIABLES = 30;

/** BDeu cells with a = α/Q below this use a series instead of a cached ln Γ table (see cellSum). */
const SERIES_BELOW = 1e-4;
/** Cached ln Γ tables (one per distinct Q) may hold at most this many doubles (256 MB). */
const TABLE_CACHE_DOUBLES = 32 * 1024 * 1024;

interface LocalScoreOptions {
  readonly score: ExactScore;
  /** BDeu equivalent sample size α. */
  readonly ess: number;
  readonly constraint: ExactConstraint;
  readonly signal?: AbortSignal;
}

/** Rows with every attribute observed (the class never is missing). */
export function completeRows(data: DiscreteData): Int32Array {
  const n = data.n;
  const keep = new Uint8Array(n).fill(1);
  for (const col of data.columns) for (let r = 0; r < n; r++) if (col[r] < 0) keep[r] = 0;
  let k = 0;
  for (let r = 0; r < n; r++) k += keep[r];
  const out = new Int32Array(k);
  k = 0;
  for (let r = 0; r < n; r++) if (keep[r]) out[k++] = r;
  return out;
}

/** Throws a UserError when an estimate exceeds the budget; `what` names the problem in the message. */
export function checkMemory(bytes: number, limitMB: number, what: string): void {
  const limit = limitMB * 1024 * 1024;
  if (bytes > limit) {
    throw new UserError(
      `${what} needs an estimated ${(bytes / 2 ** 30).toFixed(2)} GB, over the memory limit of ${(limit / 2 ** 30).toFixed(2)} GB ` +
        `(memoryLimitMB = ${limitMB}); use fewer attributes${what.includes('K =') ? ' or a smaller K' : ''}`,
    );
  }
}

/** Bytes the statistics of a problem with n DP variables and N rows take. */
export function localScoreBytes(nVars: number, rows: number): number {
  return 8 * 2 ** nVars + 8 * (nVars + 2) * (rows + 1) + 8 * 4 * (rows + 1);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error('cancelled');
}

/**
 * Local scores of an exact-search problem over `n` DP variables. Variable i is structure node nodes[i]
 * (attributes 0..m-1, the class m). Parent sets are masks over the DP variables.
 */
export class LocalScores {
  readonly score: ExactScore;
  readonly ess: number;
  readonly constraint: ExactConstraint;
  /** Number of DP variables. */
  readonly n: number;
  /** Attributes in the data (the class is structure node m). */
  readonly m: number;
  /** DP variable → structure node. */
  readonly nodes: Int32Array;
  /** Cardinality of each DP variable. */
  readonly cards: Float64Array;
  /** Number of complete rows the scores are computed on. */
  readonly rows: number;
  /** Set statistic H (BDeu) or E (likelihood scores) of every subset of the DP variables (∪ the class under 'anb'). */
  readonly stat: Float64Array;
  /** Score of the families outside the search (the class's, under 'anb'); 0 otherwise. */
  readonly constant: number;
  /** Product of the cardinalities folded into every parent set (classCard under 'anb', else 1). */
  private readonly contextQ: number;
  /** Penalty per free parameter: ln N / 2 (bic), 1 (aic), 0 (bdeu, loglik). */
  private readonly penalty: number;

  constructor(data: DiscreteData, opts: LocalScoreOptions) {
    if (!(opts.ess > 0) || !Number.isFinite(opts.ess))
      throw new UserError(`exact search: ess must be a finite number > 0, got ${opts.ess}`);
    this.score = opts.score;
    this.ess = opts.ess;
    this.constraint = opts.constraint;
    const m = data.columns.length;
    this.m = m;
    const anb = opts.constraint === 'anb';
    const n = anb ? m : m + 1;
    if (n > MAX_EXACT_VARIABLES)
      throw new UserError(`exact search handles at most ${MAX_EXACT_VARIABLES} variables; this problem has ${n}`);
    this.n = n;
    this.nodes = Int32Array.from({ length: n }, (_, i) => i);
    this.cards = new Float64Array(n);
    for (let i = 0; i < n; i++) this.cards[i] = i < m ? data.cards[i] : data.classCard;
    const rowsIdx = completeRows(data);
    const N = rowsIdx.length;
    this.rows = N;
    this.contextQ = anb ? data.classCard : 1;
    this.penalty = opts.score === 'bic' ? (N > 0 ? 0.5 * Math.log(N) : 0) : opts.score === 'aic' ? 1 : 0;
    // Identical complete rows are merged into one weighted row: counting then scales with the distinct rows.
    const { rows: distinct, weights } = distinctRows(data, rowsIdx);
    const D = distinct.length;
    const cols: Int32Array[] = [];
    for (let i = 0; i < n; i++) {
      const src = i < m ? data.columns[i] : data.classColumn;
      const c = new Int32Array(D);
      for (let r = 0; r < D; r++) c[r] = src[distinct[r]];
      cols.push(c);
    }
    const classCol = new Int32Array(D);
    for (let r = 0; r < D; r++) classCol[r] = data.classColumn[distinct[r]];
    const counter = new SetCounter(opts.score === 'bdeu', opts.ess, N, weights);
    this.stat = counter.all(cols, this.cards, anb ? classCol : null, anb ? data.classCard : 1, opts.signal);
    if (anb) {
      // s(C | ∅) = stat({C}) − stat(∅) − penalty·(r_C − 1).
      const empty = N === 0 ? 0 : opts.score === 'bdeu' ? lgamma(opts.ess + N) - lgamma(opts.ess) : N * Math.log(N);
      this.constant = this.stat[0] - empty - this.penalty * (data.classCard - 1);
    } else {
      this.constant = 0;
    }
  }

  /** Number of configurations of a parent mask (times the folded class, under 'anb'). */
  configs(mask: number): number {
    let q = this.contextQ;
    for (let s = mask; s !== 0; s &= s - 1) q *= this.cards[31 - Math.clz32(s & -s)];
    return q;
  }

  /** s(x | parents), parents a mask over the DP variables without bit x. */
  local(x: number, parents: number): number {
    const s = this.stat[parents | (1 << x)] - this.stat[parents];
    return this.penalty === 0 ? s : s - this.penalty * (this.cards[x] - 1) * this.configs(parents);
  }

  /**
   * out[c] = s(x | expand(c, x)) for every compressed parent set c of x (length 2^(n-1)). `q` is an optional
   * scratch of the same length for the configuration counts.
   */
  fillLocal(x: number, out: Float64Array, q?: Float64Array): void {
    const M = 1 << (this.n - 1);
    const stat = this.stat;
    const bx = 1 << x;
    const lowMask = bx - 1;
    if (this.penalty === 0) {
      for (let c = 0; c < M; c++) {
        const full = ((c >>> x) << (x + 1)) | (c & lowMask);
        out[c] = stat[full | bx] - stat[full];
      }
      return;
    }
    const qs = q ?? new Float64Array(M);
    qs[0] = this.contextQ;
    const k = this.penalty * (this.cards[x] - 1);
    out[0] = stat[bx] - stat[0] - k * qs[0];
    for (let c = 1; c < M; c++) {
      const low = 31 - Math.clz32(c & -c);
      const v = low < x ? low : low + 1;
      qs[c] = qs[c & (c - 1)] * this.cards[v];
      const full = ((c >>> x) << (x + 1)) | (c & lowMask);
      out[c] = stat[full | bx] - stat[full] - k * qs[c];
    }
  }
}

/** The distinct complete rows (first occurrence) and how often each occurs. */
function distinctRows(data: DiscreteData, rows: Int32Array): { rows: Int32Array; weights: Int32Array } {
  const seen = new Map<string, number>();
  const first: number[] = [];
  const weight: number[] = [];
  const cols = data.columns;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k];
    let key = String(data.classColumn[r]);
    for (let a = 0; a < cols.length; a++) key += `,${cols[a][r]}`;
    const at = seen.get(key);
    if (at === undefined) {
      seen.set(key, first.length);
      first.push(r);
      weight.push(1);
    } else weight[at]++;
  }
  return { rows: Int32Array.from(first), weights: Int32Array.from(weight) };
}

/**
 * The depth-first partition-refinement counter over weighted distinct rows. A cell is "active" while it
 * holds two or more distinct rows; a cell holding one distinct row can never split again, so it is
 * "frozen" with its weight w (w = 1 counted apart as a singleton) and enters every superset's statistic
 * through running sums instead of the row lists. all() returns stat[mask] for every mask over the columns
 * (each set additionally split by `context` when given).
 */
class SetCounter {
  private readonly bdeu: boolean;
  private readonly ess: number;
  /** Total weight (complete rows). */
  private readonly N: number;
  private readonly w: Int32Array;
  private readonly tables = new Map<number, Float64Array>();
  private tableDoubles = 0;
  /** Series tables: lf[c] = ln Γ(c), h1/h2/h3[c] = Σ_{i<c} 1/i, 1/i², 1/i³. */
  private readonly lf: Float64Array;
  private readonly h1: Float64Array;
  private readonly h2: Float64Array;
  private readonly h3: Float64Array;
  private readonly xlogx: Float64Array;

  constructor(bdeu: boolean, ess: number, N: number, weights: Int32Array) {
    this.bdeu = bdeu;
    this.ess = ess;
    this.N = N;
    this.w = weights;
    const size = N + 2;
    this.xlogx = new Float64Array(size);
    this.lf = new Float64Array(size);
    this.h1 = new Float64Array(size);
    this.h2 = new Float64Array(size);
    this.h3 = new Float64Array(size);
    for (let c = 2; c < size; c++) {
      const i = c - 1;
      this.xlogx[c] = c * Math.log(c);
      this.lf[c] = this.lf[c - 1] + Math.log(i);
      this.h1[c] = this.h1[c - 1] + 1 / i;
      this.h2[c] = this.h2[c - 1] + 1 / (i * i);
      this.h3[c] = this.h3[c - 1] + 1 / (i * i * i);
    }
  }

  all(
    cols: Int32Array[],
    cards: Float64Array,
    context: Int32Array | null,
    contextCard: number,
    signal?: AbortSignal,
  ): Float64Array {
    const n = cols.length;
    const D = this.w.length;
    const stat = new Float64Array(2 ** n);
    const levels = n + 1;
    const lv: Level[] = [];
    for (let l = 0; l < levels; l++) lv.push(newLevel(D));
    const frozen = new FrozenStack(D, this);
    const scratch = new Int32Array(Math.max(2, contextCard, ...Array.from(cards)) * 4 + 4);
    const w = this.w;
    // Level 0: the rows split by the context (or one cell holding every row).
    const top: Level = newLevel(D);
    for (let r = 0; r < D; r++) top.rows[r] = r;
    top.bounds[0] = 0;
    top.ends[0] = D;
    top.gw[0] = this.N;
    top.groups = D > 0 ? 1 : 0;
    frozen.reset();
    if (context) {
      refine(top, context, contextCard, lv[0], w, scratch, frozen);
    } else if (D >= 2) {
      lv[0].rows.set(top.rows);
      lv[0].bounds[0] = 0;
      lv[0].ends[0] = D;
      lv[0].gw[0] = this.N;
      lv[0].groups = 1;
    } else {
      lv[0].groups = 0;
      if (D === 1) frozen.add(w[0]);
    }
    frozen.close(0);
    // Sets are enumerated with the most informative variables first: their splits make rows unique
    // sooner, and a unique row leaves every later refinement.
    const entropy = cols.map((col, v) => {
      const t = new Float64Array(cards[v]);
      for (let r = 0; r < D; r++) t[col[r]] += w[r];
      let h = 0;
      for (const c of t) if (c > 0) h -= (c / this.N) * Math.log(c / this.N);
      return h;
    });
    const order = Int32Array.from({ length: n }, (_, v) => v).sort((a, b) => entropy[b] - entropy[a] || a - b);
    const cur: Level[] = lv.slice();
    let visited = 0;
    const visit = (level: number, mask: number, next: number, q: number): void => {
      if ((++visited & 0xfff) === 0) throwIfAborted(signal);
      const L = cur[level];
      stat[mask] = this.cellSum(L, frozen, level, q);
      for (let k = next; k < n; k++) {
        const v = order[k];
        frozen.open();
        if (L.groups === 0 || cards[v] === 1) {
          // nothing left to split, or a constant column: the partition is the parent's
          cur[level + 1] = L;
        } else {
          const child = lv[level + 1];
          refine(L, cols[v], cards[v], child, w, scratch, frozen);
          cur[level + 1] = child;
        }
        frozen.close(level + 1);
        visit(level + 1, mask | (1 << v), k + 1, q * cards[v]);
      }
    };
    visit(0, 0, 0, contextCard);
    return stat;
  }

  /** The statistic of one set: Σ over the cells with N_cell > 0 of f(N_cell). */
  private cellSum(L: Level, frozen: FrozenStack, level: number, q: number): number {
    const g = L.groups;
    const gw = L.gw;
    if (!this.bdeu) {
      const t = this.xlogx;
      let s = frozen.xlogx[level];
      for (let k = 0; k < g; k++) s += t[gw[k]];
      return s;
    }
    const a = this.ess / q;
    if (a >= SERIES_BELOW) {
      const t = this.table(q, a);
      let s = frozen.singles[level] * t[1];
      for (let k = 0; k < g; k++) s += t[gw[k]];
      const end = frozen.height[level];
      for (let e = 0; e < end; e++) s += frozen.count[e] * t[frozen.weight[e]];
      return s;
    }
    // ln Γ(a + c) − ln Γ(a) = ln a + ln Γ(c) + Σ_{i<c} ln(1 + a/i) = ln a + ln Γ(c) + a·h1 − a²/2·h2 + a³/3·h3 − …;
    // the first omitted term is below a⁴·ζ(4)/4 < 3e-17 per cell.
    const { lf, h1, h2, h3 } = this;
    let sl = frozen.lf[level];
    let s1 = frozen.h1[level];
    let s2 = frozen.h2[level];
    let s3 = frozen.h3[level];
    for (let k = 0; k < g; k++) {
      const c = gw[k];
      sl += lf[c];
      s1 += h1[c];
      s2 += h2[c];
      s3 += h3[c];
    }
    const cells = g + frozen.singles[level] + frozen.cells[level];
    return cells * Math.log(a) + sl + a * s1 - ((a * a) / 2) * s2 + ((a * a * a) / 3) * s3;
  }

  /** t[c] = ln Γ(a + c) − ln Γ(a) for c = 0..N, cached per Q. */
  private table(q: number, a: number): Float64Array {
    let t = this.tables.get(q);
    if (t) return t;
    const N = this.N;
    if (this.tableDoubles + N + 2 > TABLE_CACHE_DOUBLES) {
      this.tables.clear();
      this.tableDoubles = 0;
    }
    t = new Float64Array(N + 2);
    const lga = lgamma(a);
    for (let c = 1; c <= N + 1; c++) t[c] = lgamma(a + c) - lga;
    this.tables.set(q, t);
    this.tableDoubles += N + 2;
    return t;
  }

  /** Per-weight terms of a frozen cell for the running sums. */
  terms(c: number): { xlogx: number; lf: number; h1: number; h2: number; h3: number } {
    return { xlogx: this.xlogx[c], lf: this.lf[c], h1: this.h1[c], h2: this.h2[c], h3: this.h3[c] };
  }
}

interface Level {
  /** Distinct rows of the active cells, cell after cell (possibly with unused slots between cells). */
  rows: Int32Array;
  /** Start and end of each active cell in rows. */
  bounds: Int32Array;
  ends: Int32Array;
  /** Total weight of each active cell. */
  gw: Int32Array;
  groups: number;
}

function newLevel(D: number): Level {
  return {
    rows: new Int32Array(D),
    bounds: new Int32Array(D + 1),
    ends: new Int32Array(D + 1),
    gw: new Int32Array(D + 1),
    groups: 0,
  };
}

/**
 * Frozen cells per DFS level: weight-1 cells as a count, heavier ones as (weight, count) entries on a stack
 * (level l owns entries [0, height[l])) plus running sums of their per-cell terms. Siblings at one level
 * overwrite each other's entries, so nothing is copied.
 */
class FrozenStack {
  readonly weight: Int32Array;
  readonly count: Float64Array;
  readonly height: Int32Array;
  readonly singles: Float64Array;
  readonly cells: Float64Array;
  readonly xlogx: Float64Array;
  readonly lf: Float64Array;
  readonly h1: Float64Array;
  readonly h2: Float64Array;
  readonly h3: Float64Array;
  private readonly touched: Int32Array;
  private nTouched = 0;
  private newSingles = 0;
  private readonly owner: SetCounter;

  constructor(D: number, owner: SetCounter) {
    this.owner = owner;
    this.weight = new Int32Array(D + 1);
    this.count = new Float64Array(D + 1);
    const L = 40;
    this.height = new Int32Array(L);
    this.singles = new Float64Array(L);
    this.cells = new Float64Array(L);
    this.xlogx = new Float64Array(L);
    this.lf = new Float64Array(L);
    this.h1 = new Float64Array(L);
    this.h2 = new Float64Array(L);
    this.h3 = new Float64Array(L);
    this.touched = new Int32Array(D + 1);
  }

  /** Frozen cells of weight >= 2 collected by the current refinement, by weight. */
  private readonly histMap = new Map<number, number>();

  reset(): void {
    this.nTouched = 0;
    this.newSingles = 0;
    this.histMap.clear();
  }

  /** Starts collecting the cells frozen by the next refinement. */
  open(): void {
    this.reset();
  }

  add(w: number): void {
    if (w === 1) {
      this.newSingles++;
      return;
    }
    const c = this.histMap.get(w);
    if (c === undefined) {
      this.histMap.set(w, 1);
      this.touched[this.nTouched++] = w;
    } else this.histMap.set(w, c + 1);
  }

  /** Appends the collected cells to the parent level's state. */
  close(level: number): void {
    const prev = level - 1;
    let h = prev >= 0 ? this.height[prev] : 0;
    let singles = prev >= 0 ? this.singles[prev] : 0;
    let cells = prev >= 0 ? this.cells[prev] : 0;
    let xl = prev >= 0 ? this.xlogx[prev] : 0;
    let lf = prev >= 0 ? this.lf[prev] : 0;
    let h1 = prev >= 0 ? this.h1[prev] : 0;
    let h2 = prev >= 0 ? this.h2[prev] : 0;
    let h3 = prev >= 0 ? this.h3[prev] : 0;
    singles += this.newSingles;
    for (let k = 0; k < this.nTouched; k++) {
      const w = this.touched[k];
      const c = this.histMap.get(w)!;
      this.weight[h] = w;
      this.count[h] = c;
      h++;
      const t = this.owner.terms(w);
      cells += c;
      xl += c * t.xlogx;
      lf += c * t.lf;
      h1 += c * t.h1;
      h2 += c * t.h2;
      h3 += c * t.h3;
    }
    this.height[level] = h;
    this.singles[level] = singles;
    this.cells[level] = cells;
    this.xlogx[level] = xl;
    this.lf[level] = lf;
    this.h1[level] = h1;
    this.h2[level] = h2;
    this.h3[level] = h3;
  }
}

/**
 * Splits each active cell of src by col's value into dst, keeping the parts with two or more distinct rows
 * active and handing the parts with one distinct row to `frozen`.
 */
function refine(
  src: Level,
  col: Int32Array,
  card: number,
  dst: Level,
  w: Int32Array,
  scratch: Int32Array,
  frozen: FrozenStack,
): void {
  const rows = src.rows;
  const bounds = src.bounds;
  const ends = src.ends;
  const out = dst.rows;
  const ob = dst.bounds;
  const oe = dst.ends;
  const ow = dst.gw;
  let o = 0;
  let g = 0;
  if (card === 2) {
    // One pass: zeros from the front of the cell's slot, ones from the back. A part with one row is frozen
    // and leaves an unused slot, which is harmless (cells are addressed through bounds).
    const gws = src.gw;
    for (let k = 0; k < src.groups; k++) {
      const s = bounds[k];
      const e = ends[k];
      let o0 = o;
      let o1 = o + (e - s);
      let w1 = 0;
      for (let p = s; p < e; p++) {
        const row = rows[p];
        if (col[row] === 0) out[o0++] = row;
        else {
          out[--o1] = row;
          w1 += w[row];
        }
      }
      const zeros = o0 - o;
      const ones = e - s - zeros;
      if (zeros >= 2) {
        ob[g] = o;
        oe[g] = o0;
        ow[g++] = gws[k] - w1;
      } else if (zeros === 1) frozen.add(gws[k] - w1);
      if (ones >= 2) {
        ob[g] = o1;
        oe[g] = o + (e - s);
        ow[g++] = w1;
      } else if (ones === 1) frozen.add(w1);
      o += e - s;
    }
  } else {
    // Counts per value, touched values only: small cells (the common case once most rows are split off)
    // cost O(cell size), not O(card). scratch holds cnt | off | wsum | the touched list, all zero between cells.
    const span = scratch.length >> 2; // fixed regions, whatever the card: cnt and wsum must stay zero
    const cnt = scratch.subarray(0, span);
    const off = scratch.subarray(span, 2 * span);
    const wsum = scratch.subarray(2 * span, 3 * span);
    const touched = scratch.subarray(3 * span, 4 * span);
    for (let k = 0; k < src.groups; k++) {
      const s = bounds[k];
      const e = ends[k];
      if (e - s === 2) {
        const r0 = rows[s];
        const r1 = rows[s + 1];
        if (col[r0] === col[r1]) {
          ob[g] = o;
          oe[g] = o + 2;
          ow[g++] = src.gw[k];
          out[o++] = r0;
          out[o++] = r1;
        } else {
          frozen.add(w[r0]);
          frozen.add(w[r1]);
        }
        continue;
      }
      let nt = 0;
      for (let p = s; p < e; p++) {
        const row = rows[p];
        const v = col[row];
        if (cnt[v]++ === 0) touched[nt++] = v;
        wsum[v] = wsum[v] + w[row];
      }
      let any = false;
      for (let i = 0; i < nt; i++) {
        const v = touched[i];
        const c = cnt[v];
        if (c >= 2) {
          ob[g] = o;
          oe[g] = o + c;
          ow[g++] = wsum[v];
          off[v] = o;
          o += c;
          any = true;
        } else frozen.add(wsum[v]);
      }
      if (any) {
        for (let p = s; p < e; p++) {
          const row = rows[p];
          const v = col[row];
          if (cnt[v] >= 2) out[off[v]++] = row;
        }
      }
      for (let i = 0; i < nt; i++) {
        const v = touched[i];
        cnt[v] = 0;
        wsum[v] = 0;
      }
    }
  }
  dst.groups = g;
}
