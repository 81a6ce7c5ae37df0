/**
 * Unsigned Stirling numbers of the first kind, by the exact recurrence
 *   S(0, 0) = 1,  S(n, 0) = 0 (n > 0),  S(n, t) = 0 (t > n),  S(n, t) = S(n−1, t−1) + (n−1)·S(n−1, t),
 * evaluated in log space (log-add) in double precision and cached. They are the normalisers of the
 * Chinese restaurant distribution, Γ(α+n)/Γ(α) = Σ_t α^t S(n, t) (Petitjean et al. 2018, Eq. 7).
 *
 * What is cached is what the sampler multiplies, so that a window of candidate pseudo-counts costs
 * products rather than one exp each:
 *   B(n, t) = S(n, t) / S(n, t−1)      (2 ≤ t ≤ n), row-major: a run over t is contiguous;
 *   P(n, t) = S(n, t) / S(n−1, t)      (1 ≤ t < n), column-major: a run over n is contiguous.
 * B comes from the log values as each row of the recurrence is computed; P follows from the recurrence
 * itself, P(n, t) = (n−1) + S(n−1, t−1)/S(n−1, t) = (n−1) + 1/B(n−1, t). log S(n, t) (for the tests and
 * the sampler's out-of-range fallback) is rebuilt from a stored column and a sum of log B.
 *
 * Storage grows lazily in both directions. Columns come in chunks of 64 (chunk j holds t = 64j..64j+63
 * for the rows n ≥ 64j, below which S = 0); each chunk holds only as many rows as some query has needed:
 * B as far as the largest count whose pseudo-count reached the chunk, P (read at parent nodes, whose
 * counts are sums of pseudo-counts and so much smaller) only as far as those. Memory is the bounding box
 * of the (n, t) pairs actually used, not N × N.
 *
 * One cache serves every tree of a model (the paper: "the Stirling numbers are shared among the different
 * trees"). The authors' code keeps log S in float32; everything here is float64.
 */

const SHIFT = 6;
const WIDTH = 1 << SHIFT;
const MASK = WIDTH - 1;

export class LogStirlingCache {
  /** ratioT[j][(n − 64j) · 64 + (t − 64j)] = B(n, t) for 64j ≤ n < filled[j]. */
  readonly ratioT: Float64Array[] = [];
  /** filled[j]: rows n < filled[j] of chunk j are computed; non-increasing in j. */
  readonly filled: number[] = [];
  /** ratioN[j][(t − 64j) · rowCapN[j] + (n − 64j)] = P(n, t) for 64j ≤ n < filledN[j]. */
  readonly ratioN: Float64Array[] = [];
  readonly rowCapN: number[] = [];
  readonly filledN: number[] = [];
  private readonly rowCapT: number[] = [];
  /** edge[j][n − 64j] = log S(n, 64j + 63): the next chunk's left neighbour and its log anchor. */
  private readonly edge: Float64Array[] = [];
  /** log S(filled[j] − 1, t) for the chunk's columns: where the recurrence resumes. */
  private readonly lastRow: Float64Array[] = [];
  /** logFact1[n] = log S(n, 1) = log (n−1)!: the log anchor of chunk 0. */
  private logFact1: Float64Array = new Float64Array(0);

  /** Number of cached B cells (for diagnostics). */
  cells(): number {
    let s = 0;
    for (let j = 0; j < this.ratioT.length; j++) s += (this.filled[j] - j * WIDTH) * WIDTH;
    return s;
  }

  /** Bytes held by the tables. */
  bytes(): number {
    let s = this.logFact1.byteLength;
    for (let j = 0; j < this.ratioT.length; j++)
      s += this.ratioT[j].byteLength + this.ratioN[j].byteLength + this.edge[j].byteLength;
    return s;
  }

