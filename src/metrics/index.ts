/**
 * Classification metrics from class posteriors (Float64Array n × C, row-major) and true class codes.
 *
 * Predicted class = argmax of the posterior row; ties go to the lowest class index (deterministic, unlike
 * bnclassify/bnlearn's random tie breaking). An empty test set gives NaN for every metric.
 */

interface Metrics {
  readonly n: number;
  readonly accuracy: number;
  readonly zeroOneLoss: number;
  /** sqrt(Σ_test Σ_y (p_y − [y = true])² / (N_test · C)) — RMSE averaged over classes (Monash BNC). */
  readonly rmse: number;
  /** −(1/N) Σ ln p_true, natural log, p clamped to [1e-15, 1]. */
  readonly logLoss: number;
}

const LOG_LOSS_EPS = 1e-15;

/** Checks that posteriors and truth fit together (n × classCard cells, codes in range); returns n. */
export function validateScores(posteriors: Float64Array, truth: ArrayLike<number>, classCard: number): number {
  if (!Number.isInteger(classCard) || classCard < 1) throw new Error(`metrics: invalid class count ${classCard}`);
  const n = truth.length;
  if (posteriors.length !== n * classCard) {
    throw new Error(`metrics: ${posteriors.length} posterior cells for ${n} rows × ${classCard} classes`);
  }
  for (let r = 0; r < n; r++) {
    const y = truth[r];
    if (!Number.isInteger(y) || y < 0 || y >= classCard)
      throw new Error(`metrics: row ${r} has class ${y} outside 0..${classCard - 1}`);
  }
  return n;
}

/** Index of the largest value in row r (lowest index on ties). */
function argmaxRow(p: Float64Array, r: number, C: number): number {
  const o = r * C;
  let best = 0;
  let bv = p[o];
  for (let c = 1; c < C; c++) {
    if (p[o + c] > bv) {
      bv = p[o + c];
      best = c;
    }
  }
  return best;
}

/** Predicted class per row (argmax, lowest index on ties). */
export function predictions(posteriors: Float64Array, classCard: number): Int32Array {
  const n = posteriors.length / classCard;
  if (!Number.isInteger(n))
    throw new Error(`predictions: ${posteriors.length} cells is not a multiple of ${classCard}`);
  const out = new Int32Array(n);
  for (let r = 0; r < n; r++) out[r] = argmaxRow(posteriors, r, classCard);
  return out;
}

export function accuracy(posteriors: Float64Array, truth: ArrayLike<number>, classCard: number): number {
  const n = validateScores(posteriors, truth, classCard);
  if (n === 0) return NaN;
  let hits = 0;
  for (let r = 0; r < n; r++) if (argmaxRow(posteriors, r, classCard) === truth[r]) hits++;
  return hits / n;
}

export function zeroOneLoss(posteriors: Float64Array, truth: ArrayLike<number>, classCard: number): number {
  return 1 - accuracy(posteriors, truth, classCard);
}

export function rmse(posteriors: Float64Array, truth: ArrayLike<number>, classCard: number): number {
  const n = validateScores(posteriors, truth, classCard);
  if (n === 0) return NaN;
  let s = 0;
  for (let r = 0; r < n; r++) {
    const o = r * classCard;
    const y = truth[r];
    for (let c = 0; c < classCard; c++) {
      const d = posteriors[o + c] - (c === y ? 1 : 0);
      s += d * d;
    }
  }
  return Math.sqrt(s / (n * classCard));
}

export function logLoss(posteriors: Float64Array, truth: ArrayLike<number>, classCard: number): number {
  const n = validateScores(posteriors, truth, classCard);
  if (n === 0) return NaN;
  let s = 0;
  for (let r = 0; r < n; r++) {
    const p = posteriors[r * classCard + truth[r]];
    s -= Math.log(Math.min(1, Math.max(LOG_LOSS_EPS, p)));
  }
  return s / n;
}

export function computeMetrics(posteriors: Float64Array, truth: ArrayLike<number>, classCard: number): Metrics {
  const n = validateScores(posteriors, truth, classCard);
  const acc = accuracy(posteriors, truth, classCard);
  return {
    n,
    accuracy: acc,
    zeroOneLoss: 1 - acc,
    rmse: rmse(posteriors, truth, classCard),
    logLoss: logLoss(posteriors, truth, classCard),
  };
}
