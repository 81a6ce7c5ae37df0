/**
 * B-RAI: Bayesian structure learning by recursive bootstrap (Rohekar, Nisimov, Gurwicz, Koren & Novik 2018,
 * NeurIPS), over all attributes and the class, used as a model-averaging classifier (as Sugahara, Aomi &
 * Ueno 2022 compare it: 100 sampled structures, s = 3).
 *
 * RAI (Yehezkel & Lerner 2009, JMLR 10:1527–1570), at CI order n on a set of endogenous nodes with its
 * exogenous (ancestor) nodes, starting from the complete undirected graph at n = 0:
 *  1. exit when no endogenous node has more than n potential parents (parents + undirected neighbours);
 *  2. remove each edge exogenous→endogenous, then each endogenous–endogenous edge, whose end points are
 *     independent given some set of n potential parents of either end point (the separating set is kept);
 *     after each, orient v-structures X→Z←Y (X, Y non-adjacent, Z not in their separating set) and close
 *     under Meek's rules R1–R3 (a conflicting orientation leaves the edge undirected);
 *  3. split the endogenous nodes into the descendant set (the lowest topological level: the undirected
 *     components with no child among the endogenous nodes) and the ancestor sets (the connected components
 *     of the rest); recurse on each ancestor set, then on the descendant set with the ancestors exogenous,
 *     at order n + 1.
 * B-RAI: at every call of step 2, s bootstrap samples of the training rows (s = 3) each give one hypothesis
 * (CI tests on that sample), and each hypothesis recurses on its own; the calls form the graph-generating
 * tree (GGT). A leaf (exit condition met) holds its endogenous nodes' part of the graph, extended to a DAG
 * (Dor & Tarsi 1992; a part with no consistent extension scores −∞) and scored by BDeu on all training rows
 * (the decomposable score of those families). A structure is sampled from the GGT bottom-up: each
 * hypothesis' score is the sum of its sub-trees' sampled scores, and one hypothesis is chosen with
 * probability ∝ exp(score / temperature) (temperature 1). The sampled leaves' families form a DAG whose
 * BDeu score is the sum of their scores. 100 structures are sampled; the classifier averages their class
 * posteriors with equal weight (identical structures merged by count), each with its own EAP parameters.
 *
 * CI test: empirical conditional mutual information (nats) of the bootstrap sample, independence when it is
 * at most `threshold`, as causality-lab's CondIndepCMI (IntelLabs/causality-lab, the authors' code), whose
 * RAI example uses 0.012. The threshold B-RAI's authors used for classification is not stated; it is a
 * parameter (causality-lab's experiment utilities choose it per data set by the BDeu score of the learned
 * graph). It is one number for every test: it does not grow with the degrees of freedom or the conditioning
 * set, nor shrink with the rows, while the plug-in CMI of independent variables is about
 * (r_x − 1)(r_y − 1)·q_z / (2n) (2n·CMI is the G statistic, ≈ χ²). So on a few hundred rows with
 * many-valued attributes few tests find independence and the graph stays nearly complete (BRAI_NOTES; the
 * statistic and RAI's skeleton are checked against causality-lab in test/structures/brai-reference.test.ts).
 * `test: g2` is the G-test at level alpha, whose critical value grows with the degrees of freedom.
 */
import { defineParams, registerStructure, type ParamsOf } from '../../registry.js';
import type { DiscreteData } from '../../bn/data.js';
import type { StructureMember } from '../../bn/structure.js';
import { localScore, networkScore } from '../../bn/scores.js';
import { UserError } from '../../util/errors.js';
import type { Rng } from '../../util/rng.js';
import { throwIfAborted } from '../../bn/exact/localscores.js';
import { ensembleDiagnostics } from '../exact/common.js';
import { chiSquareSf } from '../../stats/distributions.js';

const BRAI_PARAMS = defineParams({
  hypotheses: {
    type: 'integer',
    minimum: 1,
    maximum: 10,
    default: 3,
    description: 'Bootstrap samples s per recursion call (the paper: 3)',
  },
  samples: {
    type: 'integer',
    minimum: 1,
    default: 100,
    description: 'Structures sampled from the graph-generating tree and averaged',
  },
  test: {
    enum: ['cmi', 'g2'],
    default: 'cmi',
    description: "CI test: 'cmi' (CMI ≤ threshold, as causality-lab) or 'g2' (G-test at level alpha)",
  },
  threshold: {
    oneOf: [{ type: 'number', minimum: 0 }, { enum: ['select'] }],
    default: 0.012,
    description:
      "test 'cmi': independent when the conditional mutual information (nats) is at most this; 'select': the candidate of `thresholds` whose RAI graph has the highest BDeu score on the training rows (causality-lab's search_threshold_bdeu)",
  },
  thresholds: {
    type: 'array',
    items: { type: 'number', minimum: 0 },
    minItems: 1,
    default: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1],
    description: "threshold 'select': the candidate CMI thresholds",
    inKey: false,
  },
  alpha: {
    type: 'number',
    exclusiveMinimum: 0,
    exclusiveMaximum: 1,
    default: 0.05,
    description: "test 'g2': independent when the p-value exceeds this",
  },
  ess: {
    type: 'number',
    exclusiveMinimum: 0,
    default: 1,
    description: 'BDeu equivalent sample size of the leaf scores',
  },
  temperature: {
    type: 'number',
    exclusiveMinimum: 0,
    default: 1,
    description: 'Sampling ∝ exp(score / temperature)',
  },
});
type BraiParams = ParamsOf<typeof BRAI_PARAMS>;

