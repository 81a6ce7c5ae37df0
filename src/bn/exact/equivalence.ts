/**
 * Markov equivalence utilities over Structure parent lists (nodes 0..m, the class m):
 *  - cpdag: the completed partially directed acyclic graph of a DAG's equivalence class. The skeleton with
 *    the v-structures oriented, closed under Meek's rules R1–R3 (Meek 1995, "Causal inference and causal
 *    explanation with background knowledge", UAI; R1–R3 suffice without background knowledge).
 *  - shd: the structural Hamming distance of Tsamardinos, Brown & Aliferis (2006, MMHC, Machine Learning
 *    65:31–78) between two CPDAGs: one per node pair whose edge is added, deleted, reversed or differs in
 *    being directed.
 */

/** A PDAG over k nodes: e[i * k + j] = 1 when the edge i→j is present (both directions = undirected). */
interface Pdag {
  readonly k: number;
  readonly e: Uint8Array;
}

/** The CPDAG of a DAG given by parent lists. */
export function cpdag(parents: readonly (readonly number[])[]): Pdag {
  const k = parents.length;
  const adj = new Uint8Array(k * k);
  for (let v = 0; v < k; v++) {
    for (const p of parents[v]) {
      adj[p * k + v] = 1;
      adj[v * k + p] = 1;
    }
  }
  // dir[i * k + j] = 1: i→j is compelled so far.
  const dir = new Uint8Array(k * k);
  for (let v = 0; v < k; v++) {
    const ps = parents[v];
    for (let x = 0; x < ps.length; x++) {
      for (let y = x + 1; y < ps.length; y++) {
        const a = ps[x];
        const b = ps[y];
        if (!adj[a * k + b]) {
          dir[a * k + v] = 1;
          dir[b * k + v] = 1;
        }
      }
    }
  }
  const undirected = (i: number, j: number): boolean => adj[i * k + j] === 1 && !dir[i * k + j] && !dir[j * k + i];
  let changed = true;
  while (changed) {
    changed = false;
    for (let b = 0; b < k; b++) {
      for (let c = 0; c < k; c++) {
        if (b === c || !undirected(b, c)) continue;
        let orient = false;
        // R1: a→b, b—c, a and c non-adjacent ⇒ b→c
        for (let a = 0; a < k && !orient; a++) if (a !== c && dir[a * k + b] && !adj[a * k + c]) orient = true;
        // R2: b→a→c and b—c ⇒ b→c
        for (let a = 0; a < k && !orient; a++) if (dir[b * k + a] && dir[a * k + c]) orient = true;
        // R3: b—a1→c, b—a2→c, a1 and a2 non-adjacent, b—c ⇒ b→c
        for (let a1 = 0; a1 < k && !orient; a1++) {
          if (!undirected(b, a1) || !dir[a1 * k + c]) continue;
          for (let a2 = a1 + 1; a2 < k; a2++) {
            if (undirected(b, a2) && dir[a2 * k + c] && !adj[a1 * k + a2]) {
              orient = true;
              break;
            }
          }
        }
        if (orient) {
          dir[b * k + c] = 1;
          changed = true;
        }
      }
    }
  }
  const e = new Uint8Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      if (!adj[i * k + j]) continue;
      if (dir[i * k + j] || !dir[j * k + i]) e[i * k + j] = 1;
    }
  }
  return { k, e };
}

/** Structural Hamming distance between two PDAGs over the same nodes. */
export function shd(a: Pdag, b: Pdag): number {
  if (a.k !== b.k) throw new Error(`shd: graphs have ${a.k} and ${b.k} nodes`);
  const k = a.k;
  let d = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      if (a.e[i * k + j] !== b.e[i * k + j] || a.e[j * k + i] !== b.e[j * k + i]) d++;
    }
  }
  return d;
}

/** Canonical string of a CPDAG (equal strings ⇔ Markov equivalent DAGs). */
export function cpdagKey(p: Pdag): string {
  let s = '';
  for (let i = 0; i < p.e.length; i++) s += p.e[i] ? '1' : '0';
  return s;
}