  /** Makes B(n, t) available for every n ≤ nMax and t ≤ min(n, tMax). */
  ensure(nMax: number, tMax: number): void {
    const J = tMax >> SHIFT;
    if (J < this.filled.length && nMax < this.filled[J]) return;
    if (!Number.isInteger(nMax) || !Number.isInteger(tMax) || nMax < 0 || tMax < 0) {
      throw new Error(`LogStirlingCache.ensure: invalid (n, t) = (${nMax}, ${tMax})`);
    }
    for (let j = 0; j <= J; j++) this.fill(j, nMax + 1);
  }

  /** Makes P(n, t) available for every n ≤ nMax and t ≤ min(n − 1, tMax). */
  ensureN(nMax: number, tMax: number): void {
    const J = tMax >> SHIFT;
    if (J < this.filledN.length && nMax < this.filledN[J]) return;
    this.ensure(Math.max(0, nMax - 1), tMax);
    for (let j = 0; j <= J; j++) this.fillN(j, nMax + 1);
  }

  /** log S(n, t) for any n, t ≥ 0 (−Infinity where S = 0); grows the cache as needed. */
  logS(n: number, t: number): number {
    if (!Number.isInteger(n) || !Number.isInteger(t) || n < 0 || t < 0) {
      throw new Error(`LogStirlingCache.logS: invalid (n, t) = (${n}, ${t})`);
    }
    if (t > n) return -Infinity;
    if (t === 0) return n === 0 ? 0 : -Infinity;
    this.ensure(n, t);
    return this.get(n, t);
  }

  /**
   * log S(n, t) for 1 ≤ t ≤ n once ensure(n, t) has run: the chunk's anchor column plus Σ log B
   * (at most 64 terms).
   */
  get(n: number, t: number): number {
    const j = t >> SHIFT;
    let s: number;
    let u: number;
    if (j === 0) {
      s = this.logFact1[n];
      u = 2;
    } else {
      s = this.edge[j - 1][n - (j - 1) * WIDTH];
      u = j * WIDTH;
    }
    const rt = this.ratioT[j];
    const o = (n - j * WIDTH) * WIDTH - j * WIDTH;
    for (; u <= t; u++) s += Math.log(rt[o + u]);
    return s;
  }

  /** B(n, t) = S(n, t) / S(n, t−1) for 2 ≤ t ≤ n (checked; grows the cache). */
  ratioInT(n: number, t: number): number {
    if (!(Number.isInteger(n) && Number.isInteger(t) && t >= 2 && t <= n)) {
      throw new Error(`LogStirlingCache.ratioInT: need integers 2 <= t <= n, got (${n}, ${t})`);
    }
    this.ensure(n, t);
    const j = t >> SHIFT;
    return this.ratioT[j][((n - (j << SHIFT)) << SHIFT) | (t & MASK)];
  }

  /** P(n, t) = S(n, t) / S(n−1, t) for 1 ≤ t < n (checked; grows the cache). */
  ratioInN(n: number, t: number): number {
    if (!(Number.isInteger(n) && Number.isInteger(t) && t >= 1 && t < n)) {
      throw new Error(`LogStirlingCache.ratioInN: need integers 1 <= t < n, got (${n}, ${t})`);
    }
    this.ensureN(n, t);
    const j = t >> SHIFT;
    return this.ratioN[j][(t & MASK) * this.rowCapN[j] + n - (j << SHIFT)];
  }

  private addChunk(): void {
    const j = this.ratioT.length;
    this.ratioT.push(new Float64Array(0));
    this.edge.push(new Float64Array(0));
    this.lastRow.push(new Float64Array(WIDTH).fill(-Infinity));
    this.rowCapT.push(0);
    this.filled.push(j * WIDTH);
    this.ratioN.push(new Float64Array(0));
    this.rowCapN.push(0);
    this.filledN.push(j * WIDTH);
  }

