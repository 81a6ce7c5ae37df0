/**
 * Cross-validated accuracy of augmented naive Bayes structures with any attribute parents, and with
 * attributes left out of the model: the evaluator of fssj, bsej and kdb-hc (bnclassify's cv_fixed_partition
 * over one stratified partition kept for the whole search).
 *
 * A structure is a FeatureParents array: for each attribute null (not in the model) or its attribute
 * parents, ascending; the class is a parent of every attribute in the model. Each fold's parameters are
 * Dirichlet estimates with `alpha` per cell from the other folds' rows (available case), and a test row's
 * class scores are log P(c, x_obs) under them; the accuracy is the mean over folds of the fold accuracy,
 * a row whose argmax is shared by t classes counting 1/t if its class is among them (the expectation of
 * bnclassify's random tie break). Scores within TIE_TOL (relative) count as tied, so the result does not
 * depend on the order of floating-point additions.
 *
 * Cost: a family's per-fold tables come from one pass over the rows (all folds at once, training =
 * total − fold) and are cached. Row scoring reads compact tables: the parent configurations are numbered
 * in the order they first occur in the rows, so a table has at most n configurations per class however
 * many the parents' cardinalities multiply to (joined supernodes in fssj and bsej reach millions, nearly
 * all empty); its cells hold the very numbers of the dense table's occurring configurations (same counts,
 * same operations), so scores are unchanged. The dense table is built only for exact inference. The class scores of the current structure are kept per row; a candidate
 * that changes some families is scored on a row by swapping those families' terms, which is exact whenever
 * every variable of the old and new families is observed in the row (such a factor does not depend on the
 * missing values, so it factors out of the sum over them). Other rows are scored by exact inference
 * (NetworkInference: variable elimination over the missing values) on the fold's tables.
 */
import { selectRows, type CodeColumn, type DiscreteData } from '../../bn/data.js';
import { CptModel, type NodeCpt } from '../../bn/cpt.js';
import { UserError } from '../../util/errors.js';
import { FoldEvaluatorBase, foldLogTables } from './common.js';
import type { RowSink } from './bnclassify-cv.js';

/** Per attribute: null when it is not in the model, else its attribute parents in ascending order. */
export type FeatureParents = readonly (readonly number[] | null)[];

/** New families of some attributes (attribute → parents or null), the rest of the structure unchanged. */
export type FamilyChanges = ReadonlyMap<number, readonly number[] | null>;

/** Cached per-fold tables would exceed this many cells: the cache is cleared. */
const CACHE_CELLS = 1 << 23;
/**
 * A candidate with a family whose per-fold tables would exceed this many cells (32 MiB) is not scored
 * (score -Infinity): joining many attributes (bsej, fssj) multiplies their cardinalities.
 */
const MAX_FAMILY_CELLS = 1 << 22;
/** Class scores closer than this (relative) are a tie. */
const TIE_TOL = 1e-9;

/** Credit of one row: 1/t if its class is among the t classes with the maximal score, else 0. */
function rowCredit(scores: Float64Array, offset: number, C: number, y: number): number {
  let mx = -Infinity;
  for (let c = 0; c < C; c++) if (scores[offset + c] > mx) mx = scores[offset + c];
  if (mx === -Infinity) return 1 / C;
  const tol = TIE_TOL * Math.max(1, Math.abs(mx));
  let ties = 0;
  for (let c = 0; c < C; c++) if (scores[offset + c] >= mx - tol) ties++;
  return scores[offset + y] >= mx - tol ? 1 / ties : 0;
}

export function applyChanges(current: FeatureParents, changes: FamilyChanges): (readonly number[] | null)[] {
  const next = current.slice();
  for (const [a, ps] of changes) next[a] = ps;
  return next;
}

/** Per-fold log tables over the parent configurations that occur: [fold][c][config id][x_a]. */
interface CompactTable {
  readonly t: Float64Array;
  /** Config id of each row's parent values, −1 where a parent is missing. */
  readonly rowCfg: Int32Array;
}

interface Term {
  readonly t: Float64Array;
  readonly xa: CodeColumn;
  readonly rowCfg: Int32Array;
  readonly ra: number;
  /** Cells per class value in one fold's table. */
  readonly stride: number;
  readonly sign: number;
}

export class FoldFamilyEvaluator extends FoldEvaluatorBase {
  private readonly tables = new Map<string, Float64Array>();
  private cachedCells = 0;
  private readonly compactTables = new Map<string, CompactTable>();
  private compactCells = 0;
  private current: FeatureParents = [];
  /** log P(c, x_obs) of every row under the current structure, n × C. */
  private readonly S: Float64Array;

  /** Whether any attribute value is missing (else every row is scored by swapping terms). */
  private readonly hasMissing: boolean;

  constructor(data: DiscreteData, foldOf: Int32Array, k: number, alpha: number) {
    super(data, foldOf, k, alpha);
    this.S = new Float64Array(this.n * this.C);
    this.hasMissing = data.columns.some((col) => col.some((v) => v < 0));
  }