/** The CI test: CMI ≤ threshold (causality-lab's), or the G-test G = 2·N·CMI against χ²(dof) at level alpha. */
function independenceTest(p: BraiParams): (sample: Sample, x: number, y: number, z: readonly number[]) => boolean {
  if (p.test === 'cmi') {
    const threshold = p.threshold;
    if (typeof threshold !== 'number') throw new Error("brai: threshold 'select' must be resolved before the test");
    return (sample, x, y, z) => cmiStatistic(sample, x, y, z).cmi <= threshold;
  }
  const alpha = p.alpha;
  return (sample, x, y, z) => {
    const s = cmiStatistic(sample, x, y, z);
    return chiSquareSf(2 * s.n * s.cmi, s.dof) > alpha;
  };
}

/**
 * The training rows as their distinct value patterns over every node (attributes, then the class) and each
 * row's pattern. A CI test counts patterns weighted by how often the bootstrap drew their rows instead of
 * counting rows: after median binarisation magic has at most 2^11 patterns for 17,118 training rows, so a
 * test reads a few hundred entries instead of 17,118 rows. The counts are the same integers either way.
 */
interface Patterns {
  /** Per node, the code of each pattern (MISSING stays MISSING: it is skipped when counting, as familyCounts does). */
  readonly columns: readonly Int32Array[];
  readonly cards: Int32Array;
  readonly rowPattern: Int32Array;
  readonly count: number;
}

function patternsOf(data: DiscreteData): Patterns {
  const m = data.columns.length;
  const k = m + 1;
  const index = new Map<string, number>();
  const rowPattern = new Int32Array(data.n);
  const codes: number[][] = Array.from({ length: k }, () => []);
  const row = new Int32Array(k);
  for (let r = 0; r < data.n; r++) {
    for (let v = 0; v < m; v++) row[v] = data.columns[v][r];
    row[m] = data.classColumn[r];
    const key = row.join(',');
    let p = index.get(key);
    if (p === undefined) {
      p = index.size;
      index.set(key, p);
      for (let v = 0; v < k; v++) codes[v].push(row[v]);
    }
    rowPattern[r] = p;
  }
  const cards = new Int32Array(k);
  for (let v = 0; v < m; v++) cards[v] = data.cards[v];
  cards[m] = data.classCard;
  return { columns: codes.map((c) => Int32Array.from(c)), cards, rowPattern, count: index.size };
}

/**
 * A bootstrap sample as the patterns it drew and how many of its rows have each, with the mixed-radix index
 * of each conditioning set's configuration per pattern, cached: the tests of one refinement step reuse the
 * same few conditioning sets for many pairs.
 */
interface Sample {
  readonly columns: readonly Int32Array[];
  readonly cards: Int32Array;
  readonly weights: Float64Array;
  readonly zIndex: Map<string, Float64Array>;
}

/** Conditioning sets cached per sample; beyond this many the cache starts over (memory: 8 bytes × patterns each). */
const Z_CACHE_LIMIT = 4096;

/**
 * A bootstrap sample of n rows drawn with replacement, as weighted patterns. The draws are those of
 * bootstrap(n, n, rng) (n calls of rng.int(n)); only their multiplicities matter, so they are not sorted.
 */
function bootstrapSample(P: Patterns, n: number, rng: Rng): Sample {
  const w = new Float64Array(P.count);
  for (let i = 0; i < n; i++) w[P.rowPattern[rng.int(n)]] += 1;
  return sampleOfWeights(P, w);
}

/** The sample holding every row once. */
function fullSample(P: Patterns): Sample {
  const w = new Float64Array(P.count);
  for (let r = 0; r < P.rowPattern.length; r++) w[P.rowPattern[r]] += 1;
  return sampleOfWeights(P, w);
}

