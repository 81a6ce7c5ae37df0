/**
 * Ranking, calibration and class-balanced metrics from class posteriors (Float64Array n × C, row-major)
 * and true class codes, as sklearn computes them (pinned to sklearn 1.2 in test/metrics/classification.test.ts):
 *
 * - AUC, Hand & Till (2001) M: the mean over class pairs {i, j} of (A(i|j) + A(j|i)) / 2, where A(i|j) is the
 *   probability that a random row of class i has a higher p_i than a random row of class j (ties count ½);
 *   sklearn `roc_auc_score(multi_class='ovo', average='macro')`. Two classes: the usual AUC.
 * - AUC one-vs-rest, weighted by class prevalence (Provost & Domingos 2000); sklearn
 *   `roc_auc_score(multi_class='ovr', average='weighted')`.
 * - Brier score (Brier 1950): (1/N) Σ_rows Σ_classes (p_c − [c = true])², from 0 (perfect) to 2. With two
 *   classes it is twice sklearn's binary `brier_score_loss`, which scores only the positive class; it equals
 *   C · rmse² of the Monash RMSE.
 * - Balanced accuracy: the mean recall over the classes present in the test rows (sklearn
 *   `balanced_accuracy_score`).
 * - Macro F1: the mean of 2TP / (2TP + FP + FN) over the classes that are true or predicted in the test rows
 *   (sklearn `f1_score(average='macro')`, a class never predicted has F1 0).
 * - Confusion matrix: counts[true][predicted], predicted = argmax (lowest index on ties, as accuracy).
 *
 * A fold's test rows need not contain every class. sklearn refuses the AUCs then; here a class pair (Hand &
 * Till) or class (one-vs-rest) with no rows on one side is left out of the average, and the AUC is NaN when
 * nothing is left (e.g. a test fold of one class).
 */
import { predictions } from './index.js';

/**
 * The scores p_c of every row, grouped by true class into `into` (class k's rows at [start[k], start[k + 1]),
 * in row order) and each group sorted ascending: native sorts of Float64Arrays (a comparator over row
 * indices costs several times more on the 10^6 test rows of a large fold), in one buffer reused for every c
 * (on letter's 26 classes, a fresh array per class and pair was a fifth of a naive Bayes job).
 */
function sortedScoresByClass(
  posteriors: Float64Array,
  truth: ArrayLike<number>,
  C: number,
  c: number,
  start: Int32Array,
  fill: Int32Array,
  into: Float64Array,
): boolean {
  fill.set(start.subarray(0, C));
  for (let r = 0; r < truth.length; r++) into[fill[truth[r]]++] = posteriors[r * C + c];
  let nan = false;
  for (let k = 0; k < C; k++) {
    if (start[k + 1] - start[k] > 1) into.subarray(start[k], start[k + 1]).sort();
    // a sort puts NaN last
    if (start[k + 1] > start[k] && Number.isNaN(into[start[k + 1] - 1])) nan = true;
  }
  return nan;
}

/**
 * A(pos | neg): the Mann–Whitney U / (n_pos · n_neg) of the ascending scores of the positive and negative
 * rows, tied scores counting ½. Walks the distinct scores in ascending order and adds p · (negatives below
 * + q / 2) per score, as a walk over all rows sorted by score would (a score no positive has adds 0).
 * NaN when either side has no rows.
 */
function mannWhitneyAuc(pos: Float64Array, neg: Float64Array): number {
  if (pos.length === 0 || neg.length === 0) return NaN;
  return mannWhitneyU(pos, neg) / (pos.length * neg.length);
}

/**
 * The U of mannWhitneyAuc: a sum of whole numbers and halves below 2^53, so exact, and additive over the
 * negatives: U(pos | N₁ ∪ N₂) = U(pos | N₁) + U(pos | N₂) for disjoint N₁, N₂ without NaN (each distinct score
 * adds p · (negatives below + q / 2), and both counts add up over the parts).
 */
