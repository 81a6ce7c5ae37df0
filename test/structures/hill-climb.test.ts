import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { hillClimb, hillClimbLearner } from '../../src/structures/hill-climb.js';
import { getStructure } from '../../src/registry.js';
import { assertDag } from '../../src/bn/structure.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { networkScore, localScore, type ScoreName } from '../../src/bn/scores.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

const ctx = { rng: new Rng('hill-climb') };

/** Every DAG on N nodes with at most maxParents parents per node (parents sorted ascending). */
function allDags(N: number, maxParents: number): number[][][] {
  const subsets = (v: number): number[][] => {
    const others = Array.from({ length: N }, (_, u) => u).filter((u) => u !== v);
    const out: number[][] = [];
    for (let mask = 0; mask < 1 << others.length; mask++) {
      const s = others.filter((_, i) => mask & (1 << i));
      if (s.length <= maxParents) out.push(s);
    }
    return out;
  };
  const options = Array.from({ length: N }, (_, v) => subsets(v));
  const out: number[][][] = [];
  const cur: number[][] = [];
  const rec = (v: number): void => {
    if (v === N) {
      try {
        assertDag({ m: N - 1, parents: cur });
        out.push(cur.map((p) => [...p]));
      } catch {
        /* cyclic */
      }
      return;
    }
    for (const s of options[v]) {
      cur[v] = s;
      rec(v + 1);
    }
  };
  rec(0);
  return out;
}

/** Rows from a small generative model: C uniform, X0 ~ C, X1 ~ X0, X2 ~ C (when present), noisy copies. */
function sample(seed: string, n: number, m: number, noise: number, miss = 0): DiscreteData {
  const rng = new Rng(seed);
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = rng.int(2);
    const flip = (v: number, card: number) => (rng.next() < noise ? rng.int(card) : v % card);
    const x0 = flip(c, 3);
    const x1 = flip(x0, 2);
    const row = [x0, x1, flip(c + 1, 2)].slice(0, m).map((v) => (rng.next() < miss ? -1 : v));
    rows.push(row);
    classes.push(c);
  }
  return discreteFromArrays({ cards: [3, 2, 2].slice(0, m), rows, classes, classCard: 2 });
}

const opts = (score: ScoreName, extra: Partial<Parameters<typeof hillClimb>[1]> = {}) => ({
  score,
  ess: 1,
  maxParents: 3,
  tabu: 0,
  maxIterations: 0,
  ...extra,
});

const canon = (ps: readonly (readonly number[])[]) => ps.map((p) => [...p].sort((a, b) => a - b));

describe('hill-climb reaches the optimum found by enumeration (3 nodes: 25 DAGs)', () => {
  const dags = allDags(3, 2);
  it('there are 25 DAGs on 3 labelled nodes', () => expect(dags.length).toBe(25));

  it.each(['bic', 'aic', 'bdeu', 'loglik'] as const)('%s', (score) => {
    const d = sample('enum3', 60, 2, 0.35);
    const best = Math.max(...dags.map((g) => networkScore(d, g, score, 1)));
    const res = hillClimb(d, opts(score));
    expect(res.score).toBeCloseTo(best, 9);
    expect(networkScore(d, res.parents, score, 1)).toBeCloseTo(res.score, 9);
  });
});

