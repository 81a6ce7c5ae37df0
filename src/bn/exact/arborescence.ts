/**
 * Maximum-weight spanning arborescence (Chu & Liu 1965; Edmonds 1967): every node but the root gets exactly
 * one parent, the parent graph is a tree rooted at `root`, and the total weight of the chosen edges is
 * maximal. Dense O(n²) version (Tarjan 1977): paths are grown along best incoming edges; a cycle is
 * contracted into a super-node whose incoming edges are reduced by the weight of the cycle edge they
 * replace, updating only the super-node's row and column; the contractions are undone at the end.
 */

/**
 * w[u * n + v] is the weight of the edge u → v (-Infinity: no edge). Returns parent[v] (-1 for the root).
 * Throws when some node cannot be reached from the root.
 */
export function maximumArborescence(n: number, root: number, w: Float64Array): Int32Array {
  const maxIds = 2 * n;
  // Matrix slots are the original node indices; a super-node reuses the slot of one of its members.
  const W = Float64Array.from(w.subarray(0, n * n));
  const OU = new Int32Array(n * n); // original edge realising each cell
  const OV = new Int32Array(n * n);
  for (let u = 0; u < n; u++) {
    for (let v = 0; v < n; v++) {
      OU[u * n + v] = u;
      OV[u * n + v] = v;
    }
  }
  const slot = new Int32Array(maxIds).fill(-1); // super-node id → matrix slot
  const up = new Int32Array(maxIds).fill(-1); // super-node it was merged into
  const inW = new Float64Array(maxIds).fill(-Infinity);
  const inFrom = new Int32Array(maxIds).fill(-1); // best source (super-node id)
  const inU = new Int32Array(maxIds).fill(-1); // that edge, original endpoints
  const inV = new Int32Array(maxIds).fill(-1);
  const state = new Uint8Array(maxIds); // 0 new, 1 on the path, 2 done
  const members: number[][] = [];
  const active: number[] = [];
  for (let v = 0; v < n; v++) {
    slot[v] = v;
    active.push(v);
    members.push([]);
  }
  let next = n;
  const bestIn = (id: number): void => {
    const s = slot[id];
    let best = -Infinity;
    let from = -1;
    for (const x of active) {
      if (x === id) continue;
      const val = W[slot[x] * n + s];
      if (val > best) {
        best = val;
        from = x;
      }
    }
    inW[id] = best;
    inFrom[id] = from;
    if (from >= 0) {
      inU[id] = OU[slot[from] * n + s];
      inV[id] = OV[slot[from] * n + s];
    }
  };
  for (const v of active) if (v !== root) bestIn(v);
  state[root] = 2;
  const isActive = new Uint8Array(maxIds);
  for (const v of active) isActive[v] = 1;
  const path: number[] = [];
  for (let start = 0; start < n; start++) {
    if (state[start] !== 0 || !isActive[start]) continue;
    path.length = 0;
    path.push(start);
    state[start] = 1;
    for (;;) {
      const v = path[path.length - 1];
      const u = inFrom[v];
      if (u < 0 || inW[v] === -Infinity)
        throw new Error(`maximumArborescence: node ${inV[v] >= 0 ? inV[v] : v} cannot be reached from the root`);
      if (state[u] === 2) {
        for (const p of path) state[p] = 2;
        break;
      }
      if (state[u] === 0) {
        state[u] = 1;
        path.push(u);
        continue;
      }
      // u is on the path: the path from u to v is a cycle; contract it.
      const cyc: number[] = [];
      for (;;) {
        const x = path.pop()!;
        cyc.push(x);
        if (x === u) break;
      }
      const c = next++;
      members.push(cyc);
      const s = slot[cyc[0]];
      for (const x of cyc) {
        isActive[x] = 0;
        up[x] = c;
      }
      for (let k = active.length - 1; k >= 0; k--) if (!isActive[active[k]]) active.splice(k, 1);
      // New column (edges into c, reduced) and row (edges out of c), written into slot s after reading.
      const colW = new Float64Array(n).fill(-Infinity);
      const colU = new Int32Array(n);
      const colV = new Int32Array(n);
      const rowW = new Float64Array(n).fill(-Infinity);
      const rowU = new Int32Array(n);
      const rowV = new Int32Array(n);
      for (const x of active) {
        const sx = slot[x];
        for (const mbr of cyc) {
          const sm = slot[mbr];
          const into = W[sx * n + sm] - inW[mbr];
          if (into > colW[sx]) {
            colW[sx] = into;
            colU[sx] = OU[sx * n + sm];
            colV[sx] = OV[sx * n + sm];
          }
          const out = W[sm * n + sx];
          if (out > rowW[sx]) {
            rowW[sx] = out;
            rowU[sx] = OU[sm * n + sx];
            rowV[sx] = OV[sm * n + sx];
          }
        }
      }
      for (const x of active) {
        const sx = slot[x];
        W[sx * n + s] = colW[sx];
        OU[sx * n + s] = colU[sx];
        OV[sx * n + s] = colV[sx];
        W[s * n + sx] = rowW[sx];
        OU[s * n + sx] = rowU[sx];
        OV[s * n + sx] = rowV[sx];
      }
      slot[c] = s;
      active.push(c);
      isActive[c] = 1;
      // A node whose best source was inside the cycle now has c as its best source, with the same weight.
      for (const y of active) if (y !== c && inFrom[y] >= 0 && up[inFrom[y]] === c) inFrom[y] = c;
      if (c !== root) bestIn(c);
      state[c] = 1;
      path.push(c);
    }
  }
  // Undo the contractions, last first: the member entered by the super-node's edge takes that edge, the
  // others keep their cycle edges.
  for (let c = next - 1; c >= n; c--) {
    const entered = inV[c];
    let e = entered;
    while (up[e] !== c) e = up[e];
    for (const mbr of members[c]) {
      if (mbr === e) {
        inU[mbr] = inU[c];
        inV[mbr] = inV[c];
      }
    }
  }
  const parent = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) if (v !== root) parent[v] = inU[v];
  return parent;
}
