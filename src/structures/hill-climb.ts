/**
 * General Bayesian network structure search by hill climbing over DAGs on all m + 1 nodes (the class is an
 * ordinary node and may get parents; the classifier then uses the class's Markov blanket).
 *
 * - Moves: add, delete or reverse one arc; a move that would close a directed cycle is not considered.
 * - Score: a decomposable score (bn/scores.ts): BIC (default), AIC, BDeu (equivalent sample size `ess`)
 *   or log-likelihood. Missing values: each family is counted on the rows where it is observed and its
 *   score rescaled to all n rows (node-average likelihood, see bn/scores.ts); a proposed family that no
 *   row observes is not considered.
 * - Steepest ascent, as bnlearn's hc: every iteration applies the single best legal move and stops when
 *   none improves the score by more than a tolerance (max(1e-8, 1e-12·|score|)). Score deltas are cached
 *   per (parent, child) pair: a move changes one or two families, and only the deltas of moves into those
 *   children are recomputed (one counting pass per candidate parent, four candidates per pass).
 *   A reversal u→v is priced as delete(u from v) + add(v to u) from the same cache.
 * - Ties: between moves of equal delta, the first found wins: reversals (in child, parent order), then
 *   adds/deletes by target node in decreasing order of its best delta (lower node first on ties) and
 *   parent node ascending. Deterministic; the search uses no randomness.
 * - Tabu search (`tabu` > 0, bnlearn's tabu): the last `tabu` visited structures are forbidden; each
 *   iteration takes the best non-forbidden move even if it lowers the score, and the search stops after
 *   `tabu` iterations without improving the best score seen (bnlearn's max.tabu = tabu); the best
 *   structure is returned.
 * - maxParents (default 3) bounds every node's parent set, the class included: the cost of a family grows
 *   with q = Π parent cardinalities, and BIC rarely pays for more parents on UCI-sized data. Families of
 *   more than MAX_FAMILY_CELLS cells are never proposed (a memory guard, far beyond what BIC or BDeu
 *   accept on such data).
 * - Start: the empty graph (default) or naive Bayes (`start: nb`, every attribute with the class as parent).
 */
import { defineParams, paramDecls, registerStructure, type DeclaredParams } from '../registry.js';
import { attributeCount, type CodeColumn, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { familyCounts, nodeCard, nodeColumn } from '../bn/counts.js';
import { scoreFromCounts, SCORE_NAMES, type ScoreName } from '../bn/scores.js';
import { UserError } from '../util/errors.js';

const MAX_FAMILY_CELLS = 1 << 20;

interface HillClimbOptions {
  readonly score: ScoreName;
  /** BDeu equivalent sample size. */
  readonly ess: number;
  readonly maxParents: number;
  /** Tabu list length; 0 = plain steepest-ascent hill climbing. */
  readonly tabu: number;
  /** Stop after this many moves; 0 = no limit. */
  readonly maxIterations: number;
  /** Initial parent lists over nodes 0..m (default: the empty graph). Must be a DAG. */
  readonly start?: readonly (readonly number[])[];
  /** allowed[u * (m + 1) + v] = 1 when u may be a parent of v (default: every pair). */
  readonly allowed?: Uint8Array;
  readonly signal?: AbortSignal;
}

interface HillClimbResult {
  /** Parent lists over nodes 0..m: the class first when present, then ascending. */
  readonly parents: number[][];
  readonly score: number;
  readonly iterations: number;
  readonly adds: number;
  readonly deletes: number;
  readonly reversals: number;
}

type MoveKind = 0 | 1 | 2; // add, delete, reverse
interface Move {
  kind: MoveKind;
  u: number;
  v: number;
  delta: number;
}

/** 32-bit integer mixer (lowbias32, Wellons 2018) for the structure hashes of the tabu list. */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** tk[xk * Q + z] += 1 for rows with z >= 0 and xk observed, four columns per pass (monomorphic on Float64Array). */
function count4(
  x0: CodeColumn,
  x1: CodeColumn,
  x2: CodeColumn,
  x3: CodeColumn,
  z: CodeColumn,
  Q: number,
  n: number,
  t0: Float64Array,
  t1: Float64Array,
  t2: Float64Array,
  t3: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const b = z[i];
    if (b < 0) continue;
    const a0 = x0[i];
    const a1 = x1[i];
    const a2 = x2[i];
    const a3 = x3[i];
    if (a0 >= 0) t0[a0 * Q + b]++;
    if (a1 >= 0) t1[a1 * Q + b]++;
    if (a2 >= 0) t2[a2 * Q + b]++;
    if (a3 >= 0) t3[a3 * Q + b]++;
  }
}