describe('hill-climb on 4 nodes (543 DAGs)', () => {
  const dags = allDags(4, 3);
  it('there are 543 DAGs on 4 labelled nodes', () => expect(dags.length).toBe(543));

  it.each(['bic', 'aic', 'bdeu'] as const)(
    '%s: ends at a local optimum no single move improves, within the enumerated maximum',
    (score) => {
      const d = sample('enum4', 120, 3, 0.3, 0.05);
      const res = hillClimb(d, opts(score));
      const s = networkScore(d, res.parents, score, 1);
      expect(s).toBeCloseTo(res.score, 9);
      const best = Math.max(...dags.map((g) => networkScore(d, g, score, 1)));
      expect(res.score).toBeLessThanOrEqual(best + 1e-9);
      // Neighbours: every DAG at one add, delete or reverse from the result.
      const mine = canon(res.parents);
      const key = (g: number[][]) => JSON.stringify(canon(g));
      const arcs = (g: number[][]) => new Set(g.flatMap((p, v) => p.map((u) => `${u}>${v}`)));
      const a0 = arcs(mine);
      let neighbours = 0;
      for (const g of dags) {
        const a1 = arcs(g);
        const removed = [...a0].filter((x) => !a1.has(x));
        const added = [...a1].filter((x) => !a0.has(x));
        const reversal =
          removed.length === 1 && added.length === 1 && removed[0].split('>').reverse().join('>') === added[0];
        if (removed.length + added.length === 1 || reversal) {
          neighbours++;
          expect(networkScore(d, g, score, 1)).toBeLessThanOrEqual(s + 1e-8);
        }
      }
      expect(neighbours).toBeGreaterThan(0);
      expect(key(mine)).toBe(key(res.parents));
    },
  );
});

describe('hill-climb finds known structures', () => {
  it('recovers the chain C → X0 → X1 and leaves an independent attribute alone (BIC)', () => {
    // X2 is pure noise here: noise 1 makes every attribute uniform, so build it separately.
    const rng = new Rng('chain');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 2000; r++) {
      const c = rng.int(2);
      const x0 = rng.next() < 0.8 ? c : rng.int(3);
      const x1 = rng.next() < 0.8 ? x0 % 2 : rng.int(2);
      rows.push([x0, x1, rng.int(2)]);
      classes.push(c);
    }
    const d = discreteFromArrays({ cards: [3, 2, 2], rows, classes, classCard: 2 });
    const res = hillClimb(d, opts('bic'));
    const skeleton = new Set(res.parents.flatMap((p, v) => p.map((u) => [Math.min(u, v), Math.max(u, v)].join('-'))));
    expect([...skeleton].sort()).toEqual(['0-1', '0-3']);
  });

  it('gives the class two parents in a v-structure X0 → C ← X1 (C = X0 or X1, noisy), the enumerated optimum', () => {
    const rng = new Rng('or');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 1500; r++) {
      const a = rng.int(2);
      const b = rng.int(2);
      rows.push([a, b]);
      classes.push(rng.next() < 0.9 ? a | b : rng.int(2));
    }
    const d = discreteFromArrays({ cards: [2, 2], rows, classes, classCard: 2 });
    for (const score of ['bic', 'bdeu'] as const) {
      const scored = allDags(3, 2).map((g) => ({ g, s: networkScore(d, g, score, 1) }));
      scored.sort((x, y) => y.s - x.s);
      // The v-structure is alone in its equivalence class, so it is the unique optimum.
      expect(scored[0].g).toEqual([[], [], [0, 1]]);
      expect(scored[0].s - scored[1].s).toBeGreaterThan(1);
    }
    // BIC climbs straight to it (2 moves).
    expect(hillClimb(d, opts('bic')).parents).toEqual([[], [], [0, 1]]);
    // BDeu first makes the class a parent of both attributes and gets stuck two moves away (at the
    // complete DAG C → X0, C → X1, X1 → X0); tabu search walks out of it and returns the optimum.
    const stuck = hillClimb(d, opts('bdeu'));
    expect(stuck.parents).toEqual([[2, 1], [2], []]);
    const tabu = hillClimb(d, opts('bdeu', { tabu: 5 }));
    expect(tabu.parents).toEqual([[], [], [0, 1]]);
    expect(tabu.score).toBeCloseTo(networkScore(d, [[], [], [0, 1]], 'bdeu', 1), 9);
    expect(tabu.score).toBeGreaterThan(stuck.score + 1);
  });

  it('cannot see a pure XOR parity, like any single-arc greedy search', () => {
    // No single arc improves the score when C = X0 xor X1 (all pairs are independent): documents the
    // known limit of greedy search rather than a defect.
    const rng = new Rng('xor');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 1500; r++) {
      const a = rng.int(2);
      const b = rng.int(2);
      rows.push([a, b]);
      classes.push(rng.next() < 0.9 ? a ^ b : rng.int(2));
    }
    const d = discreteFromArrays({ cards: [2, 2], rows, classes, classCard: 2 });
    expect(hillClimb(d, opts('bic')).parents).toEqual([[], [], []]);
    expect(networkScore(d, [[], [], [0, 1]], 'bic')).toBeGreaterThan(networkScore(d, [[], [], []], 'bic') + 100);
  });

  it('the learner reports the network score and the class Markov blanket', () => {
    const d = sample('learner', 300, 3, 0.3);
    const s = hillClimbLearner.learn(d, {}, ctx);
    assertDag(s);
    expect(getStructure('hill-climb')).toBe(hillClimbLearner);
    let total = 0;
    s.parents.forEach((p, v) => (total += localScore(d, v, p, 'bic')));
    expect(s.info?.score).toBeCloseTo(total, 9);
    expect(s.info?.arcs).toBe(s.parents.flat().length);
    // The class is listed first among a node's parents.
    for (const p of s.parents) if (p.includes(3)) expect(p[0]).toBe(3);
  });
});