function mannWhitneyU(pos: Float64Array, neg: Float64Array): number {
  let negBefore = 0;
  let u = 0;
  let i = 0;
  let j = 0;
  while (i < pos.length || j < neg.length) {
    const v = j >= neg.length || (i < pos.length && pos[i] < neg[j]) ? pos[i] : neg[j];
    let p = 0;
    let q = 0;
    while (i < pos.length && pos[i] === v) {
      i++;
      p++;
    }
    while (j < neg.length && neg[j] === v) {
      j++;
      q++;
    }
    // A NaN score equals nothing: take it alone so the walk always moves on.
    if (p === 0 && q === 0) {
      if (i < pos.length && Number.isNaN(pos[i])) {
        i++;
        p++;
      } else {
        j++;
        q++;
      }
    }
    u += p * (negBefore + q / 2);
    negBefore += q;
  }
  return u;
}

function classCounts(truth: ArrayLike<number>, C: number): Int32Array {
  const counts = new Int32Array(C);
  for (let r = 0; r < truth.length; r++) counts[truth[r]]++;
  return counts;
}

/**
 * Both AUCs from one pass per class c: the scores p_c grouped by true class and sorted give U(c | j) for
 * every j, hence A(c | j) (Hand & Till) and, summed, U(c | rest) (one-vs-rest) exactly as a walk over the
 * other classes' scores sorted together gives it, without that sort (on letter it was a tenth of a naive
 * Bayes job). Scores with a NaN among them take that sort, the sum being exact only without NaN.
 */
export function aucs(posteriors: Float64Array, truth: ArrayLike<number>, C: number): { handTill: number; ovr: number } {
  const n = truth.length;
  const counts = classCounts(truth, C);
  const start = new Int32Array(C + 1);
  for (let k = 0; k < C; k++) start[k + 1] = start[k] + counts[k];
  const fill = new Int32Array(C);
  const scores = new Float64Array(n);
  let rest: Float64Array | undefined; // only for scores with a NaN
  // A(i|j) for every ordered pair, from the scores p_i sorted within each true class.
  const a = new Float64Array(C * C);
  let ovrSum = 0;
  let ovrWeight = 0;
  for (let i = 0; i < C; i++) {
    if (counts[i] === 0) continue;
    const nan = sortedScoresByClass(posteriors, truth, C, i, start, fill, scores);
    const own = scores.subarray(start[i], start[i + 1]);
    let uRest = 0;
    for (let j = 0; j < C; j++) {
      if (j === i || counts[j] === 0) continue;
      const u = mannWhitneyU(own, scores.subarray(start[j], start[j + 1]));
      a[i * C + j] = u / (counts[i] * counts[j]);
      uRest += u;
    }
    if (counts[i] === n) continue;
    let aRest: number;
    if (!nan) aRest = uRest / (counts[i] * (n - counts[i]));
    else {
      // the scores of every row not of class i, sorted together
      rest ??= new Float64Array(n);
      rest.set(scores.subarray(0, start[i]));
      rest.set(scores.subarray(start[i + 1]), start[i]);
      const others = rest.subarray(0, n - counts[i]);
      others.sort();
      aRest = mannWhitneyAuc(own, others);
    }
    ovrSum += counts[i] * aRest;
    ovrWeight += counts[i];
  }
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < C; i++) {
    for (let j = i + 1; j < C; j++) {
      if (counts[i] === 0 || counts[j] === 0) continue;
      sum += (a[i * C + j] + a[j * C + i]) / 2;
      pairs++;
    }
  }
  return { handTill: pairs === 0 ? NaN : sum / pairs, ovr: ovrWeight === 0 ? NaN : ovrSum / ovrWeight };
}

/** Hand & Till (2001) multi-class AUC M; NaN when fewer than two classes occur in `truth`. */
export function aucHandTill(posteriors: Float64Array, truth: ArrayLike<number>, C: number): number {
  return aucs(posteriors, truth, C).handTill;
}