function sampleOfWeights(P: Patterns, w: Float64Array): Sample {
  let used = 0;
  for (let p = 0; p < P.count; p++) if (w[p] > 0) used++;
  const keep = new Int32Array(used);
  const weights = new Float64Array(used);
  for (let p = 0, i = 0; p < P.count; p++) {
    if (w[p] > 0) {
      keep[i] = p;
      weights[i++] = w[p];
    }
  }
  const columns = P.columns.map((col) => {
    const out = new Int32Array(used);
    for (let i = 0; i < used; i++) out[i] = col[keep[i]];
    return out;
  });
  return { columns, cards: P.cards, weights, zIndex: new Map() };
}

/** Configuration index of z per pattern, z[0] most significant; −1 where some z is missing. */
function zIndexOf(sample: Sample, z: readonly number[]): Float64Array {
  const key = z.join(',');
  const hit = sample.zIndex.get(key);
  if (hit) return hit;
  const P = sample.weights.length;
  const out = new Float64Array(P);
  for (const v of z) {
    const col = sample.columns[v];
    const r = sample.cards[v];
    for (let p = 0; p < P; p++) {
      const c = col[p];
      const prev = out[p];
      out[p] = prev < 0 || c < 0 ? -1 : prev * r + c;
    }
  }
  if (sample.zIndex.size >= Z_CACHE_LIMIT) sample.zIndex.clear();
  sample.zIndex.set(key, out);
  return out;
}

/**
 * A PDAG over k nodes: e[i * k + j] = 1 when i→j is present; both directions = undirected. Separating sets
 * of removed edges are kept per unordered pair.
 */
class Graph {
  constructor(
    readonly k: number,
    readonly e: Uint8Array,
    readonly sepsets: Map<number, readonly number[]>,
  ) {}

  static complete(k: number): Graph {
    const e = new Uint8Array(k * k).fill(1);
    for (let i = 0; i < k; i++) e[i * k + i] = 0;
    return new Graph(k, e, new Map());
  }

  copy(): Graph {
    return new Graph(this.k, this.e.slice(), new Map(this.sepsets));
  }

  adjacent(i: number, j: number): boolean {
    return this.e[i * this.k + j] === 1 || this.e[j * this.k + i] === 1;
  }

  directed(i: number, j: number): boolean {
    return this.e[i * this.k + j] === 1 && this.e[j * this.k + i] === 0;
  }

  undirected(i: number, j: number): boolean {
    return this.e[i * this.k + j] === 1 && this.e[j * this.k + i] === 1;
  }

  /** Parents and undirected neighbours of v: the nodes that may still be its parents. */
  potentialParents(v: number): number[] {
    const out: number[] = [];
    for (let u = 0; u < this.k; u++) if (u !== v && this.e[u * this.k + v] === 1) out.push(u);
    return out;
  }

  remove(i: number, j: number, sepset: readonly number[]): void {
    this.e[i * this.k + j] = 0;
    this.e[j * this.k + i] = 0;
    this.sepsets.set(i < j ? i * this.k + j : j * this.k + i, sepset);
  }

  sepset(i: number, j: number): readonly number[] | undefined {
    return this.sepsets.get(i < j ? i * this.k + j : j * this.k + i);
  }

  /** Orient i→j; an edge already oriented j→i becomes undirected (conflicting evidence). */
  orient(i: number, j: number): boolean {
    const k = this.k;
    if (this.undirected(i, j)) {
      this.e[j * k + i] = 0;
      return true;
    }
    if (this.directed(j, i)) {
      this.e[i * k + j] = 1;
      return true;
    }
    return false;
  }
}

/** All subsets of `items` of the given size (in lexicographic order of positions). */
function* combinations(items: readonly number[], size: number, start = 0, prefix: number[] = []): Generator<number[]> {
  if (prefix.length === size) {
    yield prefix.slice();
    return;
  }
  for (let i = start; i <= items.length - (size - prefix.length); i++) {
    prefix.push(items[i]);
    yield* combinations(items, size, i + 1, prefix);
    prefix.pop();
  }
}

/** Empirical conditional mutual information I(x; y | z) in nats over the rows where all are observed. */
export function conditionalMutualInformation(data: DiscreteData, x: number, y: number, z: readonly number[]): number {
  return cmiStatistic(fullSample(patternsOf(data)), x, y, z).cmi;
}

/**
 * The CMI with what the G-test needs: the rows counted and the degrees of freedom (r_x − 1)(r_y − 1) per
 * configuration of z seen in the data (Spirtes et al.'s adjustment for empty cells, as bnlearn and pcalg do
 * for sparse tables), at least 1.
 *
 * Cells are indexed as familyCounts(data, x, [...z, y]) lays them out (z first and most significant, x
 * fastest) and the sum runs over the non-empty cells in increasing index, so the statistic is the same
 * floating-point number whether the table is dense or sparse. A table with many more cells than patterns
 * (high-order tests on letter: 2^k · 26 cells) is counted sparsely, by sorting the patterns' cell indices.
 */
