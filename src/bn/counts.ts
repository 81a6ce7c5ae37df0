/**
 * Family counting: the sufficient statistics N_ijk every score and estimator reads.
 *
 * Node convention (as in Structure): nodes 0..m-1 are attributes, node m is the class.
 *
 * Missing values use available-case analysis (Pigott 2001, as bnclassify's `table_cpp`): a row contributes
 * to a family's table only if the child and every parent are observed in it. Different families can
 * therefore be counted on different row subsets. The class is never missing.
 */
import { codeColumn, forEachViewChunk, MISSING, rowViewOf, type CodeColumn, type DiscreteData } from './data.js';
import { UserError } from '../util/errors.js';

/**
 * Refuse dense tables larger than this many cells (8 bytes each). Estimators that may meet larger families
 * count them with sparseFamilyCounts instead (fitCptModel does so above SPARSE_CPT_CELLS).
 */
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
  const m = data.cards.length;
  if (v === m) return data.classCard;
  if (!Number.isInteger(v) || v < 0 || v > m) throw new Error(`node ${v} out of range 0..${m}`);
  return data.cards[v];
}

/** Column of node v (the class column for v === m). */
export function nodeColumn(data: DiscreteData, v: number): CodeColumn {
  const m = data.cards.length;
  if (v === m) return data.classColumn;
  if (!Number.isInteger(v) || v < 0 || v > m) throw new Error(`node ${v} out of range 0..${m}`);
  return data.columns[v];
}

/** Child cardinality, parent cardinalities and the number of parent configurations of a family (validated). */
function familyLayout(
  data: DiscreteData,
  child: number,
  parents: readonly number[],
): { childCard: number; parentCards: Int32Array; configs: number } {
  const childCard = nodeCard(data, child);
  const k = parents.length;
  const parentCards = new Int32Array(k);
  let configs = 1;
  for (let i = 0; i < k; i++) {
    const p = parents[i];
    if (p === child) throw new Error(`familyCounts: node ${child} listed as its own parent`);
    for (let j = 0; j < i; j++) if (parents[j] === p) throw new Error(`familyCounts: parent ${p} listed twice`);
    parentCards[i] = nodeCard(data, p);
    configs *= parentCards[i];
  }
  return { childCard, parentCards, configs };
}

/** Counts of child given parents over the rows where all of them are observed (available case). */
export function familyCounts(data: DiscreteData, child: number, parents: readonly number[]): FamilyCounts {
  const { childCard, parentCards, configs } = familyLayout(data, child, parents);
  const cells = configs * childCard;
  if (cells > MAX_TABLE_CELLS) {
    throw new Error(`familyCounts: family of node ${child} with parents [${parents.join(', ')}] needs ${cells} cells`);
  }
  const counts = new Float64Array(cells);
  const view = rowViewOf(data);
  if (view) {
    // A row view chunk by chunk (forEachViewChunk): the same rows in the same order, so the same counts.
    forEachViewChunk(view, [child, ...parents], (c, rows) =>
      countFamilyRows(counts, c[0], c.slice(1), parentCards, childCard, rows),
    );
  } else {
    const x = nodeColumn(data, child);
    countFamily(
      counts,
      x,
      parents.map((p) => nodeColumn(data, p)),
      parentCards,
      childCard,
      data.n,
    );
  }
  return { counts, childCard, parentCards, configs };
}

/** familyCounts' loops over the first n rows of the child's column x and the parents' columns. */
function countFamily(
  counts: Float64Array,
  x: CodeColumn,
  cols: readonly CodeColumn[],
  parentCards: Int32Array,
  childCard: number,
  n: number,
): void {
  const k = cols.length;
  // Specialised loops for the common family sizes; `(a | b) < 0` tests both codes for MISSING (-1) at once.
  if (k === 0) {
    for (let r = 0; r < n; r++) {
      const v = x[r];
      if (v >= 0) counts[v]++;
    }
  } else if (k === 1) {
    const p0 = cols[0];
    for (let r = 0; r < n; r++) {
      const v = x[r];
      const a = p0[r];
      if ((v | a) < 0) continue;
      counts[a * childCard + v]++;
    }
  } else if (k === 2) {
    const p0 = cols[0];
    const p1 = cols[1];
    const c1 = parentCards[1];
    for (let r = 0; r < n; r++) {
      const v = x[r];
      const a = p0[r];
      const b = p1[r];
      if ((v | a | b) < 0) continue;
      counts[(a * c1 + b) * childCard + v]++;
    }
  } else {
    rows: for (let r = 0; r < n; r++) {
      const v = x[r];
      if (v < 0) continue;
      let cfg = 0;
      for (let i = 0; i < k; i++) {
        const a = cols[i][r];
        if (a < 0) continue rows;
        cfg = cfg * parentCards[i] + a;
      }
      counts[cfg * childCard + v]++;
    }
  }
}

