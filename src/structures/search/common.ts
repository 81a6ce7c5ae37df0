/**
 * What every greedy cross-validated-accuracy search shares (tan-hc, tan-hcsp, fssj, bsej, kdb-hc, after
 * bnclassify's greedy_search): the parameters k / epsilon / smooth, the random tie break, the name order
 * bnclassify uses between equivalent arcs, and the attribute limit.
 */
import type { DiscreteData } from '../../bn/data.js';
import { attributeCount } from '../../bn/data.js';
import type { Rng } from '../../util/rng.js';
import { UserError } from '../../util/errors.js';
import { paramDecls, type DeclaredParams } from '../../registry.js';

/** Accuracies closer than this are equal (ties, the stop rule, accuracy 1). */
export const SCORE_TOL = 1e-12;

/** Index of a maximum of xs (within SCORE_TOL), chosen uniformly among the tied ones. */
export function maxRandom(xs: readonly number[], rng: Rng): number {
  let mx = -Infinity;
  for (const x of xs) if (x > mx) mx = x;
  const best: number[] = [];
  xs.forEach((x, i) => {
    if (x >= mx - SCORE_TOL) best.push(i);
  });
  return best.length === 1 ? best[0] : best[rng.int(best.length)];
}

/**
 * How tan-hc orients an arc between two orphans (the two directions are Markov equivalent, only one is
 * scored): `column` (default), as bnclassify 0.4.8's code does — augment_ode_arcs lists both directions,
 * groups them by tail in first-appearance order (discard_cycles) and discard_reversed keeps the later row of
 * each reversed pair, which is the arc whose tail is the later column; `name`, the tail is the attribute
 * whose column name sorts first (the methods vignette's wording, "Xi alphabetically before Xj").
 */
export type OrphanOrient = 'column' | 'name';
export const ORPHAN_ORIENTS: readonly OrphanOrient[] = ['column', 'name'];

/** The rank order of tails between orphans for `orient` (a lower rank is the tail): see OrphanOrient. */
export function orientRank(data: DiscreteData, orient: OrphanOrient): Int32Array {
  if (orient === 'name') return nameRank(data);
  const m = attributeCount(data);
  return Int32Array.from({ length: m }, (_, a) => m - 1 - a);
}

/** Attribute order by column name (code units), ties by index: the tail of an orphan–orphan arc sorts first. */
function nameRank(data: DiscreteData): Int32Array {
  const m = attributeCount(data);
  const idx = Array.from({ length: m }, (_, a) => a);
  idx.sort((a, b) => (data.names[a] < data.names[b] ? -1 : data.names[a] > data.names[b] ? 1 : a - b));
  const rank = new Int32Array(m);
  idx.forEach((a, pos) => (rank[a] = pos));
  return rank;
}

export function checkWrapperParams(id: string, p: OdeWrapperParams): { k: number; epsilon: number; alpha: number } {
  const { k, epsilon, smooth: alpha } = p;
  if (!Number.isInteger(k) || k < 2) throw new UserError(`${id}: k must be an integer >= 2, got ${String(k)}`);
  if (!(epsilon >= 0) || !Number.isFinite(epsilon))
    throw new UserError(`${id}: epsilon must be a number >= 0, got ${String(epsilon)}`);
  if (!(alpha > 0) || !Number.isFinite(alpha))
    throw new UserError(`${id}: smooth must be a number > 0, got ${String(alpha)}`);
  return { k, epsilon, alpha };
}

export const WRAPPER_PARAMS = paramDecls({
  k: { type: 'integer', minimum: 2, default: 5, description: 'Folds of the internal stratified cross-validation' },
  epsilon: {
    type: 'number',
    minimum: 0,
    default: 0,
    description: 'Stop unless the best candidate beats the current accuracy minus epsilon',
  },
  smooth: {
    type: 'number',
    exclusiveMinimum: 0,
    default: 1,
    description: 'Dirichlet pseudo-count per cell inside the wrapper (1 = Laplace)',
  },
});

/**
 * tan-hc's and kdb-hc's `r_seed` (no default: absent, the folds and ties come from the job's seed and the
 * parameter is not part of the job key): the search then reproduces bnclassify 0.4.8's tan_hc / kdb run right
 * after set.seed(r_seed) in R, drawing from R's generator as bnclassify does (search/bnclassify-cv.ts).
 */