describe('hill-climb options', () => {
  const d = sample('options', 400, 3, 0.25, 0.02);

  it('maxParents bounds every parent set, the class included', () => {
    const r0 = hillClimb(d, opts('loglik', { maxParents: 1 }));
    for (const p of r0.parents) expect(p.length).toBeLessThanOrEqual(1);
    const r2 = hillClimb(d, opts('loglik', { maxParents: 2 }));
    expect(Math.max(...r2.parents.map((p) => p.length))).toBe(2);
    expect(hillClimb(d, opts('loglik', { maxParents: 0 })).parents.flat()).toEqual([]);
  });

  it('maxIterations stops after that many moves', () => {
    const r = hillClimb(d, opts('bic', { maxIterations: 1 }));
    expect(r.iterations).toBe(1);
    expect(r.parents.flat().length).toBe(1);
  });

  it('start nb begins from naive Bayes', () => {
    const s = hillClimbLearner.learn(d, { start: 'nb', maxIterations: 0 }, ctx);
    const full = hillClimbLearner.learn(d, { start: 'nb', maxIterations: 1 }, ctx);
    expect(s.info?.score).toBeGreaterThanOrEqual(full.info!.score as number);
    // One move from NB keeps at least two of the three class arcs.
    expect(full.parents.filter((p, v) => v < 3 && p.includes(3)).length).toBeGreaterThanOrEqual(2);
  });

  it('a candidate mask restricts the arcs considered', () => {
    const N = 4;
    const allowed = new Uint8Array(N * N);
    allowed[3 * N + 0] = 1; // only C → X0
    const r = hillClimb(d, opts('bic', { allowed }));
    expect(r.parents).toEqual([[3], [], [], []]);
  });

  it('tabu search returns the best structure seen, never worse than plain hill climbing', () => {
    const plain = hillClimb(d, opts('bdeu'));
    const tabu = hillClimb(d, opts('bdeu', { tabu: 5 }));
    expect(tabu.score).toBeGreaterThanOrEqual(plain.score - 1e-9);
    expect(networkScore(d, tabu.parents, 'bdeu', 1)).toBeCloseTo(tabu.score, 9);
    expect(tabu.iterations).toBeGreaterThan(plain.iterations);
  });

  it('is deterministic', () => {
    expect(hillClimbLearner.learn(d, {}, ctx)).toEqual(hillClimbLearner.learn(d, {}, { rng: new Rng('other') }));
  });

  it('rejects bad parameters as user errors', () => {
    expect(() => hillClimbLearner.learn(d, { score: 'k2' as never }, ctx)).toThrow(UserError);
    expect(() => hillClimbLearner.learn(d, { ess: 0 }, ctx)).toThrow(UserError);
    expect(() => hillClimbLearner.learn(d, { maxParents: -1 }, ctx)).toThrow(UserError);
    expect(() => hillClimbLearner.learn(d, { start: 'nb', maxParents: 0 }, ctx)).toThrow(UserError);
  });
});
