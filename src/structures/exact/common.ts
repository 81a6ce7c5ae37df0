/**
 * Shared pieces of the exact learners and the ensembles built on them: the score parameters, resampling,
 * and the diagnostics stored per job (Sugahara, Aomi & Ueno 2022, Tables 5, 7 and 8).
 */
import { selectRows, type DiscreteData } from '../../bn/data.js';
import type { Structure, StructureMember } from '../../bn/structure.js';
import { networkScore } from '../../bn/scores.js';
import { completeRows, DEFAULT_MEMORY_LIMIT_MB, EXACT_SCORES, type ExactScore } from '../../bn/exact/localscores.js';
import { cpdag, cpdagKey, shd } from '../../bn/exact/equivalence.js';
import type { Rng } from '../../util/rng.js';
import { paramDecls, type DeclaredParams } from '../../registry.js';

export const SCORE_PARAMS = paramDecls({
  score: {
    enum: [...EXACT_SCORES],
    default: 'bdeu',
    description: 'Structure score: bdeu (log marginal likelihood), bic (= −MDL), aic or loglik',
  },
  ess: { type: 'number', exclusiveMinimum: 0, default: 1, description: 'BDeu equivalent sample size α' },
  memoryLimitMB: {
    type: 'integer',
    minimum: 16,
    default: DEFAULT_MEMORY_LIMIT_MB,
    description: 'Refuse (with a message) a search whose estimated memory exceeds this many MB',
  },
});

/** The score settings of every exact learner (complete: registration fills in the defaults). */
export type ScoreParams = DeclaredParams<typeof SCORE_PARAMS>;

/** Just the score settings, for the search (params may carry a learner's other parameters). */
export function scoreOptions(p: ScoreParams): { score: ExactScore; ess: number; memoryLimitMB: number } {
  return { score: p.score, ess: p.ess, memoryLimitMB: p.memoryLimitMB };
}

/** `size` distinct rows of 0..n-1 drawn without replacement (partial Fisher–Yates), in increasing order. */
export function subsample(n: number, size: number, rng: Rng): Int32Array {
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  const k = Math.min(n, size);
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(n - i);
    const t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
  return idx.slice(0, k).sort();
}

/** `size` rows of 0..n-1 drawn with replacement, in increasing order. */
export function bootstrap(n: number, size: number, rng: Rng): Int32Array {
  const out = new Int32Array(size);
  for (let i = 0; i < size; i++) out[i] = rng.int(n);
  return out.sort();
}

/** `size` rows drawn with replacement with probabilities proportional to `weights`, in increasing order. */
export function weightedBootstrap(weights: Float64Array, size: number, rng: Rng): Int32Array {
  const n = weights.length;
  const cum = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += weights[i];
    cum[i] = total;
  }
  const out = new Int32Array(size);
  for (let s = 0; s < size; s++) {
    const u = rng.next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    out[s] = lo;
  }
  return out.sort();
}

/** Weights w_k ∝ exp(score_k), normalised in log space (eq. 1 of the paper). */
export function posteriorWeights(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - max));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
}

function singles(s: Structure): Structure[] {
  return s.members && s.members.length > 0 ? s.members.flatMap((m) => singles(m.structure)) : [s];
}

/**
 * Diagnostics of an ensemble: the mean number of the class's parents over its structures (Table 5; also
 * weighted by the members' weights), and the mean structural Hamming distance between the CPDAGs of all
 * pairs of its structures (Table 7).
 */
