/**
 * The cost model: expected milliseconds of one job on one core (train + predict + its share of
 * preprocessing), used to balance shards, to weight progress and to estimate core-hours before a run.
 *
 * Static estimates are a formula per method in the size of the job's training fold: n training rows,
 * m attributes, C classes (all known from the plan, before anything runs), times a constant measured on
 * this project's reference machine (2-core x86-64, Node 20) with `bnclab run --workers 1` on eight
 * shipped datasets (iris … kr-vs-kp, page-blocks; 2-fold CV) and, for HDP, against the timings in
 * bench/hdp.ts. They are meant to be right within a factor of about 3 and to rank methods correctly
 * (an HDP kDB-5 job costs 100-1,000 NB jobs), which is what balancing needs; docs/cluster.md lists them.
 *
 *   nb, dirichlet/mle/eap/manb     0.0005 ms · n·m                           (counting)
 *   tan, cl-ode, acll-tan, fan-mdl 0.00002 ms · n·m²                         (all-pairs CMI)
 *   kdb (k)                        0.00002 ms · n·m² + 0.0002 ms · n·m·(k+1)
 *   skdb (maxK)                    0.00002 ms · n·m² + 0.0012 ms · n·m·(maxK+1) (leave-one-out)
 *   aode                           0.0001 ms · n·m²
 *   hill-climb, sparse-candidate   0.00004 ms · n·m²
 *   tan-hc, tan-hcsp               0.0005 ms · n·m²                         (CV accuracy per candidate arc; greedy, stops early)
 *   fssj, bsej, kdb-hc             3×, 6×, 15× tan-hc                       (same engine, more candidates per step; the
 *                                                                            medians of their measured ratios to tan-hc)
 *   ban-mix (iterations)           iterations · TAN
 *   ebn, eanb                      20 + 0.00006 ms · S + 1.7e-7 ms · n·S,  S = v·2^v, v = m + 1
 *                                                    (the search over all subsets, and the counts of the parent
 *                                                    sets it scores, which grow with n and the subsets)
 *   kb (k)                         20·a + 0.00003 ms · k·n·m + 0.00006 ms · b·S + 1.7e-7 ms · n·S,
 *                                  a = 1 + k/15, b = 1 + k/4
 *   subbkb (t, k)                  20·a + t · (0.00003 ms · k·n·m + 0.0008 ms · n·m + 0.00006 ms · b·S + 1.7e-7 ms · n·S)
 *   bagging (members), adaboost (rounds)   members · ebn (or eanb)
 *                                  (exact searches refitted in 0.5.2 to the CPU time of fold 1 on 17 data sets
 *                                  of 4 to 19 attributes and 135 to 52,200 training rows, whole jobs: within
 *                                  3× on 15/17 (ebn), 16/17 (kb, k = 10), 16/17 (k = 100), 17/17 (subbkb,
 *                                  t = k = 10), the misses all jobs under 0.13 s; the 0.5.1 formula, 0.000003 ms ·
 *                                  n·v·2^v, was within 3× on 8, 6, 6 and 4 of them, from 21× low to 300× high)
 *   random-forest (trees)          0.00001 ms · trees · n·log2(n)·m
 *   decision-tree                  0.00002 ms · n·log2(n)·m
 *   m-estimate, select: holdout    0.0025 ms · n·m·(d+1), d = parents per attribute besides the class
 *   wanbia, awnb                   0.003 ms · n·m
 *   hdp (iterations)               iterations · m · (0.009 + 0.0001 · nodes) ms,
 *                                  nodes = 1 + Σ_{l=1..d+1} min(n, C·3^(l-1)) (one context tree per attribute)
 *   every job                      + 1 ms + 0.0002 ms · (n + n_test)·m   (fixed cost, preprocessing, metrics)
 *   select: (grid G, inner folds k) the final fit on the whole training fold (the candidates' mean) + for
 *                                  each of the G candidates k inner fits on n·(k−1)/k rows, tested on n/k
 *
 * brai, external and a method without a formula (a learner added later) have no static estimate worth
 * printing (B-RAI's cost grows with its recursion and bootstrap; an external program's is its own): for
 * balancing shards they are costed like kDB-1, and `plan --estimate` shows them as unknown until a
 * database (--db) or a pilot (--pilot) has timed them on each dataset (`unknownMethods`; the pilot times
 * their first fold of every dataset). Calibration (`calibrate`) replaces these guesses with measured times
 * where a database holds finished jobs: the observed mean for the same method on the same dataset, else, for
 * a method with a formula, the static estimate times the method's observed/static ratio (sums over the
 * datasets where it did run).
 *
 * Static costs are pure functions of the spec and the data files, so shard assignments computed from
 * them are the same on every machine; calibrated costs are only ever displayed.
 */
