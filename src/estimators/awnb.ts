/**
 * AWNB (Hall 2007): naive Bayes with attribute weights from decision trees,
 * P(c | x) ∝ P(c) Π_i P(x_i | c)^{w_i} (weighted-nb.ts; Dirichlet tables, α = 1 by default), where
 *
 *   w_i = (1/M) Σ_t 1/√d_ti,   d_ti = the minimum depth at which tree t tests X_i (root = 1), 0 terms
 *                              for trees that never test X_i,
 *
 * over M unpruned trees (decision-tree.ts: C4.5 gain ratio, no pruning, no minimum leaf size), each grown
 * on a bootstrap subsample of ⌊fraction · n⌋ rows drawn with replacement (bnclassify's bootstrap_ss; at
 * least one row). Defaults M = 10 and fraction 0.5 (Hall 2007; bnclassify awnb_trees, awnb_bootstrap).
 * Subsample t is drawn from ctx.rng.derive('awnb tree t').
 *
 * The weights enter the posterior as exponents in log space, as Hall's formula states. bnclassify's AWNB
 * is `{tree: rpart, tables: renormalized}`: rpart trees (rpart-tree.ts) and each exponentiated CPT
 * renormalised, θ^w / Σ_x θ^w (weighted-nb.ts renormalizedTables). The defaults keep Hall's variant.
 */