class Search {
  readonly N: number;
  readonly n: number;
  readonly cards: Int32Array;
  readonly cols: CodeColumn[];
  readonly pa: number[][];
  readonly ch: number[][];
  readonly adj: Uint8Array;
  readonly fam: Float64Array;
  /** delta[u * N + v]: change of v's local score when u is toggled in v's parents; -Infinity = not a move. */
  readonly delta: Float64Array;
  readonly colBest: Float64Array;
  private readonly cfg: Int32Array;
  private readonly z: Int32Array;
  private tables: Float64Array[] = [new Float64Array(1), new Float64Array(1), new Float64Array(1), new Float64Array(1)];

  private readonly stamp: Int32Array;
  private stampNow = 0;
  private readonly stack: Int32Array;
  h1 = 0;
  h2 = 0;

  constructor(
    readonly data: DiscreteData,
    readonly o: HillClimbOptions,
  ) {
    const m = attributeCount(data);
    const N = m + 1;
    this.N = N;
    this.n = data.n;
    this.cards = Int32Array.from({ length: N }, (_, v) => nodeCard(data, v));
    this.cols = Array.from({ length: N }, (_, v) => nodeColumn(data, v));
    this.pa = Array.from({ length: N }, () => []);
    this.ch = Array.from({ length: N }, () => []);
    this.adj = new Uint8Array(N * N);
    this.fam = new Float64Array(N);
    this.delta = new Float64Array(N * N);
    this.colBest = new Float64Array(N);
    this.cfg = new Int32Array(this.n);
    this.z = new Int32Array(this.n);
    this.stamp = new Int32Array(N);
    this.stack = new Int32Array(N);
    if (o.start) {
      if (o.start.length !== N)
        throw new Error(`hill climbing: start has ${o.start.length} parent lists, expected ${N}`);
      o.start.forEach((ps, v) => ps.forEach((u) => this.link(u, v)));
      for (let v = 0; v < N; v++) {
        if (this.reaches(v, v, true)) throw new Error('hill climbing: the start graph has a cycle');
      }
    }
    if (this.pa.every((p) => p.length === 0)) this.initEmpty();
    else for (let v = 0; v < N; v++) this.refresh(v);
  }

  arcKey(u: number, v: number): [number, number] {
    const i = u * this.N + v;
    return [mix32(2 * i + 1), mix32(2 * i + 2)];
  }

  private link(u: number, v: number): void {
    this.pa[v].push(u);
    this.ch[u].push(v);
    this.adj[u * this.N + v] = 1;
    const [a, b] = this.arcKey(u, v);
    this.h1 ^= a;
    this.h2 ^= b;
  }

  private unlink(u: number, v: number): void {
    const p = this.pa[v];
    p.splice(p.indexOf(u), 1);
    const c = this.ch[u];
    c.splice(c.indexOf(v), 1);
    this.adj[u * this.N + v] = 0;
    const [a, b] = this.arcKey(u, v);
    this.h1 ^= a;
    this.h2 ^= b;
  }

  /**
   * Whether a directed path leads from `from` to `to`. With skipFirst, the search starts from the
   * children of `from` (so from === to asks for a cycle through it); `skipArcTo` ignores the arc from→skipArcTo.
   */
  reaches(from: number, to: number, skipFirst = false, skipArcTo = -1): boolean {
    const stamp = ++this.stampNow;
    let sp = 0;
    if (skipFirst || skipArcTo >= 0) {
      for (const c of this.ch[from]) {
        if (c === skipArcTo) continue;
        if (c === to) return true;
        if (this.stamp[c] !== stamp) {
          this.stamp[c] = stamp;
          this.stack[sp++] = c;
        }
      }
    } else {
      if (from === to) return true;
      this.stamp[from] = stamp;
      this.stack[sp++] = from;
    }
    while (sp > 0) {
      const x = this.stack[--sp];
      for (const c of this.ch[x]) {
        if (c === to) return true;
        if (this.stamp[c] !== stamp) {
          this.stamp[c] = stamp;
          this.stack[sp++] = c;
        }
      }
    }
    return false;
  }