import type { MethodSpec } from './load.js';
import type { PlanSummary, PlannedJobSummary } from './plan.js';
import type { Params } from '../registry.js';
import { canonicalJson } from '../util/hash.js';
import { candidates } from './select.js';

interface JobSize {
  readonly nTrain: number;
  readonly nTest: number;
  readonly attributes: number;
  readonly classes: number;
}

const FIXED_MS = 1;

function num(p: Params, name: string, fallback: number): number {
  const v = p[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** log2 of n rounded down, by integer arithmetic (identical on every platform). */
function ilog2(n: number): number {
  return n >= 1 ? 31 - Math.clz32(Math.min(n, 2 ** 31 - 1)) : 0;
}

/** Structure cost and the number of parents per attribute besides the class (for the estimators). */
function structureCost(id: string, p: Params, s: JobSize): { ms: number; depth: number } | undefined {
  const n = s.nTrain;
  const m = s.attributes;
  const pairs = 0.00002 * n * m * m;
  // Exact searches (fitted, see the table above): the search over all subsets of the v variables (S = v·2^v)
  // and the counts of the parent sets it scores (n·S); a k-best search keeps k networks per subset. Beyond 40
  // variables nothing exact can run: a sentinel cost.
  const v = m + 1;
  const subsets = v * 2 ** v;
  const feasible = v <= 40;
  const SENTINEL = Number.MAX_SAFE_INTEGER / 1e6;
  const kBest = (k: number): number => 0.00003 * k * n * m + 0.00006 * (1 + k / 4) * subsets + 1.7e-7 * n * subsets;
  const exact = feasible ? 20 + kBest(0) : SENTINEL;
  switch (id) {
    case 'nb':
      return { ms: 0.0005 * n * m, depth: 0 };
    case 'tan':
    case 'cl-ode':
    case 'acll-tan':
    case 'fan-mdl':
      return { ms: pairs, depth: 1 };
    case 'kdb': {
      const k = num(p, 'k', 1);
      return { ms: pairs + 0.0002 * n * m * (k + 1), depth: k };
    }
    case 'skdb': {
      const k = num(p, 'maxK', 5);
      return { ms: pairs + 0.0012 * n * m * (k + 1), depth: k };
    }
    case 'aode':
      return { ms: 0.0001 * n * m * m, depth: 1 };
    case 'hill-climb':
    case 'sparse-candidate':
      return { ms: 2 * pairs, depth: num(p, 'maxParents', 3) };
    case 'tan-hc':
    case 'tan-hcsp':
      return { ms: 0.0005 * n * m * m, depth: 1 };
    case 'fssj':
      return { ms: 0.0015 * n * m * m, depth: 1 };
    case 'bsej':
      return { ms: 0.003 * n * m * m, depth: 1 };
    case 'kdb-hc':
      return { ms: 0.0075 * n * m * m, depth: num(p, 'kdbk', 2) };
    case 'ban-mix':
      return { ms: num(p, 'iterations', 10) * pairs, depth: 1 };
    case 'ebn':
    case 'eanb':
      return { ms: exact, depth: 2 };
    case 'kb': {
      const k = num(p, 'k', 10);
      return { ms: feasible ? 20 * (1 + k / 15) + kBest(k) : SENTINEL, depth: 2 };
    }
    case 'subbkb': {
      const k = num(p, 'k', 10);
      const perSubsample = kBest(k) + 0.0008 * n * m;
      return { ms: feasible ? 20 * (1 + k / 15) + num(p, 't', 10) * perSubsample : SENTINEL, depth: 2 };
    }
    case 'bagging':
      return { ms: num(p, 'members', 10) * exact, depth: 2 };
    case 'adaboost':
      return { ms: num(p, 'rounds', 10) * exact, depth: 2 };
    case 'random-forest':
      return { ms: 0.00001 * num(p, 'trees', 100) * n * ilog2(n) * m, depth: 0 };
    case 'decision-tree':
      return { ms: 0.00002 * n * ilog2(n) * m, depth: 0 };
    default:
      return undefined;
  }
}

function estimatorCost(id: string, p: Params, s: JobSize, depth: number): number | undefined {
  const n = s.nTrain;
  const m = s.attributes;
  switch (id) {
    case 'dirichlet':
    case 'mle':
    case 'eap':
    case 'manb':
      return 0.0005 * n * m;
    case 'm-estimate':
      return (p['select'] === 'holdout' ? 0.0025 : 0.0005) * n * m * (depth + 1);
    case 'wanbia':
    case 'awnb':
      return 0.003 * n * m;
    case 'hdp': {
      let nodes = 1;
      for (let l = 1; l <= depth + 1; l++) nodes += Math.min(n, s.classes * 3 ** (l - 1));
      return num(p, 'iterations', 5000) * m * (0.009 + 0.0001 * nodes);
    }
    default:
      return undefined;
  }
}

/** Methods whose cost no formula here can tell: unknown until timed (a database or a pilot). */
const UNKNOWN_COST = new Set(['brai', 'external']);

/**
 * Static cost in ms of one method on one training fold, and whether it is unknown (a fallback formula for
 * balancing only). With `select:`, the inner cross-validation of every candidate of the grid as well.
 */
export function staticCostMs(method: MethodSpec, size: JobSize): { ms: number; fallback: boolean } {
  if (!method.select) return plainCostMs(method, size);
  const k = method.select.folds;
  const inner: JobSize = {
    ...size,
    nTrain: Math.max(1, Math.round((size.nTrain * (k - 1)) / k)),
    nTest: Math.max(1, Math.round(size.nTrain / k)),
  };
  const grid = candidates(method.select);
  let ms = 0;
  let final = 0;
  let fallback = false;
  for (const c of grid) {
    const m = withCandidate(method, c);
    const fit = plainCostMs(m, inner);
    ms += k * fit.ms;
    final += plainCostMs(m, size).ms;
    fallback ||= fit.fallback;
  }
  return { ms: ms + final / Math.max(1, grid.length), fallback };
}

/** The method with one candidate of its `select:` grid ("structure.k" → structure.params.k). */
function withCandidate(method: MethodSpec, c: Record<string, unknown>): MethodSpec {
  const params = { structure: { ...method.structure.params }, estimator: { ...(method.estimator?.params ?? {}) } };
  for (const [target, v] of Object.entries(c)) {
    const [side, name] = target.split('.', 2);
    if (side === 'structure' || side === 'estimator') params[side][name] = v;
  }
  return {
    ...method,
    structure: { ...method.structure, params: params.structure },
    estimator: method.estimator ? { ...method.estimator, params: params.estimator } : null,
  };
}

function plainCostMs(method: MethodSpec, size: JobSize): { ms: number; fallback: boolean } {
  let fallback = UNKNOWN_COST.has(method.structure.id);
  let st = fallback ? undefined : structureCost(method.structure.id, method.structure.params, size);
  if (!st) {
    fallback = true;
    st = structureCost('kdb', { k: 1 }, size)!;
  }
  let est = 0;
  if (method.estimator) {
    const e = estimatorCost(method.estimator.id, method.estimator.params, size, st.depth);
    if (e === undefined) fallback = true;
    est = e ?? 0.0005 * size.nTrain * size.attributes;
  }
  const ms = FIXED_MS + st.ms + est + 0.0002 * (size.nTrain + size.nTest) * size.attributes;
  return { ms, fallback };
}

/** The identity of a method as the jobs table stores it (structure id + params, estimator id + params). */
export function methodIdentity(
  structure: string,
  structureParams: string,
  estimator: string | null,
  estimatorParams: string | null,
): string {
  return `${structure}|${structureParams}|${estimator ?? ''}|${estimatorParams ?? ''}`;
}

export function methodIdentityOf(m: MethodSpec): string {
  return methodIdentity(
    m.structure.id,
    canonicalJson(m.structure.params),
    m.estimator?.id ?? null,
    m.estimator ? canonicalJson(m.estimator.params) : null,
  );
}

/** Mean measured time (ms) of finished jobs of one method on one dataset, as read from a results database. */
export interface CostObservation {
  readonly method: string;
  readonly datasetHash: string;
  readonly meanMs: number;
  readonly jobs: number;
}

/** 'unknown': no formula and no timing (the number is kDB-1's, for balancing shards only). */
type CostBasis = 'static' | 'scaled' | 'observed' | 'unknown';

interface JobCost {
  readonly ms: number;
  readonly basis: CostBasis;
}

/** Sizes of every job of a plan, from its dataset's fold sizes. */
function jobSizes(plan: PlanSummary): Map<PlannedJobSummary, JobSize> {
  const out = new Map<PlannedJobSummary, JobSize>();
  for (const j of plan.jobs) {
    const { train, test } = j.dataset.foldSizes[j.repeat][j.fold];
    out.set(j, { nTrain: train, nTest: test, attributes: j.dataset.attributes, classes: j.dataset.classes });
  }
  return out;
}

/** Costs of every job of a plan: static, then optionally calibrated with observations. */
export class CostModel {
  /** Labels of the methods without a cost formula (costed like kDB-1 for balancing; unknown until timed). */
  readonly fallbackMethods: readonly string[];
  private readonly unknown = new Set<string>();
  private readonly staticMs = new Map<PlannedJobSummary, number>();
  private readonly calibrated = new Map<PlannedJobSummary, JobCost>();

  constructor(
    readonly plan: PlanSummary,
    observations: readonly CostObservation[] = [],
  ) {
    const sizes = jobSizes(plan);
    const fallback = new Set<string>();
    const cache = new Map<string, number>();
    for (const j of plan.jobs) {
      const size = sizes.get(j)!;
      const id = `${j.method.label}/${size.nTrain}/${size.nTest}/${size.attributes}/${size.classes}`;
      let ms = cache.get(id);
      if (ms === undefined) {
        const c = staticCostMs(j.method, size);
        if (c.fallback) fallback.add(j.method.label);
        ms = c.ms;
        cache.set(id, ms);
      }
      this.staticMs.set(j, ms);
    }
    this.fallbackMethods = [...fallback].sort();
    for (const label of fallback) this.unknown.add(label);
    if (observations.length > 0) this.calibrate(observations);
  }

  private calibrate(observations: readonly CostObservation[]): void {
    const observed = new Map<string, CostObservation>();
    for (const o of observations) observed.set(`${o.method}@${o.datasetHash}`, o);
    // Per method: observed against static (mean over the dataset's folds) on the datasets where it ran
    // scales the static cost of the datasets where it did not.
    const staticSum = new Map<string, { sum: number; count: number }>();
    for (const j of this.plan.jobs) {
      const pair = `${methodIdentityOf(j.method)}@${j.dataset.handle.sha256}`;
      const s = staticSum.get(pair) ?? { sum: 0, count: 0 };
      s.sum += this.staticMs.get(j)!;
      s.count++;
      staticSum.set(pair, s);
    }
    // The factor is Σ observed / Σ static over those datasets: the larger jobs weigh more, so the
    // millisecond jobs (dominated by start-up and JIT noise) cannot swing it.
    const sums = new Map<string, { observed: number; static: number }>();
    for (const [pair, st] of staticSum) {
      const o = observed.get(pair);
      if (!o) continue;
      const method = pair.slice(0, pair.lastIndexOf('@'));
      const acc = sums.get(method) ?? { observed: 0, static: 0 };
      acc.observed += o.meanMs;
      acc.static += st.sum / st.count;
      sums.set(method, acc);
    }
    const factor = new Map<string, number>();
    for (const [method, acc] of sums) factor.set(method, acc.observed / acc.static);
    for (const j of this.plan.jobs) {
      const method = methodIdentityOf(j.method);
      const o = observed.get(`${method}@${j.dataset.handle.sha256}`);
      if (o) this.calibrated.set(j, { ms: o.meanMs, basis: 'observed' });
      // A method without a formula is costed like kDB-1 only to balance shards: that shape says nothing of how
      // its time grows (B-RAI's grows as 3^(CI order): 10–45 ms a G-test fold on breast-cancer, a CMI fold of
      // letter not finished in 693 CPU s), so its timings are not carried to the datasets where it has none.
      else if (factor.has(method) && !this.unknown.has(j.method.label))
        this.calibrated.set(j, { ms: this.staticMs.get(j)! * factor.get(method)!, basis: 'scaled' });
    }
  }

  /** The static cost: the one shards are balanced by (the same on every machine). */
  staticCost(j: PlannedJobSummary): number {
    return this.staticMs.get(j)!;
  }

  /** The best estimate: observed or scaled where a database says so, else static (or unknown: see CostBasis). */
  cost(j: PlannedJobSummary): JobCost {
    return (
      this.calibrated.get(j) ?? {
        ms: this.staticMs.get(j)!,
        basis: this.unknown.has(j.method.label) ? 'unknown' : 'static',
      }
    );
  }

  /** Labels of the methods with a job whose cost is unknown (no formula, no timing). */
  get unknownMethods(): string[] {
    return [...new Set(this.plan.jobs.filter((j) => this.cost(j).basis === 'unknown').map((j) => j.method.label))];
  }
}
