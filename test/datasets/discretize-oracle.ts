/**
 * Test oracles for src/datasets/discretize.ts, written from the definitions and independent of that code
 * (nothing here imports it): entropies as −Σ p·log2 p, Fayyad & Irani's MDL criterion (Machine Learning
 * 1993; Weka's supervised Discretize with default options), the median rule and Weka's equal-frequency
 * placement as the module comment of discretize.ts states them.
 *
 * The MDL oracle is a checker rather than a second implementation: the code under test evaluates entropies
 * with Weka's Σ n·ln n arithmetic so that near-ties resolve as Weka's do, and a different but equally correct
 * summation can order two mathematically equal candidates the other way. So the checker accepts a cut list
 * exactly when it is what the definition gives, allowing either outcome only where two quantities agree to
 * within TOLERANCE (equal candidates, a gain at its threshold), and reports how often it had to.
 */

/** Relative agreement below which two entropies (or a gain and its threshold) count as equal. */
const TOLERANCE = 1e-12;

/** Entropy in bits of a count vector. */
export function entropy(counts: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < counts.length; i++) n += counts[i];
  if (n === 0) return 0;
  let h = 0;
  for (let i = 0; i < counts.length; i++) {
    const p = counts[i] / n;
    if (p > 0) h -= p * Math.log2(p);
  }
  return h;
}

/** One candidate split of a segment: the boundary after sorted position `last`. */
interface Candidate {
  readonly last: number;
  readonly cut: number;
  readonly entropy: number;
  readonly gain: number;
  readonly threshold: number;
}

/** Every candidate of the segment [first, end) of sorted values v with classes y, in value order. */
function candidates(v: Float64Array, y: Int32Array, K: number, first: number, end: number): Candidate[] {
  const n = end - first;
  const prior = new Array<number>(K).fill(0);
  for (let i = first; i < end; i++) prior[y[i]]++;
  const hPrior = entropy(prior);
  const k = prior.filter((c) => c > 0).length;
  const left = new Array<number>(K).fill(0);
  const out: Candidate[] = [];
  for (let i = first; i < end - 1; i++) {
    left[y[i]]++;
    if (!(v[i] < v[i + 1])) continue; // no cut between equal values
    const right = prior.map((c, j) => c - left[j]);
    const nl = i + 1 - first;
    const hl = entropy(left);
    const hr = entropy(right);
    const e = (nl * hl + (n - nl) * hr) / n;
    const k1 = left.filter((c) => c > 0).length;
    const k2 = right.filter((c) => c > 0).length;
    // Fayyad & Irani: accept when Gain > log2(N − 1)/N + Δ/N, Δ = log2(3^k − 2) − [k·Ent(S) − k1·Ent(S1) − k2·Ent(S2)].
    const delta = Math.log2(3 ** k - 2) - (k * hPrior - k1 * hl - k2 * hr);
    out.push({
      last: i,
      cut: (v[i] + v[i + 1]) / 2,
      entropy: e,
      gain: hPrior - e,
      threshold: (Math.log2(n - 1) + delta) / n,
    });
  }
  return out;
}

const near = (a: number, b: number): boolean => Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));

export interface MdlCheck {
  /** Why the cuts are not the definition's, or null when they are. */
  readonly error: string | null;
  /** Segments where a tie or a gain at its threshold allowed more than one answer. */
  readonly ambiguous: number;
}

/**
 * Checks `cuts` (ascending) against recursive MDL splitting of sorted values v with classes y: in every
 * segment the best candidate (smallest class entropy; the first on a tie) is kept when its gain beats the
 * MDL threshold, and the two halves are split again.
 */
export function checkMdlCuts(v: Float64Array, y: Int32Array, K: number, cuts: readonly number[]): MdlCheck {
  let ambiguous = 0;
  const check = (first: number, end: number, inside: readonly number[]): string | null => {
    const cands = candidates(v, y, K, first, end);
    const where = `segment [${v[first]}, ${v[end - 1]}] of ${end - first} rows`;
    if (cands.length === 0) return inside.length === 0 ? null : `${where} has no candidate but cuts ${inside}`;
    const best = Math.min(...cands.map((c) => c.entropy));
    const ties = cands.filter((c) => near(c.entropy, best));
    // Weka keeps the first of the candidates of smallest entropy; the ties after it are allowed through noise.
    const allowed = ties.filter((c) => c.gain > 0 && !(c.gain < c.threshold && !near(c.gain, c.threshold)));
    const mustCut = ties.every((c) => c.gain > 0 && c.gain > c.threshold && !near(c.gain, c.threshold));
    if (ties.length > 1 || ties.some((c) => near(c.gain, c.threshold))) ambiguous++;
    if (inside.length === 0) {
      return mustCut
        ? `${where}: cut ${ties[0].cut} has gain ${ties[0].gain} > threshold ${ties[0].threshold} but was not made`
        : null;
    }
    const top = allowed.find((c) => inside.includes(c.cut));
    if (!top) {
      const first = ties[0];
      return `${where}: expected the best candidate ${first.cut} (entropy ${first.entropy}, gain ${first.gain}, threshold ${first.threshold}) or no cut; got ${inside}`;
    }
    return (
      check(
        first,
        top.last + 1,
        inside.filter((c) => c < top.cut),
      ) ??
      check(
        top.last + 1,
        end,
        inside.filter((c) => c > top.cut),
      )
    );
  };
  const error =
    v.length < 2 ? (cuts.length === 0 ? null : `too few values for cuts ${cuts}`) : check(0, v.length, cuts);
  return { error, ambiguous };
}

/** The training median (mean of the middle two for an even count); no cut when it is the largest value. */
export function medianOracle(sorted: readonly number[]): number[] {
  const m = sorted.length;
  if (m === 0) return [];
  const median = m % 2 === 1 ? sorted[(m - 1) / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
  return median < sorted[m - 1] ? [median] : [];
}

/**
 * Weka's equal-frequency placement, from its description over the boundaries between runs of equal values:
 * the target size is (values not yet in a closed bin) / (bins still to fill); at the first boundary where the
 * open bin reaches the target, cut there, or at the previous boundary when that one is strictly closer to the
 * target (the values after it then open the next bin). When the walk ends with cuts to spare, the last
 * boundary seen since the last cut gets one.
 */
export function equalFrequencyOracle(sorted: readonly number[], bins: number): number[] {
  const m = sorted.length;
  // Boundaries: the number of values up to and including each run that ends before the last value.
  const ends: number[] = [];
  for (let i = 0; i + 1 < m; i++) if (sorted[i] < sorted[i + 1]) ends.push(i + 1);
  const cutAt = (end: number): number => (sorted[end - 1] + sorted[end]) / 2;
  const cuts: number[] = [];
  let closedValues = 0; // values in bins already closed
  let previous: number | null = null; // the boundary before this one since the last cut (values up to it)
  let target = m / bins;
  for (const end of ends) {
    const open = end - closedValues;
    if (open < target) {
      previous = end;
      continue;
    }
    const previousOpen = previous === null ? null : previous - closedValues;
    if (previousOpen !== null && target - previousOpen < open - target) {
      cuts.push(cutAt(previous!));
      closedValues = previous!;
      previous = end;
    } else {
      cuts.push(cutAt(end));
      closedValues = end;
      previous = null;
    }
    target = (m - closedValues) / (bins - cuts.length);
  }
  if (cuts.length < bins - 1 && previous !== null) cuts.push(cutAt(previous));
  return cuts;
}
