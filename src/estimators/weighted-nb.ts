/**
 * Naive Bayes with one exponent weight per attribute, shared by WANBIA and AWNB:
 *
 *   P(c | x; w) ∝ P(c) · Π_i P(x_i | c)^{w_i}
 *
 * computed in log space as log P(c) + Σ_i w_i log P(x_i | c) and normalised with log-sum-exp. An attribute
 * missing in a row contributes no factor (a missing leaf sums out of naive Bayes; bnclassify's WANBIA uses
 * the same convention). The tables are Dirichlet estimates θ = (N + α) / (N_c + r α) from available-case
 * counts (bnclassify's Eq. 2), laid out [x * C + c] for a column-wise pass over the rows.
 */
import type { Model } from '../registry.js';
import type { DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { attributeClassCounts } from '../bn/counts.js';
import { normalizeLogRows } from '../bn/inference.js';

export interface NaiveBayesTables {
  /** log P(c), length C. */
  readonly logPrior: Float64Array;
  /** Per attribute, log P(x | c) at [x * C + c]. */
  readonly logCond: readonly Float64Array[];
  readonly classCard: number;
}

/** Throws unless the structure is naive Bayes over m attributes (estimators restricted to `nb`). */
export function assertNaiveBayes(structure: Structure, m: number, id: string): void {
  const ok =
    !structure.members &&
    structure.m === m &&
    structure.parents.length === m + 1 &&
    structure.parents[m].length === 0 &&
    structure.parents.slice(0, m).every((p) => p.length === 1 && p[0] === m);
  if (!ok) throw new Error(`${id} applies to naive Bayes structures only`);
}

/** Dirichlet (α per cell) class prior and class-conditional tables of naive Bayes. */
export function naiveBayesTables(train: DiscreteData, alpha: number): NaiveBayesTables {
  const C = train.classCard;
  const m = train.columns.length;
  const nc = new Float64Array(C);
  for (let r = 0; r < train.n; r++) nc[train.classColumn[r]]++;
  const logPrior = new Float64Array(C);
  const denom = train.n + C * alpha;
  for (let c = 0; c < C; c++) logPrior[c] = denom > 0 ? Math.log((nc[c] + alpha) / denom) : -Math.log(C);
  const logCond: Float64Array[] = [];
  for (let a = 0; a < m; a++) {
    const r = train.cards[a];
    const t = attributeClassCounts(train, a);
    const out = new Float64Array(r * C);
    for (let c = 0; c < C; c++) {
      let n = 0;
      for (let x = 0; x < r; x++) n += t[x * C + c];
      const d = n + r * alpha;
      for (let x = 0; x < r; x++) out[x * C + c] = d > 0 ? Math.log((t[x * C + c] + alpha) / d) : -Math.log(r);
    }
    logCond.push(out);
  }
  return { logPrior, logCond, classCard: C };
}

/**
 * Unnormalised log scores log P(c) + Σ_i w_i log P(x_i | c), n × C row-major. Attributes with weight 0 are
 * skipped (so a zero weight never meets a log 0).
 */
export function weightedLogScores(
  tables: NaiveBayesTables,
  weights: ArrayLike<number>,
  data: DiscreteData,
  out?: Float64Array,
): Float64Array {
  const C = tables.classCard;
  const n = data.n;
  const s = out ?? new Float64Array(n * C);
  for (let r = 0; r < n; r++) for (let c = 0; c < C; c++) s[r * C + c] = tables.logPrior[c];
  tables.logCond.forEach((L, a) => {
    const w = weights[a];
    if (w === 0) return;
    const col = data.columns[a];
    for (let r = 0; r < n; r++) {
      const x = col[r];
      if (x < 0) continue;
      const b = x * C;
      const o = r * C;
      for (let c = 0; c < C; c++) s[o + c] += w * L[b + c];
    }
  });
  return s;
}

/** bnclassify's weighted tables (its WANBIA and AWNB): log θ_w(x | c) = w log θ(x | c) − log Σ_x' θ(x' | c)^w, with weights folded in. */
export function renormalizedTables(tables: NaiveBayesTables, w: ArrayLike<number>): NaiveBayesTables {
  const C = tables.classCard;
  const logCond = tables.logCond.map((L, a) => {
    const wa = w[a];
    const r = L.length / C;
    const out = new Float64Array(L.length);
    for (let c = 0; c < C; c++) {
      let mx = -Infinity;
      for (let x = 0; x < r; x++) mx = Math.max(mx, wa * L[x * C + c]);
      let z = 0;
      for (let x = 0; x < r; x++) z += Math.exp(wa * L[x * C + c] - mx);
      const lz = mx + Math.log(z);
      for (let x = 0; x < r; x++) out[x * C + c] = wa * L[x * C + c] - lz;
    }
    return out;
  });
  return { logPrior: tables.logPrior, logCond, classCard: C };
}

export class WeightedNaiveBayes implements Model {
  constructor(
    readonly tables: NaiveBayesTables,
    /** One weight per attribute. */
    readonly weights: Float64Array,
  ) {
    if (weights.length !== tables.logCond.length) {
      throw new Error(`weighted naive Bayes: ${weights.length} weights for ${tables.logCond.length} attributes`);
    }
  }

  posterior(data: DiscreteData): Float64Array {
    return normalizeLogRows(weightedLogScores(this.tables, this.weights, data), this.tables.classCard);
  }
}