export const R_SEED_PARAM = paramDecls({
  r_seed: {
    type: 'integer',
    minimum: -2147483647,
    maximum: 2147483647,
    description:
      "Reproduce bnclassify 0.4.8 run right after R's set.seed(r_seed): its internal folds, its random tie breaks between classes and between candidates drawn from R's Mersenne-Twister in bnclassify's order, its candidate order and its tolerances (absent: folds and ties from the job's seed)",
  },
});

/** The wrapper parameters as every search receives them (complete: registration fills in the defaults). */
export type OdeWrapperParams = DeclaredParams<typeof WRAPPER_PARAMS>;

/** The most attributes a wrapper search accepts: each step scores O(m²) arcs, each over every row. */
export const WRAPPER_MAX_ATTRIBUTES = 200;

/**
 * Training log-probabilities per fold from per-fold counts [fold][config][value]: the training counts of
 * fold f are total − fold f, smoothed with `alpha` per cell (Dirichlet; 1 = Laplace). Same layout out.
 */
export function foldLogTables(
  perFold: Float64Array,
  configs: number,
  r: number,
  k: number,
  alpha: number,
): Float64Array {
  const size = configs * r;
  const total = new Float64Array(size);
  for (let f = 0; f < k; f++) for (let i = 0; i < size; i++) total[i] += perFold[f * size + i];
  const out = new Float64Array(k * size);
  const a = alpha;
  for (let f = 0; f < k; f++) {
    const o = f * size;
    for (let j = 0; j < configs; j++) {
      let nj = 0;
      for (let x = 0; x < r; x++) nj += total[j * r + x] - perFold[o + j * r + x];
      const ld = Math.log(nj + r * a);
      for (let x = 0; x < r; x++) out[o + j * r + x] = Math.log(total[j * r + x] - perFold[o + j * r + x] + a) - ld;
    }
  }
  return out;
}

/** The rows of each fold (ascending) and the per-fold class prior log P(c) (training = the other folds, smoothed). */
function foldLayout(
  data: DiscreteData,
  foldOf: Int32Array,
  k: number,
  alpha: number,
): { foldRows: Int32Array[]; classLog: Float64Array } {
  const n = data.n;
  const C = data.classCard;
  const sizes = new Int32Array(k);
  for (let r = 0; r < n; r++) sizes[foldOf[r]]++;
  const foldRows = Array.from({ length: k }, (_, f) => new Int32Array(sizes[f]));
  const fill = new Int32Array(k);
  for (let r = 0; r < n; r++) foldRows[foldOf[r]][fill[foldOf[r]]++] = r;
  const cc = new Float64Array(k * C);
  for (let r = 0; r < n; r++) cc[foldOf[r] * C + data.classColumn[r]]++;
  return { foldRows, classLog: foldLogTables(cc, 1, C, k, alpha) };
}

/** What every fold evaluator holds: the data, its partition, the smoothing and the per-fold class prior. */
export abstract class FoldEvaluatorBase {
  readonly m: number;
  readonly C: number;
  readonly k: number;
  readonly n: number;
  protected readonly data: DiscreteData;
  protected readonly alpha: number;
  readonly foldOf: Int32Array;
  protected readonly foldRows: Int32Array[];
  protected readonly classLog: Float64Array;

  constructor(data: DiscreteData, foldOf: Int32Array, k: number, alpha: number) {
    this.data = data;
    this.m = attributeCount(data);
    this.C = data.classCard;
    this.k = k;
    this.n = data.n;
    this.alpha = alpha;
    this.foldOf = foldOf;
    ({ foldRows: this.foldRows, classLog: this.classLog } = foldLayout(data, foldOf, k, alpha));
  }
}

/** What makes every greedy cross-validated-accuracy search depend on column order and class codes. */
export const WRAPPER_ORDER_DEPENDENCE = {
  columns:
    'ties between equally accurate moves are broken at random among candidates listed in attribute order, and ' +
    "arcs between two parentless attributes are oriented by attribute order (bnclassify's conventions)",
  classes: 'the internal cross-validation folds are stratified by class code, so renamed classes draw other folds',
} as const;