/** One-vs-rest AUC averaged over classes weighted by their count in `truth`; NaN when only one class occurs. */
export function aucOneVsRestWeighted(posteriors: Float64Array, truth: ArrayLike<number>, C: number): number {
  return aucs(posteriors, truth, C).ovr;
}

/** Multi-class Brier score (1/N) Σ Σ_c (p_c − y_c)², Brier (1950). */
export function brierScore(posteriors: Float64Array, truth: ArrayLike<number>, C: number): number {
  const n = truth.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let r = 0; r < n; r++) {
    const y = truth[r];
    for (let c = 0; c < C; c++) {
      const d = posteriors[r * C + c] - (c === y ? 1 : 0);
      s += d * d;
    }
  }
  return s / n;
}

/** counts[true * C + predicted] of the argmax predictions. */
export function confusionMatrix(posteriors: Float64Array, truth: ArrayLike<number>, C: number): Int32Array {
  const pred = predictions(posteriors, C);
  const m = new Int32Array(C * C);
  for (let r = 0; r < truth.length; r++) m[truth[r] * C + pred[r]]++;
  return m;
}

/** Mean recall over the classes occurring in the test rows. */
export function balancedAccuracy(confusion: Int32Array, C: number): number {
  let sum = 0;
  let classes = 0;
  for (let i = 0; i < C; i++) {
    let rowTotal = 0;
    for (let j = 0; j < C; j++) rowTotal += confusion[i * C + j];
    if (rowTotal === 0) continue;
    sum += confusion[i * C + i] / rowTotal;
    classes++;
  }
  return classes === 0 ? NaN : sum / classes;
}

/** Mean F1 over the classes that are true or predicted at least once. */
export function macroF1(confusion: Int32Array, C: number): number {
  let sum = 0;
  let classes = 0;
  for (let i = 0; i < C; i++) {
    let rowTotal = 0;
    let colTotal = 0;
    for (let j = 0; j < C; j++) {
      rowTotal += confusion[i * C + j];
      colTotal += confusion[j * C + i];
    }
    if (rowTotal === 0 && colTotal === 0) continue;
    const tp = confusion[i * C + i];
    // 2TP / (2TP + FP + FN) with FP + TP = colTotal and FN + TP = rowTotal.
    sum += (2 * tp) / (rowTotal + colTotal);
    classes++;
  }
  return classes === 0 ? NaN : sum / classes;
}

/** Confusion rows (true class) as nested arrays, for storage and reports. */
export function confusionRows(confusion: Int32Array, C: number): number[][] {
  // Plain loops: Array.from over a subarray's iterator was a twentieth of a trivial job's metrics.
  const rows: number[][] = [];
  for (let i = 0; i < C; i++) {
    const row: number[] = [];
    for (let j = 0; j < C; j++) row.push(confusion[i * C + j]);
    rows.push(row);
  }
  return rows;
}

interface ClassificationMetrics {
  readonly auc: number;
  readonly aucOvr: number;
  readonly brier: number;
  readonly balancedAccuracy: number;
  readonly macroF1: number;
  /** counts[true][predicted]. */
  readonly confusion: number[][];
}

/** The metrics of this file for one test set (computeMetrics in index.ts gives accuracy, RMSE and log loss). */
export function classificationMetrics(
  posteriors: Float64Array,
  truth: ArrayLike<number>,
  C: number,
): ClassificationMetrics {
  const confusion = confusionMatrix(posteriors, truth, C);
  const { handTill, ovr } = aucs(posteriors, truth, C);
  return {
    auc: handTill,
    aucOvr: ovr,
    brier: brierScore(posteriors, truth, C),
    balancedAccuracy: balancedAccuracy(confusion, C),
    macroF1: macroF1(confusion, C),
    confusion: confusionRows(confusion, C),
  };
}
