/**
 * bnclassify 0.4.8's greedy search draw for draw: what tan-hc and kdb-hc do with `r_seed: S`, so that they
 * reproduce an R session that calls set.seed(S) right before tan_hc(...) / kdb(...). R's generator is
 * util/r-rng.ts. bnclassify's greedy_search (R/learn-hc.R) draws from R's stream in three places, in
 * this order:
 *
 * 1. The internal partition, once (partition_dataset → make_stratified_folds): the rows are grouped by
 *    class (level order, each group ascending); for each class with n ≥ 1 rows, `fold_ids <- sample(1:k, k)`
 *    and then `sample(rep(fold_ids, length.out = n), n)` — for n = 1 that is sample() of a single number
 *    f, which R reads as sample(1:f, 1) (so a one-row class lands in a fold drawn from 1..fold_ids[1]).
 *    Test fold j holds the rows given fold number j, class by class, ascending within a class; folds
 *    no row drew are absent (split drops them), the others keep the order of their numbers.
 * 2. Each row's prediction inside cv_lp_partition: for every test fold in order, every candidate
 *    structure in order, the fold's test rows in the order above get predict(normalize = FALSE), the
 *    class-wise joint probabilities exp(log P(c, x)), and map() takes max.col(ties.method = "random"):
 *    with tol = 1e-5 · the row's largest finite |p|, a scan over the classes keeps the running maximum a,
 *    a class b > a + tol becomes the maximum, and a class with b ≥ a − tol is a tie, the t-th tied value
 *    replacing the choice when t · unif_rand() < 1 (reservoir sampling). Rows without such near ties draw
 *    nothing; rows whose probabilities all underflow to 0 tie everywhere. A fold's accuracy is
 *    count_equal / rows, and a candidate's score the colMeans over folds, summed and divided in x87 long
 *    double and rounded once (rMean here).
 * 3. The choice among the best candidates (max_random): the indices whose score is within
 *    sqrt(.Machine$double.eps) of the maximum; with more than one, sample(indices, 1).
 *
 * The loop: the initial structure is the only candidate of the first round (its score drawn as in 2); a
 * round stops the search when the best score − epsilon < the current score (compared exactly), the
 * current score is within sqrt(eps) of 1 before a round, or the step yields no candidate. Candidates come
 * in bnclassify's order (tanHcCandidates, kdbCandidates below). Nothing else in tan_hc or kdb draws.
 */
import type { DiscreteData } from '../../bn/data.js';
import type { RRng } from '../../util/r-rng.js';

/** max.col's relative tolerance (R's RELTOL). */
const MAX_COL_RELTOL = 1e-5;
/** bnclassify's fast_equal tolerance, sqrt(.Machine$double.eps). */
const FAST_EQUAL = Math.sqrt(2 ** -52);

/** bnclassify's make_stratified_folds after the draws so far: 0-based fold of each row and the fold count. */
export function rStratifiedFolds(
  y: ArrayLike<number>,
  classCard: number,
  k: number,
  rng: RRng,
): { foldOf: Int32Array; k: number } {
  const n = y.length;
  const byClass: number[][] = Array.from({ length: classCard }, () => []);
  for (let r = 0; r < n; r++) byClass[y[r]].push(r);
  const foldNo = new Int32Array(n);
  const ks = Array.from({ length: k }, (_, i) => i + 1);
  for (const rows of byClass) {
    if (rows.length === 0) continue;
    const ids = rng.sample(ks, k);
    const reps = Array.from({ length: rows.length }, (_, i) => ids[i % k]);
    const drawn = rng.sample(reps, rows.length);
    rows.forEach((r, i) => (foldNo[r] = drawn[i]));
  }
  const present = [...new Set(foldNo)].sort((a, b) => a - b);
  const index = new Map(present.map((f, i) => [f, i]));
  return { foldOf: Int32Array.from(foldNo, (f) => index.get(f)!), k: present.length };
}

/** R's max.col(ties.method = "random") of one row of probabilities, drawing from rng as R does. */
export function maxColRandom(p: ArrayLike<number>, rng: RRng | null): number {
  const C = p.length;
  let large = 0;
  for (let c = 0; c < C; c++) if (Number.isFinite(p[c])) large = Math.max(large, Math.abs(p[c]));
  const tol = MAX_COL_RELTOL * large;
  let a = p[0];
  let m = 0;
  let ties = 1;
  for (let c = 1; c < C; c++) {
    const b = p[c];
    if (b > a + tol) {
      a = b;
      m = c;
      ties = 1;
    } else if (b >= a - tol) {
      if (!rng) return -1;
      ties++;
      if (ties * rng.unifRand() < 1) m = c;
    }
  }
  return m;
}