  private table(i: number, size: number): Float64Array {
    if (this.tables[i].length < size) this.tables[i] = new Float64Array(size);
    const t = this.tables[i];
    t.fill(0, 0, size);
    return t;
  }

  /** Recomputes v's local score and the deltas of every move into v. */
  refresh(v: number): void {
    const { N, n, cards, cols, o } = this;
    const p = this.pa[v];
    const r = cards[v];
    const cfg = this.cfg;
    const z = this.z;
    cfg.fill(0);
    let q = 1;
    for (const u of p) {
      const cu = cards[u];
      const x = cols[u];
      for (let i = 0; i < n; i++) {
        const c = cfg[i];
        if (c < 0) continue;
        const a = x[i];
        cfg[i] = a < 0 ? -1 : c * cu + a;
      }
      q *= cu;
    }
    const xv = cols[v];
    for (let i = 0; i < n; i++) {
      const c = cfg[i];
      const a = xv[i];
      z[i] = (c | a) < 0 ? -1 : c * r + a;
    }
    const base = this.table(0, q * r);
    for (let i = 0; i < n; i++) {
      const c = z[i];
      if (c >= 0) base[c]++;
    }
    const own = scoreFromCounts(base, r, q, o.score, o.ess, n);
    this.fam[v] = own;

    let best = -Infinity;
    for (let u = 0; u < N; u++) this.delta[u * N + v] = -Infinity;
    // Deletions: one family count each (at most maxParents).
    for (const u of p) {
      const rest = p.filter((w) => w !== u);
      const fc = familyCounts(this.data, v, rest);
      const d = scoreFromCounts(fc.counts, r, fc.configs, o.score, o.ess, n) - own;
      this.delta[u * N + v] = d;
      if (d > best) best = d;
    }
    // Additions: u becomes the most significant parent, t[(x_u * q + cfg) * r + x_v].
    if (p.length < o.maxParents) {
      const cand: number[] = [];
      for (let u = 0; u < N; u++) {
        if (u === v || this.adj[u * N + v] || (o.allowed && !o.allowed[u * N + v])) continue;
        if (cards[u] * q * r > MAX_FAMILY_CELLS) continue;
        cand.push(u);
      }
      this.countCandidates(cand, z, q * r, (u, t) => {
        const d = this.candidateScore(t, r, cards[u] * q) - own;
        this.delta[u * N + v] = d;
        if (d > best) best = d;
      });
    }
    this.colBest[v] = best;
  }

  /**
   * For every candidate u, calls visit(u, t) with t[x_u * Q + z] = the number of rows with z[row] = z
   * (z >= 0) and x_u observed. Four candidates share each pass over the rows.
   */
  private countCandidates(
    cand: readonly number[],
    z: CodeColumn,
    Q: number,
    visit: (u: number, t: Float64Array) => void,
  ): void {
    const { n, cards, cols } = this;
    let k = 0;
    for (; k + 4 <= cand.length; k += 4) {
      const u0 = cand[k];
      const u1 = cand[k + 1];
      const u2 = cand[k + 2];
      const u3 = cand[k + 3];
      const t0 = this.table(0, cards[u0] * Q);
      const t1 = this.table(1, cards[u1] * Q);
      const t2 = this.table(2, cards[u2] * Q);
      const t3 = this.table(3, cards[u3] * Q);
      count4(cols[u0], cols[u1], cols[u2], cols[u3], z, Q, n, t0, t1, t2, t3);
      visit(u0, t0);
      visit(u1, t1);
      visit(u2, t2);
      visit(u3, t3);
    }
    for (; k < cand.length; k++) {
      const u = cand[k];
      const t = this.table(0, cards[u] * Q);
      const x = cols[u];
      for (let i = 0; i < n; i++) {
        const b = z[i];
        const a = x[i];
        if ((a | b) < 0) continue;
        t[a * Q + b]++;
      }
      visit(u, t);
    }
  }

