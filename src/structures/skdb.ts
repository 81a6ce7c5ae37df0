/**
 * Selective kDB (Martínez, Webb, Chen & Zaidi 2016), the "k-selective" variant used by the HDP paper
 * (Petitjean et al. 2018, SkDB with k ≤ 5), as the authors' C++ (`anamf/SKDB`, kdbSelective.cpp with
 * selectiveK, distributionTree::updateClassDistributionloocvWithNB) computes it:
 *  pass 1: attributes ordered by I(X; C), parents for k = maxK as in `kdb` (every kDB-k' with k' ≤ maxK
 *          uses the first k' of those CMI-ordered parents);
 *  pass 2: per attribute, counts n(x_a, y) in every context of its parents' prefix (the distribution tree:
 *          depth d = values of its first d parents), and the class counts;
 *  pass 3: incremental leave-one-out over the training rows with m-estimates, M = 1. For row (x, y*):
 *          the class-only posterior is (n_y − [y=y*] + 1/C) / (N − 1 + 1), normalised; then for each attribute
 *          a in MI order, walking its tree from the root: at depth d the LOO estimate
 *            (n_d(x_a, y) − [y=y*] + 1/|X_a|) / (n_d(y) − [y=y*] + 1)
 *          multiplies the posterior of the model with k = d; the walk stops at a leaf (d = number of
 *          parents) or, backing off, when the next context holds x_a fewer than 2 times (only this row:
 *          minCount 1 after leaving it out), and the stopping depth's estimate then multiplies every model
 *          with k ≥ d. After each attribute every posterior[k] is normalised and (1 − p[y*])² is added to
 *          loss[k][a].
 *  selection: RMSE[k][a] = sqrt(loss / N) (true class only). Starting from the class-only RMSE, with the
 *          last attribute and k = 0 as the default choice, attributes in MI order (outer) and k = 0..maxK
 *          (inner) replace the best only when strictly smaller; the attributes up to the best one are kept
 *          (n*), each with the first k* of its parents. If nothing beats the class-only model, every
 *          attribute is kept with k* = 0 (naive Bayes), as in the authors' code.
 * Attributes left out are not in the model: they get no parents at all (not even the class) and no
 * children (every kept attribute's parents precede it in the MI order), so their factor P(x_a) is the same
 * for every class and cancels in the posterior (bn/inference.ts drops it; a missing one is barren).
 * n* and k* are in Structure.info (nStar, kStar).
 * Missing values (the authors treat them as a value; here available case): a row adds to attribute a's
 * tree only where x_a is observed, and only down to its first missing parent; in pass 3 a row with x_a
 * missing leaves the posteriors unchanged, and one with a missing parent stops at that depth.
 * Memory: one attribute's tree at a time (arrays of at most N contexts per depth) and the N × (maxK+1) × C
 * running posteriors.
 */
import { defineParams, registerStructure } from '../registry.js';
import { attributeCount, type DiscreteData } from '../bn/data.js';
import type { Structure } from '../bn/structure.js';
import { pairwiseCmi } from '../bn/information.js';
import { kdbIntParam, kdbAttributeParents, miOrder } from './kdb.js';

interface SkdbSelection {
  readonly order: number[];
  readonly parentsOf: number[][];
  /** rmse[k][pos]: LOO RMSE of kDB-k on the first pos+1 attributes in MI order. */
  readonly rmse: Float64Array[];
  readonly rmseClassOnly: number;
  /** Number of attributes kept (prefix of the MI order) and k*. */
  readonly nStar: number;
  readonly kStar: number;
}

