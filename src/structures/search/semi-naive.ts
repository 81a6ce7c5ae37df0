/**
 * bnclassify's greedy_search (R/learn-hc.R) over semi-naive and k-dependence structures, with the steps of
 * R/learn-hc-operators.R:
 *  - fssjStep (forward sequential selection and joining, Pazzani 1996): add one attribute not yet in the
 *    model as a child of the class alone, or join it to one supernode (it gets every member of the
 *    supernode as a parent);
 *  - bsejStep (backward sequential elimination and joining): remove one attribute from the model (its
 *    arcs go with it), or join two supernodes (every member of the earlier one gets every member of the
 *    later one as a parent);
 *  - kdbStep(kdbk): add one arc Xi → Xj where Xj has fewer than kdbk attribute parents, the arc is new and
 *    makes no cycle (augment_kdb; no equivalent-arc pruning, as in bnclassify).
 * A supernode is a connected component of the attributes in the model (arcs between attributes, undirected);
 * joined attributes always form a complete DAG, which is how bnclassify represents Pazzani's Cartesian
 * product attribute. Supernodes are ordered by their smallest column index (bnclassify uses the order its
 * graph library returns the components in).
 *
 * A candidate with a family whose per-fold tables exceed MAX_FAMILY_CELLS is not scored (it cannot win);
 * how many were skipped is info.candidatesTooLarge.
 *
 * The loop: the initial structure is scored and accepted; then while its accuracy is below 1 and the step
 * yields candidates, every candidate is scored and the best (ties at random, ctx.rng, as max_random) is
 * accepted when max − epsilon ≥ current accuracy (is_improvement), else the search stops.
 */
import { defineParams, type LearnContext, type StructureDefinition } from '../../registry.js';
import { attributeCount, type DiscreteData } from '../../bn/data.js';
import type { Structure } from '../../bn/structure.js';
import { stratifiedKFold } from '../../folds/split.js';
import type { Rng } from '../../util/rng.js';
import {
  checkWrapperParams,
  maxRandom,
  SCORE_TOL,
  WRAPPER_MAX_ATTRIBUTES,
  WRAPPER_ORDER_DEPENDENCE,
  WRAPPER_PARAMS,
  type OdeWrapperParams,
} from './common.js';
import { applyChanges, FoldFamilyEvaluator, type FamilyChanges, type FeatureParents } from './family-evaluator.js';
import { RRng } from '../../util/r-rng.js';
import { kdbCandidates, RCrossValidation, rGreedySearch } from './bnclassify-cv.js';

export type GreedyStep = (current: FeatureParents) => FamilyChanges[];

interface SemiNaiveResult {
  readonly parents: FeatureParents;
  /** Mean fold accuracy of the final structure (NaN when there was nothing to cross-validate). */
  readonly score: number;
  /** Accuracy of each accepted structure, the initial one first. */
  readonly scores: number[];
  readonly folds: number;
  /** Candidates not scored because a family's tables would exceed MAX_FAMILY_CELLS. */
  readonly tooLarge?: number;
}

/** Connected components of the attributes in the model, each ascending, ordered by smallest member. */
export function supernodes(par: FeatureParents): number[][] {
  const m = par.length;
  const root = Int32Array.from({ length: m }, (_, v) => v);
  const find = (v: number): number => {
    while (root[v] !== v) v = root[v] = root[root[v]];
    return v;
  };
  par.forEach((ps, a) => {
    for (const p of ps ?? []) {
      const x = find(a);
      const z = find(p);
      if (x !== z) root[Math.max(x, z)] = Math.min(x, z);
    }
  });
  const groups = new Map<number, number[]>();
  for (let a = 0; a < m; a++) {
    if (!par[a]) continue;
    const r = find(a);
    const g = groups.get(r);
    if (g) g.push(a);
    else groups.set(r, [a]);
  }
  return [...groups.values()].sort((x, y) => x[0] - y[0]);
}

const union = (a: readonly number[], b: readonly number[]): number[] =>
  [...new Set([...a, ...b])].sort((x, y) => x - y);