/** colMeans of one column as R computes it on x86-64: long double sum, long double division, one rounding. */
export function rMean(xs: readonly number[]): number {
  let acc: Exact = { m: 0n, e: 0 };
  for (const x of xs) acc = round({ ...add(acc, exact(x)) }, 64);
  if (acc.m === 0n) return 0;
  const k = BigInt(xs.length);
  const s = Math.max(0, 66 + bitLength(k) - bitLength(acc.m));
  const num = acc.m << BigInt(s);
  const q = num / k;
  const sticky = num % k !== 0n ? 1n : 0n;
  const ld = round({ m: q * 2n + sticky, e: acc.e - s - 1 }, 64);
  const d = round(ld, 53);
  return Number(d.m) * 2 ** d.e;
}

/** A non-negative finite double as m · 2^e exactly. */
interface Exact {
  m: bigint;
  e: number;
}

function exact(x: number): Exact {
  if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError(`rMean: ${x} is not a finite non-negative number`);
  if (x === 0) return { m: 0n, e: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const be = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  return be === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: be - 1075 };
}

function add(a: Exact, b: Exact): Exact {
  if (a.m === 0n) return b;
  if (b.m === 0n) return a;
  const e = Math.min(a.e, b.e);
  return { m: (a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e)), e };
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** x rounded to `bits` significant bits, to nearest, ties to even. */
function round(x: Exact, bits: number): Exact {
  const len = bitLength(x.m);
  if (len <= bits) return x;
  const shift = BigInt(len - bits);
  let q = x.m >> shift;
  const rem = x.m - (q << shift);
  const half = 1n << (shift - 1n);
  if (rem > half || (rem === half && (q & 1n) === 1n)) q++;
  return { m: q, e: x.e + Number(shift) };
}

/** Receives each test row's class log-joint of one candidate: fold f, row r, scores[off .. off + C). */
export type RowSink = (f: number, r: number, scores: ArrayLike<number>, off: number) => void;

/** What one candidate's rows left: per fold the rows predicted right without a draw, and the rows that draw. */
interface CandidateRows {
  readonly correct: Int32Array;
  /** Per fold: rows whose max.col draws, in R's row order, with their probabilities. */
  readonly drawing: { key: number; y: number; p: Float64Array }[][];
}

/** bnclassify's internal cross-validation with R's draws (points 1–3 above). */
export class RCrossValidation {
  readonly foldOf: Int32Array;
  readonly k: number;
  private readonly foldSize: Int32Array;
  private readonly y: ArrayLike<number>;
  private readonly n: number;
  private readonly C: number;

  constructor(
    data: DiscreteData,
    k: number,
    readonly rng: RRng,
  ) {
    this.y = data.classColumn;
    this.n = data.n;
    this.C = data.classCard;
    ({ foldOf: this.foldOf, k: this.k } = rStratifiedFolds(data.classColumn, data.classCard, k, rng));
    this.foldSize = new Int32Array(this.k);
    for (let r = 0; r < this.n; r++) this.foldSize[this.foldOf[r]]++;
  }

  /** Collects one candidate's rows (visit calls the sink once per row); draws nothing yet. */
  collect(visit: (sink: RowSink) => void): CandidateRows {
    const { C, y, n } = this;
    const correct = new Int32Array(this.k);
    const drawing: CandidateRows['drawing'] = Array.from({ length: this.k }, () => []);
    const p = new Float64Array(C);
    visit((f, r, scores, off) => {
      for (let c = 0; c < C; c++) p[c] = Math.exp(scores[off + c]);
      const m = maxColRandom(p, null);
      // R's row order within a test fold: by class, then by row.
      if (m < 0) drawing[f].push({ key: y[r] * n + r, y: y[r], p: p.slice() });
      else if (m === y[r]) correct[f]++;
    });
    for (const rows of drawing) rows.sort((a, b) => a.key - b.key);
    return { correct, drawing };
  }

  /** The candidates' scores: folds in order, candidates in order, each row's draws in R's order. */
  scores(cands: readonly CandidateRows[]): number[] {
    const acc = cands.map(() => new Array<number>(this.k));
    for (let f = 0; f < this.k; f++) {
      cands.forEach((c, i) => {
        let right = c.correct[f];
        for (const row of c.drawing[f]) if (maxColRandom(row.p, this.rng) === row.y) right++;
        acc[i][f] = right / this.foldSize[f];
      });
    }
    return acc.map(rMean);
  }

  /** bnclassify's max_random: an index of a score within sqrt(eps) of the maximum, sample()d among them. */
  pick(scores: readonly number[]): number {
    const mx = Math.max(...scores);
    const best: number[] = [];
    scores.forEach((s, i) => {
      if (Math.abs(s - mx) < FAST_EQUAL) best.push(i);
    });
    return best.length === 1 ? best[0] : best[this.rng.sampleInt(best.length, 1)[0] - 1];
  }
}