  /** Runs the recurrence of chunk j up to (excluding) row `rows`; chunk j − 1 must already reach `rows`. */
  private fill(j: number, rows: number): void {
    const first = j * WIDTH;
    if (rows <= first) return;
    while (this.ratioT.length <= j) this.addChunk();
    const from = this.filled[j];
    if (rows <= from) return;
    if (rows - first > this.rowCapT[j]) {
      const cap = grownCapacity(this.rowCapT[j], rows - first);
      const used = from - first;
      this.ratioT[j] = copyInto(new Float64Array(cap * WIDTH), this.ratioT[j], used * WIDTH);
      this.edge[j] = copyInto(new Float64Array(cap), this.edge[j], used);
      if (j === 0) this.logFact1 = copyInto(new Float64Array(cap), this.logFact1, used);
      this.rowCapT[j] = cap;
    }
    const rt = this.ratioT[j];
    const edge = this.edge[j];
    const row = this.lastRow[j]; // log S(n − 1, ·), updated in place to log S(n, ·)
    const leftEdge = j > 0 ? this.edge[j - 1] : null;
    const leftFirst = first - WIDTH;
    for (let n = from; n < rows; n++) {
      const o = (n - first) * WIDTH;
      const lnm1 = n >= 2 ? Math.log(n - 1) : -Infinity; // log(n − 1); n − 1 = 0 multiplies by zero
      // log S(n−1, first−1) and log S(n, first−1), from the chunk to the left
      let diag = j === 0 || n - 1 < first - 1 ? -Infinity : leftEdge![n - 1 - leftFirst];
      let prev = j === 0 || n < first - 1 ? -Infinity : leftEdge![n - leftFirst];
      for (let c = 0; c < WIDTH; c++) {
        const t = first + c;
        const up = row[c]; // log S(n−1, t)
        let v: number;
        if (t > n) v = -Infinity;
        else if (n === 0)
          v = 0; // S(0, 0) = 1
        else v = logAdd(t === 0 ? -Infinity : diag, t <= n - 1 ? lnm1 + up : -Infinity);
        rt[o + c] = t >= 1 && t <= n ? Math.exp(v - prev) : 0;
        diag = up;
        prev = v;
        row[c] = v;
      }
      edge[n - first] = row[WIDTH - 1];
      if (j === 0) this.logFact1[n] = row[1];
    }
    this.filled[j] = rows;
  }

  /** P(n, t) = (n − 1) + 1/B(n − 1, t) for the rows of chunk j up to (excluding) `rows`. */
  private fillN(j: number, rows: number): void {
    const first = j * WIDTH;
    if (rows <= first) return;
    while (this.ratioT.length <= j) this.addChunk();
    const from = this.filledN[j];
    if (rows <= from) return;
    if (rows - first > this.rowCapN[j]) {
      const oldCap = this.rowCapN[j];
      const cap = grownCapacity(oldCap, rows - first);
      const used = from - first;
      const rn = new Float64Array(cap * WIDTH);
      const old = this.ratioN[j];
      for (let c = 0; c < WIDTH; c++) rn.set(old.subarray(c * oldCap, c * oldCap + used), c * cap);
      this.ratioN[j] = rn;
      this.rowCapN[j] = cap;
    }
    const rn = this.ratioN[j];
    const cap = this.rowCapN[j];
    const rt = this.ratioT[j];
    for (let n = Math.max(from, first + 1); n < rows; n++) {
      const o = (n - 1 - first) * WIDTH; // row n − 1 of B
      for (let c = 0; c < WIDTH; c++) {
        const t = first + c;
        // t = 1: B(n−1, 1) = ∞ and P = n − 1; t ≥ n: S(n−1, t) = 0, never read
        rn[c * cap + n - first] = t >= n ? 0 : t <= 1 ? n - 1 : n - 1 + 1 / rt[o + c];
      }
    }
    this.filledN[j] = rows;
  }
}

/** Capacity for `need` rows: at least 1.25 × the old one, so repeated growth stays linear overall. */
function grownCapacity(old: number, need: number): number {
  return Math.max(need, Math.ceil(old * 1.25), 64);
}

function copyInto(to: Float64Array, from: Float64Array, count: number): Float64Array {
  to.set(from.subarray(0, count));
  return to;
}

/** log(e^a + e^b) without overflow; −Infinity is the log of 0. */
export function logAdd(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}