/** countFamily over the rows `rows` of the columns (a block of a row view: see forEachViewChunk). */
function countFamilyRows(
  counts: Float64Array,
  x: CodeColumn,
  cols: readonly CodeColumn[],
  parentCards: Int32Array,
  childCard: number,
  rows: Int32Array,
): void {
  const k = cols.length;
  const n = rows.length;
  if (k === 0) {
    for (let i = 0; i < n; i++) {
      const v = x[rows[i]];
      if (v >= 0) counts[v]++;
    }
  } else if (k === 1) {
    const p0 = cols[0];
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      const v = x[r];
      const a = p0[r];
      if ((v | a) < 0) continue;
      counts[a * childCard + v]++;
    }
  } else if (k === 2) {
    const p0 = cols[0];
    const p1 = cols[1];
    const c1 = parentCards[1];
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      const v = x[r];
      const a = p0[r];
      const b = p1[r];
      if ((v | a | b) < 0) continue;
      counts[(a * c1 + b) * childCard + v]++;
    }
  } else {
    rows: for (let i = 0; i < n; i++) {
      const r = rows[i];
      const v = x[r];
      if (v < 0) continue;
      let cfg = 0;
      for (let j = 0; j < k; j++) {
        const a = cols[j][r];
        if (a < 0) continue rows;
        cfg = cfg * parentCards[j] + a;
      }
      counts[cfg * childCard + v]++;
    }
  }
}

/** familyCounts with each row counted by its weight (available case, same layout). */
export function weightedFamilyCounts(
  data: DiscreteData,
  child: number,
  parents: readonly number[],
  rowWeights: Float64Array,
): FamilyCounts {
  if (rowWeights.length !== data.n) throw new Error(`rowWeights has ${rowWeights.length} entries for ${data.n} rows`);
  const layout = familyCounts({ ...data, n: 0 }, child, parents);
  const counts = layout.counts;
  const x = nodeColumn(data, child);
  const cols = parents.map((p) => nodeColumn(data, p));
  const pc = layout.parentCards;
  rows: for (let r = 0; r < data.n; r++) {
    const v = x[r];
    if (v < 0) continue;
    let cfg = 0;
    for (let i = 0; i < cols.length; i++) {
      const a = cols[i][r];
      if (a < 0) continue rows;
      cfg = cfg * pc[i] + a;
    }
    counts[cfg * layout.childCard + v] += rowWeights[r];
  }
  return layout;
}

/**
 * Hash index of parent configurations: mixed-radix configuration numbers (exact integers below 2^53, so
 * families of any practical size) mapped to dense ids 0, 1, 2, ... in order of first insertion. Open
 * addressing with linear probing over typed arrays, Fibonacci hashing of both 32-bit halves of the key,
 * load factor at most 1/2.
 */
export class ConfigIndex {
  private keyOf: Float64Array;
  private slotKey: Float64Array;
  /** id + 1 of the key in each slot; 0 = empty. */
  private slotId: Int32Array;
  private shift: number;
  private mask: number;
  private count = 0;

  constructor(expected = 8) {
    let bits = 4;
    while (1 << bits < 2 * expected && bits < 30) bits++;
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.slotKey = new Float64Array(1 << bits);
    this.slotId = new Int32Array(1 << bits);
    this.keyOf = new Float64Array(Math.max(8, expected));
  }

  /** Number of distinct configurations indexed. */
  get size(): number {
    return this.count;
  }

  /** The configuration with this id. */
  key(id: number): number {
    if (!(id >= 0 && id < this.count)) throw new Error(`ConfigIndex: id ${id} out of range 0..${this.count - 1}`);
    return this.keyOf[id];
  }

  private slot(key: number): number {
    // ToUint32 of an integer below 2^53 is key mod 2^32; the quotient's ToUint32 is the high half.
    const h = Math.imul((key >>> 0) ^ Math.imul((key / 4294967296) >>> 0, 0x85ebca6b), 0x9e3779b1);
    return h >>> this.shift;
  }