export function ensembleDiagnostics(members: readonly StructureMember[], withShd = true): Record<string, number> {
  const flat: { w: number; s: Structure }[] = [];
  let total = 0;
  for (const m of members) total += m.weight;
  for (const m of members)
    for (const s of singles(m.structure)) flat.push({ w: total > 0 ? m.weight / total : 1 / members.length, s });
  const cls = (s: Structure): number => s.parents[s.m].length;
  let mean = 0;
  let weighted = 0;
  for (const { w, s } of flat) {
    mean += cls(s) / flat.length;
    weighted += w * cls(s);
  }
  if (!withShd) return { structures: flat.length, classParents: mean, classParentsWeighted: weighted };
  const cps = flat.map(({ s }) => cpdag(s.parents));
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < cps.length; i++) {
    for (let j = i + 1; j < cps.length; j++) {
      sum += shd(cps[i], cps[j]);
      pairs++;
    }
  }
  return {
    structures: flat.length,
    classParents: mean,
    classParentsWeighted: weighted,
    meanShd: pairs > 0 ? sum / pairs : 0,
  };
}

/**
 * APSES, the average posterior standard error of structures (Sugahara, Aomi & Ueno 2022, eq. 3): for M
 * structures G_m and B bootstrap samples D̃_i, P(G_m | D̃_i) ≈ P(D̃_i | G_m) / Σ_m' P(D̃_i | G_m'), and
 * SE_m = sqrt( Σ_i (P(G_m | D̃_i) − mean_i)^2 / (B (B − 1)) ); APSES = mean_m SE_m. With several data sets
 * (SubbKB: one per subsample D_t, each bootstrapped to its own size) the posteriors of bootstrap i are
 * averaged over the data sets, as in the paper's second procedure.
 *
 * The paper draws "10 random structures"; how is not stated. Here they are drawn at random (without
 * replacement) from the distinct equivalence classes the method averages over, the structures whose
 * posterior standard error the paper discusses. Scores are computed on the complete rows, as in learning.
 */
export function apses(
  datasets: readonly DiscreteData[],
  structures: readonly (readonly (readonly number[])[])[],
  score: ExactScore,
  ess: number,
  rng: Rng,
  count = 10,
  boots = 10,
): number {
  // distinct classes only (SubbKB's subsamples often share classes)
  const seen = new Set<string>();
  const distinct = structures.filter((g) => {
    const key = cpdagKey(cpdag(g));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const M = Math.min(count, distinct.length);
  if (M < 2 || boots < 2) return 0;
  const pick = rng.shuffle(Int32Array.from({ length: distinct.length }, (_, i) => i));
  const chosen = Array.from(pick.slice(0, M), (i) => distinct[i]);
  const post = new Float64Array(boots * M);
  for (const d of datasets) {
    const cc = selectRows(d, completeRows(d));
    for (let i = 0; i < boots; i++) {
      const sample = cc.n > 0 ? selectRows(cc, bootstrap(cc.n, cc.n, rng)) : cc;
      const w = posteriorWeights(chosen.map((g) => networkScore(sample, g, score, ess)));
      for (let m = 0; m < M; m++) post[i * M + m] += w[m] / datasets.length;
    }
  }
  return meanStandardError(post, boots, M);
}

/**
 * Eq. 3: post[i * M + m] = P(G_m | D̃_i) for B bootstrap samples; returns the mean over m of
 * SE_m = sqrt( Σ_i (post_im − mean_i post_im)^2 / (B (B − 1)) ).
 */
export function meanStandardError(post: Float64Array, boots: number, M: number): number {
  let total = 0;
  for (let m = 0; m < M; m++) {
    let mean = 0;
    for (let i = 0; i < boots; i++) mean += post[i * M + m] / boots;
    let ss = 0;
    for (let i = 0; i < boots; i++) ss += (post[i * M + m] - mean) ** 2;
    total += Math.sqrt(ss / (boots * (boots - 1)));
  }
  return total / M;
}

/**
 * Why the ensembles of exact learners (and K-best averaging) depend on column order: every member is one
 * DAG of its Markov equivalence class, and which one follows the attribute order.
 */
export const EXACT_ORDER_DEPENDENCE = {
  columns:
    'each learned structure is one DAG of its Markov equivalence class (of equal score), chosen by attribute ' +
    'order; estimators that are not score-equivalent (dirichlet, m-estimate, hdp) then give other posteriors',
} as const;