export const fssjStep: GreedyStep = (par) => {
  const out: FamilyChanges[] = [];
  const outside: number[] = [];
  par.forEach((ps, a) => {
    if (!ps) outside.push(a);
  });
  for (const a of outside) out.push(new Map([[a, []]]));
  const sns = supernodes(par);
  for (const a of outside) for (const sn of sns) out.push(new Map([[a, sn]]));
  return out;
};

export const bsejStep: GreedyStep = (par) => {
  const out: FamilyChanges[] = [];
  par.forEach((ps, a) => {
    if (!ps) return;
    const change = new Map<number, readonly number[] | null>([[a, null]]);
    par.forEach((qs, b) => {
      if (qs?.includes(a))
        change.set(
          b,
          qs.filter((p) => p !== a),
        );
    });
    out.push(change);
  });
  const sns = supernodes(par);
  for (let i = 0; i < sns.length; i++) {
    for (let j = i + 1; j < sns.length; j++) {
      out.push(new Map(sns[i].map((b) => [b, union(par[b]!, sns[j])])));
    }
  }
  return out;
};

/** Whether `anc` is an ancestor of v (through attribute parents). */
function isAncestor(par: FeatureParents, anc: number, v: number): boolean {
  const seen = new Set<number>();
  const stack = [...(par[v] ?? [])];
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (u === anc) return true;
    if (seen.has(u)) continue;
    seen.add(u);
    stack.push(...(par[u] ?? []));
  }
  return false;
}

export function kdbStep(kdbk: number): GreedyStep {
  return (par) => {
    const out: FamilyChanges[] = [];
    par.forEach((ps, to) => {
      if (!ps || ps.length >= kdbk) return;
      par.forEach((qs, from) => {
        if (!qs || from === to || ps.includes(from) || isAncestor(par, to, from)) return;
        out.push(new Map([[to, union(ps, [from])]]));
      });
    });
    return out;
  };
}

/** The greedy CV-accuracy search from `init` with `step`. */
export function semiNaiveSearch(
  data: DiscreteData,
  opts: { k: number; epsilon: number; alpha: number },
  init: FeatureParents,
  step: GreedyStep,
  rng: Rng,
  signal?: AbortSignal,
): SemiNaiveResult {
  const m = attributeCount(data);
  const k = Math.min(opts.k, data.n);
  if (k < 2 || m === 0) return { parents: init, score: NaN, scores: [], folds: k };
  const foldOf = stratifiedKFold(data.classColumn, data.classCard, k, rng.derive('folds'));
  const ties = rng.derive('ties');
  const ev = new FoldFamilyEvaluator(data, foldOf, k, opts.alpha);
  let parents = init.slice();
  let current = ev.setCurrent(parents);
  const scores = [current];
  let tooLarge = 0;
  for (;;) {
    signal?.throwIfAborted();
    if (Math.abs(current - 1) < SCORE_TOL) break;
    const cands = step(parents);
    if (cands.length === 0) break;
    const cs: number[] = [];
    for (const c of cands) {
      signal?.throwIfAborted();
      const sc = ev.score(c);
      if (sc === -Infinity) tooLarge++;
      cs.push(sc);
    }
    let mx = -Infinity;
    for (const s of cs) if (s > mx) mx = s;
    if (!(mx - opts.epsilon >= current - SCORE_TOL)) break;
    parents = applyChanges(parents, cands[maxRandom(cs, ties)]);
    current = ev.setCurrent(parents);
    scores.push(current);
  }
  return { parents, score: current, scores, folds: k, tooLarge };
}