  /** The id of `key`, or -1 when it was never added. */
  get(key: number): number {
    const slotKey = this.slotKey;
    const slotId = this.slotId;
    const mask = this.mask;
    let h = this.slot(key);
    for (;;) {
      const s = slotId[h];
      if (s === 0) return -1;
      if (slotKey[h] === key) return s - 1;
      h = (h + 1) & mask;
    }
  }

  /** The id of `key`, adding it (with the next id) when new. */
  add(key: number): number {
    const mask = this.mask;
    let h = this.slot(key);
    for (;;) {
      const s = this.slotId[h];
      if (s === 0) break;
      if (this.slotKey[h] === key) return s - 1;
      h = (h + 1) & mask;
    }
    const id = this.count++;
    if (id === this.keyOf.length) {
      const grown = new Float64Array(2 * id);
      grown.set(this.keyOf);
      this.keyOf = grown;
    }
    this.keyOf[id] = key;
    this.slotKey[h] = key;
    this.slotId[h] = id + 1;
    if (2 * this.count > mask + 1) this.rehash();
    return id;
  }

  private rehash(): void {
    const bits = 33 - this.shift;
    if (bits > 30) throw new Error('ConfigIndex: more than 2^29 configurations');
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.slotKey = new Float64Array(1 << bits);
    this.slotId = new Int32Array(1 << bits);
    for (let id = 0; id < this.count; id++) {
      const key = this.keyOf[id];
      let h = this.slot(key);
      while (this.slotId[h] !== 0) h = (h + 1) & this.mask;
      this.slotKey[h] = key;
      this.slotId[h] = id + 1;
    }
  }
}

/**
 * Family counts over the parent configurations that occur in the data: `counts` has index.size + 1 rows,
 * row i for configuration index.key(i) (laid out counts[i * childCard + value]) and a last, all-zero row
 * standing for every configuration not in the index. configs and parentCards are those of the full table.
 */
interface SparseFamilyCounts extends FamilyCounts {
  readonly index: ConfigIndex;
}

/** Largest table (cells) whose mixed-radix cell numbers 0 .. cells - 1 are all exact doubles. */
const MAX_SPARSE_TABLE_CELLS = 2 ** 53;

/**
 * familyCounts (or weightedFamilyCounts with rowWeights) for families of any size: one pass over the rows
 * assigns each available-case row its configuration's id in a ConfigIndex, a second accumulates the counts
 * of the observed configurations. Every sum runs over the same rows in the same order as the dense table's,
 * so each observed row equals the dense row bit for bit and every other dense row is all zero.
 */
export function sparseFamilyCounts(
  data: DiscreteData,
  child: number,
  parents: readonly number[],
  rowWeights?: Float64Array,
): SparseFamilyCounts {
  const { childCard, parentCards, configs } = familyLayout(data, child, parents);
  if (configs * childCard > MAX_SPARSE_TABLE_CELLS) {
    throw new UserError(
      `family of node ${child} with parents [${parents.join(', ')}] has ${configs * childCard} cells, more than 2^53; use fewer parents`,
    );
  }
  const n = data.n;
  if (rowWeights && rowWeights.length !== n)
    throw new Error(`rowWeights has ${rowWeights.length} entries for ${n} rows`);
  const k = parents.length;
  const x = nodeColumn(data, child);
  const cols = parents.map((p) => nodeColumn(data, p));
  const index = new ConfigIndex(Math.min(n, configs, 1 << 16));
  const ids = new Int32Array(n);
  rows: for (let r = 0; r < n; r++) {
    ids[r] = -1;
    if (x[r] < 0) continue;
    let cfg = 0;
    for (let i = 0; i < k; i++) {
      const a = cols[i][r];
      if (a < 0) continue rows;
      cfg = cfg * parentCards[i] + a;
    }
    ids[r] = index.add(cfg);
  }
  const counts = new Float64Array((index.size + 1) * childCard);
  if (rowWeights) {
    for (let r = 0; r < n; r++) {
      const id = ids[r];
      if (id >= 0) counts[id * childCard + x[r]] += rowWeights[r];
    }
  } else {
    for (let r = 0; r < n; r++) {
      const id = ids[r];
      if (id >= 0) counts[id * childCard + x[r]]++;
    }
  }
  return { counts, childCard, parentCards, configs, index };
}

