/**
 * Maximum weight spanning tree / forest (Kruskal) and its orientation, for Chow–Liu style learners
 * (TAN, CL-ODE with penalised weights).
 *
 * Ties. Candidate edges are sorted by weight, largest first. Each maximal run of edges whose weights lie
 * within WEIGHT_TIE_TOLERANCE · max(1, |w_lead|, |w|) of the run's leading (largest) weight w_lead is
 * treated as tied (the tolerance keeps the tree stable when equal-in-theory weights differ in the last
 * bits, e.g. CMI of two identical column pairs summed in a different order). Within a run:
 *  - tie 'first' (default): edges are taken in increasing (i, j) order (i < j);
 *  - tie 'bnclassify': edges are taken in the order bnclassify 0.4.8 takes them. Its max_weight_forest
 *    negates the weights and calls Boost's kruskal_minimum_spanning_tree (src/bh.cpp, bh_mstree_kruskal),
 *    which pushes the graph's edges, in insertion order, one by one into a std::priority_queue ordered by
 *    std::greater on the weight and pops them until the queue is empty. bnclassify inserts the edges in
 *    combn order over the columns, (0,1), (0,2), …, (0,k−1), (1,2), …, after dropping negative weights;
 *    an undirected Boost adjacency_list iterates its edges in insertion order. The pop order among equal
 *    weights is then fixed by libstdc++'s binary heap (std::push_heap / std::pop_heap, bits/stl_heap.h),
 *    reproduced step by step in boostKruskalOrder. Both programs accept an edge iff its ends are in
 *    different trees, so the union–find details do not matter, only the pop order.
 */

export const WEIGHT_TIE_TOLERANCE = 1e-12;

interface SpanningForestOptions {
  /**
   * Which edges are candidates: 'none' keeps all (a spanning tree of a connected graph; TAN);
   * 'negative' drops w < 0 (bnclassify's CL-ODE keeps w >= 0); 'nonPositive' drops w <= 0.
   * Non-finite weights (NaN, ±Infinity as "no edge") are never candidates except +Infinity.
   */
  readonly drop?: 'none' | 'negative' | 'nonPositive';
  /** Relative tie tolerance; defaults to WEIGHT_TIE_TOLERANCE. */
  readonly tieTolerance?: number;
  /** Order among tied edges: 'first' (increasing (i, j), default) or 'bnclassify' (Boost's Kruskal heap). */
  readonly tie?: TieRule;
}

/** The tie rules of maximumSpanningForest. */
export type TieRule = 'first' | 'bnclassify';
export const TIE_RULES: readonly TieRule[] = ['first', 'bnclassify'];

/**
 * The order in which Boost's kruskal_minimum_spanning_tree (Boost 1.74 with libstdc++ 12, as bnclassify
 * is built) pops edges 0..e−1, pushed in index order, from std::priority_queue<Edge, vector,
 * indirect_cmp<weight, std::greater>> over the negated weights −w. comp(a, b) = (−w[a] > −w[b]) =
 * (w[a] < w[b]): a max-heap on w. push = push_back + __push_heap (sift up while comp(parent, value));
 * pop = swap the last element into the root's hole via __adjust_heap (move the hole down to the larger
 * child, the right one unless comp(right, left), then the lone left child at the bottom) followed by
 * __push_heap of the old last element from the hole. Equal weights are never reordered by comp, so the
 * pop order among them is the heap's mechanics, which this follows line by line.
 */
export function boostKruskalOrder(w: Float64Array, e: number): Int32Array {
  const heap = new Int32Array(e);
  const comp = (a: number, b: number): boolean => w[a] < w[b];
  // __push_heap(first, hole, top, value)
  const pushUp = (hole: number, top: number, value: number): void => {
    let parent = Math.trunc((hole - 1) / 2);
    while (hole > top && comp(heap[parent], value)) {
      heap[hole] = heap[parent];
      hole = parent;
      parent = Math.trunc((hole - 1) / 2);
    }
    heap[hole] = value;
  };
  for (let x = 0; x < e; x++) pushUp(x, 0, x);
  const out = new Int32Array(e);
  for (let len = e; len > 0; len--) {
    out[e - len] = heap[0];
    if (len === 1) break;
    // pop_heap: the last element (index len − 1) is re-inserted from the root's hole over len − 1 slots.
    const value = heap[len - 1];
    heap[len - 1] = heap[0];
    const n = len - 1;
    let hole = 0;
    let second = 0;
    while (second < Math.trunc((n - 1) / 2)) {
      second = 2 * (second + 1);
      if (comp(heap[second], heap[second - 1])) second--;
      heap[hole] = heap[second];
      hole = second;
    }
    if ((n & 1) === 0 && second === Math.trunc((n - 2) / 2)) {
      second = 2 * (second + 1);
      heap[hole] = heap[second - 1];
      hole = second - 1;
    }
    pushUp(hole, 0, value);
  }
  return out;
}

/** An undirected edge with i < j. */
type Edge = readonly [number, number];