function cmiStatistic(
  sample: Sample,
  x: number,
  y: number,
  z: readonly number[],
): { cmi: number; n: number; dof: number } {
  const { columns, cards, weights } = sample;
  const P = weights.length;
  const rx = cards[x];
  const ry = cards[y];
  let qz = 1;
  for (const v of z) qz *= cards[v];
  const cx = columns[x];
  const cy = columns[y];
  const zi = zIndexOf(sample, z);
  const cells = qz * rx * ry;
  if (cells <= 4 * P + 64) {
    const counts = new Float64Array(cells);
    for (let p = 0; p < P; p++) {
      const xv = cx[p];
      const yv = cy[p];
      const c = zi[p];
      if ((xv | yv) < 0 || c < 0) continue;
      counts[(c * ry + yv) * rx + xv] += weights[p];
    }
    return cmiOfCells(counts, undefined, rx, ry);
  }
  // Sparse: the non-empty cells, then their indices in increasing order.
  const byCell = new Map<number, number>();
  for (let p = 0; p < P; p++) {
    const xv = cx[p];
    const yv = cy[p];
    const c = zi[p];
    if ((xv | yv) < 0 || c < 0) continue;
    const cell = (c * ry + yv) * rx + xv;
    byCell.set(cell, (byCell.get(cell) ?? 0) + weights[p]);
  }
  const at = Float64Array.from(byCell.keys()).sort();
  const n = new Float64Array(at.length);
  for (let i = 0; i < at.length; i++) n[i] = byCell.get(at[i])!;
  return cmiOfCells(n, at, rx, ry);
}

/**
 * CMI, rows and degrees of freedom from the non-empty cells: a dense table (`at` undefined) or the sorted
 * cell indices `at` with their counts. Both visit the cells in increasing index and add the same terms.
 */
export function cmiOfCells(
  counts: Float64Array,
  at: Float64Array | undefined,
  rx: number,
  ry: number,
): { cmi: number; n: number; dof: number } {
  const rxy = rx * ry;
  const len = counts.length;
  let total = 0;
  for (let i = 0; i < len; i++) total += counts[i];
  if (total === 0) return { cmi: 0, n: 0, dof: 1 };
  const nx = new Float64Array(rx);
  const ny = new Float64Array(ry);
  let cmi = 0;
  let seen = 0;
  if (!at) {
    for (let base = 0; base < len; base += rxy) {
      nx.fill(0);
      ny.fill(0);
      let nz = 0;
      for (let yv = 0; yv < ry; yv++) {
        for (let xv = 0; xv < rx; xv++) {
          const n = counts[base + yv * rx + xv];
          nx[xv] += n;
          ny[yv] += n;
          nz += n;
        }
      }
      if (nz === 0) continue;
      seen++;
      for (let yv = 0; yv < ry; yv++) {
        for (let xv = 0; xv < rx; xv++) {
          const n = counts[base + yv * rx + xv];
          if (n > 0) cmi += (n / total) * Math.log((n * nz) / (nx[xv] * ny[yv]));
        }
      }
    }
    return { cmi, n: total, dof: Math.max(1, (rx - 1) * (ry - 1) * seen) };
  }
  // Sparse: runs of entries with the same z configuration, in increasing cell index (= yv, then xv).
  for (let lo = 0; lo < len; ) {
    const z = Math.floor(at[lo] / rxy);
    let hi = lo;
    while (hi < len && Math.floor(at[hi] / rxy) === z) hi++;
    nx.fill(0);
    ny.fill(0);
    let nz = 0;
    for (let i = lo; i < hi; i++) {
      const c = at[i] - z * rxy;
      const n = counts[i];
      nx[c % rx] += n;
      ny[(c - (c % rx)) / rx] += n;
      nz += n;
    }
    seen++;
    for (let i = lo; i < hi; i++) {
      const c = at[i] - z * rxy;
      const n = counts[i];
      cmi += (n / total) * Math.log((n * nz) / (nx[c % rx] * ny[(c - (c % rx)) / rx]));
    }
    lo = hi;
  }
  return { cmi, n: total, dof: Math.max(1, (rx - 1) * (ry - 1) * seen) };
}

/** Orient v-structures at the endogenous nodes, then close the whole graph under Meek's R1–R3. */
function orientEdges(g: Graph, en: readonly number[]): void {
  const k = g.k;
  const undirectedOf = (v: number) => g.potentialParents(v).filter((u) => g.undirected(u, v));
  const parentsOf = (v: number) => g.potentialParents(v).filter((u) => g.directed(u, v));
  // X—Z—Y (or X—Z←Y) with X, Y non-adjacent and Z outside their separating set: X→Z←Y. Neighbourhoods are
  // read before any change, so the result does not depend on the order of Z.
  const before = en.map((z) => ({ z, und: undirectedOf(z), par: parentsOf(z) }));
  for (const { z, und, par } of before) {
    for (let a = 0; a < und.length; a++) {
      for (let b = a + 1; b < und.length; b++) {
        const [x, y] = [und[a], und[b]];
        if (g.adjacent(x, y) || (g.sepset(x, y) ?? []).includes(z)) continue;
        g.orient(x, z);
        g.orient(y, z);
      }
      for (const y of par) {
        const x = und[a];
        if (g.adjacent(x, y) || (g.sepset(x, y) ?? []).includes(z)) continue;
        g.orient(x, z);
      }
    }
  }
  meek(g, k);
}

