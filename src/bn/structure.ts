/**
 * Structure: a DAG over the attributes and the class. Nodes 0..m-1 are the attributes (in DiscreteData
 * column order) and node m is the class. parents[v] lists v's parents; the order matters to estimators that
 * use it (HDP branches on the class first and then on the other parents in that order).
 * An ensemble (model averaging, AODE, SubbKB) lists weighted member structures instead.
 */
export interface Structure {
  /** Number of attributes m; the class is node m. */
  readonly m: number;
  readonly parents: readonly (readonly number[])[];
  /** Weighted members for model averaging; when present, posteriors are the weighted mixture. */
  readonly members?: readonly StructureMember[];
  /**
   * How members combine (default 'posterior'): 'posterior' averages P_k(c | x); 'joint' averages the joints
   * P_k(c, x_obs) and normalises once (AODE).
   */
  readonly combine?: 'posterior' | 'joint';
  /** For gated members: the structure used for rows where no member's gate is open (AODE: naive Bayes). */
  readonly fallback?: Structure;
  /** Free-form diagnostics a learner wants stored with the job (scores, selected attributes, ...). */
  readonly info?: Readonly<Record<string, number | string | boolean>>;
}

/** A weighted member of an ensemble structure. */
export interface StructureMember {
  readonly weight: number;
  readonly structure: Structure;
  /**
   * Optional per-row applicability (AODE's frequency limit on super-parent values): the member takes part
   * in a row's mixture only when attribute `attribute` is observed there with one of `values`; the weights of
   * the members that take part are renormalised per row.
   */
  readonly gate?: { readonly attribute: number; readonly values: readonly number[] };
  /**
   * Optional training rows the member's parameters are fitted on (indices into the training data,
   * duplicates allowed: bootstrap and subsample ensembles). Absent: all training rows.
   */
  readonly rows?: Int32Array;
  /**
   * Optional weight per training row (per entry of `rows` when given) for the member's counts (boosting);
   * counts become sums of weights, so scale them to sum to the number of rows to keep priors in proportion.
   */
  readonly rowWeights?: Float64Array;
  /** When true the member contributes a one-hot vote for its most probable class (AdaBoost.M1). */
  readonly vote?: boolean;
}

/** Naive Bayes skeleton: the class is the only parent of every attribute. */
export function naiveBayesStructure(m: number): Structure {
  const parents: number[][] = [];
  for (let a = 0; a < m; a++) parents.push([m]);
  parents.push([]);
  return { m, parents };
}

/** Arcs as [from, to] pairs, sorted, for storage and comparison. */
/**
 * X_i | class, X_{i−1}, …, X_{i−k}: each attribute's parents are the class and the k previous columns (the
 * structure the HDP authors' Java code was timed on; used by bench/hdp.ts and the HDP pinning tests).
 */
export function previousColumnsStructure(m: number, k: number): Structure {
  const parents: number[][] = [];
  for (let i = 0; i < m; i++) {
    const ps = [m];
    for (let j = i - 1; j >= Math.max(0, i - k); j--) ps.push(j);
    parents.push(ps);
  }
  parents.push([]);
  return { m, parents };
}

export function arcs(s: Structure): [number, number][] {
  const out: [number, number][] = [];
  s.parents.forEach((ps, child) => ps.forEach((p) => out.push([p, child])));
  out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return out;
}

/** Throws if the parent lists do not form a DAG over m+1 nodes. */
export function assertDag(s: Structure): void {
  const n = s.m + 1;
  if (s.parents.length !== n) throw new Error(`structure has ${s.parents.length} parent lists, expected ${n}`);
  const state = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  const visit = (v: number): void => {
    if (state[v] === 2) return;
    if (state[v] === 1) throw new Error(`structure has a cycle through node ${v}`);
    state[v] = 1;
    for (const p of s.parents[v]) {
      if (p < 0 || p >= n || p === v) throw new Error(`node ${v} has invalid parent ${p}`);
      visit(p);
    }
    state[v] = 2;
  };
  for (let v = 0; v < n; v++) visit(v);
}

/**
 * The structure to fit on `selectRows(d, part)` (part: ascending row numbers of d, n = d.n) so that every
 * member is fitted on its own rows that are in the part. A member's `rows` number the rows of the data it
 * was learned on (bagging's bootstrap, AdaBoost's resamples, SubbKB's subsamples), and its `rowWeights`
 * follow them; taken as they are on a part of the data they would pick other rows, or rows past its end.
 * Members that share one rows array (SubbKB) still share one.
 */
export function structureOnRows(s: Structure, part: ArrayLike<number>, n: number): Structure {
  const pos = new Int32Array(n).fill(-1);
  for (let i = 0; i < part.length; i++) pos[part[i]] = i;
  return onPositions(s, pos, part);
}

/**
 * s with member rows renumbered by pos (old row → new row, or -1 when the row is not kept); kept is its
 * inverse, the old rows that are kept in their new order.
 */
function onPositions(s: Structure, pos: Int32Array, kept: ArrayLike<number>): Structure {
  if (!s.members && !s.fallback) return s;
  const out: { -readonly [K in keyof Structure]: Structure[K] } = { ...s };
  if (s.fallback) out.fallback = onPositions(s.fallback, pos, kept);
  if (s.members) {
    const shared = new Map<Int32Array, { kept: Int32Array; rows: Int32Array }>();
    out.members = s.members.map((mem) => {
      if (!mem.rows) {
        // The member's data is this data: its weights (one per row) keep the kept rows'.
        const rowWeights = mem.rowWeights && keptValues(mem.rowWeights, kept);
        return {
          ...mem,
          structure: onPositions(mem.structure, pos, kept),
          ...(rowWeights ? { rowWeights } : {}),
        };
      }
      let r = shared.get(mem.rows);
      if (!r) {
        // kept: the entries of mem.rows that are kept; rows: where they are now.
        const old = mem.rows;
        const kept: number[] = [];
        for (let i = 0; i < old.length; i++) if (pos[old[i]] >= 0) kept.push(i);
        r = { kept: Int32Array.from(kept), rows: Int32Array.from(kept, (i) => pos[old[i]]) };
        shared.set(mem.rows, r);
      }
      // The member's own data is its rows: entry i of the old list is entry j of the new one.
      const inner = new Int32Array(mem.rows.length).fill(-1);
      r.kept.forEach((i, j) => {
        inner[i] = j;
      });
      const rowWeights = mem.rowWeights && keptValues(mem.rowWeights, r.kept);
      return {
        ...mem,
        structure: onPositions(mem.structure, inner, r.kept),
        rows: r.rows,
        ...(rowWeights ? { rowWeights } : {}),
      };
    });
  }
  return out;
}

function keptValues(values: Float64Array, at: ArrayLike<number>): Float64Array {
  return Float64Array.from(at, (i) => values[i]);
}