/**
 * Fast path for I(X;C): counts of (attribute a, class) laid out [x * classCard + c], over rows where a is
 * observed. `out` (length >= cards[a] * classCard) is reused and zeroed when given. A row view is counted
 * chunk by chunk (forEachViewChunk, never copied whole) with the loop for copied data, as the kernels below
 * do: a single loop reading `rows === undefined ? i : rows[i]` made this 2.6× slower on copied data.
 */
export function attributeClassCounts(data: DiscreteData, a: number, out?: Float64Array): Float64Array {
  const C = data.classCard;
  const size = data.cards[a] * C;
  const t = out ?? new Float64Array(size);
  if (t.length < size) throw new Error(`attributeClassCounts: buffer has ${t.length} cells, need ${size}`);
  t.fill(0, 0, size);
  const view = rowViewOf(data);
  if (view) {
    forEachViewChunk(view, [a, data.cards.length], ([x, y], rows) => {
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const v = x[r];
        if (v >= 0) t[v * C + y[r]]++;
      }
    });
    return t;
  }
  countAttributeClass(t, data.columns[a], data.classColumn, C, data.n);
  return t;
}

function countAttributeClass(t: Float64Array, x: CodeColumn, y: CodeColumn, C: number, n: number): void {
  for (let r = 0; r < n; r++) {
    const v = x[r];
    if (v >= 0) t[v * C + y[r]]++;
  }
}

/**
 * Per-row joint code z[r] = x_a[r] * classCard + c[r], or MISSING where attribute a is missing. Precomputing
 * it once per attribute halves the loads in the pairwise (Xi, Xj, C) loop. For a row view, z[i] is that of
 * the view's row i. `out` must hold codes up to cards[a] * classCard - 1 (codeColumn of that many values).
 */
export function attributeClassCodes(data: DiscreteData, a: number, out?: CodeColumn): CodeColumn {
  const n = data.n;
  const C = data.classCard;
  const z = out ?? codeColumn(data.cards[a] * C, n);
  if (z.length < n) throw new Error(`attributeClassCodes: buffer has ${z.length} cells, need ${n}`);
  const view = rowViewOf(data);
  if (view) {
    forEachViewChunk(view, [a, data.cards.length], ([x, y], rows, off) => {
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const v = x[r];
        z[off + i] = v < 0 ? MISSING : v * C + y[r];
      }
    });
    return z;
  }
  codeAttributeClass(z, data.columns[a], data.classColumn, C, n);
  return z;
}

function codeAttributeClass(z: CodeColumn, x: CodeColumn, y: CodeColumn, C: number, n: number): void {
  for (let r = 0; r < n; r++) {
    const v = x[r];
    z[r] = v < 0 ? MISSING : v * C + y[r];
  }
}

/**
 * Accumulates t[xi * stride + zj] += 1 over rows where both codes are observed, with zj from
 * attributeClassCodes and stride = card_j * classCard, i.e. t[(xi * card_j + xj) * classCard + c].
 * Does not zero t. Returns the number of rows counted.
 */
export function accumulatePairCodes(
  xi: CodeColumn,
  zj: CodeColumn,
  stride: number,
  n: number,
  t: Float64Array | Int32Array,
): number {
  let used = 0;
  for (let r = 0; r < n; r++) {
    const a = xi[r];
    const b = zj[r];
    if ((a | b) < 0) continue;
    t[a * stride + b]++;
    used++;
  }
  return used;
}

/**
 * accumulatePairCodes for four i-columns at once (one pass over zj); tk[xk * stride + zj] += 1.
 * Sharing the zj load and the loop across four tables is what keeps all-pairs CMI near a bare count.
 */
export function accumulatePairCodes4(
  x0: CodeColumn,
  x1: CodeColumn,
  x2: CodeColumn,
  x3: CodeColumn,
  zj: CodeColumn,
  stride: number,
  n: number,
  t0: Float64Array | Int32Array,
  t1: Float64Array | Int32Array,
  t2: Float64Array | Int32Array,
  t3: Float64Array | Int32Array,
): void {
  for (let r = 0; r < n; r++) {
    const b = zj[r];
    if (b < 0) continue;
    const a0 = x0[r];
    const a1 = x1[r];
    const a2 = x2[r];
    const a3 = x3[r];
    if (a0 >= 0) t0[a0 * stride + b]++;
    if (a1 >= 0) t1[a1 * stride + b]++;
    if (a2 >= 0) t2[a2 * stride + b]++;
    if (a3 >= 0) t3[a3 * stride + b]++;
  }
}