/** Dense ids for keys in 0..bound-1 (first-seen order); -1 keys stay -1. */
function denseIds(keys: Float64Array, bound: number, out: Int32Array): number {
  let next = 0;
  if (bound <= 1 << 24) {
    const map = new Int32Array(bound).fill(-1);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k < 0) {
        out[i] = -1;
        continue;
      }
      let id = map[k];
      if (id < 0) id = map[k] = next++;
      out[i] = id;
    }
  } else {
    const map = new Map<number, number>();
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k < 0) {
        out[i] = -1;
        continue;
      }
      let id = map.get(k);
      if (id === undefined) map.set(k, (id = next++));
      out[i] = id;
    }
  }
  return next;
}

/** Passes 1–3 and the selection (see the module comment). */
export function skdbSelect(data: DiscreteData, maxK: number, signal?: AbortSignal): SkdbSelection {
  const m = attributeCount(data);
  const n = data.n;
  const C = data.classCard;
  const K = maxK;
  const y = data.classColumn;
  const order = miOrder(data);
  const { cmi } = pairwiseCmi(data, signal);
  const parentsOf = kdbAttributeParents(order, cmi, m, K);
  const nc = new Float64Array(C);
  for (let i = 0; i < n; i++) nc[y[i]]++;
  // Running posteriors post[(i * (K+1) + k) * C + c], normalised after every attribute (linear space, as the
  // authors' code: normalisation after each factor keeps them away from underflow), starting from the LOO
  // class prior.
  const KK = K + 1;
  const post = new Float64Array(n * KK * C);
  /** Normalises post[q .. q+C) in place and returns (1 − p[ys])². */
  const normalise = (q: number, ys: number): number => {
    let s = 0;
    for (let c = 0; c < C; c++) s += post[q + c];
    for (let c = 0; c < C; c++) post[q + c] /= s;
    const err = 1 - post[q + ys];
    return err * err;
  };
  let lossClass = 0;
  for (let i = 0; i < n; i++) {
    const ys = y[i];
    const o = i * KK * C;
    for (let c = 0; c < C; c++) post[o + c] = (nc[c] - (c === ys ? 1 : 0) + 1 / C) / (n - 1 + 1);
    lossClass += normalise(o, ys);
    for (let k = 1; k < KK; k++) post.copyWithin(o + k * C, o, o + C);
  }
  // loss[k][pos] = Σ_rows (1 − p[y*])² after the first pos+1 attributes.
  const loss = Array.from({ length: KK }, () => new Float64Array(m));
  const keys = new Float64Array(n);
  const f = new Float64Array(C);
  for (let pos = 0; pos < m; pos++) {
    signal?.throwIfAborted();
    const a = order[pos];
    const ps = parentsOf[a];
    const L = ps.length;
    const ra = data.cards[a];
    const xa = data.columns[a];
    // Pass 2 for this attribute: context and cell ids per depth, and their counts.
    const nodeOf: Int32Array[] = [];
    const cellOf: Int32Array[] = [];
    const nodeCnt: Float64Array[] = [];
    const cellCnt: Float64Array[] = [];
    const cellTot: Float64Array[] = [];
    let nodes = 1;
    for (let d = 0; d <= L; d++) {
      const ids = new Int32Array(n);
      if (d === 0) {
        for (let i = 0; i < n; i++) ids[i] = xa[i] < 0 ? -1 : 0;
        nodes = 1;
      } else {
        const prev = nodeOf[d - 1];
        const xp = data.columns[ps[d - 1]];
        const rp = data.cards[ps[d - 1]];
        for (let i = 0; i < n; i++) keys[i] = prev[i] < 0 || xp[i] < 0 ? -1 : prev[i] * rp + xp[i];
        nodes = denseIds(keys, nodes * rp, ids);
      }
      nodeOf.push(ids);
      for (let i = 0; i < n; i++) keys[i] = ids[i] < 0 ? -1 : ids[i] * ra + xa[i];
      const cids = new Int32Array(n);
      const cells = denseIds(keys, nodes * ra, cids);
      cellOf.push(cids);
      const ncnt = new Float64Array(nodes * C);
      const ccnt = new Float64Array(cells * C);
      const ctot = new Float64Array(cells);
      for (let i = 0; i < n; i++) {
        const node = ids[i];
        if (node < 0) continue;
        ncnt[node * C + y[i]]++;
        ccnt[cids[i] * C + y[i]]++;
        ctot[cids[i]]++;
      }
      nodeCnt.push(ncnt);
      cellCnt.push(ccnt);
      cellTot.push(ctot);
    }
    // Pass 3 for this attribute.
    const inv = 1 / ra;
    for (let i = 0; i < n; i++) {
      const o = i * KK * C;
      const ys = y[i];
      if (xa[i] >= 0) {
        for (let d = 0; ; d++) {
          const final = d === L || nodeOf[d + 1][i] < 0 || cellTot[d + 1][cellOf[d + 1][i]] < 2;
          const node = nodeOf[d][i];
          const cell = cellOf[d][i];
          const nn = nodeCnt[d];
          const cn = cellCnt[d];
          for (let c = 0; c < C; c++) {
            const self = c === ys ? 1 : 0;
            f[c] = (cn[cell * C + c] - self + inv) / (nn[node * C + c] - self + 1);
          }
          if (!final) {
            const q = o + d * C;
            for (let c = 0; c < C; c++) post[q + c] *= f[c];
            continue;
          }
          for (let k = d; k < KK; k++) {
            const q = o + k * C;
            for (let c = 0; c < C; c++) post[q + c] *= f[c];
          }
          break;
        }
      }
      for (let k = 0; k < KK; k++) loss[k][pos] += normalise(o + k * C, ys);
    }
  }
  const rmse = loss.map((l) => l.map((v) => Math.sqrt(v / n)));
  const rmseClassOnly = Math.sqrt(lossClass / n);
  let best = rmseClassOnly;
  let bestPos = m - 1;
  let kStar = 0;
  for (let pos = 0; pos < m; pos++) {
    for (let k = 0; k < KK; k++) {
      if (rmse[k][pos] < best) {
        best = rmse[k][pos];
        bestPos = pos;
        kStar = k;
      }
    }
  }
  return { order, parentsOf, rmse, rmseClassOnly, nStar: bestPos + 1, kStar };
}

