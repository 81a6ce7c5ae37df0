/**
 * Expectation–maximisation for the CPTs of a fixed structure on training data with missing attribute values
 * (Dempster, Laird & Rubin 1977; Koller & Friedman 2009 §19.2; the lecture notes' "Imputing missing data
 * with EM"). The class is always observed in training.
 *
 *  - E-step: for every row and every family, the expected count of each family configuration is its exact
 *    posterior probability given the row's observed values under the current parameters. The missing
 *    attributes of a row split into groups that share no family (connected components of "appear together
 *    in a family"); the posterior factorises over the groups. A group of at most `enumerateUpTo` joint
 *    values (default 4096) is enumerated; a larger one gets each family's posterior by variable elimination
 *    (log space, greedy smallest-table order) over the group's factors restricted to the observed values.
 *    Both are exact; an intermediate table above MAX_EM_TABLE_CELLS is refused with a message naming the row.
 *    Families observed in full contribute their count 1 (these are the available-case counts).
 *  - M-step: each family's table is the estimator's own formula on the expected counts,
 *    θ_jk = (E[N_jk] + a) / (E[N_j] + r a) with the estimator's per-cell pseudo-count a (mle 0, dirichlet α,
 *    eap α/(r q)). That is the maximiser of E[log L] + Σ a log θ, i.e. MAP-EM under a Dirichlet(a + 1) prior,
 *    so the objective log L(θ) + Σ_cells a log θ never decreases (for mle it is the log-likelihood itself).
 *  - Convergence: stop when the objective changes by at most `tolerance` relative, or after max_iterations.
 *  - init: 'available-case' (the estimator on the available-case counts: what missing: available-case fits),
 *    'uniform', or 'random' (each table row drawn from a flat Dirichlet, seeded). `restarts` further runs
 *    from random starts; the run with the highest final objective is kept (ties: the earliest).
 * Families above SPARSE_CPT_CELLS cells are refused (EM keeps dense expected counts).
 */