  /** Per-fold log θ(x_a | c, x_ps), laid out [fold][c][config of ps][x_a] (ps in the given order). */
  table(a: number, ps: readonly number[]): Float64Array {
    const key = `${a}|${ps.join(',')}`;
    const hit = this.tables.get(key);
    if (hit) return hit;
    const { C, k, n, data } = this;
    const ra = data.cards[a];
    let configs = C;
    for (const p of ps) configs *= data.cards[p];
    const size = configs * ra;
    if (k * size > MAX_FAMILY_CELLS) {
      throw new UserError(
        `the family of attribute '${data.names[a]}' with parents ${ps.map((p) => `'${data.names[p]}'`).join(', ')} ` +
          `needs ${k * size} cells over ${k} folds (limit ${MAX_FAMILY_CELLS})`,
      );
    }
    const cnt = new Float64Array(k * size);
    const xa = data.columns[a];
    const y = data.classColumn;
    const cols = ps.map((p) => data.columns[p]);
    const cards = ps.map((p) => data.cards[p]);
    rows: for (let r = 0; r < n; r++) {
      const v = xa[r];
      if (v < 0) continue;
      let cfg = y[r];
      for (let q = 0; q < ps.length; q++) {
        const u = cols[q][r];
        if (u < 0) continue rows;
        cfg = cfg * cards[q] + u;
      }
      cnt[this.foldOf[r] * size + cfg * ra + v]++;
    }
    const out = foldLogTables(cnt, configs, ra, k, this.alpha);
    if (this.cachedCells + out.length > CACHE_CELLS) {
      this.tables.clear();
      this.cachedCells = 0;
    }
    this.tables.set(key, out);
    this.cachedCells += out.length;
    return out;
  }

  /** The compact form of table(a, ps): only the parent configurations that occur in the rows (see Cost above). */
  compactTable(a: number, ps: readonly number[]): CompactTable {
    const key = `${a}|${ps.join(',')}`;
    const hit = this.compactTables.get(key);
    if (hit) return hit;
    const { C, k, n, data } = this;
    const ra = data.cards[a];
    const cols = ps.map((p) => data.columns[p]);
    const cards = ps.map((p) => data.cards[p]);
    const rowCfg = new Int32Array(n);
    const ids = new Map<number, number>();
    rows: for (let r = 0; r < n; r++) {
      let cfg = 0;
      for (let q = 0; q < ps.length; q++) {
        const u = cols[q][r];
        if (u < 0) {
          rowCfg[r] = -1;
          continue rows;
        }
        cfg = cfg * cards[q] + u;
      }
      let id = ids.get(cfg);
      if (id === undefined) ids.set(cfg, (id = ids.size));
      rowCfg[r] = id;
    }
    const U = Math.max(1, ids.size);
    const size = C * U * ra;
    const cnt = new Float64Array(k * size);
    const xa = data.columns[a];
    const y = data.classColumn;
    for (let r = 0; r < n; r++) {
      const v = xa[r];
      const u = rowCfg[r];
      if (v < 0 || u < 0) continue;
      cnt[this.foldOf[r] * size + (y[r] * U + u) * ra + v]++;
    }
    const out = { t: foldLogTables(cnt, C * U, ra, k, this.alpha), rowCfg };
    if (this.compactCells + out.t.length > CACHE_CELLS) {
      this.compactTables.clear();
      this.compactCells = 0;
    }
    this.compactTables.set(key, out);
    this.compactCells += out.t.length;
    return out;
  }

  /** Fold f's network for the structure: per-fold tables viewed as CPTs; attributes outside the model contribute 0. */
  private foldModel(par: FeatureParents, f: number): CptModel {
    const { m, C, data } = this;
    const cpts: NodeCpt[] = [];
    for (let a = 0; a < m; a++) {
      const ps = par[a];
      const ra = data.cards[a];
      if (ps === null || ps === undefined) {
        cpts.push({ parents: [], card: ra, parentCards: new Int32Array(0), configs: 1, logp: new Float64Array(ra) });
        continue;
      }
      const t = this.table(a, ps);
      const size = t.length / this.k;
      const parentCards = Int32Array.from([C, ...ps.map((p) => data.cards[p])]);
      cpts.push({
        parents: [m, ...ps],
        card: ra,
        parentCards,
        configs: size / ra,
        logp: t.subarray(f * size, (f + 1) * size),
      });
    }
    cpts.push({
      parents: [],
      card: C,
      parentCards: new Int32Array(0),
      configs: 1,
      logp: this.classLog.subarray(f * C, (f + 1) * C),
    });
    return new CptModel([...data.cards, C], cpts);
  }

  /** Attribute a's term with parents ps, looked up once for many rows. */
  private term(a: number, ps: readonly number[], sign: number): Term {
    const ra = this.data.cards[a];
    const { t, rowCfg } = this.compactTable(a, ps);
    return { t, xa: this.data.columns[a], rowCfg, ra, stride: (t.length / this.k / this.C) | 0, sign };
  }

