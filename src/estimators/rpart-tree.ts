/**
 * The classification trees bnclassify's AWNB grows, reproduced from R's rpart (Therneau & Atkinson, rpart
 * 4.1: src/partition.c, bsplit.c, gini.c, nodesplit.c) with bnclassify's control (learn_unprunned_tree):
 * method "class", split "information", minsplit 2, minbucket 1, cp 0, no surrogates, no competitors.
 * Only what AWNB reads is kept: the depth at which each attribute is first tested.
 *
 *  - Node risk: weighted misclassification count of the majority class (priors = data frequencies).
 *  - Best split: for each attribute in column order, over the rows where it is observed, the binary
 *    partition of its categories that minimises n_L·H(L) + n_R·H(R) (H the entropy of the class
 *    frequencies). Two classes: the categories ordered by the proportion of the first class and the k − 1
 *    cuts along that order; more classes: every partition. improvement = n·H(node) − best; an attribute
 *    replaces the current best only with a strictly larger improvement, and an improvement must exceed
 *    1e-10 times the largest seen so far in the tree.
 *  - Rows missing the split attribute are not sent down (with maxsurrogate 0 rpart has no surrogate and no
 *    majority direction for them): they count in the node's risk but in neither child.
 *  - Left child: the side whose mean class index is smaller (rpart's lmean < rmean).
 *  - Equal improvements (to the last bit) of two attributes or two partitions are resolved as rpart does
 *    (first attribute, first partition in its Gray-code order), but the sums are not formed in rpart's exact
 *    order, so improvements that differ only by rounding can be resolved differently.
 *  - Stopping and collapse (cp = 0): a node is not split when it has fewer than 2 rows (weighted) or its
 *    risk is 0 or its inherited complexity is 0; after its children are grown, a node's complexity is
 *    rpart's (risk − risk of the kept subtree) / (number of kept splits), with rpart's rule for which child
 *    collapses first, and the split is undone when that complexity is ≤ 0.
 * Rows are given with weights (bootstrap counts), which is what rpart computes on the duplicated rows.
 * Checked against rpart 4.1.19 (Debian r-cran-rpart) on bootstrap samples of shipped data: the testing depths
 * of 28 of 32 trees agree exactly; the other 4 (multi-class data) diverge where two splits' improvements differ
 * only in the 16th digit (test/estimators/awnb.test.ts pins R's output for a set of them).
 */
import type { DiscreteData } from '../bn/data.js';

interface Grown {
  /** Kept splits in the subtree (0 for a leaf). */
  splits: number;
  /** Sum of the risks of the kept subtree's leaves. */
  sumRisk: number;
  /** The node's own risk. */
  risk: number;
  /** The node's final complexity (0 for a leaf). */
  complexity: number;
  /** (attribute, depth) of the kept tests in this subtree. */
  tests: [number, number][];
}

const entropyTerm = (p: number): number => (p <= 0 ? 0 : -p * Math.log(p));

/** Largest total weight for which the −p·ln p table is built ((N + 1)² doubles). */
const TERM_TABLE_MAX = 1024;