import type { CodeColumn, DiscreteData } from './data.js';
import { assertDag, type Structure } from './structure.js';
import { CptModel, fitEnsemble, SPARSE_CPT_CELLS, smoothedLogProbs, type NodeCpt } from './cpt.js';
import type { Model } from './model.js';
import { nodeCard, nodeColumn } from './counts.js';
import type { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';

type EmInit = 'available-case' | 'uniform' | 'random';

export interface EmSettings {
  readonly max_iterations: number;
  readonly tolerance: number;
  readonly restarts: number;
  readonly init: EmInit;
}

export const EM_DEFAULTS: EmSettings = { max_iterations: 100, tolerance: 1e-6, restarts: 0, init: 'available-case' };

/** Groups of missing attributes with more joint values than this are handled by variable elimination. */
const ENUMERATE_UP_TO = 4096;
/** Variable elimination refuses intermediate tables larger than this. */
const MAX_EM_TABLE_CELLS = 1 << 20;

interface EmTrace {
  /** Objective (log-likelihood + Σ a log θ) of the parameters at the start of each iteration, then the final ones. */
  readonly objective: number[];
  /** Observed-data log-likelihood of the same parameters. */
  readonly logLikelihood: number[];
  readonly iterations: number;
  readonly converged: boolean;
  /** Which run was kept: 0 = from `init`, i = the i-th random restart. */
  readonly run: number;
}

/** Per-cell pseudo-count a of a family with childCard r and `configs` parent configurations. */
type PseudoCount = (node: number, childCard: number, configs: number) => number;

interface Family {
  readonly node: number;
  /** [...parents, node]: the family's variables; cell = mixed radix in this order (node fastest). */
  readonly vars: Int32Array;
  readonly strides: Int32Array;
  readonly card: number;
  readonly configs: number;
  readonly cells: number;
  readonly a: number;
}

/** A table in log space over vars (ascending node ids), the last one fastest. */
interface Factor {
  readonly vars: number[];
  readonly cards: number[];
  readonly t: Float64Array;
}

interface Group {
  readonly vars: Int32Array;
  readonly cards: Int32Array;
  readonly families: Int32Array;
  readonly assignments: number;
}

/** The missing attributes of one pattern, split into groups, and the families with no missing variable. */
interface Pattern {
  readonly groups: Group[];
  readonly observedFamilies: Int32Array;
}

class EmFitter {
  private readonly m: number;
  private readonly cards: Int32Array;
  private readonly cols: CodeColumn[];
  private readonly families: Family[];
  private readonly weights: Float64Array | undefined;
  private readonly n: number;
  /** Rows with a missing value, and their pattern. */
  private readonly incomplete: { row: number; pattern: Pattern }[] = [];
  /** Available-case counts: each family over the rows where it is fully observed. */
  private readonly fixed: Float64Array[];

  private readonly enumerateUpTo: number;
  private readonly names: readonly string[];

  constructor(
    train: DiscreteData,
    structure: Structure,
    pseudoCount: PseudoCount,
    rowWeights?: Float64Array,
    enumerateUpTo = ENUMERATE_UP_TO,
  ) {
    this.enumerateUpTo = enumerateUpTo;
    this.names = train.names;
    const m = train.columns.length;
    if (structure.m !== m) throw new Error(`structure has ${structure.m} attributes, data has ${m}`);
    assertDag(structure);
    this.m = m;
    this.n = train.n;
    this.weights = rowWeights;
    this.cards = Int32Array.from({ length: m + 1 }, (_, v) => nodeCard(train, v));
    this.cols = Array.from({ length: m + 1 }, (_, v) => nodeColumn(train, v));
    this.families = [];
    for (let v = 0; v <= m; v++) {
      const vars = Int32Array.from([...structure.parents[v], v]);
      const strides = new Int32Array(vars.length);
      let s = 1;
      for (let i = vars.length - 1; i >= 0; i--) {
        strides[i] = s;
        s *= this.cards[vars[i]];
      }
      if (s > SPARSE_CPT_CELLS) {
        throw new UserError(
          `missing: em: the family of ${v === m ? 'the class' : `attribute '${train.names[v]}'`} has ${s} cells ` +
            `(EM keeps dense expected counts up to ${SPARSE_CPT_CELLS}); use fewer parents or another missing policy`,
        );
      }
      const card = this.cards[v];
      this.families.push({
        node: v,
        vars,
        strides,
        card,
        configs: s / card,
        cells: s,
        a: pseudoCount(v, card, s / card),
      });
    }
    this.fixed = this.families.map((f) => new Float64Array(f.cells));
    const patterns = new Map<string, Pattern>();
    const missing: number[] = [];
    for (let r = 0; r < this.n; r++) {
      missing.length = 0;
      for (let a = 0; a < m; a++) if (this.cols[a][r] < 0) missing.push(a);
      const w = rowWeights ? rowWeights[r] : 1;
      if (missing.length === 0) {
        for (let f = 0; f <= m; f++) this.fixed[f][this.cell(f, r, null)] += w;
        continue;
      }
      const key = missing.join(',');
      let pattern = patterns.get(key);
      if (!pattern) {
        pattern = this.compile(missing, train, r);
        patterns.set(key, pattern);
      }
      for (const f of pattern.observedFamilies) this.fixed[f][this.cell(f, r, null)] += w;
      this.incomplete.push({ row: r, pattern });
    }
  }

  /** Cell of family f in row r; values of missing variables come from `values` (indexed by node). */
  private cell(f: number, r: number, values: Int32Array | null): number {
    const fam = this.families[f];
    let c = 0;
    for (let i = 0; i < fam.vars.length; i++) {
      const v = fam.vars[i];
      let x = this.cols[v][r];
      if (x < 0) x = values![v];
      c += x * fam.strides[i];
    }
    return c;
  }

  private compile(missing: number[], _train: DiscreteData, _row: number): Pattern {
    const isMissing = new Uint8Array(this.m + 1);
    for (const a of missing) isMissing[a] = 1;
    const root = new Int32Array(this.m + 1).map((_, i) => i);
    const find = (v: number): number => {
      while (root[v] !== v) v = root[v] = root[root[v]];
      return v;
    };
    const observed: number[] = [];
    const touching: number[][] = [];
    this.families.forEach((fam, f) => {
      const mv = [...fam.vars].filter((v) => isMissing[v]);
      touching.push(mv);
      if (mv.length === 0) observed.push(f);
      for (let i = 1; i < mv.length; i++) {
        const x = find(mv[0]);
        const y = find(mv[i]);
        if (x !== y) root[Math.max(x, y)] = Math.min(x, y);
      }
    });
    const byRoot = new Map<number, number[]>();
    for (const a of missing) {
      const g = byRoot.get(find(a));
      if (g) g.push(a);
      else byRoot.set(find(a), [a]);
    }
    const groups: Group[] = [];
    for (const [rt, vars] of byRoot) {
      let assignments = 1;
      for (const v of vars) assignments *= this.cards[v];
      const families = touching.flatMap((mv, f) => (mv.length > 0 && find(mv[0]) === rt ? [f] : []));
      groups.push({
        vars: Int32Array.from(vars),
        cards: Int32Array.from(vars, (v) => this.cards[v]),
        families: Int32Array.from(families),
        assignments,
      });
    }
    return { groups, observedFamilies: Int32Array.from(observed) };
  }

  /** The estimator's tables for the given counts. */
  private mStep(counts: Float64Array[]): Float64Array[] {
    return this.families.map((fam, f) =>
      smoothedLogProbs(
        { counts: counts[f], childCard: fam.card, parentCards: new Int32Array(0), configs: fam.configs },
        fam.a,
      ),
    );
  }

  /** Log-likelihood of the observed data and expected counts under tables `logp`. */
  private eStep(logp: Float64Array[]): { ll: number; counts: Float64Array[] } {
    const counts = this.fixed.map((c) => Float64Array.from(c));
    let ll = 0;
    this.fixed.forEach((c, f) => {
      const t = logp[f];
      for (let i = 0; i < c.length; i++) if (c[i] > 0) ll += c[i] * t[i];
    });
    const values = new Int32Array(this.m + 1);
    let buf = new Float64Array(16);
    for (const { row, pattern } of this.incomplete) {
      const w = this.weights ? this.weights[row] : 1;
      for (const g of pattern.groups) {
        if (g.assignments > this.enumerateUpTo) {
          ll += w * this.eliminate(g, row, logp, counts, w);
          continue;
        }
        if (buf.length < g.assignments) buf = new Float64Array(g.assignments);
        let mx = -Infinity;
        for (let t = 0; t < g.assignments; t++) {
          this.decode(g, t, values);
          let s = 0;
          for (const f of g.families) s += logp[f][this.cell(f, row, values)];
          buf[t] = s;
          if (s > mx) mx = s;
        }
        if (mx === -Infinity) {
          throw new UserError(
            `missing: em: training row ${row + 1} has probability 0 under the current parameters (a zero maximum-likelihood cell); use a smoothing estimator (dirichlet, eap)`,
          );
        }
        let z = 0;
        for (let t = 0; t < g.assignments; t++) z += Math.exp(buf[t] - mx);
        const logZ = mx + Math.log(z);
        ll += w * logZ;
        for (let t = 0; t < g.assignments; t++) {
          const p = Math.exp(buf[t] - logZ);
          if (p === 0) continue;
          this.decode(g, t, values);
          for (const f of g.families) counts[f][this.cell(f, row, values)] += w * p;
        }
      }
    }
    return { ll, counts };
  }

  /**
   * Variable elimination over group g in row `row`: adds w × the posterior of each family's missing values to
   * counts and returns log Σ over the group's values of Π its families' θ (the group's likelihood factor).
   */
  private eliminate(g: Group, row: number, logp: Float64Array[], counts: Float64Array[], w: number): number {
    const values = new Int32Array(this.m + 1);
    const base: Factor[] = [];
    for (const f of g.families) {
      const vars = [...this.families[f].vars].filter((v) => this.cols[v][row] < 0).sort((a, b) => a - b);
      const cards = vars.map((v) => this.cards[v]);
      const size = cards.reduce((a, b) => a * b, 1);
      const t = new Float64Array(size);
      for (let i = 0; i < size; i++) {
        let rest = i;
        for (let q = vars.length - 1; q >= 0; q--) {
          values[vars[q]] = rest % cards[q];
          rest = Math.floor(rest / cards[q]);
        }
        t[i] = logp[f][this.cell(f, row, values)];
      }
      base.push({ vars, cards, t });
    }
    let logZ = NaN;
    g.families.forEach((f, i) => {
      const keep = new Set(base[i].vars);
      let fs = base.slice();
      for (;;) {
        const elim = [...new Set(fs.flatMap((x) => x.vars))].filter((v) => !keep.has(v));
        if (elim.length === 0) break;
        let best = -1;
        let bestSize = Infinity;
        for (const v of elim) {
          const scope = new Set(fs.filter((x) => x.vars.includes(v)).flatMap((x) => x.vars));
          let size = 1;
          for (const u of scope) size *= this.cards[u];
          if (size < bestSize || (size === bestSize && v < best)) {
            best = v;
            bestSize = size;
          }
        }
        const inv = fs.filter((x) => x.vars.includes(best));
        fs = [...fs.filter((x) => !x.vars.includes(best)), this.product(inv, best, row)];
      }
      const marg = this.product(fs, -1, row);
      let mx = -Infinity;
      for (const x of marg.t) if (x > mx) mx = x;
      if (mx === -Infinity)
        throw new UserError(
          `missing: em: training row ${row + 1} has probability 0 under the current parameters (a zero maximum-likelihood cell); use a smoothing estimator (dirichlet, eap)`,
        );
      let z = 0;
      for (const x of marg.t) z += Math.exp(x - mx);
      const lz = mx + Math.log(z);
      if (i === 0) logZ = lz;
      for (let a = 0; a < marg.t.length; a++) {
        const p = Math.exp(marg.t[a] - lz);
        if (p === 0) continue;
        let rest = a;
        for (let q = marg.vars.length - 1; q >= 0; q--) {
          values[marg.vars[q]] = rest % marg.cards[q];
          rest = Math.floor(rest / marg.cards[q]);
        }
        counts[f][this.cell(f, row, values)] += w * p;
      }
    });
    return logZ;
  }

  /** Product (log: sum) of factors, with variable x summed out (x = -1: none). */
  private product(fs: Factor[], x: number, row: number): Factor {
    const scope = [...new Set(fs.flatMap((f) => f.vars))].sort((a, b) => a - b);
    const cards = scope.map((v) => this.cards[v]);
    let size = 1;
    for (const c of cards) size *= c;
    if (size > MAX_EM_TABLE_CELLS) {
      throw new UserError(
        `missing: em: training row ${row + 1}: eliminating its missing values (${scope.map((v) => `'${this.names[v]}'`).join(', ')}) ` +
          `needs a table of ${size} cells (limit ${MAX_EM_TABLE_CELLS}); use a sparser structure or missing: available-case`,
      );
    }
    // Stride of each scope variable inside each factor (0 when absent).
    const strides = fs.map((f) => {
      const st = new Int32Array(scope.length);
      let s = 1;
      for (let q = f.vars.length - 1; q >= 0; q--) {
        st[scope.indexOf(f.vars[q])] = s;
        s *= f.cards[q];
      }
      return st;
    });
    const joint = new Float64Array(size);
    const idx = new Int32Array(scope.length);
    for (let i = 0; i < size; i++) {
      let s = 0;
      for (let k = 0; k < fs.length; k++) {
        let o = 0;
        const st = strides[k];
        for (let q = 0; q < scope.length; q++) o += idx[q] * st[q];
        s += fs[k].t[o];
      }
      joint[i] = s;
      for (let q = scope.length - 1; q >= 0; q--) {
        if (++idx[q] < cards[q]) break;
        idx[q] = 0;
      }
    }
    if (x < 0) return { vars: scope, cards, t: joint };
    const xi = scope.indexOf(x);
    const outVars = scope.filter((v) => v !== x);
    const outCards = outVars.map((v) => this.cards[v]);
    const rx = cards[xi];
    let inner = 1;
    for (let q = xi + 1; q < scope.length; q++) inner *= cards[q];
    const out = new Float64Array(size / rx);
    for (let o = 0; o < size / rx; o++) {
      const hi = Math.floor(o / inner);
      const lo = o % inner;
      let mx = -Infinity;
      for (let k = 0; k < rx; k++) mx = Math.max(mx, joint[(hi * rx + k) * inner + lo]);
      if (mx === -Infinity) {
        out[o] = -Infinity;
        continue;
      }
      let z = 0;
      for (let k = 0; k < rx; k++) z += Math.exp(joint[(hi * rx + k) * inner + lo] - mx);
      out[o] = mx + Math.log(z);
    }
    return { vars: outVars, cards: outCards, t: out };
  }

  private decode(g: Group, t: number, values: Int32Array): void {
    for (let i = g.vars.length - 1; i >= 0; i--) {
      const c = g.cards[i];
      values[g.vars[i]] = t % c;
      t = Math.floor(t / c);
    }
  }

  private prior(logp: Float64Array[]): number {
    let s = 0;
    this.families.forEach((fam, f) => {
      if (fam.a === 0) return;
      for (const x of logp[f]) s += fam.a * x;
    });
    return s;
  }

  private start(init: EmInit, rng: Rng): Float64Array[] {
    if (init === 'available-case') return this.mStep(this.fixed);
    return this.families.map((fam) => {
      const t = new Float64Array(fam.cells);
      for (let j = 0; j < fam.configs; j++) {
        const o = j * fam.card;
        if (init === 'uniform') {
          t.fill(-Math.log(fam.card), o, o + fam.card);
          continue;
        }
        // Flat Dirichlet: normalised Exp(1) draws.
        let z = 0;
        for (let k = 0; k < fam.card; k++) z += t[o + k] = -Math.log(1 - rng.next());
        for (let k = 0; k < fam.card; k++) t[o + k] = Math.log(t[o + k] / z);
      }
      return t;
    });
  }

  /** One EM run from `init`. */
  run(
    settings: EmSettings,
    init: EmInit,
    rng: Rng,
    signal?: AbortSignal,
  ): { logp: Float64Array[]; trace: Omit<EmTrace, 'run'> } {
    let logp = this.start(init, rng);
    const objective: number[] = [];
    const logLikelihood: number[] = [];
    let converged = false;
    let iterations = 0;
    for (;;) {
      signal?.throwIfAborted();
      const { ll, counts } = this.eStep(logp);
      const obj = ll + this.prior(logp);
      objective.push(obj);
      logLikelihood.push(ll);
      const k = objective.length;
      if (k >= 2 && Math.abs(obj - objective[k - 2]) <= settings.tolerance * Math.max(1, Math.abs(obj))) {
        converged = true;
        break;
      }
      if (iterations >= settings.max_iterations) break;
      logp = this.mStep(counts);
      iterations++;
    }
    return { logp, trace: { objective, logLikelihood, iterations, converged } };
  }

  model(logp: Float64Array[]): CptModel {
    const cpts: NodeCpt[] = this.families.map((fam, f) => {
      const parents = [...fam.vars.subarray(0, fam.vars.length - 1)];
      return {
        parents,
        card: fam.card,
        parentCards: Int32Array.from(parents, (p) => this.cards[p]),
        configs: fam.configs,
        logp: logp[f],
      };
    });
    return new CptModel(this.cards, cpts);
  }
}

/** EM fit of one structure, with restarts; returns the model of the best run and its trace. */
export function fitCptModelEm(
  train: DiscreteData,
  structure: Structure,
  pseudoCount: PseudoCount,
  settings: EmSettings,
  rng: Rng,
  rowWeights?: Float64Array,
  signal?: AbortSignal,
  enumerateUpTo = ENUMERATE_UP_TO,
): { model: CptModel; trace: EmTrace } {
  const em = new EmFitter(train, structure, pseudoCount, rowWeights, enumerateUpTo);
  let best: { logp: Float64Array[]; trace: EmTrace } | null = null;
  for (let i = 0; i <= settings.restarts; i++) {
    const res = em.run(settings, i === 0 ? settings.init : 'random', rng.derive(`em-run-${i}`), signal);
    const final = res.trace.objective[res.trace.objective.length - 1];
    if (!best || final > best.trace.objective[best.trace.objective.length - 1])
      best = { logp: res.logp, trace: { ...res.trace, run: i } };
  }
  return { model: em.model(best!.logp), trace: best!.trace };
}

/**
 * What fitByEm needs of an estimator and a job (the registry's Estimator and LearnContext have these; typed
 * here so that bn/ does not import the registry, which sits above it).
 */
interface EmEstimator {
  readonly id: string;
  /** Registration fills in the estimator's defaults, so `params` may be the job's (or a test's) partial ones. */
  readonly pseudoCount?: (params: Record<string, unknown>, childCard: number, configs: number) => number;
}

/**
 * missing: em for a structure (ensembles: each member by EM, on its own rows and weights) with an estimator
 * that declares its pseudo-count; any other estimator is a UserError.
 */
export function fitByEm(
  train: DiscreteData,
  structure: Structure,
  estimator: EmEstimator,
  params: Record<string, unknown>,
  settings: EmSettings,
  ctx: { readonly rng: Rng; readonly signal?: AbortSignal },
): Model {
  const pc = estimator.pseudoCount;
  if (!pc)
    throw new UserError(`missing: em: estimator '${estimator.id}' cannot be fitted by EM (use mle, dirichlet or eap)`);
  let member = 0;
  return fitEnsemble(
    structure,
    (s, data = train, rowWeights) =>
      fitCptModelEm(
        data,
        s,
        (_, r, q) => pc(params, r, q),
        settings,
        ctx.rng.derive(`member-${member++}`),
        rowWeights,
        ctx.signal,
      ).model,
    train,
  );
}

/** The EM settings as plan and report print them ('' when EM is not used). */
export function emText(em: EmSettings | undefined): string {
  return em
    ? ` (EM: max_iterations ${em.max_iterations}, tolerance ${em.tolerance}, restarts ${em.restarts}, init ${em.init})`
    : '';
}