  /**
   * Initial scores for the empty graph: one table per unordered pair serves both u → v and v → u (the
   * same available-case rows, transposed).
   */
  private initEmpty(): void {
    const { N, n, cards, cols, o, delta } = this;
    this.delta.fill(-Infinity);
    for (let v = 0; v < N; v++) {
      const r = cards[v];
      const t = this.table(0, r);
      const x = cols[v];
      for (let i = 0; i < n; i++) if (x[i] >= 0) t[x[i]]++;
      this.fam[v] = scoreFromCounts(t, r, 1, o.score, o.ess, n);
    }
    this.colBest.fill(-Infinity);
    if (o.maxParents < 1) return;
    let tr = new Float64Array(1);
    for (let v = 1; v < N; v++) {
      const rv = cards[v];
      const cand: number[] = [];
      for (let u = 0; u < v; u++) {
        const uv = !o.allowed || o.allowed[u * N + v] === 1;
        const vu = !o.allowed || o.allowed[v * N + u] === 1;
        if ((uv || vu) && cards[u] * rv <= MAX_FAMILY_CELLS) cand.push(u);
      }
      this.countCandidates(cand, cols[v], rv, (u, t) => {
        const ru = cards[u];
        if (!o.allowed || o.allowed[u * N + v]) {
          // t[x_u * rv + x_v]: u is the parent of v.
          const d = this.candidateScore(t, rv, ru) - this.fam[v];
          delta[u * N + v] = d;
          if (d > this.colBest[v]) this.colBest[v] = d;
        }
        if (!o.allowed || o.allowed[v * N + u]) {
          if (tr.length < ru * rv) tr = new Float64Array(ru * rv);
          for (let a = 0; a < ru; a++) for (let b = 0; b < rv; b++) tr[b * ru + a] = t[a * rv + b];
          const d = this.candidateScore(tr, ru, rv) - this.fam[u];
          delta[v * N + u] = d;
          if (d > this.colBest[u]) this.colBest[u] = d;
        }
      });
    }
  }

  /** Score of a proposed family; -Infinity when no row observes all its members (nothing to score). */
  private candidateScore(t: Float64Array, r: number, q: number): number {
    let N = 0;
    for (let i = 0; i < r * q; i++) N += t[i];
    return N > 0 ? scoreFromCounts(t, r, q, this.o.score, this.o.ess, this.n) : -Infinity;
  }

  total(): number {
    let s = 0;
    for (let v = 0; v < this.N; v++) s += this.fam[v];
    return s;
  }

  /** Best legal move with delta above `threshold` whose result is not tabu (null if none). */
  select(threshold: number, isTabu: (h1: number, h2: number) => boolean): Move | null {
    const { N, delta } = this;
    let best: Move | null = null;
    let bestDelta = threshold;
    // Reversals, best first.
    const revs: Move[] = [];
    for (let v = 0; v < N; v++) {
      for (const u of this.pa[v]) {
        const d = delta[u * N + v] + delta[v * N + u];
        if (d > bestDelta) revs.push({ kind: 2, u, v, delta: d });
      }
    }
    revs.sort((a, b) => b.delta - a.delta || a.v - b.v || a.u - b.u);
    for (const mv of revs) {
      if (this.reaches(mv.u, mv.v, false, mv.v)) continue;
      const [a1, a2] = this.arcKey(mv.u, mv.v);
      const [b1, b2] = this.arcKey(mv.v, mv.u);
      if (isTabu(this.h1 ^ a1 ^ b1, this.h2 ^ a2 ^ b2)) continue;
      best = mv;
      bestDelta = mv.delta;
      break;
    }
    // Additions and deletions, target by target in decreasing order of their best delta.
    const order = Array.from({ length: N }, (_, v) => v).filter((v) => this.colBest[v] > bestDelta);
    order.sort((a, b) => this.colBest[b] - this.colBest[a] || a - b);
    for (const v of order) {
      if (!(this.colBest[v] > bestDelta)) break;
      const us: number[] = [];
      for (let u = 0; u < N; u++) if (delta[u * N + v] > bestDelta) us.push(u);
      us.sort((a, b) => delta[b * N + v] - delta[a * N + v] || a - b);
      for (const u of us) {
        const isDelete = this.adj[u * N + v] === 1;
        if (!isDelete && this.reaches(v, u)) continue;
        const [a1, a2] = this.arcKey(u, v);
        if (isTabu(this.h1 ^ a1, this.h2 ^ a2)) continue;
        best = { kind: isDelete ? 1 : 0, u, v, delta: delta[u * N + v] };
        bestDelta = best.delta;
        break;
      }
    }
    return best;
  }

