/**
 * Random forest (Breiman 2001) with Weka's RandomForest defaults, the configuration the HDP paper
 * (Petitjean et al. 2018, §6.1) compares against: 100 trees, each grown unpruned on a bootstrap sample of
 * n rows drawn with replacement, K = ⌊log2(m)⌋ + 1 attributes drawn at every node (Weka's -K 0 rule; at
 * most m), information gain, no minimum leaf size, multiway splits on the discretized attributes. A tree
 * predicts the relative class frequencies of its leaf; the forest averages the trees' distributions.
 * Tree growing, RandomTree's attribute sampling and missing values (fractional rows down every branch)
 * are in decision-tree.ts. Tree t draws its bootstrap and its attributes from ctx.rng.derive('tree t'),
 * so the forest does not depend on the order trees are grown in.
 */
import { defineParams, registerBaseline, type Model } from '../registry.js';
import { attributeCount, type DiscreteData } from '../bn/data.js';
import { UserError } from '../util/errors.js';
import { addTreeDistribution, growTree, normalizeRows, type Tree } from './decision-tree.js';

type FeaturesPerSplit = 'log2+1' | 'sqrt' | number;

/** K for m attributes: 'log2+1' = ⌊log2 m⌋ + 1 (Weka), 'sqrt' = ⌊√m⌋ (Breiman), or the given number; within 1..m. */
export function featuresFor(rule: FeaturesPerSplit, m: number): number {
  if (m <= 0) return 0;
  let k: number;
  if (rule === 'log2+1') k = Math.floor(Math.log2(m)) + 1;
  else if (rule === 'sqrt') k = Math.floor(Math.sqrt(m));
  else if (Number.isInteger(rule) && rule >= 1) k = rule;
  else
    throw new UserError(
      `random-forest: featuresPerSplit must be 'log2+1', 'sqrt' or an integer >= 1, got ${String(rule)}`,
    );
  return Math.max(1, Math.min(m, k));
}

export class ForestModel implements Model {
  constructor(
    readonly trees: readonly Tree[],
    readonly classCard: number,
  ) {}

  posterior(data: DiscreteData): Float64Array {
    const out = new Float64Array(data.n * this.classCard);
    const scale = 1 / this.trees.length;
    for (const t of this.trees) addTreeDistribution(t, data, out, scale);
    return normalizeRows(out, this.classCard);
  }
}

export const randomForest = registerBaseline({
  id: 'random-forest',
  revision: 1,
  title: 'Random forest (Weka defaults: 100 trees, ⌊log2 m⌋+1 attributes per split, unpruned)',
  citation:
    'Breiman (2001), Random forests, Machine Learning 45:5–32; defaults of Weka 3.8 RandomForest/RandomTree ' +
    '(-I 100 -K 0 -M 1), as used by Petitjean, Buntine, Webb & Zaidi (2018), Machine Learning 107:1303–1331',
  params: defineParams({
    trees: { type: 'integer', minimum: 1, default: 100, description: 'Number of trees' },
    featuresPerSplit: {
      default: 'log2+1',
      description: "Attributes drawn at each node: 'log2+1' (Weka), 'sqrt' (Breiman) or a number",
      oneOf: [{ enum: ['log2+1', 'sqrt'] }, { type: 'integer', minimum: 1 }],
    },
    maxDepth: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'Most tests on a root-to-leaf path (0 = unlimited)',
    },
  }),
  fit(train, params, ctx) {
    const trees = params.trees;
    if (!Number.isInteger(trees) || trees < 1)
      throw new UserError(`random-forest: trees must be an integer >= 1, got ${String(trees)}`);
    const maxDepth = params.maxDepth;
    if (!Number.isInteger(maxDepth) || maxDepth < 0)
      throw new UserError(`random-forest: maxDepth must be an integer >= 0, got ${String(maxDepth)}`);
    const m = attributeCount(train);
    const K = featuresFor(params.featuresPerSplit, m);
    const n = train.n;
    const grown: Tree[] = [];
    const counts = new Int32Array(n);
    for (let t = 0; t < trees; t++) {
      ctx.signal?.throwIfAborted();
      const rng = ctx.rng.derive(`tree ${t}`);
      counts.fill(0);
      if (n > 0) for (let i = 0; i < n; i++) counts[rng.int(n)]++;
      let used = 0;
      for (let i = 0; i < n; i++) if (counts[i] > 0) used++;
      const rows = new Int32Array(used);
      const weights = new Float64Array(used);
      let k = 0;
      for (let i = 0; i < n; i++) {
        if (counts[i] > 0) {
          rows[k] = i;
          weights[k++] = counts[i];
        }
      }
      grown.push(
        growTree(train, rows, weights, { criterion: 'gain', featuresPerSplit: K, maxDepth, leaf: 'frequency' }, rng),
      );
    }
    return new ForestModel(grown, train.classCard);
  },
});
