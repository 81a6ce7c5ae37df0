/**
 * Family counting: the sufficient statistics N_ijk every score and estimator reads.
 *
 * Node convention (as in Structure): nodes 0..m-1 are attributes, node m is the class.
 *
 * Missing values use available-case analysis (Pigott 2001, as bnclassify's `table_cpp`): a row contributes
 * to a family's table only if the child and every parent are observed in it. Different families can
 * therefore be counted on different row subsets. The class is never missing.
 */
import { MISSING, type DiscreteData } from './data.js';

/** Refuse tables larger than this many cells (8 bytes each); such a family is a modelling error. */
export const MAX_TABLE_CELLS = 1 << 27;

export interface FamilyCounts {
  /**
   * counts[config * childCard + childValue], where config is the mixed-radix index of the parents' values
   * in the order given, first parent most significant: config = (...(p0 * card1 + p1) * card2 + p2 ...).
   */
  readonly counts: Float64Array;
  readonly childCard: number;
  /** Cardinalities of the parents, in the order given. */
  readonly parentCards: Int32Array;
  /** Number of parent configurations (product of parentCards; 1 with no parents). */
  readonly configs: number;
}

/** Cardinality of node v (attribute card, or classCard for v === m). */
export function nodeCard(data: DiscreteData, v: number): number {
  const m = data.columns.length;
  if (v === m) return data.classCard;
  if (!Number.isInteger(v) || v < 0 || v > m) throw new Error(`node ${v} out of range 0..${m}`);
  return data.cards[v]!;
}

/** Column of node v (the class column for v === m). */
export function nodeColumn(data: DiscreteData, v: number): Int32Array {
  const m = data.columns.length;
  if (v === m) return data.classColumn;
  if (!Number.isInteger(v) || v < 0 || v > m) throw new Error(`node ${v} out of range 0..${m}`);
  return data.columns[v]!;
}

/** Counts of child given parents over the rows where all of them are observed (available case). */
export function familyCounts(data: DiscreteData, child: number, parents: readonly number[]): FamilyCounts {
  const childCard = nodeCard(data, child);
  const k = parents.length;
  const parentCards = new Int32Array(k);
  let configs = 1;
  for (let i = 0; i < k; i++) {
    const p = parents[i]!;
    if (p === child) throw new Error(`familyCounts: node ${child} listed as its own parent`);
    for (let j = 0; j < i; j++) if (parents[j] === p) throw new Error(`familyCounts: parent ${p} listed twice`);
    parentCards[i] = nodeCard(data, p);
    configs *= parentCards[i]!;
  }
  const cells = configs * childCard;
  if (cells > MAX_TABLE_CELLS) {
    throw new Error(`familyCounts: family of node ${child} with parents [${parents.join(', ')}] needs ${cells} cells`);
  }
  const counts = new Float64Array(cells);
  const x = nodeColumn(data, child);
  const n = data.n;
  // Specialised loops for the common family sizes; `(a | b) < 0` tests both codes for MISSING (-1) at once.
  if (k === 0) {
    for (let r = 0; r < n; r++) {
      const v = x[r]!;
      if (v >= 0) counts[v]!++;
    }
  } else if (k === 1) {
    const p0 = nodeColumn(data, parents[0]!);
    for (let r = 0; r < n; r++) {
      const v = x[r]!;
      const a = p0[r]!;
      if ((v | a) < 0) continue;
      counts[a * childCard + v]!++;
    }
  } else if (k === 2) {
    const p0 = nodeColumn(data, parents[0]!);
    const p1 = nodeColumn(data, parents[1]!);
    const c1 = parentCards[1]!;
    for (let r = 0; r < n; r++) {
      const v = x[r]!;
      const a = p0[r]!;
      const b = p1[r]!;
      if ((v | a | b) < 0) continue;
      counts[(a * c1 + b) * childCard + v]!++;
    }
  } else {
    const cols = parents.map((p) => nodeColumn(data, p));
    rows: for (let r = 0; r < n; r++) {
      const v = x[r]!;
      if (v < 0) continue;
      let cfg = 0;
      for (let i = 0; i < k; i++) {
        const a = cols[i]![r]!;
        if (a < 0) continue rows;
        cfg = cfg * parentCards[i]! + a;
      }
      counts[cfg * childCard + v]!++;
    }
  }
  return { counts, childCard, parentCards, configs };
}