export const skdb = registerStructure({
  id: 'skdb',
  revision: 1,
  title: 'Selective kDB (attributes and k chosen by leave-one-out RMSE)',
  citation:
    'Martínez, Webb, Chen & Zaidi (2016), Scalable learning of Bayesian network classifiers, JMLR 17(44):1–35; ' +
    'k-selective variant as used by Petitjean, Buntine, Webb & Zaidi (2018), Machine Learning 107:1303–1331',
  params: defineParams({
    maxK: {
      type: 'integer',
      minimum: 1,
      maximum: 5,
      default: 5,
      description: 'Largest number of attribute parents considered (k* ≤ maxK)',
    },
  }),
  learn(train, params, ctx): Structure {
    const maxK = kdbIntParam('skdb', 'maxK', params.maxK, 1, 5);
    const m = attributeCount(train);
    if (m === 0 || train.n === 0) {
      return { m, parents: [...Array.from({ length: m }, () => [m]), []], info: { maxK, nStar: m, kStar: 0 } };
    }
    const sel = skdbSelect(train, maxK, ctx.signal);
    const parents: number[][] = Array.from({ length: m }, () => []);
    for (let pos = 0; pos < sel.nStar; pos++) {
      const a = sel.order[pos];
      parents[a] = [m, ...sel.parentsOf[a].slice(0, sel.kStar)];
    }
    parents.push([]);
    // LOO RMSE of the kept model (naive Bayes on every attribute when nothing beat the class-only model).
    const rmse = sel.rmse[sel.kStar][sel.nStar - 1];
    return {
      m,
      parents,
      info: { maxK, nStar: sel.nStar, kStar: sel.kStar, rmse, rmseClassOnly: sel.rmseClassOnly },
    };
  },
});