/** Depth (root = 1) at which each attribute is first tested in the rpart tree of `rows` with `weights`; 0 if never. */
export function rpartMinTestingDepths(data: DiscreteData, rows: Int32Array, weights: Float64Array): Int32Array {
  const m = data.columns.length;
  const C = data.classCard;
  const y = data.classColumn;
  let iscale = 0;

  const classCounts = (idx: number[]): Float64Array => {
    const cnt = new Float64Array(C);
    for (const i of idx) cnt[y[rows[i]]] += weights[i];
    return cnt;
  };
  const riskOf = (cnt: Float64Array): number => {
    let tot = 0;
    let mx = 0;
    for (const v of cnt) {
      tot += v;
      if (v > mx) mx = v;
    }
    return tot - mx;
  };
  // With whole-number weights (bootstrap counts) every count is an integer up to the total, so the terms
  // −p·ln p, p = a/b, come from a table filled with the very same expression (identical bits, no log per use).
  let total = 0;
  let whole = true;
  for (const w of weights) {
    total += w;
    if (!Number.isInteger(w)) whole = false;
  }
  const N = whole && total <= TERM_TABLE_MAX ? total : -1;
  const terms = N >= 0 ? new Float64Array((N + 1) * (N + 1)) : null;
  if (terms) for (let b = 1; b <= N; b++) for (let a = 0; a <= b; a++) terms[b * (N + 1) + a] = entropyTerm(a / b);
  const info = (cnt: ArrayLike<number>, tot: number): number => {
    let s = 0;
    if (terms && tot <= N) {
      const o = tot * (N + 1);
      for (let c = 0; c < C; c++) s += terms[o + cnt[c]];
    } else for (let c = 0; c < C; c++) s += entropyTerm(cnt[c] / tot);
    return tot * s;
  };

  /** Best split of the node: attribute and the set of categories sent left, or null. */
  const bestSplit = (idx: number[]): { attr: number; left: Uint8Array } | null => {
    let best: { attr: number; left: Uint8Array; improve: number } | null = null;
    for (let a = 0; a < m; a++) {
      const col = data.columns[a];
      const r = data.cards[a];
      const ccnt = new Float64Array(r * C);
      const wts = new Float64Array(r);
      let n = 0;
      for (const i of idx) {
        const x = col[rows[i]];
        if (x < 0 || !(weights[i] > 0)) continue;
        ccnt[x * C + y[rows[i]]] += weights[i];
        wts[x] += weights[i];
        n++;
      }
      if (n === 0) continue;
      const present: number[] = [];
      for (let x = 0; x < r; x++) if (wts[x] > 0) present.push(x);
      if (present.length < 2) continue;
      const totCnt = new Float64Array(C);
      let tot = 0;
      for (const x of present) {
        for (let c = 0; c < C; c++) totCnt[c] += ccnt[x * C + c];
        tot += wts[x];
      }
      const total = info(totCnt, tot);
      let bestTemp = Infinity;
      let bestLeft: Uint8Array | null = null;
      const evalLeft = (leftSet: number[]): void => {
        const lc = new Float64Array(C);
        let lw = 0;
        for (const x of leftSet) {
          for (let c = 0; c < C; c++) lc[c] += ccnt[x * C + c];
          lw += wts[x];
        }
        const rw = tot - lw;
        if (!(lw > 0 && rw > 0)) return;
        const rc = Float64Array.from(totCnt, (v, c) => v - lc[c]);
        const temp = info(lc, lw) + info(rc, rw);
        if (temp < bestTemp) {
          bestTemp = temp;
          bestLeft = new Uint8Array(r);
          for (const x of leftSet) bestLeft[x] = 1;
        }
      };
      if (C === 2) {
        // Order by the proportion of the first class (stable: ties keep category order).
        const order = present.slice().sort((u, v) => ccnt[u * C] / wts[u] - ccnt[v * C] / wts[v]);
        for (let cut = 1; cut < order.length; cut++) evalLeft(order.slice(0, cut));
      } else {
        // Every subset as the left group, in rpart's Gray-code order (graycode.c): each step moves one
        // category; the first of equally good partitions wins. The left counts are updated by the moved
        // category only (the counts are bootstrap weights, whole numbers, so the sums are exact and equal to
        // summing the left group afresh), which makes a step O(C) instead of O(r·C) plus allocations.
        const gray = new Uint8Array(r);
        for (const x of present) gray[x] = 1;
        const isLeft = new Uint8Array(r);
        const lc = new Float64Array(C);
        const rc = new Float64Array(C);
        let lw = 0;
        for (;;) {
          let i = 0;
          for (; i < r; i++) {
            if (gray[i] === 1) {
              gray[i] = 2;
              break;
            } else if (gray[i] === 2) gray[i] = 1;
          }
          if (i === r) break;
          isLeft[i] ^= 1;
          const o = i * C;
          if (isLeft[i]) {
            for (let c = 0; c < C; c++) lc[c] += ccnt[o + c];
            lw += wts[i];
          } else {
            for (let c = 0; c < C; c++) lc[c] -= ccnt[o + c];
            lw -= wts[i];
          }
          const rw = tot - lw;
          if (!(lw > 0 && rw > 0)) continue;
          for (let c = 0; c < C; c++) rc[c] = totCnt[c] - lc[c];
          const temp = info(lc, lw) + info(rc, rw);
          if (temp < bestTemp) {
            bestTemp = temp;
            bestLeft = Uint8Array.from(isLeft);
          }
        }
      }
      if (!bestLeft) continue;
      const improve = total - bestTemp;
      if (improve > iscale) iscale = improve;
      if (!(improve > iscale * 1e-10)) continue;
      if (!best || improve > best.improve) best = { attr: a, left: bestLeft, improve };
    }
    return best;
  };

  const grow = (idx: number[], depth: number, complexityIn: number): Grown => {
    const cnt = classCounts(idx);
    const risk = riskOf(cnt);
    let nobs = 0;
    for (const i of idx) nobs += weights[i];
    const leaf: Grown = { splits: 0, sumRisk: risk, risk, complexity: 0, tests: [] };
    if (nobs < 2 || Math.min(risk, complexityIn) <= 0 || depth > 30) return leaf;
    const split = bestSplit(idx);
    if (!split) return leaf;
    const col = data.columns[split.attr];
    const L: number[] = [];
    const R: number[] = [];
    for (const i of idx) {
      const x = col[rows[i]];
      if (x >= 0) (split.left[x] ? L : R).push(i);
    }
    // Left is the side with the smaller mean class index (rpart's lmean < rmean; a tie sends the enumerated set right).
    const mean = (side: number[]): number => {
      const cnt = classCounts(side);
      let tot = 0;
      let s = 0;
      for (let c = 0; c < C; c++) {
        tot += cnt[c];
        s += c * cnt[c];
      }
      return s / tot;
    };
    if (!(mean(L) < mean(R))) {
      const tmp = L.slice();
      L.length = 0;
      L.push(...R);
      R.length = 0;
      R.push(...tmp);
    }
    const complexity = complexityIn;
    const left = grow(L, depth + 1, complexity);
    let t = Math.max((risk - left.sumRisk) / (left.splits + 1), risk - left.risk);
    if (t > complexity) t = complexity;
    const right = grow(R, depth + 1, t);
    let lRisk = left.sumRisk;
    let rRisk = right.sumRisk;
    let lSplits = left.splits;
    let rSplits = right.splits;
    let cp = (risk - (lRisk + rRisk)) / (lSplits + rSplits + 1);
    if (right.complexity > left.complexity) {
      if (cp > left.complexity) {
        lRisk = left.risk;
        lSplits = 0;
        cp = (risk - (lRisk + rRisk)) / (lSplits + rSplits + 1);
        if (cp > right.complexity) {
          rRisk = right.risk;
          rSplits = 0;
        }
      }
    } else if (cp > right.complexity) {
      rRisk = right.risk;
      rSplits = 0;
      cp = (risk - (lRisk + rRisk)) / (lSplits + rSplits + 1);
      if (cp > left.complexity) {
        lRisk = left.risk;
        lSplits = 0;
      }
    }
    cp = (risk - (lRisk + rRisk)) / (lSplits + rSplits + 1);
    if (cp > complexity) cp = complexity;
    if (cp <= 0) return leaf;
    // rpart reports the split count and risk after its collapse accounting (the nodes themselves stay).
    return {
      splits: lSplits + rSplits + 1,
      sumRisk: lRisk + rRisk,
      risk,
      complexity: cp,
      tests: [[split.attr, depth], ...left.tests, ...right.tests],
    };
  };

  const all = Array.from({ length: rows.length }, (_, i) => i);
  const root = grow(all, 1, riskOf(classCounts(all)));
  const depths = new Int32Array(m);
  for (const [a, d] of root.tests) if (depths[a] === 0 || d < depths[a]) depths[a] = d;
  return depths;
}