/**
 * accumulatePairCodes over a block of a row view (forEachViewChunk): xi is read at rows[i] and zj is indexed
 * by view row (attributeClassCodes of the view, from the block's offset), so the counts are those of the
 * copied rows.
 */
export function accumulatePairCodesRows(
  xi: CodeColumn,
  rows: Int32Array,
  zj: CodeColumn,
  stride: number,
  n: number,
  t: Float64Array | Int32Array,
): number {
  let used = 0;
  for (let i = 0; i < n; i++) {
    const a = xi[rows[i]];
    const b = zj[i];
    if ((a | b) < 0) continue;
    t[a * stride + b]++;
    used++;
  }
  return used;
}

/** accumulatePairCodes4 over a row view (see accumulatePairCodesRows). */
export function accumulatePairCodes4Rows(
  x0: CodeColumn,
  x1: CodeColumn,
  x2: CodeColumn,
  x3: CodeColumn,
  rows: Int32Array,
  zj: CodeColumn,
  stride: number,
  n: number,
  t0: Float64Array | Int32Array,
  t1: Float64Array | Int32Array,
  t2: Float64Array | Int32Array,
  t3: Float64Array | Int32Array,
): void {
  for (let i = 0; i < n; i++) {
    const b = zj[i];
    if (b < 0) continue;
    const r = rows[i];
    const a0 = x0[r];
    const a1 = x1[r];
    const a2 = x2[r];
    const a3 = x3[r];
    if (a0 >= 0) t0[a0 * stride + b]++;
    if (a1 >= 0) t1[a1 * stride + b]++;
    if (a2 >= 0) t2[a2 * stride + b]++;
    if (a3 >= 0) t3[a3 * stride + b]++;
  }
}

/**
 * How many rows take each value of attribute a (missing values not counted); a row view chunk by chunk.
 */
export function valueCounts(data: DiscreteData, a: number): Float64Array {
  const freq = new Float64Array(data.cards[a]);
  const view = rowViewOf(data);
  if (view) {
    forEachViewChunk(view, [a], ([col], rows) => {
      for (let i = 0; i < rows.length; i++) {
        const v = col[rows[i]];
        if (v >= 0) freq[v]++;
      }
    });
  } else countValues(freq, data.columns[a], data.n);
  return freq;
}

function countValues(freq: Float64Array, col: CodeColumn, n: number): void {
  for (let r = 0; r < n; r++) {
    const v = col[r];
    if (v >= 0) freq[v]++;
  }
}

/**
 * Fast path for I(Xi;Xj|C): counts laid out [(xi * card_j + xj) * classCard + c] over rows where both
 * attributes are observed. `out` (length >= card_i * card_j * classCard) is reused and zeroed when given.
 */
export function pairClassCounts(data: DiscreteData, i: number, j: number, out?: Float64Array): Float64Array {
  if (i === j) throw new Error(`pairClassCounts: attributes must differ (got ${i} twice)`);
  const C = data.classCard;
  const cj = data.cards[j];
  const size = data.cards[i] * cj * C;
  const t = out ?? new Float64Array(size);
  if (t.length < size) throw new Error(`pairClassCounts: buffer has ${t.length} cells, need ${size}`);
  t.fill(0, 0, size);
  const view = rowViewOf(data);
  if (view) {
    forEachViewChunk(view, [i, j, data.cards.length], ([xi, xj, y], rows) => {
      for (let k = 0; k < rows.length; k++) {
        const r = rows[k];
        const a = xi[r];
        const b = xj[r];
        if ((a | b) < 0) continue;
        t[(a * cj + b) * C + y[r]]++;
      }
    });
    return t;
  }
  countPairClass(t, data.columns[i], data.columns[j], data.classColumn, cj, C, data.n);
  return t;
}

function countPairClass(
  t: Float64Array,
  xi: CodeColumn,
  xj: CodeColumn,
  y: CodeColumn,
  cj: number,
  C: number,
  n: number,
): void {
  for (let r = 0; r < n; r++) {
    const a = xi[r];
    const b = xj[r];
    if ((a | b) < 0) continue;
    t[(a * cj + b) * C + y[r]]++;
  }
}