/** Meek (1995) rules R1–R3 until nothing changes (R4 is only needed with background knowledge). */
function meek(g: Graph, k: number): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (let b = 0; b < k; b++) {
      for (let c = 0; c < k; c++) {
        if (b === c || !g.undirected(b, c)) continue;
        let orient = false;
        for (let a = 0; a < k && !orient; a++) {
          if (a === b || a === c) continue;
          // R1: a→b—c, a and c non-adjacent ⇒ b→c
          if (g.directed(a, b) && !g.adjacent(a, c)) orient = true;
          // R2: b→a→c and b—c ⇒ b→c
          else if (g.directed(b, a) && g.directed(a, c)) orient = true;
        }
        // R3: b—x, b—y, x→c, y→c, x and y non-adjacent ⇒ b→c
        for (let x = 0; x < k && !orient; x++) {
          if (x === b || x === c || !g.undirected(b, x) || !g.directed(x, c)) continue;
          for (let y = x + 1; y < k; y++) {
            if (y === b || y === c || !g.undirected(b, y) || !g.directed(y, c) || g.adjacent(x, y)) continue;
            orient = true;
            break;
          }
        }
        if (orient && g.orient(b, c)) changed = true;
      }
    }
  }
}

/** A DAG consistent with the PDAG restricted to edges into `en` (Dor & Tarsi 1992), or undefined. */
function dagExtension(g: Graph, en: readonly number[], ex: readonly number[]): number[][] | undefined {
  const k = g.k;
  const nodes = [...en, ...ex];
  const inEn = new Set(en);
  // Sub-PDAG: every edge whose head is endogenous (an undirected edge with one endogenous end is kept).
  const e = new Uint8Array(k * k);
  for (const v of en) {
    for (const u of nodes) {
      if (u === v || g.e[u * k + v] !== 1) continue;
      e[u * k + v] = 1;
      if (g.e[v * k + u] === 1) e[v * k + u] = 1;
    }
  }
  const parents: number[][] = Array.from({ length: k }, () => []);
  const alive = new Set(nodes);
  const adj = (a: number, b: number) => e[a * k + b] === 1 || e[b * k + a] === 1;
  while (alive.size > 0) {
    let picked = -1;
    for (const x of alive) {
      let sink = true;
      const neighbours: number[] = [];
      const undirected: number[] = [];
      for (const y of alive) {
        if (y === x || !adj(x, y)) continue;
        neighbours.push(y);
        if (e[x * k + y] === 1 && e[y * k + x] === 0) sink = false;
        if (e[x * k + y] === 1 && e[y * k + x] === 1) undirected.push(y);
      }
      if (!sink) continue;
      if (undirected.every((y) => neighbours.every((z) => z === y || adj(y, z)))) {
        picked = x;
        for (const y of neighbours) parents[x].push(y);
        break;
      }
    }
    if (picked < 0) return undefined;
    alive.delete(picked);
    for (const y of alive) {
      e[picked * k + y] = 0;
      e[y * k + picked] = 0;
    }
  }
  for (const v of nodes) if (!inEn.has(v)) parents[v] = [];
  return parents.map((p) => p.sort((a, b) => a - b));
}

type GgtNode =
  | {
      readonly leaf: true;
      readonly en: readonly number[];
      readonly parents: readonly (readonly number[])[];
      readonly score: number;
    }
  | { readonly leaf: false; readonly hypotheses: readonly { readonly children: readonly GgtNode[] }[] };

interface Learner {
  readonly train: DiscreteData;
  readonly patterns: Patterns;
  /** The rows one hypothesis tests on: a bootstrap sample (B-RAI), or every training row (plain RAI). */
  readonly resample: () => Sample;
  readonly hypotheses: number;
  readonly independent: (sample: Sample, x: number, y: number, z: readonly number[]) => boolean;
  readonly ess: number;
  readonly signal?: AbortSignal;
  /** BDeu of a family on all training rows: leaves of different hypotheses often share families. */
  readonly familyScores: Map<string, number>;
  /** Called with the graph at each leaf (plain RAI reads its skeleton); B-RAI leaves it out. */
  readonly onLeaf?: (g: Graph, en: readonly number[], ex: readonly number[]) => void;
  tests: number;
}

function exitCondition(g: Graph, en: readonly number[], order: number): boolean {
  return en.every((v) => g.potentialParents(v).length <= order);
}