  apply(mv: Move): void {
    if (mv.kind === 0) {
      this.link(mv.u, mv.v);
      this.refresh(mv.v);
    } else if (mv.kind === 1) {
      this.unlink(mv.u, mv.v);
      this.refresh(mv.v);
    } else {
      this.unlink(mv.u, mv.v);
      this.link(mv.v, mv.u);
      this.refresh(mv.v);
      this.refresh(mv.u);
    }
  }

  /** Parent lists with the class (node N - 1) first, then ascending. */
  snapshot(): number[][] {
    const cls = this.N - 1;
    return this.pa.map((p) => [...p].sort((a, b) => (a === cls ? -1 : b === cls ? 1 : a - b)));
  }
}

/** Runs the search (see the module comment) and returns the final (or, with tabu, the best) DAG. */
export function hillClimb(data: DiscreteData, o: HillClimbOptions): HillClimbResult {
  const s = new Search(data, o);
  let current = s.total();
  let bestScore = current;
  let bestParents = o.tabu > 0 ? s.snapshot() : [];
  const tabuList: string[] = [];
  const tabuSet = new Map<string, number>();
  const remember = (): void => {
    const key = `${s.h1}:${s.h2}`;
    tabuList.push(key);
    tabuSet.set(key, (tabuSet.get(key) ?? 0) + 1);
    if (tabuList.length > o.tabu) {
      const old = tabuList.shift()!;
      const c = tabuSet.get(old)! - 1;
      if (c === 0) tabuSet.delete(old);
      else tabuSet.set(old, c);
    }
  };
  const isTabu = o.tabu > 0 ? (a: number, b: number) => tabuSet.has(`${a}:${b}`) : () => false;
  if (o.tabu > 0) remember();
  let iterations = 0;
  let stale = 0;
  const counts = [0, 0, 0];
  while (o.maxIterations === 0 || iterations < o.maxIterations) {
    o.signal?.throwIfAborted();
    const tol = Math.max(1e-8, 1e-12 * Math.abs(current));
    const mv = s.select(o.tabu > 0 ? -Infinity : tol, isTabu);
    if (!mv) break;
    s.apply(mv);
    counts[mv.kind]++;
    iterations++;
    current = s.total();
    if (o.tabu > 0) {
      remember();
      if (current > bestScore + tol) {
        bestScore = current;
        bestParents = s.snapshot();
        stale = 0;
      } else if (++stale >= o.tabu) {
        break;
      }
    }
  }
  const parents = o.tabu > 0 ? bestParents : s.snapshot();
  return {
    parents,
    score: o.tabu > 0 ? bestScore : current,
    iterations,
    adds: counts[0],
    deletes: counts[1],
    reversals: counts[2],
  };
}

/** Validates shared search parameters (the spec validator has checked types; this catches direct calls). */
export function hillClimbSearchOptions(
  id: string,
  p: HillClimbSearchParams,
): { score: ScoreName; ess: number; maxParents: number; tabu: number; maxIterations: number } {
  const { score, ess, maxParents, tabu, maxIterations } = p;
  if (!SCORE_NAMES.includes(score))
    throw new UserError(`${id}: unknown score '${String(score)}' (known: ${SCORE_NAMES.join(', ')})`);
  if (!(ess > 0) || !Number.isFinite(ess))
    throw new UserError(`${id}: ess must be a finite number > 0, got ${String(ess)}`);
  if (!Number.isInteger(maxParents) || maxParents < 0)
    throw new UserError(`${id}: maxParents must be an integer >= 0, got ${String(maxParents)}`);
  if (!Number.isInteger(tabu) || tabu < 0)
    throw new UserError(`${id}: tabu must be an integer >= 0, got ${String(tabu)}`);
  if (!Number.isInteger(maxIterations) || maxIterations < 0) {
    throw new UserError(`${id}: maxIterations must be an integer >= 0, got ${String(maxIterations)}`);
  }
  return { score, ess, maxParents, tabu, maxIterations };
}