  /** Adds a term for row r (fully observed family) of fold f into out[o .. o + C). */
  private addTerm(term: Term, r: number, f: number, out: Float64Array, o: number): void {
    const { C } = this;
    const st = term.stride;
    const base = f * C * st + term.rowCfg[r] * term.ra + term.xa[r];
    const t = term.t;
    if (term.sign > 0) for (let c = 0; c < C; c++) out[o + c] += t[base + c * st];
    else for (let c = 0; c < C; c++) out[o + c] -= t[base + c * st];
  }

  /** Whether every attribute in vars is observed in row r. */
  private observed(vars: Int32Array, r: number): boolean {
    for (let i = 0; i < vars.length; i++) if (this.data.columns[vars[i]][r] < 0) return false;
    return true;
  }

  /** Scores of the rows `rows` of fold f under par by exact inference, written to out[row index * C ...]. */
  private inferRows(par: FeatureParents, f: number, rows: number[]): Float64Array {
    return this.foldModel(par, f).logJoint(selectRows(this.data, rows));
  }

  /** Sets the current structure and returns its mean fold accuracy. */
  setCurrent(par: FeatureParents): number {
    this.current = par.slice();
    const { C, S } = this;
    const allVars: number[] = [];
    par.forEach((ps, a) => {
      if (ps) allVars.push(a);
    });
    const vars = Int32Array.from(allVars);
    const terms = allVars.map((a) => this.term(a, par[a]!, 1));
    let sum = 0;
    for (let f = 0; f < this.k; f++) {
      const rows = this.foldRows[f];
      const hard: number[] = [];
      for (const r of rows) {
        if (!this.observed(vars, r)) {
          hard.push(r);
          continue;
        }
        for (let c = 0; c < C; c++) S[r * C + c] = this.classLog[f * C + c];
        for (const t of terms) this.addTerm(t, r, f, S, r * C);
      }
      if (hard.length > 0) {
        const lj = this.inferRows(par, f, hard);
        hard.forEach((r, i) => S.set(lj.subarray(i * C, (i + 1) * C), r * C));
      }
      let credit = 0;
      for (const r of rows) credit += rowCredit(S, r * C, C, this.data.classColumn[r]);
      sum += credit / rows.length;
    }
    return sum / this.k;
  }

  /** Hands every row's class scores under the current structure to `sink`, fold by fold (bnclassify-cv.ts). */
  visitCurrent(sink: RowSink): void {
    for (let f = 0; f < this.k; f++) for (const r of this.foldRows[f]) sink(f, r, this.S, r * this.C);
  }

  /** Whether the per-fold tables of attribute a with parents ps stay within MAX_FAMILY_CELLS. */
  fits(a: number, ps: readonly number[]): boolean {
    let cells = this.k * this.C * this.data.cards[a];
    for (const p of ps) cells *= this.data.cards[p];
    return cells <= MAX_FAMILY_CELLS;
  }

  /**
   * Mean fold accuracy of the current structure with `changes` applied (the current structure is kept);
   * -Infinity when a new family does not fit (see MAX_FAMILY_CELLS).
   */
  score(changes: FamilyChanges, sink?: RowSink): number {
    for (const [a, ps] of changes) if (ps && !this.fits(a, ps)) return -Infinity;
    const { C, S } = this;
    const y = this.data.classColumn;
    const involved = new Set<number>();
    for (const [a, ps] of changes) {
      const old = this.current[a];
      if (old === null && ps === null) continue;
      involved.add(a);
      for (const p of old ?? []) involved.add(p);
      for (const p of ps ?? []) involved.add(p);
    }
    const vars = Int32Array.from(involved);
    const terms: Term[] = [];
    for (const [a, ps] of changes) {
      const old = this.current[a];
      if (old) terms.push(this.term(a, old, -1));
      if (ps) terms.push(this.term(a, ps, 1));
    }
    const next = applyChanges(this.current, changes);
    const buf = new Float64Array(C);
    let sum = 0;
    for (let f = 0; f < this.k; f++) {
      const rows = this.foldRows[f];
      const hard: number[] = [];
      let credit = 0;
      for (const r of rows) {
        if (this.hasMissing && !this.observed(vars, r)) {
          hard.push(r);
          continue;
        }
        // A plain copy: a subarray view per row costs an allocation in this innermost loop.
        for (let c = 0, o = r * C; c < C; c++) buf[c] = S[o + c];
        for (const t of terms) this.addTerm(t, r, f, buf, 0);
        if (sink) sink(f, r, buf, 0);
        else credit += rowCredit(buf, 0, C, y[r]);
      }
      if (hard.length > 0) {
        const lj = this.inferRows(next, f, hard);
        if (sink) hard.forEach((r, i) => sink(f, r, lj, i * C));
        else hard.forEach((r, i) => (credit += rowCredit(lj, i * C, C, y[r])));
      }
      sum += credit / rows.length;
    }
    return sum / this.k;
  }
}