/** Step 2 on the bootstrap sample `data`: remove edges into en by CI tests of the given order, orienting after each pass. */
function refine(L: Learner, g: Graph, data: Sample, en: readonly number[], ex: readonly number[], order: number): void {
  const test = (a: number, b: number): boolean => {
    const sets = new Set<string>();
    for (const [u, w] of [
      [a, b],
      [b, a],
    ] as const) {
      const candidates = g.potentialParents(u).filter((p) => p !== w);
      for (const z of combinations(candidates, order)) {
        const key = z.join(',');
        if (sets.has(key)) continue;
        sets.add(key);
        L.tests++;
        if (L.independent(data, a, b, z)) {
          g.remove(a, b, z);
          return true;
        }
      }
    }
    return false;
  };
  for (const v of en) for (const x of ex) if (g.adjacent(x, v)) test(x, v);
  orientEdges(g, en);
  for (let i = 0; i < en.length; i++) {
    for (let j = i + 1; j < en.length; j++) if (g.adjacent(en[i], en[j])) test(en[i], en[j]);
  }
  orientEdges(g, en);
}

/** Step 3: the descendant set (lowest topological level) and the ancestor sets (connected components of the rest). */
function split(g: Graph, en: readonly number[]): { descendants: number[]; ancestors: number[][] } {
  const inEn = new Set(en);
  const components = (nodes: readonly number[], linked: (a: number, b: number) => boolean): number[][] => {
    const seen = new Set<number>();
    const out: number[][] = [];
    for (const s of nodes) {
      if (seen.has(s)) continue;
      const comp = [s];
      seen.add(s);
      for (let i = 0; i < comp.length; i++) {
        for (const t of nodes) {
          if (!seen.has(t) && linked(comp[i], t)) {
            seen.add(t);
            comp.push(t);
          }
        }
      }
      out.push(comp.sort((a, b) => a - b));
    }
    return out;
  };
  const units = components(en, (a, b) => g.undirected(a, b));
  const lowest = units.filter((u) =>
    u.every((v) => en.every((w) => !inEn.has(w) || u.includes(w) || !g.directed(v, w))),
  );
  const descendants = lowest.flat().sort((a, b) => a - b);
  if (descendants.length === en.length || descendants.length === 0) return { descendants: [...en], ancestors: [] };
  const rest = en.filter((v) => !descendants.includes(v));
  return { descendants, ancestors: components(rest, (a, b) => g.adjacent(a, b)) };
}

function learnRecursively(L: Learner, g: Graph, en: readonly number[], ex: readonly number[], order: number): GgtNode {
  throwIfAborted(L.signal);
  if (exitCondition(g, en, order)) {
    L.onLeaf?.(g, en, ex);
    const parents = dagExtension(g, en, ex);
    let score = Number.NEGATIVE_INFINITY;
    if (parents) {
      score = 0;
      for (const v of en) {
        const key = `${v}:${parents[v].join(',')}`;
        let s = L.familyScores.get(key);
        if (s === undefined) {
          s = localScore(L.train, v, parents[v], 'bdeu', L.ess);
          L.familyScores.set(key, s);
        }
        score += s;
      }
    }
    return { leaf: true, en, parents: parents ?? [], score };
  }
  const start = g;
  const hypotheses: { children: GgtNode[] }[] = [];
  for (let h = 0; h < L.hypotheses; h++) {
    const gh = start.copy();
    const sample = L.resample();
    refine(L, gh, sample, en, ex, order);
    const { descendants, ancestors } = split(gh, en);
    const children: GgtNode[] = [];
    for (const a of ancestors) children.push(learnRecursively(L, gh, a, ex, order + 1));
    const exD = [...ex, ...en.filter((v) => !descendants.includes(v))];
    children.push(learnRecursively(L, gh, descendants, exD, order + 1));
    hypotheses.push({ children });
  }
  return { leaf: false, hypotheses };
}

/**
 * Sample one structure from the GGT, bottom-up: every hypothesis' score is the sum of its sub-trees' sampled
 * scores, then one hypothesis is drawn ∝ exp(score / temperature). The draws are made in post-order (each
 * node's after its sub-trees'); the chosen path's leaves then write their families. Returns the score.
 */
function sampleStructure(root: GgtNode, parents: number[][], temperature: number, rng: Rng): number {
  const choice = new Map<GgtNode, number>();
  const draw = (node: GgtNode): number => {
    if (node.leaf) return node.score;
    const scores = node.hypotheses.map((h) => {
      let score = 0;
      for (const c of h.children) score += draw(c);
      return score;
    });
    const max = Math.max(...scores);
    const w = scores.map((s) => (max === Number.NEGATIVE_INFINITY ? 1 : Math.exp((s - max) / temperature)));
    const total = w.reduce((a, b) => a + b, 0);
    let u = rng.next() * total;
    let pick = 0;
    while (pick < w.length - 1 && u >= w[pick]) u -= w[pick++];
    choice.set(node, pick);
    return scores[pick];
  };
  const write = (node: GgtNode): void => {
    if (node.leaf) for (const v of node.en) parents[v] = [...(node.parents[v] ?? [])];
    else for (const c of node.hypotheses[choice.get(node)!].children) write(c);
  };
  const score = draw(root);
  write(root);
  return score;
}