/** The parameters shared by the search-based learners (hill-climb, sparse-candidate). */
export const HILL_CLIMB_SEARCH_PARAMS = paramDecls({
  score: {
    enum: [...SCORE_NAMES],
    default: 'bic',
    description: 'Decomposable score: bic (LL − ½ ln N · d), aic (LL − d), bdeu, loglik',
  },
  ess: { type: 'number', exclusiveMinimum: 0, default: 1, description: 'Equivalent sample size of the BDeu score' },
  maxParents: {
    type: 'integer',
    minimum: 0,
    default: 3,
    description: 'Most parents of any node, the class included',
  },
  tabu: {
    type: 'integer',
    minimum: 0,
    default: 0,
    description: 'Tabu list length (0 = plain hill climbing); also the patience in non-improving moves',
  },
  maxIterations: {
    type: 'integer',
    minimum: 0,
    default: 0,
    description: 'Most moves (0 = until no move improves the score)',
  },
});
type HillClimbSearchParams = DeclaredParams<typeof HILL_CLIMB_SEARCH_PARAMS>;

/** Summary diagnostics of a learned general DAG. */
export function generalDagInfo(parents: readonly (readonly number[])[]): {
  arcs: number;
  classParents: number;
  classChildren: number;
  markovBlanket: number;
} {
  const cls = parents.length - 1;
  let arcs = 0;
  let classChildren = 0;
  const mb = new Set<number>(parents[cls]);
  parents.forEach((ps, v) => {
    arcs += ps.length;
    if (ps.includes(cls)) {
      classChildren++;
      mb.add(v);
      for (const u of ps) if (u !== cls) mb.add(u);
    }
  });
  return { arcs, classParents: parents[cls].length, classChildren, markovBlanket: mb.size };
}

export const hillClimbLearner = registerStructure({
  id: 'hill-climb',
  revision: 1,
  title: 'General BN by steepest-ascent hill climbing (add/delete/reverse arcs; BIC, AIC or BDeu)',
  citation:
    'Heckerman, Geiger & Chickering (1995), Learning Bayesian networks: the combination of knowledge and statistical ' +
    'data, Machine Learning 20:197–243; Scutari (2010), Learning Bayesian networks with the bnlearn R package, ' +
    'Journal of Statistical Software 35(3) (hc, tabu)',
  orderDependence: {
    classes:
      'equal-score moves (reversals within a Markov equivalence class) are told apart by floating-point sums whose order follows the class codes; estimators that are not score-equivalent then see another orientation',
  },
  params: defineParams({
    ...HILL_CLIMB_SEARCH_PARAMS,
    start: { enum: ['empty', 'nb'], default: 'empty', description: 'Initial graph: empty, or naive Bayes' },
  }),
  learn(train, params, ctx): Structure {
    const opts = hillClimbSearchOptions('hill-climb', params);
    const m = attributeCount(train);
    const start = params.start;
    if (start !== 'empty' && start !== 'nb')
      throw new UserError(`hill-climb: start must be 'empty' or 'nb', got '${String(start)}'`);
    if (start === 'nb' && opts.maxParents < 1 && m > 0)
      throw new UserError('hill-climb: start nb needs maxParents >= 1');
    const init = start === 'nb' ? [...Array.from({ length: m }, () => [m]), []] : undefined;
    const res = hillClimb(train, {
      ...opts,
      ...(init ? { start: init } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    return {
      m,
      parents: res.parents,
      info: { score: res.score, iterations: res.iterations, ...generalDagInfo(res.parents) },
    };
  },
});