import { defineParams, registerEstimator, type Model } from '../registry.js';
import type { DiscreteData } from '../bn/data.js';
import type { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';
import { growTree, minTestingDepths, type Tree } from '../baselines/decision-tree.js';
import { rpartMinTestingDepths } from './rpart-tree.js';
import { assertNaiveBayes, naiveBayesTables, renormalizedTables, WeightedNaiveBayes } from './weighted-nb.js';

/** w_i = mean over trees of 1/√(minimum testing depth), 0 for an untested attribute. */
export function awnbWeightsFromDepths(depths: readonly Int32Array[], m: number): Float64Array {
  const w = new Float64Array(m);
  for (const d of depths) for (let a = 0; a < m; a++) if (d[a] > 0) w[a] += 1 / Math.sqrt(d[a]);
  for (let a = 0; a < m; a++) w[a] /= depths.length;
  return w;
}

/** The M bootstrap subsamples: the rows drawn at least once and how often. */
export function awnbSamples(
  train: DiscreteData,
  trees: number,
  subsample: number,
  rng: Rng,
): { rows: Int32Array; weights: Float64Array }[] {
  const n = train.n;
  const size = Math.max(1, Math.trunc(n * subsample));
  const out: { rows: Int32Array; weights: Float64Array }[] = [];
  for (let t = 0; t < trees; t++) {
    const r = rng.derive(`awnb tree ${t}`);
    const counts = new Float64Array(n);
    if (n > 0) for (let i = 0; i < size; i++) counts[r.int(n)]++;
    const rows: number[] = [];
    const weights: number[] = [];
    for (let i = 0; i < n; i++) {
      if (counts[i] > 0) {
        rows.push(i);
        weights.push(counts[i]);
      }
    }
    out.push({ rows: Int32Array.from(rows), weights: Float64Array.from(weights) });
  }
  return out;
}

/** The M bootstrap trees AWNB reads its weights from (C4.5 gain ratio, unpruned). */
export function awnbTrees(train: DiscreteData, trees: number, subsample: number, rng: Rng): Tree[] {
  return awnbSamples(train, trees, subsample, rng).map(({ rows, weights }) =>
    growTree(train, rows, weights, { criterion: 'gainRatio', featuresPerSplit: 0, maxDepth: 0, leaf: 'laplace' }),
  );
}

export const awnb = registerEstimator({
  id: 'awnb',
  revision: 1,
  title: 'AWNB: naive Bayes attribute weights from bootstrap decision trees',
  citation:
    'Hall (2007), A decision tree-based attribute weighting filter for naive Bayes, Knowledge-Based Systems ' +
    '20(2):120–126; bnclassify awnb (Mihaljević, Bielza & Larrañaga 2018) with the differences noted',
  orderDependence: {
    columns: 'the weights come from decision trees, which give a tie between equally good splits to the earlier column',
  },
  requires: ['naive-bayes'],
  notes:
    "Defaults follow Hall (2007); `{tree: rpart, tables: renormalized}` is bnclassify's AWNB. (1) Trees: by " +
    'default C4.5 multiway gain-ratio trees (decision-tree.ts); `tree: rpart` grows the rpart trees bnclassify ' +
    'uses (binary splits, information criterion, minsplit 2, minbucket 1, cp 0, no surrogates; rpart-tree.ts, ' +
    'checked against R rpart 4.1.19). (2) Tables: by default the weights are exponents on unnormalised tables, ' +
    'P(c)·Π P(x|c)^w; `tables: renormalized` applies them as bnclassify does, θ^w / Σθ^w per class. The ' +
    "bootstrap draws are bnclab's own (seeded), not R's",
  params: defineParams({
    trees: { type: 'integer', minimum: 1, default: 10, description: 'Number of bootstrap trees M' },
    subsample: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.5,
      description: 'Bootstrap size as a fraction of the training rows',
    },
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1,
      description: 'Dirichlet pseudo-count of the NB tables (1 = Laplace)',
    },
    tree: {
      enum: ['c45', 'rpart'],
      default: 'c45',
      inKey: false, // added after results existed: a job that does not set it keeps its key
      description:
        "Trees: c45 (default; C4.5 multiway gain ratio) or rpart (bnclassify's: rpart binary splits, information, minsplit 2, cp 0)",
    },
    tables: {
      enum: ['exponent', 'renormalized'],
      default: 'exponent',
      inKey: false, // added after results existed: a job that does not set it keeps its key
      description:
        "How weights apply: exponent (default, Hall 2007: P(c)·ΠP(x|c)^w) or renormalized (bnclassify's: each table θ^w / Σθ^w per class)",
    },
  }),
  fit(train, structure, params, ctx): Model {
    const m = train.columns.length;
    assertNaiveBayes(structure, m, 'awnb');
    const trees = params.trees;
    if (!Number.isInteger(trees) || trees < 1)
      throw new UserError(`awnb: trees must be an integer >= 1, got ${String(trees)}`);
    const subsample = params.subsample;
    if (!(subsample > 0 && subsample <= 1))
      throw new UserError(`awnb: subsample must be in (0, 1], got ${String(subsample)}`);
    const alpha = params.alpha;
    if (!(alpha > 0) || !Number.isFinite(alpha))
      throw new UserError(`awnb: alpha must be a finite number > 0, got ${String(alpha)}`);
    const treeKind = params.tree;
    if (treeKind !== 'c45' && treeKind !== 'rpart')
      throw new UserError(`awnb: tree must be c45 or rpart, got '${String(treeKind)}'`);
    const depths =
      treeKind === 'rpart'
        ? awnbSamples(train, trees, subsample, ctx.rng.derive('awnb')).map(({ rows, weights: w }) =>
            rpartMinTestingDepths(train, rows, w),
          )
        : awnbTrees(train, trees, subsample, ctx.rng.derive('awnb')).map((t) => minTestingDepths(t, m));
    const weights = awnbWeightsFromDepths(depths, m);
    const tablesMode = params.tables;
    if (tablesMode !== 'exponent' && tablesMode !== 'renormalized')
      throw new UserError(`awnb: tables must be exponent or renormalized, got '${String(tablesMode)}'`);
    const nbTables = naiveBayesTables(train, alpha);
    if (tablesMode === 'renormalized')
      return new WeightedNaiveBayes(renormalizedTables(nbTables, weights), new Float64Array(m).fill(1));
    return new WeightedNaiveBayes(nbTables, weights);
  },
});
