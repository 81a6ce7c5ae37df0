/**
 * Sparse Candidate (Friedman, Nachman & Pe'er 1999), over all m + 1 nodes (the class is an ordinary node):
 *
 *   repeat
 *     restrict: for every node X_j choose candidate parents C_j, |C_j| ≤ k: its current parents plus the
 *               k − |Pa(X_j)| other nodes X_l ranking highest by a measure M(X_j, X_l)
 *               (keeping the current parents makes the score monotone across rounds);
 *     maximize: hill climbing (hill-climb.ts: add/delete/reverse, steepest ascent, same score) from the
 *               current network, restricted to networks with Pa(X_j) ⊆ C_j for every j;
 *   until the score stops improving (or the candidate sets repeat, or maxRounds rounds).
 *
 * Measures, as in the paper and the lecture notes: round 1 uses the empirical mutual information
 * I(X_j; X_l); later rounds the discrepancy M(X_j, X_l) = D_KL(P̂(X_j, X_l) ‖ P_B(X_j, X_l)) between the
 * empirical pair distribution and that of the current network B. P_B is estimated by forward sampling
 * `samples` rows from B (ctx.rng; default as many rows as the training data), with a pseudo-count of 1/2
 * per cell (Krichevsky–Trofimov) so that a pair never drawn in the sample does not make the divergence
 * infinite. B's parameters: maximum likelihood for loglik/AIC/BIC, the BDeu posterior mean for BDeu.
 * Ties in the ranking go to the lower node index. Missing values: pair tables count the rows where both
 * nodes are observed; the search scores families as hill-climb does (bn/scores.ts).
 * Cost: every round needs the pair tables of all (m + 1)² / 2 node pairs, O(m² n); the empirical ones are
 * counted once and kept (up to MAX_CACHED_PAIR_CELLS cells), the sample's are counted each round.
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount, type CodeColumn, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { accumulatePairCodes, accumulatePairCodes4, nodeCard, nodeColumn } from '../bn/counts.js';
import { cptRowOffset, cptTable, fitCptModel, smoothedLogProbs, type CptModel } from '../bn/cpt.js';
import type { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';
import { generalDagInfo, hillClimb, hillClimbSearchOptions, HILL_CLIMB_SEARCH_PARAMS } from './hill-climb.js';

/**
 * Calls visit(i, j, tables) for every node pair i < j with, for each source (same nodes and cardinalities,
 * e.g. the data and a sample), tables[s][x_i * card_j + x_j] = the counts over that source's rows where
 * both are observed. The tables are reused between calls; four pairs share each pass over the rows.
 */
function forEachPairTable(
  sources: readonly { readonly cols: readonly CodeColumn[]; readonly n: number }[],
  cards: ArrayLike<number>,
  visit: (i: number, j: number, tables: readonly Float64Array[]) => void,
  signal?: AbortSignal,
): void {
  const N = cards.length;
  let maxCard = 1;
  for (let v = 0; v < N; v++) maxCard = Math.max(maxCard, cards[v]);
  const ts = sources.map(
    () =>
      [0, 1, 2, 3].map(() => new Float64Array(maxCard * maxCard)) as [
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
      ],
  );
  const views = [0, 1, 2, 3].map((q) => ts.map((t) => t[q]));
  for (let j = 1; j < N; j++) {
    signal?.throwIfAborted();
    const stride = cards[j];
    let i = 0;
    for (; i + 4 <= j; i += 4) {
      sources.forEach(({ cols, n }, s) => {
        const t = ts[s];
        for (let q = 0; q < 4; q++) t[q].fill(0, 0, cards[i + q] * stride);
        accumulatePairCodes4(cols[i], cols[i + 1], cols[i + 2], cols[i + 3], cols[j], stride, n, ...t);
      });
      for (let q = 0; q < 4; q++) visit(i + q, j, views[q]);
    }
    for (; i < j; i++) {
      sources.forEach(({ cols, n }, s) => {
        const t = ts[s][0];
        t.fill(0, 0, cards[i] * stride);
        accumulatePairCodes(cols[i], cols[j], stride, n, t);
      });
      visit(i, j, views[0]);
    }
  }
}

/** Empirical I(X_i; X_j) in nats from a pair table t[a * rj + b]. */
export function pairMutualInformation(t: Float64Array, ri: number, rj: number): number {
  let total = 0;
  const rowS = new Float64Array(ri);
  const colS = new Float64Array(rj);
  for (let a = 0; a < ri; a++) {
    for (let b = 0; b < rj; b++) {
      const v = t[a * rj + b];
      rowS[a] += v;
      colS[b] += v;
      total += v;
    }
  }
  if (total === 0) return 0;
  let s = 0;
  for (let a = 0; a < ri; a++) {
    for (let b = 0; b < rj; b++) {
      const v = t[a * rj + b];
      if (v > 0) s += v * Math.log((v * total) / (rowS[a] * colS[b]));
    }
  }
  return Math.max(0, s / total);
}