/** The hooks a greedy search over structures St with candidate moves Mv gives rGreedySearch. */
export interface RGreedyHooks<St, Mv> {
  /** Candidate moves from st in bnclassify's order (empty: the step returns NULL). */
  moves(st: St): Mv[];
  /** Visits every row's class log-joint of the current structure plus move (null: the current structure). */
  visit(move: Mv | null, sink: RowSink): void;
  /** The structure after the move; it becomes the evaluator's current structure. */
  accept(st: St, move: Mv): St;
}

/** bnclassify's greedy_search loop with R's draws; returns the final structure and the accepted scores. */
export function rGreedySearch<St, Mv>(
  cv: RCrossValidation,
  init: St,
  epsilon: number,
  hooks: RGreedyHooks<St, Mv>,
  signal?: AbortSignal,
): { state: St; scores: number[] } {
  let state = init;
  let current = -Infinity;
  const log: number[] = [];
  let moves: (Mv | null)[] = [null];
  while (moves.length > 0) {
    signal?.throwIfAborted();
    if (Math.abs(current - 1) < FAST_EQUAL) break;
    const rows = moves.map((mv) => {
      signal?.throwIfAborted();
      return cv.collect((sink) => hooks.visit(mv, sink));
    });
    const scores = cv.scores(rows);
    if (!(Math.max(...scores) - epsilon >= current)) break;
    const best = cv.pick(scores);
    const mv = moves[best];
    if (mv !== null) state = hooks.accept(state, mv);
    current = scores[best];
    log.push(current);
    moves = hooks.moves(state);
  }
  return { state, scores: log };
}

/**
 * arcs_to_orphans → discard_existing → discard_cycles (→ discard_reversed), bnclassify's candidate arcs
 * in its order: `to` runs over the open attributes (column order) with `from` over the others, then every
 * pair of open attributes (i < j) as i → j, then all those reversed; discard_cycles regroups the rows by
 * tail in order of first appearance, keeping each tail's heads in row order and dropping the tail's
 * ancestors; discard_reversed (tan-hc) drops a row when a later row is its reverse.
 */
function candidateArcs(
  open: readonly number[],
  closed: readonly number[],
  parents: readonly (readonly number[])[],
  reversed: boolean,
): { from: number; to: number }[] {
  const rows: [number, number][] = [];
  for (const to of open) for (const from of closed) rows.push([from, to]);
  const pairs: [number, number][] = [];
  for (let i = 0; i < open.length; i++) for (let j = i + 1; j < open.length; j++) pairs.push([open[i], open[j]]);
  rows.push(...pairs, ...pairs.map(([a, b]): [number, number] => [b, a]));
  const kept = rows.filter(([from, to]) => !parents[to].includes(from));
  const groups = new Map<number, number[]>();
  for (const [from, to] of kept) {
    const g = groups.get(from);
    if (g) g.push(to);
    else groups.set(from, [to]);
  }
  const out: { from: number; to: number }[] = [];
  for (const [from, tos] of groups) {
    const anc = ancestors(from, parents);
    for (const to of new Set(tos)) if (!anc.has(to)) out.push({ from, to });
  }
  if (!reversed) return out;
  const later = new Set<string>();
  const keep: boolean[] = new Array(out.length);
  for (let i = out.length - 1; i >= 0; i--) {
    keep[i] = !later.has(`${out[i].to}>${out[i].from}`);
    later.add(`${out[i].from}>${out[i].to}`);
  }
  return out.filter((_, i) => keep[i]);
}

function ancestors(v: number, parents: readonly (readonly number[])[]): Set<number> {
  const seen = new Set<number>();
  const stack = [...parents[v]];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (seen.has(u)) continue;
    seen.add(u);
    stack.push(...parents[u]);
  }
  return seen;
}

/** augment_ode_arcs: the arcs tan-hc scores from a forest (parent −1 = none), in bnclassify's order. */
export function tanHcCandidates(par: Int32Array): { from: number; to: number }[] {
  const parents = Array.from(par, (p) => (p < 0 ? [] : [p]));
  const open: number[] = [];
  const closed: number[] = [];
  par.forEach((p, a) => (p < 0 ? open : closed).push(a));
  if (open.length <= 1) return [];
  return candidateArcs(open, closed, parents, true);
}

/** augment_kdb_arcs(k): the arcs kdb-hc scores (into attributes with fewer than kdbk parents), in order. */
export function kdbCandidates(parents: readonly (readonly number[])[], kdbk: number): { from: number; to: number }[] {
  const open: number[] = [];
  const closed: number[] = [];
  parents.forEach((ps, a) => (ps.length < kdbk ? open : closed).push(a));
  return candidateArcs(open, closed, parents, false);
}