/**
 * Maximum weight spanning forest over k nodes with weights[i * k + j] (only i < j is read).
 * Returns the chosen edges as [i, j] with i < j, in the order Kruskal accepted them.
 */
export function maximumSpanningForest(k: number, weights: Float64Array, options: SpanningForestOptions = {}): Edge[] {
  if (weights.length < k * k)
    throw new Error(`maximumSpanningForest: weights has ${weights.length} cells, need ${k * k}`);
  const drop = options.drop ?? 'none';
  const tie = options.tie ?? 'first';
  if (!TIE_RULES.includes(tie)) throw new Error(`maximumSpanningForest: unknown tie rule '${String(tie)}'`);
  const tol = options.tieTolerance ?? WEIGHT_TIE_TOLERANCE;
  const total = (k * (k - 1)) / 2;
  const ei = new Int32Array(total);
  const ej = new Int32Array(total);
  const ew = new Float64Array(total);
  let e = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      const w = weights[i * k + j];
      if (Number.isNaN(w) || w === -Infinity) continue;
      if (drop === 'negative' && w < 0) continue;
      if (drop === 'nonPositive' && w <= 0) continue;
      ei[e] = i;
      ej[e] = j;
      ew[e] = w;
      e++;
    }
  }
  // Candidates are generated in (i, j) order, so a stable index sort by weight leaves exact ties in (i, j) order.
  let order = Array.from({ length: e }, (_, x) => x);
  order.sort((a, b) => ew[b] - ew[a] || a - b);
  // Near-ties: within each run anchored at its largest weight, restore (i, j) order (= candidate index order).
  for (let s = 0; s < e; ) {
    const lead = ew[order[s]];
    let t = s + 1;
    while (t < e) {
      const w = ew[order[t]];
      if (Math.abs(lead - w) > tol * Math.max(1, Math.abs(lead), Math.abs(w))) break;
      t++;
    }
    if (t - s > 1) {
      const run = order.slice(s, t).sort((a, b) => a - b);
      for (let x = s; x < t; x++) order[x] = run[x - s];
      // bnclassify's heap compares weights exactly; near-ties become exact ties at the run's leading weight.
      if (tie === 'bnclassify') for (let x = s; x < t; x++) ew[order[x]] = lead;
    }
    s = t;
  }
  if (tie === 'bnclassify') order = Array.from(boostKruskalOrder(ew, e));
  // Kruskal with union–find (path halving, union by size).
  const parent = new Int32Array(k);
  const size = new Int32Array(k).fill(1);
  for (let v = 0; v < k; v++) parent[v] = v;
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  const out: Edge[] = [];
  for (let x = 0; x < e && out.length < k - 1; x++) {
    const id = order[x];
    const a = find(ei[id]);
    const b = find(ej[id]);
    if (a === b) continue;
    if (size[a] < size[b]) {
      parent[a] = b;
      size[b] += size[a];
    } else {
      parent[b] = a;
      size[a] += size[b];
    }
    out.push([ei[id], ej[id]]);
  }
  return out;
}

/** Sum of weights[i * k + j] over the edges. */
export function forestWeight(k: number, weights: Float64Array, edges: readonly Edge[]): number {
  let s = 0;
  for (const [i, j] of edges) s += weights[i * k + j];
  return s;
}

/**
 * Orients a forest over k nodes away from its roots by breadth-first search: the component containing
 * `root` is rooted there; every other component is rooted at its lowest-index node (bnclassify roots each
 * tree at its first node). Returns parent[v], or -1 for a root.
 */
export function orientForest(k: number, edges: readonly Edge[], root = 0): Int32Array {
  if (k === 0) return new Int32Array(0);
  if (!Number.isInteger(root) || root < 0 || root >= k)
    throw new Error(`orientForest: root ${root} out of range 0..${k - 1}`);
  const degree = new Int32Array(k);
  for (const [i, j] of edges) {
    if (i < 0 || j < 0 || i >= k || j >= k || i === j) throw new Error(`orientForest: invalid edge (${i}, ${j})`);
    degree[i]++;
    degree[j]++;
  }
  const start = new Int32Array(k + 1);
  for (let v = 0; v < k; v++) start[v + 1] = start[v] + degree[v];
  const adj = new Int32Array(start[k]);
  const fill = start.slice(0, k);
  for (const [i, j] of edges) {
    adj[fill[i]++] = j;
    adj[fill[j]++] = i;
  }
  const parent = new Int32Array(k).fill(-1);
  const seen = new Uint8Array(k);
  const queue = new Int32Array(k);
  const bfs = (r: number): void => {
    let head = 0;
    let tail = 0;
    queue[tail++] = r;
    seen[r] = 1;
    while (head < tail) {
      const v = queue[head++];
      for (let x = start[v]; x < start[v + 1]; x++) {
        const u = adj[x];
        if (seen[u]) {
          if (u !== parent[v]) throw new Error('orientForest: edges contain a cycle');
          continue;
        }
        seen[u] = 1;
        parent[u] = v;
        queue[tail++] = u;
      }
    }
  };
  bfs(root);
  for (let v = 0; v < k; v++) if (!seen[v]) bfs(v);
  return parent;
}