/**
 * RAI itself (Yehezkel & Lerner 2009): the same recursion with one hypothesis per call whose CI tests use
 * every training row instead of a bootstrap sample. B-RAI adds only the resampling and the scoring on top
 * of it, so this is what can be compared, decision for decision, with another RAI program on identical
 * input (causality-lab's LearnStructRAI; test/structures/brai-reference.test.ts). Returns the DAG the
 * leaves assemble, whether every leaf had a DAG extension (a leaf without one contributes no parents), the
 * skeleton the leaves hold (edges into their endogenous nodes) and the number of CI tests.
 *
 * causality-lab's RAI differs from ours in two rules, so the recursion can split differently: it keeps an
 * edge whose v-structure orientations conflict out of Meek's rules (made undirected only after them; ours
 * makes it undirected at once, so R1 may orient it), and its descendant set is every endogenous node below
 * the highest topological level (RAI's paper and ours: the lowest level). On breast-cancer's 277 rows the
 * skeletons agree with CMI ≤ 0.005 and ≤ 0.012 and, with 0.03 and 0.06, ours keeps one class edge more
 * (inv-nodes, deg-malig); on the 249 rows of its first training fold they agree at all four thresholds.
 * Either change would also change `test: g2`'s structures.
 */
export function rai(
  train: DiscreteData,
  params: Partial<BraiParams>,
): { parents: number[][]; extended: boolean; skeleton: [number, number][]; ciTests: number } {
  const p = { ...BRAI_PARAMS.defaults, ...params } as BraiParams;
  const patterns = patternsOf(train);
  const every = fullSample(patterns);
  const k = train.columns.length + 1;
  const key = (u: number, v: number) => (u < v ? u * k + v : v * k + u);
  const edges = new Set<number>();
  const L: Learner = {
    train,
    patterns,
    resample: () => every,
    familyScores: new Map(),
    hypotheses: 1,
    independent: independenceTest(p),
    ess: p.ess,
    // A leaf owns the edges into its endogenous nodes, from each other and from its exogenous nodes.
    onLeaf: (g, en, ex) => {
      for (const v of en) for (const u of [...en, ...ex]) if (u !== v && g.adjacent(u, v)) edges.add(key(u, v));
    },
    tests: 0,
  };
  const all = Array.from({ length: k }, (_, i) => i);
  const root = learnRecursively(L, Graph.complete(k), all, [], 0);
  const parents: number[][] = Array.from({ length: k }, () => []);
  let extended = true;
  const write = (node: GgtNode): void => {
    if (!node.leaf) for (const c of node.hypotheses[0].children) write(c);
    else if (node.score === Number.NEGATIVE_INFINITY) extended = false;
    else for (const v of node.en) parents[v] = [...node.parents[v]];
  };
  write(root);
  const skeleton = [...edges].sort((a, b) => a - b).map((e): [number, number] => [Math.floor(e / k), e % k]);
  return { parents, extended, skeleton, ciTests: L.tests };
}

/**
 * `threshold: select`, the grid search of causality-lab's experiment utilities (search_threshold_bdeu): for
 * every candidate CMI threshold, RAI (no bootstrap) on the training rows, its graph extended to a DAG and
 * scored by BDeu (the B-RAI leaves' ESS) on the same rows; a graph without a consistent DAG extension scores
 * −∞. The highest score wins; on equal scores the larger threshold (candidates are tried in ascending order
 * and a score equal to the best replaces it, as the reference's `>=`). Only meaningful for `test: cmi`.
 */
export function selectThreshold(
  train: DiscreteData,
  params: Pick<BraiParams, 'test' | 'thresholds' | 'ess' | 'alpha'>,
): { threshold: number; scores: [number, number][] } {
  if (params.test !== 'cmi') throw new UserError("brai: threshold 'select' needs test 'cmi' (the CMI threshold)");
  const candidates = [...new Set(params.thresholds)].sort((a, b) => a - b);
  let best = Number.NaN;
  let bestScore = Number.NEGATIVE_INFINITY;
  const scores: [number, number][] = [];
  for (const t of candidates) {
    const r = rai(train, { test: 'cmi', threshold: t, ess: params.ess, alpha: params.alpha });
    const score = r.extended ? networkScore(train, r.parents, 'bdeu', params.ess) : Number.NEGATIVE_INFINITY;
    scores.push([t, score]);
    if (score >= bestScore || Number.isNaN(best)) {
      bestScore = score;
      best = t;
    }
  }
  return { threshold: best, scores };
}

