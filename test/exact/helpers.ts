/** Shared helpers for the exact-learning tests: random small data sets and brute-force DAG enumeration. */
import { discreteFromArrays, MISSING, type DiscreteData } from '../../src/bn/data.js';
import { Rng } from '../../src/util/rng.js';

/**
 * Random data over m attributes and a class: each variable copies a random earlier variable with
 * probability `copy`, else is uniform, so scores have clear structure but no exact ties.
 */
export function randomData(
  seed: string,
  n: number,
  cards: number[],
  classCard: number,
  copy = 0.6,
  missing = 0,
): DiscreteData {
  const rng = new Rng(seed);
  const m = cards.length;
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = rng.int(classCard);
    const vals: number[] = [];
    for (let a = 0; a < m; a++) {
      let v: number;
      if (rng.next() < copy) {
        const src = rng.int(a + 1); // 0 = the class, else attribute src-1
        const base = src === 0 ? c : vals[src - 1];
        v = (base + (rng.next() < 0.15 ? 1 : 0)) % cards[a];
      } else v = rng.int(cards[a]);
      vals.push(v);
    }
    classes.push(c);
    rows.push(vals.map((v) => (rng.next() < missing ? MISSING : v)));
  }
  return discreteFromArrays({ cards, rows, classes, classCard });
}

/** Every DAG over k nodes as parent masks (k <= 5: 29,281 DAGs). */
export function allDags(k: number, allowed?: (v: number, mask: number) => boolean): Int32Array[] {
  const out: Int32Array[] = [];
  const cur = new Int32Array(k);
  const rec = (v: number): void => {
    if (v === k) {
      if (acyclic(cur)) out.push(Int32Array.from(cur));
      return;
    }
    for (let mask = 0; mask < 1 << k; mask++) {
      if (mask & (1 << v)) continue;
      if (allowed && !allowed(v, mask)) continue;
      cur[v] = mask;
      rec(v + 1);
    }
  };
  rec(0);
  return out;
}

export function acyclic(parents: Int32Array): boolean {
  const k = parents.length;
  let left = (1 << k) - 1;
  while (left !== 0) {
    let progressed = false;
    for (let v = 0; v < k; v++) {
      if (left & (1 << v) && (parents[v] & left) === 0) {
        left &= ~(1 << v);
        progressed = true;
      }
    }
    if (!progressed) return false;
  }
  return true;
}

export function maskLists(parents: Int32Array): number[][] {
  return Array.from(parents, (mask) => {
    const out: number[] = [];
    for (let b = 0; b < 31; b++) if (mask & (1 << b)) out.push(b);
    return out;
  });
}