function nodeColumns(data: DiscreteData): { cols: CodeColumn[]; cards: Int32Array } {
  const N = attributeCount(data) + 1;
  return {
    cols: Array.from({ length: N }, (_, v) => nodeColumn(data, v)),
    cards: Int32Array.from({ length: N }, (_, v) => nodeCard(data, v)),
  };
}

/**
 * The empirical pair tables of every node pair i < j, kept for the whole search (they do not change
 * between rounds), in one array: pair (i, j) at offset[j (j − 1) / 2 + i], laid out [x_i * card_j + x_j].
 */
interface PairTables {
  readonly offsets: Float64Array;
  readonly cells: Float64Array;
}

/** Largest number of cells kept in memory (64 MB); above it the tables are recounted every round. */
const MAX_CACHED_PAIR_CELLS = 1 << 23;

export function empiricalPairTables(data: DiscreteData, signal?: AbortSignal): PairTables | null {
  const { cols, cards } = nodeColumns(data);
  const N = cols.length;
  const offsets = new Float64Array((N * (N - 1)) / 2 + 1);
  let total = 0;
  let p = 0;
  for (let j = 1; j < N; j++) {
    for (let i = 0; i < j; i++) {
      offsets[p++] = total;
      total += cards[i] * cards[j];
    }
  }
  offsets[p] = total;
  if (total > MAX_CACHED_PAIR_CELLS) return null;
  const cells = new Float64Array(total);
  forEachPairTable(
    [{ cols, n: data.n }],
    cards,
    (i, j, [t]) => cells.set(t.subarray(0, cards[i] * cards[j]), offsets[(j * (j - 1)) / 2 + i]),
    signal,
  );
  return { offsets, cells };
}

function cachedTable(cache: PairTables, i: number, j: number): Float64Array {
  const p = (j * (j - 1)) / 2 + i;
  return cache.cells.subarray(cache.offsets[p], cache.offsets[p + 1]);
}

/** N × N symmetric matrix of I(X_i; X_j) over all nodes (class last). */
export function pairwiseMutualInformation(
  data: DiscreteData,
  cache?: PairTables | null,
  signal?: AbortSignal,
): Float64Array {
  const { cols, cards } = nodeColumns(data);
  const N = cols.length;
  const out = new Float64Array(N * N);
  const store = (i: number, j: number, t: Float64Array): void => {
    out[i * N + j] = out[j * N + i] = pairMutualInformation(t, cards[i], cards[j]);
  };
  if (cache) {
    for (let j = 1; j < N; j++) for (let i = 0; i < j; i++) store(i, j, cachedTable(cache, i, j));
  } else {
    forEachPairTable([{ cols, n: data.n }], cards, (i, j, [t]) => store(i, j, t), signal);
  }
  return out;
}

/** Forward sample of `size` complete rows from a network (columns over nodes 0..m). */
export function forwardSample(model: CptModel, size: number, rng: Rng): Int32Array[] {
  const N = model.m + 1;
  const cols = Array.from({ length: N }, () => new Int32Array(size));
  // Topological order by repeated scans (N is small next to size · N).
  const order: number[] = [];
  const placed = new Uint8Array(N);
  while (order.length < N) {
    for (let v = 0; v < N; v++) {
      if (!placed[v] && model.cpts[v].parents.every((p) => placed[p])) {
        placed[v] = 1;
        order.push(v);
      }
    }
  }
  const probs = model.cpts.map((c) => cptTable(c).map((l) => Math.exp(l)));
  for (let r = 0; r < size; r++) {
    for (const v of order) {
      const cpt = model.cpts[v];
      let cfg = 0;
      for (let i = 0; i < cpt.parents.length; i++) cfg = cfg * cpt.parentCards[i] + cols[cpt.parents[i]][r];
      const p = probs[v];
      const o = cptRowOffset(cpt, cfg);
      let u = rng.next();
      let x = cpt.card - 1;
      for (let k = 0; k < cpt.card; k++) {
        u -= p[o + k];
        if (u < 0) {
          x = k;
          break;
        }
      }
      cols[v][r] = x;
    }
  }
  return cols;
}

/** D_KL(P̂ ‖ P_B) from an empirical table e and a sample table t of `samples` rows (KT pseudo-count 1/2). */
function pairDiscrepancy(e: ArrayLike<number>, t: ArrayLike<number>, cells: number, samples: number): number {
  let te = 0;
  for (let c = 0; c < cells; c++) te += e[c];
  if (te === 0) return 0;
  const ts = samples + 0.5 * cells;
  let kl = 0;
  for (let c = 0; c < cells; c++) {
    const pe = e[c] / te;
    if (pe > 0) kl += pe * Math.log((pe * ts) / (t[c] + 0.5));
  }
  return Math.max(0, kl);
}