/** Shown in docs/methods.md: what `test: cmi` does on small data (issue 14), with the evidence. */
const BRAI_NOTES =
  "`test: cmi` is causality-lab's CondIndepCMI (statistic and RAI skeleton checked against it): independent " +
  'when the plug-in CMI is at most `threshold`, one number for every test. Under independence the plug-in ' +
  'CMI is about (r_x − 1)(r_y − 1)·q_z / (2n), so on a few hundred rows with many-valued attributes, and more ' +
  'so at higher orders and on bootstrap samples (fewer distinct rows), independence is rarely found and the ' +
  'graph stays nearly complete. On breast-cancer (277 rows, median discretization) age × tumor-size has ' +
  'CMI 0.085 (G-test p = 0.60; 0.090 expected under independence) and RAI keeps 28 of 45 edges with ' +
  'CMI ≤ 0.012 against 6 with the G-test at 0.05. The class then has children with seven co-parents (first ' +
  'fold: tumor-size, 8,640 parent configurations for 249 training rows), whose EAP tables hold one or two rows ' +
  "per configuration: a configuration seen with the majority class but never with the test row's value " +
  'gets probability ~1e−5, the same configuration never seen with the minority class 1/r, so many ' +
  'majority rows go to the minority class. In 10-fold CV (Table 3 protocol) cmi predicts the minority class ' +
  'for 131 of 277 test rows (81 are minority) and reaches accuracy 0.50; g2 0.71, the majority rate 0.71. ' +
  "No threshold repairs it (0.03, 0.06, 0.1: 0.59, 0.65, 0.70): the class's strongest dependences " +
  "(deg-malig 0.061, node-caps 0.039) are no larger than the independent age × tumor-size's. `test: g2` " +
  '(critical value growing with the degrees of freedom) is what experiments/subbkb-2022-table3.yaml uses.';

export const brai = registerStructure({
  id: 'brai',
  revision: 1,
  title: 'B-RAI: Bayesian model averaging over structures from recursive autonomy identification with bootstrap',
  citation:
    'Rohekar, Nisimov, Gurwicz, Koren & Novik (2018), Bayesian structure learning by recursive bootstrap, NeurIPS 31; ' +
    'Yehezkel & Lerner (2009), Bayesian network structure learning by recursive autonomy identification, JMLR 10:1527–1570',
  orderDependence: {
    columns:
      'constraint-based: which edges the conditional-independence tests remove first depends on the order the ' +
      'variables are visited (the order dependence of the PC family; Colombo & Maathuis 2014, JMLR 15:3741–3782)',
  },
  params: BRAI_PARAMS,
  notes: BRAI_NOTES,
  // The GGT starts from the complete graph over every variable: O(k²) CI tests per bootstrap at order 0 and
  // combinatorially many at higher orders; the data sets of the SubbKB study have at most 23 variables.
  maxAttributes: 30,
  learn(train, given, ctx) {
    const m = train.columns.length;
    const k = m + 1;
    const selection = given.threshold === 'select' ? selectThreshold(train, given) : undefined;
    const params = selection ? { ...given, threshold: selection.threshold } : given;
    const patterns = patternsOf(train);
    const rng = ctx.rng.derive('bootstrap');
    const L: Learner = {
      train,
      patterns,
      resample: () => bootstrapSample(patterns, train.n, rng),
      familyScores: new Map(),
      hypotheses: params.hypotheses,
      independent: independenceTest(params),
      ess: params.ess,
      signal: ctx.signal,
      tests: 0,
    };
    const all = Array.from({ length: k }, (_, i) => i);
    const root = learnRecursively(L, Graph.complete(k), all, [], 0);
    const sampler = ctx.rng.derive('sample');
    const counts = new Map<string, { parents: number[][]; n: number; score: number }>();
    const S = params.samples;
    for (let s = 0; s < S; s++) {
      const parents: number[][] = Array.from({ length: k }, () => []);
      const score = sampleStructure(root, parents, params.temperature, sampler);
      const key = JSON.stringify(parents);
      const hit = counts.get(key);
      if (hit) hit.n++;
      else counts.set(key, { parents, n: 1, score });
    }
    const members: StructureMember[] = [...counts.values()].map((c) => ({
      weight: c.n / S,
      structure: { m, parents: c.parents },
    }));
    const best = [...counts.values()].reduce((a, b) => (b.n > a.n ? b : a));
    return {
      m,
      parents: best.parents,
      members,
      info: {
        ciTests: L.tests,
        distinctStructures: members.length,
        ...ensembleDiagnostics(members),
        ...(selection && { threshold: selection.threshold, thresholdScores: JSON.stringify(selection.scores) }),
      },
    };
  },
});
