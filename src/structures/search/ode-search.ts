/** The one-dependence greedy searches of tan-hc and tan-hcsp (bnclassify augment_ode / augment_ode_sp). */
import type { LearnContext } from '../../registry.js';
import { attributeCount, type DiscreteData } from '../../bn/data.js';
import type { Structure } from '../../bn/structure.js';
import { stratifiedKFold } from '../../folds/split.js';
import type { Rng } from '../../util/rng.js';
import { OdeFoldEvaluator } from './ode-evaluator.js';
import { RRng } from '../../util/r-rng.js';
import { RCrossValidation, rGreedySearch, tanHcCandidates } from './bnclassify-cv.js';
import {
  checkWrapperParams,
  maxRandom,
  orientRank,
  SCORE_TOL,
  type OdeWrapperParams,
  type OrphanOrient,
} from './common.js';

interface OdeWrapperResult {
  /** Attribute parent of each attribute, -1 for none. */
  readonly parent: Int32Array;
  /** Mean fold accuracy of the final structure. */
  readonly score: number;
  /** Scores of the accepted states, naive Bayes first. */
  readonly scores: number[];
  readonly folds: number;
}

/** Root of v's tree in a forest. */
function rootOf(par: Int32Array, v: number): number {
  while (par[v] >= 0) v = par[v];
  return v;
}

/** bnclassify's augment_ode: every arc that keeps a one-dependence forest, one of each equivalent pair. */
export function hcCandidates(par: Int32Array, rank: Int32Array): { tails: number[]; heads: number[] } {
  const m = par.length;
  const tails: number[] = [];
  const heads: number[] = [];
  const root = Int32Array.from({ length: m }, (_, v) => rootOf(par, v));
  for (let to = 0; to < m; to++) {
    if (par[to] >= 0) continue;
    for (let from = 0; from < m; from++) {
      if (from === to || root[from] === to) continue;
      // Between two orphans keep only the arc whose tail ranks first (orientRank).
      if (par[from] < 0 && rank[from] > rank[to]) continue;
      tails.push(from);
      heads.push(to);
    }
  }
  return { tails, heads };
}

/** bnclassify's superparent_children: each attribute with the orphans it may take as children. */
export function superParentChildren(par: Int32Array): { sp: number; children: number[] }[] {
  const m = par.length;
  const orphans: number[] = [];
  for (let v = 0; v < m; v++) if (par[v] < 0) orphans.push(v);
  if (orphans.length <= 1) return [];
  const out: { sp: number; children: number[] }[] = [];
  for (let s = 0; s < m; s++) {
    const r = rootOf(par, s);
    // An orphan is an ancestor of s only if it is the root of s's tree.
    const children = orphans.filter((o) => o !== s && o !== r);
    if (children.length > 0) out.push({ sp: s, children });
  }
  return out;
}

/** The greedy CV-accuracy search of bnclassify's greedy_search with the augment_ode or augment_ode_sp step. */
export function odeWrapperSearch(
  data: DiscreteData,
  opts: { k: number; epsilon: number; alpha: number; superParent: boolean; orient?: OrphanOrient },
  rng: Rng,
  signal?: AbortSignal,
): OdeWrapperResult {
  const m = attributeCount(data);
  const parent = new Int32Array(m).fill(-1);
  const k = Math.min(opts.k, data.n);
  if (k < 2 || m === 0) return { parent, score: NaN, scores: [], folds: k };
  const foldOf = stratifiedKFold(data.classColumn, data.classCard, k, rng.derive('folds'));
  const ties = rng.derive('ties');
  const ev = new OdeFoldEvaluator(data, foldOf, k, opts.alpha);
  const rank = orientRank(data, opts.orient ?? 'column');
  let current = ev.setCurrent(parent);
  const scores = [current];
  for (;;) {
    signal?.throwIfAborted();
    if (Math.abs(current - 1) < SCORE_TOL) break;
    let tails: number[];
    let heads: number[];
    if (opts.superParent) {
      const sps = superParentChildren(parent);
      if (sps.length === 0) break;
      const spScores = sps.map(({ sp, children }) => {
        signal?.throwIfAborted();
        return ev.score(
          children.map(() => sp),
          children,
          parent,
        );
      });
      const best = sps[maxRandom(spScores, ties)];
      heads = best.children;
      tails = heads.map(() => best.sp);
    } else {
      ({ tails, heads } = hcCandidates(parent, rank));
    }
    if (heads.length === 0) break;
    const cs: number[] = [];
    for (let i = 0; i < heads.length; i++) {
      if ((i & 63) === 0) signal?.throwIfAborted();
      cs.push(ev.score([tails[i]], [heads[i]], parent));
    }
    let mx = -Infinity;
    for (const s of cs) if (s > mx) mx = s;
    if (!(mx - opts.epsilon >= current - SCORE_TOL)) break;
    const pick = maxRandom(cs, ties);
    parent[heads[pick]] = tails[pick];
    current = ev.setCurrent(parent);
    scores.push(current);
  }
  return { parent, score: current, scores, folds: k };
}

/** tan-hc with `r_seed`: bnclassify's tan_hc drawing from rng (R's stream after set.seed(r_seed)), draw for draw (bnclassify-cv.ts). */
export function rTanHcSearch(
  data: DiscreteData,
  opts: { k: number; epsilon: number; alpha: number },
  rng: RRng,
  signal?: AbortSignal,
): OdeWrapperResult {
  const m = attributeCount(data);
  let current = new Int32Array(m).fill(-1);
  const k = Math.min(opts.k, data.n);
  if (k < 2 || m === 0) return { parent: current, score: NaN, scores: [], folds: k };
  const cv = new RCrossValidation(data, k, rng);
  const ev = new OdeFoldEvaluator(data, cv.foldOf, cv.k, opts.alpha);
  ev.setCurrent(current);
  const res = rGreedySearch(
    cv,
    current,
    opts.epsilon,
    {
      moves: (par) => tanHcCandidates(par),
      visit: (mv, sink) => ev.visitRows(mv ? [mv.from] : [], mv ? [mv.to] : [], current, sink),
      accept: (par, mv) => {
        current = par.slice();
        current[mv.to] = mv.from;
        ev.setCurrent(current);
        return current;
      },
    },
    signal,
  );
  return { parent: res.state, score: res.scores.at(-1) ?? NaN, scores: res.scores, folds: cv.k };
}

export function wrapperStructure(
  data: DiscreteData,
  p: OdeWrapperParams,
  ctx: LearnContext,
  id: string,
  superParent: boolean,
  orient: OrphanOrient = 'column',
  rSeed?: number,
): Structure {
  const { k, epsilon, alpha } = checkWrapperParams(id, p);
  const m = attributeCount(data);
  const res =
    rSeed === undefined
      ? odeWrapperSearch(data, { k, epsilon, alpha, superParent, orient }, ctx.rng, ctx.signal)
      : rTanHcSearch(data, { k, epsilon, alpha }, new RRng(rSeed), ctx.signal);
  const parents: number[][] = [];
  let arcs = 0;
  for (let a = 0; a < m; a++) {
    const q = res.parent[a];
    parents.push(q < 0 ? [m] : [m, q]);
    if (q >= 0) arcs++;
  }
  parents.push([]);
  const info: Record<string, number> = { arcs, folds: res.folds, steps: Math.max(0, res.scores.length - 1) };
  if (Number.isFinite(res.score)) info.cvAccuracy = res.score;
  return { m, parents, info };
}