/** kdb-hc with `r_seed`: bnclassify's kdb drawing from rng (R's stream after set.seed(r_seed)), draw for draw (bnclassify-cv.ts). */
export function rKdbSearch(
  data: DiscreteData,
  opts: { k: number; epsilon: number; alpha: number },
  kdbk: number,
  rng: RRng,
  signal?: AbortSignal,
): SemiNaiveResult {
  const m = attributeCount(data);
  let current: (readonly number[])[] = Array.from({ length: m }, () => []);
  const k = Math.min(opts.k, data.n);
  if (k < 2 || m === 0) return { parents: current, score: NaN, scores: [], folds: k };
  const cv = new RCrossValidation(data, k, rng);
  const ev = new FoldFamilyEvaluator(data, cv.foldOf, cv.k, opts.alpha);
  ev.setCurrent(current);
  const res = rGreedySearch(
    cv,
    current,
    opts.epsilon,
    {
      moves: (par) => kdbCandidates(par, kdbk),
      visit: (mv, sink) => {
        if (mv) ev.score(new Map([[mv.to, union(current[mv.to], [mv.from])]]), sink);
        else ev.visitCurrent(sink);
      },
      accept: (par, mv) => {
        current = par.slice();
        current[mv.to] = union(par[mv.to], [mv.from]);
        ev.setCurrent(current);
        return current;
      },
    },
    signal,
  );
  return { parents: res.state, score: res.scores.at(-1) ?? NaN, scores: res.scores, folds: cv.k };
}

/** Runs the search and returns the Structure (attributes outside the model have no parents and no children). */
export function semiNaiveStructure(
  data: DiscreteData,
  p: OdeWrapperParams,
  ctx: LearnContext,
  id: string,
  init: FeatureParents,
  step: GreedyStep,
  rKdb?: { kdbk: number; seed: number },
): Structure {
  const { k, epsilon, alpha } = checkWrapperParams(id, p);
  const m = attributeCount(data);
  const res = rKdb
    ? rKdbSearch(data, { k, epsilon, alpha }, rKdb.kdbk, new RRng(rKdb.seed), ctx.signal)
    : semiNaiveSearch(data, { k, epsilon, alpha }, init, step, ctx.rng, ctx.signal);
  const parents: number[][] = [];
  let featureArcs = 0;
  let features = 0;
  for (let a = 0; a < m; a++) {
    const ps = res.parents[a];
    if (!ps) {
      parents.push([]);
      continue;
    }
    features++;
    featureArcs += ps.length;
    parents.push([m, ...ps]);
  }
  parents.push([]);
  const info: Record<string, number> = {
    features,
    featureArcs,
    supernodes: supernodes(res.parents).length,
    folds: res.folds,
    steps: Math.max(0, res.scores.length - 1),
  };
  if (Number.isFinite(res.score)) info.cvAccuracy = res.score;
  if (res.tooLarge) info.candidatesTooLarge = res.tooLarge;
  return { m, parents, info };
}

export const PAZZANI_1996 =
  'Pazzani (1996), Constructive induction of Cartesian product attributes, ISIS: Information, Statistics and Induction in Science';

/** The conventions fssj, bsej and kdb-hc share, for docs/methods.md. */
export const SEMI_NAIVE_NOTES =
  'bnclassify equivalence: same candidate moves and stop rule (max − epsilon ≥ current accuracy, ties at ' +
  "random); defaults k = 5, epsilon = 0, smooth = 1 as tan-hc here, where bnclassify's are epsilon = 0.01, " +
  'smooth = 0. Candidates are scored on one stratified partition kept for the whole search; a row whose ' +
  'best class is shared by t classes counts 1/t. Rows with missing values: available-case counts and exact ' +
  'marginalisation (bnclassify uses gRain). A candidate whose family tables would exceed 2^22 cells over ' +
  'the folds is not scored (info.candidatesTooLarge).';

/** A wrapper learner over the k / epsilon / smooth parameters, starting from no attribute ('empty') or naive Bayes. */
export function semiNaiveLearner(o: {
  id: string;
  revision: number;
  title: string;
  citation: string;
  start: 'empty' | 'nb';
  step: GreedyStep;
}): StructureDefinition<OdeWrapperParams> {
  return {
    id: o.id,
    revision: o.revision,
    title: o.title,
    citation: o.citation,
    notes: SEMI_NAIVE_NOTES,
    orderDependence: WRAPPER_ORDER_DEPENDENCE,
    params: defineParams(WRAPPER_PARAMS),
    maxAttributes: WRAPPER_MAX_ATTRIBUTES,
    learn(train, params, ctx) {
      const m = attributeCount(train);
      const init = Array.from({ length: m }, () => (o.start === 'nb' ? ([] as number[]) : null));
      return semiNaiveStructure(train, params, ctx, o.id, init, o.step);
    },
  };
}