/** N × N symmetric matrix of D_KL(P̂(X_i, X_j) ‖ P_B(X_i, X_j)) with P_B from a forward sample (see above). */
export function pairwiseDiscrepancy(
  data: DiscreteData,
  model: CptModel,
  samples: number,
  rng: Rng,
  cache?: PairTables | null,
  signal?: AbortSignal,
): Float64Array {
  const { cols, cards } = nodeColumns(data);
  const N = cols.length;
  const sample = forwardSample(model, samples, rng);
  const out = new Float64Array(N * N);
  const store = (i: number, j: number, e: ArrayLike<number>, t: ArrayLike<number>): void => {
    out[i * N + j] = out[j * N + i] = pairDiscrepancy(e, t, cards[i] * cards[j], samples);
  };
  if (cache) {
    forEachPairTable(
      [{ cols: sample, n: samples }],
      cards,
      (i, j, [t]) => store(i, j, cachedTable(cache, i, j), t),
      signal,
    );
  } else {
    forEachPairTable(
      [
        { cols, n: data.n },
        { cols: sample, n: samples },
      ],
      cards,
      (i, j, [e, t]) => store(i, j, e, t),
      signal,
    );
  }
  return out;
}

/** Candidate parent sets: current parents plus the top k − |Pa| others by the measure (ties: lower index). */
export function candidateSets(measure: Float64Array, parents: readonly (readonly number[])[], k: number): number[][] {
  const N = parents.length;
  return parents.map((pa, j) => {
    const others: number[] = [];
    for (let l = 0; l < N; l++) if (l !== j && !pa.includes(l)) others.push(l);
    others.sort((a, b) => measure[j * N + b] - measure[j * N + a] || a - b);
    return [...pa, ...others.slice(0, Math.max(0, k - pa.length))].sort((a, b) => a - b);
  });
}

export const sparseCandidate = registerStructure({
  id: 'sparse-candidate',
  revision: 1,
  title: 'General BN by Sparse Candidate (restrict to k candidate parents by MI/discrepancy; hill-climb; iterate)',
  citation:
    'Friedman, Nachman & Pe\'er (1999), Learning Bayesian network structure from massive datasets: the "Sparse ' +
    'Candidate" algorithm, UAI 1999, 206–215',
  orderDependence: {
    classes:
      'equal-score moves (reversals within a Markov equivalence class) are told apart by floating-point sums whose order follows the class codes; estimators that are not score-equivalent then see another orientation',
  },
  params: defineParams({
    ...HILL_CLIMB_SEARCH_PARAMS,
    k: { type: 'integer', minimum: 1, default: 5, description: 'Candidate parents per node' },
    maxRounds: { type: 'integer', minimum: 1, default: 10, description: 'Most restrict/maximize rounds' },
    samples: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'Forward samples for the discrepancy measure (0 = as many as training rows)',
    },
  }),
  learn(train, params, ctx): Structure {
    const opts = hillClimbSearchOptions('sparse-candidate', params);
    const k = params.k;
    if (!Number.isInteger(k) || k < 1)
      throw new UserError(`sparse-candidate: k must be an integer >= 1, got ${String(k)}`);
    const maxRounds = params.maxRounds;
    if (!Number.isInteger(maxRounds) || maxRounds < 1) {
      throw new UserError(`sparse-candidate: maxRounds must be an integer >= 1, got ${String(maxRounds)}`);
    }
    const samplesParam = params.samples;
    if (!Number.isInteger(samplesParam) || samplesParam < 0) {
      throw new UserError(`sparse-candidate: samples must be an integer >= 0, got ${String(samplesParam)}`);
    }
    const samples = samplesParam === 0 ? Math.max(1, train.n) : samplesParam;
    const m = attributeCount(train);
    const N = m + 1;
    const rng = ctx.rng.derive('sparse-candidate');
    let parents: number[][] = Array.from({ length: N }, () => []);
    let score = -Infinity;
    let prevCand = '';
    let rounds = 0;
    const cache = empiricalPairTables(train, ctx.signal);
    for (let round = 1; round <= maxRounds; round++) {
      ctx.signal?.throwIfAborted();
      let measure: Float64Array;
      if (round === 1) {
        measure = pairwiseMutualInformation(train, cache, ctx.signal);
      } else {
        const bdeu = opts.score === 'bdeu';
        const model = fitCptModel(train, { m, parents }, (fc) =>
          smoothedLogProbs(fc, bdeu ? opts.ess / (fc.childCard * fc.configs) : 0),
        );
        measure = pairwiseDiscrepancy(train, model, samples, rng.derive(`round${round}`), cache, ctx.signal);
      }
      const cand = candidateSets(measure, parents, k);
      const key = JSON.stringify(cand);
      if (key === prevCand) break;
      prevCand = key;
      const allowed = new Uint8Array(N * N);
      cand.forEach((cs, j) => cs.forEach((l) => (allowed[l * N + j] = 1)));
      const res = hillClimb(train, {
        ...opts,
        maxParents: Math.min(opts.maxParents, k),
        start: parents,
        allowed,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      rounds = round;
      const improved = res.score > score + Math.max(1e-8, 1e-12 * Math.abs(res.score));
      if (round > 1 && !improved) break;
      parents = res.parents;
      score = res.score;
    }
    return { m, parents, info: { score, rounds, k, ...generalDagInfo(parents) } };
  },
});