/**
 * Fast path for I(X;C): counts of (attribute a, class) laid out [x * classCard + c], over rows where a is
 * observed. `out` (length >= cards[a] * classCard) is reused and zeroed when given.
 */
export function attributeClassCounts(data: DiscreteData, a: number, out?: Float64Array): Float64Array {
  const C = data.classCard;
  const size = data.cards[a]! * C;
  const t = out ?? new Float64Array(size);
  if (t.length < size) throw new Error(`attributeClassCounts: buffer has ${t.length} cells, need ${size}`);
  t.fill(0, 0, size);
  const x = data.columns[a]!;
  const y = data.classColumn;
  const n = data.n;
  for (let r = 0; r < n; r++) {
    const v = x[r]!;
    if (v >= 0) t[v * C + y[r]!]!++;
  }
  return t;
}

/**
 * Per-row joint code z[r] = x_a[r] * classCard + c[r], or MISSING where attribute a is missing. Precomputing
 * it once per attribute halves the loads in the pairwise (Xi, Xj, C) loop.
 */
export function attributeClassCodes(data: DiscreteData, a: number, out?: Int32Array): Int32Array {
  const n = data.n;
  const z = out ?? new Int32Array(n);
  if (z.length < n) throw new Error(`attributeClassCodes: buffer has ${z.length} cells, need ${n}`);
  const C = data.classCard;
  const x = data.columns[a]!;
  const y = data.classColumn;
  for (let r = 0; r < n; r++) {
    const v = x[r]!;
    z[r] = v < 0 ? MISSING : v * C + y[r]!;
  }
  return z;
}

/**
 * Accumulates t[xi * stride + zj] += 1 over rows where both codes are observed, with zj from
 * attributeClassCodes and stride = card_j * classCard, i.e. t[(xi * card_j + xj) * classCard + c].
 * Does not zero t. Returns the number of rows counted.
 */
export function accumulatePairCodes(xi: Int32Array, zj: Int32Array, stride: number, n: number, t: Float64Array | Int32Array): number {
  let used = 0;
  for (let r = 0; r < n; r++) {
    const a = xi[r]!;
    const b = zj[r]!;
    if ((a | b) < 0) continue;
    t[a * stride + b]!++;
    used++;
  }
  return used;
}

/**
 * accumulatePairCodes for four i-columns at once (one pass over zj); tk[xk * stride + zj] += 1.
 * Sharing the zj load and the loop across four tables is what keeps all-pairs CMI near a bare count.
 */
export function accumulatePairCodes4(
  x0: Int32Array,
  x1: Int32Array,
  x2: Int32Array,
  x3: Int32Array,
  zj: Int32Array,
  stride: number,
  n: number,
  t0: Float64Array | Int32Array,
  t1: Float64Array | Int32Array,
  t2: Float64Array | Int32Array,
  t3: Float64Array | Int32Array,
): void {
  for (let r = 0; r < n; r++) {
    const b = zj[r]!;
    if (b < 0) continue;
    const a0 = x0[r]!;
    const a1 = x1[r]!;
    const a2 = x2[r]!;
    const a3 = x3[r]!;
    if (a0 >= 0) t0[a0 * stride + b]!++;
    if (a1 >= 0) t1[a1 * stride + b]!++;
    if (a2 >= 0) t2[a2 * stride + b]!++;
    if (a3 >= 0) t3[a3 * stride + b]!++;
  }
}

/**
 * Fast path for I(Xi;Xj|C): counts laid out [(xi * card_j + xj) * classCard + c] over rows where both
 * attributes are observed. `out` (length >= card_i * card_j * classCard) is reused and zeroed when given.
 */
export function pairClassCounts(data: DiscreteData, i: number, j: number, out?: Float64Array): Float64Array {
  if (i === j) throw new Error(`pairClassCounts: attributes must differ (got ${i} twice)`);
  const C = data.classCard;
  const cj = data.cards[j]!;
  const size = data.cards[i]! * cj * C;
  const t = out ?? new Float64Array(size);
  if (t.length < size) throw new Error(`pairClassCounts: buffer has ${t.length} cells, need ${size}`);
  t.fill(0, 0, size);
  const xi = data.columns[i]!;
  const xj = data.columns[j]!;
  const y = data.classColumn;
  const n = data.n;
  for (let r = 0; r < n; r++) {
    const a = xi[r]!;
    const b = xj[r]!;
    if ((a | b) < 0) continue;
    t[(a * cj + b) * C + y[r]!]!++;
  }
  return t;
}
