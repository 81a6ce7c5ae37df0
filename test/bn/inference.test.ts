import { describe, it, expect } from 'vitest';
import { CptModel, fitCptModel, fitModel, smoothedLogProbs, type NodeCpt } from '../../src/bn/cpt.js';
import {
  MAX_ELIMINATION_CELLS,
  MixtureModel,
  NetworkInference,
  normalizeLogRows,
  PLAN_CACHE_LIMIT,
} from '../../src/bn/inference.js';
import { ConfigIndex } from '../../src/bn/counts.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { Rng } from '../../src/util/rng.js';
import { tinyData } from './fixtures.js';

const laplace = (fc: Parameters<typeof smoothedLogProbs>[0]) => smoothedLogProbs(fc, 1);

/** Test rows over the tiny data's attributes (class column is ignored by inference). */
function rowsOf(rows: number[][], classCard = 2, cards = [2, 2, 3]): DiscreteData {
  return discreteFromArrays({ cards, rows, classes: rows.map(() => 0), classCard });
}

// The TAN that `tan` learns on the tiny data (see test/structures/tan.test.ts): X0 -> X1 -> X2, C -> all.
const tanStructure: Structure = { m: 3, parents: [[3], [3, 0], [3, 1], []] };

describe('naive Bayes posterior with Laplace CPTs (hand computed)', () => {
  // P(C) = (4+1)/(8+2) = 1/2 each.
  // X0|C: C=0 [3,1] -> (4/6, 2/6); C=1 [1,3] -> (2/6, 4/6)
  // X1|C: C=0 [2,2] -> (3/6, 3/6); C=1 [1,3] -> (2/6, 4/6)
  // X2|C: C=0 [2,1,1] -> (3/7, 2/7, 2/7); C=1 [1,1,1] -> (2/6, 2/6, 2/6)
  const model = fitCptModel(tinyData(), naiveBayesStructure(3), laplace);

  it('P(C | X0=1, X1=0, X2=2) = (9/23, 14/23)', () => {
    // C=0: 1/2 · 2/6 · 3/6 · 2/7 = 1/42;  C=1: 1/2 · 4/6 · 2/6 · 2/6 = 1/27
    // P(C=0 | x) = (1/42) / (1/42 + 1/27) = 27/69 = 9/23
    const p = model.posterior(rowsOf([[1, 0, 2]]));
    expect(p[0]).toBeCloseTo(9 / 23, 14);
    expect(p[1]).toBeCloseTo(14 / 23, 14);
  });

  it('logJoint is the exact log P(c, x)', () => {
    const lj = model.logJoint(rowsOf([[1, 0, 2]]));
    expect(lj[0]).toBeCloseTo(Math.log(1 / 42), 13);
    expect(lj[1]).toBeCloseTo(Math.log(1 / 27), 13);
  });

  it('a missing leaf is summed out (barren): X2 missing gives the posterior of X0, X1 alone', () => {
    // C=0: 1/2 · 2/6 · 3/6 = 1/12; C=1: 1/2 · 4/6 · 2/6 = 1/9 -> P(C=0) = 9/21 = 3/7
    const p = model.posterior(rowsOf([[1, 0, -1]]));
    expect(p[0]).toBeCloseTo(3 / 7, 14);
    // Joint mode: P(C=0, X0=1, X1=0) = 1/12 exactly (the sum over X2 of its CPT is 1).
    expect(model.logJoint(rowsOf([[1, 0, -1]]))[0]).toBeCloseTo(Math.log(1 / 12), 13);
  });

  it('an all-missing row gets the class prior', () => {
    const p = model.posterior(rowsOf([[-1, -1, -1]]));
    expect(p[0]).toBeCloseTo(0.5, 15);
  });
});

describe('TAN posterior with Laplace CPTs (hand computed)', () => {
  // X0|C as in NB.  X1|C,X0 counts: (0,0)[2,1] (0,1)[0,1] (1,0)[0,1] (1,1)[1,2]
  //   -> P(X1=0|c,x0): (0,0) 3/5, (0,1) 1/3, (1,0) 1/3, (1,1) 2/5
  // X2|C,X1 counts (row 7 has X2 missing): (0,0)[1,1,0] (0,1)[1,0,1] (1,0)[0,0,1] (1,1)[1,1,0]
  //   -> P(X2=2|c,x1): (0,0) 1/5, (1,0) 2/4
  const model = fitCptModel(tinyData(), tanStructure, laplace);

  it('stores the CPT values above', () => {
    expect(model.prob(1, 0, [0, 0])).toBeCloseTo(3 / 5, 15);
    expect(model.prob(1, 0, [1, 1])).toBeCloseTo(2 / 5, 15);
    expect(model.prob(2, 2, [0, 0])).toBeCloseTo(1 / 5, 15);
    expect(model.prob(2, 2, [1, 0])).toBeCloseTo(1 / 2, 15);
  });

  it('P(C | X0=1, X1=0, X2=2) = (1/7, 6/7)', () => {
    // C=0: 1/2 · 1/3 · 1/3 · 1/5 = 1/90;  C=1: 1/2 · 2/3 · 2/5 · 1/2 = 1/15 = 6/90
    const p = model.posterior(rowsOf([[1, 0, 2]]));
    expect(p[0]).toBeCloseTo(1 / 7, 14);
    expect(p[1]).toBeCloseTo(6 / 7, 14);
  });

  it('a missing parent with an observed child is marginalised: P(C | X0=?, X1=0, X2=2) = (46/131, 85/131)', () => {
    // P(c, x1=0, x2=2) = P(c) · Σ_x0 P(x0|c) P(x1=0|c,x0) · P(x2=2|c,x1=0)
    // C=0: 1/2 · (2/3·3/5 + 1/3·1/3) · 1/5 = 1/2 · 23/45 · 1/5 = 23/450
    // C=1: 1/2 · (1/3·1/3 + 2/3·2/5) · 1/2 = 1/2 · 17/45 · 1/2 = 17/180
    // 23/450 : 17/180 = 46/900 : 85/900
    const data = rowsOf([[-1, 0, 2]]);
    const p = model.posterior(data);
    expect(p[0]).toBeCloseTo(46 / 131, 14);
    expect(p[1]).toBeCloseTo(85 / 131, 14);
    const lj = model.logJoint(data);
    expect(lj[0]).toBeCloseTo(Math.log(23 / 450), 13);
    expect(lj[1]).toBeCloseTo(Math.log(17 / 180), 13);
  });

  it('a missing leaf is barren: P(C | X0=1, X1=0, X2=?) = (5/17, 12/17)', () => {
    // C=0: 1/2 · 1/3 · 1/3 = 1/18; C=1: 1/2 · 2/3 · 2/5 = 2/15 -> 15 : 36
    const p = model.posterior(rowsOf([[1, 0, -1]]));
    expect(p[0]).toBeCloseTo(5 / 17, 14);
  });

  it('fast and slow paths agree inside one batch', () => {
    const batch = model.posterior(
      rowsOf([
        [1, 0, 2],
        [-1, 0, 2],
        [1, 0, -1],
        [0, 1, 1],
      ]),
    );
    expect(batch[0]).toBeCloseTo(1 / 7, 14);
    expect(batch[2]).toBeCloseTo(46 / 131, 14);
    expect(batch[4]).toBeCloseTo(5 / 17, 14);
    const single = model.posterior(rowsOf([[0, 1, 1]]));
    expect(batch[6]).toBeCloseTo(single[0], 15);
  });
});

/** Random CPTs for a given DAG (cards include the class last). */
function randomModel(rng: Rng, cards: number[], parents: number[][], zeroProb = 0): CptModel {
  const cpts: NodeCpt[] = parents.map((ps, v) => {
    const parentCards = Int32Array.from(ps.map((p) => cards[p]));
    const configs = parentCards.reduce((a, b) => a * b, 1);
    const r = cards[v];
    const logp = new Float64Array(configs * r);
    for (let j = 0; j < configs; j++) {
      let s = 0;
      const w: number[] = [];
      for (let k = 0; k < r; k++) {
        const x = rng.next() < zeroProb ? 0 : 0.05 + rng.next();
        w.push(x);
        s += x;
      }
      if (s === 0) {
        w[0] = 1;
        s = 1;
      }
      for (let k = 0; k < r; k++) logp[j * r + k] = Math.log(w[k] / s);
    }
    return { parents: ps, card: r, parentCards, configs, logp };
  });
  return new CptModel(cards, cpts);
}

/** Σ over all completions of the missing attributes of Π_v θ_v, per class value: exact P(c, x_obs). */
function bruteForceJoint(model: CptModel, row: number[]): number[] {
  const m = model.m;
  const cards = model.cards;
  const missing = row.map((v, a) => (v < 0 ? a : -1)).filter((a) => a >= 0);
  const out: number[] = [];
  for (let c = 0; c < model.classCard; c++) {
    let total = 0;
    const assign = new Array<number>(missing.length).fill(0);
    for (;;) {
      const x = [...row, c];
      missing.forEach((a, q) => (x[a] = assign[q]));
      let p = 1;
      for (let v = 0; v <= m; v++)
        p *= model.prob(
          v,
          x[v],
          model.cpts[v].parents.map((u) => x[u]),
        );
      total += p;
      let q = missing.length - 1;
      while (q >= 0) {
        assign[q]++;
        if (assign[q] < cards[missing[q]]) break;
        assign[q] = 0;
        q--;
      }
      if (q < 0) break;
    }
    out.push(total);
  }
  return out;
}

/** A random DAG over m attributes + class: a random topological order where the class can be anywhere. */
function randomDag(rng: Rng, m: number, maxParents: number): number[][] {
  const order = rng.shuffle(Array.from({ length: m + 1 }, (_, v) => v));
  const parents: number[][] = Array.from({ length: m + 1 }, () => []);
  for (let x = 1; x <= m; x++) {
    const v = order[x];
    const earlier = rng.shuffle(order.slice(0, x));
    parents[v] = earlier.slice(0, rng.int(Math.min(maxParents, x) + 1));
  }
  return parents;
}

describe('exact marginalisation of missing values against brute-force summation', () => {
  it('random DAGs (the class may have parents), random missing patterns, both modes', () => {
    const rng = new Rng('inference-brute-force');
    for (let trial = 0; trial < 40; trial++) {
      const m = 2 + rng.int(5);
      const cards = [...Array.from({ length: m }, () => 2 + rng.int(2)), 2 + rng.int(2)];
      const parents = randomDag(rng, m, 3);
      const model = randomModel(rng, cards, parents, trial % 4 === 0 ? 0.2 : 0);
      const rows: number[][] = [];
      for (let r = 0; r < 12; r++)
        rows.push(Array.from({ length: m }, (_, a) => (rng.next() < 0.4 ? -1 : rng.int(cards[a]))));
      const data = rowsOf(rows, cards[m], cards.slice(0, m));
      const post = model.posterior(data);
      const lj = model.logJoint(data);
      // A second call replays the cached per-pattern plans (rows repeat patterns within a call too).
      expect([...model.posterior(data)]).toEqual([...post]);
      const C = cards[m];
      rows.forEach((row, r) => {
        const joint = bruteForceJoint(model, row);
        const z = joint.reduce((a, b) => a + b, 0);
        let sum = 0;
        for (let c = 0; c < C; c++) sum += post[r * C + c];
        expect(sum).toBeCloseTo(1, 12);
        for (let c = 0; c < C; c++) {
          // With P(x_obs) = 0 the posterior is undefined; 'posterior' mode then uses only the class-dependent
          // factors (documented in inference.ts), so only the joint is compared.
          if (z > 0) expect(post[r * C + c]).toBeCloseTo(joint[c] / z, 10);
          if (joint[c] > 0) expect(lj[r * C + c]).toBeCloseTo(Math.log(joint[c]), 9);
          else expect(lj[r * C + c]).toBe(-Infinity);
        }
      });
    }
  });

  it('a TAN chain with many missing attributes is linear, not exponential', () => {
    // 40 ternary attributes in a chain, only the last observed: enumeration would need 3^39 states.
    const m = 40;
    const parents: number[][] = Array.from({ length: m }, (_, a) => (a === 0 ? [m] : [m, a - 1]));
    parents.push([]);
    const cards = [...new Array<number>(m).fill(3), 2];
    const model = randomModel(new Rng('chain'), cards, parents);
    const row = new Array<number>(m).fill(-1);
    row[m - 1] = 2;
    const p = model.posterior(rowsOf([row], 2, cards.slice(0, m)));
    expect(p[0] + p[1]).toBeCloseTo(1, 12);
    // Cross-check on a shorter prefix against brute force: first 8 attributes, last observed.
    const short = 8;
    const sp: number[][] = Array.from({ length: short }, (_, a) => (a === 0 ? [short] : [short, a - 1]));
    sp.push([]);
    const sm = randomModel(new Rng('chain-short'), [...new Array<number>(short).fill(3), 2], sp);
    const srow = new Array<number>(short).fill(-1);
    srow[short - 1] = 1;
    const joint = bruteForceJoint(sm, srow);
    const post = sm.posterior(rowsOf([srow], 2, new Array<number>(short).fill(3)));
    expect(post[0]).toBeCloseTo(joint[0] / (joint[0] + joint[1]), 12);
  });

  it("a group of missing attributes that never meets the class: 'posterior' drops it, 'joint' sums it out or refuses", () => {
    // A0..A5 (nodes 0-5, 11 values, no parents) all missing; O_ij | A_i, A_j (nodes 6-20) observed for every
    // pair; X (node 21) | C observed; W (node 22) | C missing, so that the row is marginalised exactly in both
    // modes (W is barren); C = node 23. The A's meet each other through every O but never the class: summing
    // out any A first needs a table over all six, 11^6 = 1,771,561 cells (> 10^6), so 'joint' refuses the
    // row, while for the posterior the group is a factor constant in c and is dropped unread.
    const k = 6;
    const pairs: number[][] = [];
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) pairs.push([i, j]);
    const m = k + pairs.length + 2;
    const parents = [...Array.from({ length: k }, () => [] as number[]), ...pairs, [m], [m], []];
    const cards = [...new Array<number>(k).fill(11), ...pairs.map(() => 2), 3, 2, 2];
    const model = randomModel(new Rng('disconnected'), cards, parents);
    const rng = new Rng('disconnected-rows');
    const row = [...new Array<number>(k).fill(-1), ...pairs.map(() => rng.int(2)), 2, -1];
    const data = rowsOf([row], 2, cards.slice(0, m));
    const pc = [0, 1].map((c) => model.prob(m, c) * model.prob(m - 2, 2, [c]));
    const post = model.posterior(data);
    for (const c of [0, 1]) expect(post[c]).toBeCloseTo(pc[c] / (pc[0] + pc[1]), 14);
    expect(11 ** 6).toBeGreaterThan(MAX_ELIMINATION_CELLS);
    expect(() => model.logJoint(data)).toThrow(
      /^inference: row 0: summing out missing attribute 0 needs a table of 1771561 cells \(> 1000000\); too many connected missing values for exact marginalisation$/,
    );
  });

  it('throws a clear error when the missing values are too entangled', () => {
    // 21 missing binary attributes X0..X20 (parent: class) and an observed child for every pair of them:
    // summing out any Xi first builds a table over the other 20 and the class, 2^21 > 1e6 cells.
    const k = 21;
    const parents: number[][] = Array.from({ length: k }, () => [] as number[]);
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) parents.push([i, j]);
    const m = parents.length;
    for (let a = 0; a < k; a++) parents[a] = [m];
    parents.push([]);
    const cards = [...new Array<number>(m).fill(2), 2];
    const model = randomModel(new Rng('dense'), cards, parents);
    const row = Array.from({ length: m }, (_, a) => (a < k ? -1 : 0));
    expect(2 ** 21).toBeGreaterThan(MAX_ELIMINATION_CELLS);
    expect(() => model.posterior(rowsOf([row], 2, cards.slice(0, m)))).toThrow(
      /^inference: row 0: summing out missing attribute \d+ needs a table of \d+ cells \(> 1000000\); too many connected missing values for exact marginalisation$/,
    );
  });
});

describe('which rows take the fast path, and the plan cache (NetworkInference diagnostics)', () => {
  // X0 | C, X1 | X0, X2 | C: the class's Markov blanket is {X0, X2}; X1 meets the class only through X0.
  const cards = [2, 3, 2, 2];
  const parents = [[3], [0], [3], []];
  const model = randomModel(new Rng('fast-path'), cards, parents);
  const engine = (): NetworkInference => new NetworkInference(model.cards, model.cpts);

  it("complete rows never go through variable elimination; in 'posterior' mode neither do rows missing only attributes outside the blanket", () => {
    const rows = [
      [0, 0, 0], // complete, every value 0 (a code, not a missing value)
      [1, 2, 1],
      [0, -1, 1], // X1 missing: outside the blanket
      [-1, 1, 0], // X0 missing
      [1, -1, -1], // X1 and X2 missing
    ];
    const data = rowsOf(rows, 2, cards.slice(0, 3));
    const post = engine();
    const scores = normalizeLogRows(post.logScores(data, false), 2);
    expect(post.exactRows).toBe(2); // rows 3 and 4
    const joint = engine();
    const lj = joint.logScores(data, true);
    expect(joint.exactRows).toBe(3); // rows 2, 3 and 4
    expect(joint.plansCompiled).toBe(3);
    // The numbers of either path are the enumerated ones.
    rows.forEach((row, r) => {
      const p = bruteForceJoint(model, row);
      for (const c of [0, 1]) {
        expect(scores[r * 2 + c]).toBeCloseTo(p[c] / (p[0] + p[1]), 13);
        expect(lj[r * 2 + c]).toBeCloseTo(Math.log(p[c]), 13);
      }
    });
  });

  it('a plan is compiled once per missing pattern and mode, and reused across rows and calls', () => {
    const e = engine();
    const data = rowsOf(
      [
        [-1, 0, 1],
        [0, 1, -1],
        [-1, 2, 0],
        [1, 1, -1],
        [-1, 0, 0],
      ],
      2,
      cards.slice(0, 3),
    );
    const first = e.logScores(data, false);
    expect([e.exactRows, e.plansCompiled]).toEqual([5, 2]);
    expect([...e.logScores(data, false)]).toEqual([...first]);
    expect([e.exactRows, e.plansCompiled]).toEqual([10, 2]);
    e.logScores(data, true); // the joint mode has plans of its own
    expect([e.exactRows, e.plansCompiled]).toEqual([15, 4]);
  });

  it('the cache is emptied when it holds PLAN_CACHE_LIMIT patterns and another one comes', () => {
    // Naive Bayes over 13 binary attributes: rows with missing patterns 1 .. LIMIT + 1 (bit a of the row
    // number = attribute a missing), then pattern 1 again, which the emptying has dropped.
    const m = 13;
    expect(2 ** m - 1).toBeGreaterThan(PLAN_CACHE_LIMIT);
    const nb = randomModel(
      new Rng('plan-cache'),
      new Array<number>(m + 1).fill(2),
      naiveBayesStructure(m).parents.map((p) => [...p]),
    );
    const patterns = [...Array.from({ length: PLAN_CACHE_LIMIT + 1 }, (_, i) => i + 1), 1];
    const rows = patterns.map((p) => Array.from({ length: m }, (_, a) => ((p >> a) & 1 ? -1 : 1)));
    const e = new NetworkInference(nb.cards, nb.cpts);
    e.logScores(rowsOf(rows, 2, new Array<number>(m).fill(2)), false);
    expect(e.exactRows).toBe(PLAN_CACHE_LIMIT + 2);
    expect(e.plansCompiled).toBe(PLAN_CACHE_LIMIT + 2);
    // Within the limit nothing is dropped: the same rows without the one pattern too many.
    const within = new NetworkInference(nb.cards, nb.cpts);
    within.logScores(rowsOf([...rows.slice(0, PLAN_CACHE_LIMIT), rows[0]], 2, new Array<number>(m).fill(2)), false);
    expect(within.plansCompiled).toBe(PLAN_CACHE_LIMIT);
  });
});

/**
 * The same network twice: dense tables, and sparse ones holding the same numbers. In the sparse copy of a
 * node the configurations in a random subset keep their own rows (indexed in a random order, so ids differ
 * from configuration numbers) and every other configuration shares one default row; the dense table is
 * rewritten to hold that default row there too. A node for which own gives null stays dense in both.
 */
function denseAndSparse(
  rng: Rng,
  cards: number[],
  parents: number[][],
  zeroProb: number,
  own: (v: number, configs: number) => number[] | null,
): [CptModel, CptModel] {
  const dense = randomModel(rng, cards, parents, zeroProb);
  const sparseCpts: NodeCpt[] = dense.cpts.map((cpt, v) => {
    const ownRows = own(v, cpt.configs);
    if (ownRows === null) return cpt;
    const card = cpt.card;
    const logp = Float64Array.from(cpt.logp!);
    const defRow = Array.from({ length: card }, () => 0.05 + rng.next());
    const z = defRow.reduce((a, b) => a + b, 0);
    const index = new ConfigIndex();
    for (const j of ownRows) index.add(j);
    const rows = new Float64Array((ownRows.length + 1) * card);
    ownRows.forEach((j, id) => rows.set(logp.subarray(j * card, (j + 1) * card), id * card));
    for (let k = 0; k < card; k++) rows[ownRows.length * card + k] = Math.log(defRow[k] / z);
    for (let j = 0; j < cpt.configs; j++)
      if (index.get(j) < 0) logp.set(rows.subarray(ownRows.length * card), j * card);
    (dense.cpts[v] as { logp: Float64Array }).logp = logp;
    return { parents: cpt.parents, card, parentCards: cpt.parentCards, configs: cpt.configs, index, rows };
  });
  return [new CptModel(cards, dense.cpts), new CptModel(cards, sparseCpts)];
}

/** Both models' posteriors and joints on these rows equal the enumerated joint of the dense one, bit for bit alike. */
function expectEnumerated(dense: CptModel, sparse: CptModel, rows: number[][]): void {
  const C = dense.classCard;
  const data = rowsOf(rows, C, [...dense.cards.slice(0, dense.m)]);
  for (const model of [dense, sparse]) {
    const post = model.posterior(data);
    const lj = model.logJoint(data);
    rows.forEach((row, r) => {
      const joint = bruteForceJoint(dense, row);
      const z = joint.reduce((a, b) => a + b, 0);
      for (let c = 0; c < C; c++) {
        if (z > 0) expect(post[r * C + c]).toBeCloseTo(joint[c] / z, 10);
        if (joint[c] > 0) expect(lj[r * C + c]).toBeCloseTo(Math.log(joint[c]), 9);
        else expect(lj[r * C + c]).toBe(-Infinity);
      }
    });
  }
  // Same numbers added in the same order: reading them through the index changes no bit.
  expect([...sparse.logJoint(data)]).toEqual([...dense.logJoint(data)]);
  expect([...sparse.posterior(data)]).toEqual([...dense.posterior(data)]);
}

describe('sparse tables against brute-force summation', () => {
  it('random DAGs mixing sparse and dense nodes, up to 5 classes, complete and missing rows', () => {
    const rng = new Rng('inference-sparse-brute-force');
    for (let trial = 0; trial < 40; trial++) {
      const m = 1 + rng.int(5);
      const cards = [...Array.from({ length: m }, () => 2 + rng.int(2)), 2 + rng.int(4)];
      const [dense, sparse] = denseAndSparse(rng, cards, randomDag(rng, m, 3), trial % 4 === 0 ? 0.2 : 0, (_, q) =>
        rng.next() < 0.25 ? null : rng.shuffle(Array.from({ length: q }, (_, j) => j)).filter(() => rng.next() < 0.6),
      );
      // Rows 0-7 complete, rows 8-15 with about 40 % missing values.
      const rows = Array.from({ length: 16 }, (_, r) =>
        Array.from({ length: m }, (_, a) => (r >= 8 && rng.next() < 0.4 ? -1 : rng.int(cards[a]))),
      );
      expectEnumerated(dense, sparse, rows);
    }
  });

  it('a class parent with one own row per context: read per class value, not regrouped by context', () => {
    // X1 | C, X0 with 5 classes, X0 ternary, X1 binary: 3 own rows (one per X0 value), 3 contexts, and
    // 3 contexts · 5 classes > 2 · 3 rows · 2 cells, so the blocks would outweigh the rows.
    const cards = [3, 2, 5];
    const parents = [[2], [2, 0], []];
    // Configuration of X1's family = c · 3 + x0: own rows (c=1, x0=0), (c=4, x0=1), (c=2, x0=2).
    const [dense, sparse] = denseAndSparse(new Rng('class-parent-sparse'), cards, parents, 0, (v) =>
      v === 1 ? [3, 13, 8] : v === 0 ? [1, 3] : [],
    );
    const rows: number[][] = [];
    for (let x0 = -1; x0 < 3; x0++) for (let x1 = -1; x1 < 2; x1++) rows.push([x0, x1]);
    expectEnumerated(dense, sparse, rows);
  });
});

/** A sparse table of node `card` values over these parents holding only its default row `row` (probabilities). */
function defaultOnly(parents: number[], parentCards: number[], row: number[]): NodeCpt {
  const index = new ConfigIndex();
  return {
    parents,
    card: row.length,
    parentCards: Int32Array.from(parentCards),
    configs: parentCards.reduce((a, b) => a * b, 1),
    index,
    rows: Float64Array.from(row.map(Math.log)),
  };
}

describe('pruning, elimination order and the elimination limit', () => {
  it('barren nodes are pruned before any table is built: a barren child of 21 missing parents costs nothing', () => {
    // X0..X20 binary, parent C; O (node 21, ternary) | C; B (node 22) | X0..X20, missing and observed by no one.
    // B's family over its missing members would need 2^22 cells (> 10^6): only pruning makes the row answerable.
    const m = 23;
    const parents: number[][] = [...Array.from({ length: 22 }, () => [m]), [], []];
    const cards = [...new Array<number>(21).fill(2), 3, 2, 2];
    const base = randomModel(new Rng('barren'), cards, parents);
    const x = Array.from({ length: 21 }, (_, a) => a);
    const model = new CptModel(cards, [
      ...base.cpts.slice(0, 22),
      defaultOnly(x, new Array<number>(21).fill(2), [0.3, 0.7]),
      base.cpts[m],
    ]);
    const row = [...new Array<number>(21).fill(-1), 1, -1];
    const joint = [0, 1].map((c) => model.prob(m, c) * model.prob(21, 1, [c]));
    const data = rowsOf([row], 2, cards.slice(0, m));
    const post = model.posterior(data);
    const lj = model.logJoint(data);
    for (const c of [0, 1]) {
      expect(post[c]).toBeCloseTo(joint[c] / (joint[0] + joint[1]), 14);
      expect(lj[c]).toBeCloseTo(Math.log(joint[c]), 13);
    }
  });

  it('the greedy order sums out the leaves before their hub (hub first would need 2^22 cells)', () => {
    // L0..L19 (nodes 0-19) | H, C; H (node 20) | C; O_i (node 21 + i) | L_i observed; C = node 41.
    // P(c, o) = P(c) Σ_h P(h | c) Π_i Σ_l P(l | h, c) P(o_i | l), computed here directly.
    const m = 41;
    const parents: number[][] = [
      ...Array.from({ length: 20 }, () => [20, m]),
      [m],
      ...Array.from({ length: 20 }, (_, i) => [i]),
      [],
    ];
    const cards = new Array<number>(m + 1).fill(2);
    const model = randomModel(new Rng('hub'), cards, parents);
    const rng = new Rng('hub-rows');
    const o = Array.from({ length: 20 }, () => rng.int(2));
    const joint = [0, 1].map((c) => {
      let total = 0;
      for (const h of [0, 1]) {
        let p = model.prob(20, h, [c]);
        for (let i = 0; i < 20; i++) {
          let s = 0;
          for (const l of [0, 1]) s += model.prob(i, l, [h, c]) * model.prob(21 + i, o[i], [l]);
          p *= s;
        }
        total += p;
      }
      return model.prob(m, c) * total;
    });
    const data = rowsOf([[...new Array<number>(21).fill(-1), ...o]], 2, cards.slice(0, m));
    const post = model.posterior(data);
    const lj = model.logJoint(data);
    for (const c of [0, 1]) {
      expect(post[c]).toBeCloseTo(joint[c] / (joint[0] + joint[1]), 12);
      expect(lj[c]).toBeCloseTo(Math.log(joint[c]), 10);
    }
  });

  it('a table of exactly MAX_ELIMINATION_CELLS cells is allowed, one more value is refused', () => {
    // A0..A5 (10 values each, no parents) all missing; Y (node 6) | A0..A5 observed; O (node 7) | C; C = node 8.
    // In 'joint' mode Y's table over its missing parents, and summing out any A_i, take 10^6 cells. Y is sparse: own rows for
    // three configurations S, the default row for the rest, so P(Y = y) = Σ_S P(a) θ_a + (1 − Σ_S P(a)) θ_def.
    const build = (card0: number): CptModel => {
      const cards = [card0, 10, 10, 10, 10, 10, 2, 2, 2];
      const base = randomModel(new Rng('limit'), cards, [[], [], [], [], [], [], [], [8], []]);
      const own = [0, 123456, 999999];
      const index = new ConfigIndex();
      for (const cfg of own) index.add(cfg);
      const theta = [0.9, 0.2, 0.35, 0.6]; // P(Y = 1) for the three own rows and the default row
      const y: NodeCpt = {
        parents: [0, 1, 2, 3, 4, 5],
        card: 2,
        parentCards: Int32Array.from(cards.slice(0, 6)),
        configs: card0 * 10 ** 5,
        index,
        rows: Float64Array.from(theta.flatMap((t) => [Math.log(1 - t), Math.log(t)])),
      };
      return new CptModel(cards, [...base.cpts.slice(0, 6), y, ...base.cpts.slice(7)]);
    };
    const model = build(10);
    expect(10 ** 6).toBe(MAX_ELIMINATION_CELLS);
    const row = [-1, -1, -1, -1, -1, -1, 1, 0];
    const data = rowsOf([row], 2, [10, 10, 10, 10, 10, 10, 2, 2]);
    // P(a) of a configuration (A0 most significant).
    const pa = (cfg: number): number => {
      let p = 1;
      for (let i = 5; i >= 0; i--, cfg = Math.floor(cfg / 10)) p *= model.prob(i, cfg % 10);
      return p;
    };
    const inS = [0, 123456, 999999].map(pa);
    const py = inS.reduce((acc, p, k) => acc + p * [0.9, 0.2, 0.35][k], 0) + (1 - inS.reduce((a, b) => a + b)) * 0.6;
    const pc = [0, 1].map((c) => model.prob(8, c) * model.prob(7, 0, [c]));
    const post = model.posterior(data);
    const lj = model.logJoint(data);
    for (const c of [0, 1]) {
      expect(post[c]).toBeCloseTo(pc[c] / (pc[0] + pc[1]), 14);
      expect(lj[c]).toBeCloseTo(Math.log(pc[c] * py), 12);
    }
    // Only 'joint' reads Y: for the posterior its factor is constant in c.
    expect(() => build(11).logJoint(rowsOf([row], 2, [11, 10, 10, 10, 10, 10, 2, 2]))).toThrow(
      /^inference: row 0: the family of node 6 over its missing attributes needs 1100000 cells \(> 1000000\); too many missing values for exact marginalisation$/,
    );
  });
});

describe('normalisation and robustness', () => {
  it('a row with -Infinity for every class becomes uniform', () => {
    const s = Float64Array.from([-Infinity, -Infinity, -Infinity, 0, Math.log(3), -Infinity]);
    normalizeLogRows(s, 3);
    expect([...s.subarray(0, 3)]).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(s[3]).toBeCloseTo(0.25, 15);
    expect(s[4]).toBeCloseTo(0.75, 15);
    expect(s[5]).toBe(0);
  });

  it('does not underflow on log scores near -1e6', () => {
    // exp(-1e6) underflows to 0; the shift by the row maximum keeps the ratio 1 : 1/4.
    // (-1e6 - ln 4 is stored to the ulp of 1e6, ~1.2e-10, hence 9 digits.)
    const s = Float64Array.from([-1e6, -1e6 - Math.log(4)]);
    normalizeLogRows(s, 2);
    expect(s[0]).toBeCloseTo(0.8, 9);
  });

  it('rejects data whose cardinalities differ from the model', () => {
    const model = fitCptModel(tinyData(), naiveBayesStructure(3), laplace);
    expect(() => model.posterior(rowsOf([[0, 0, 0]], 2, [2, 2, 4]))).toThrow(/attribute 2 has 4 values/);
  });
});

describe('MixtureModel', () => {
  const d = tinyData();
  const nbM = fitCptModel(d, naiveBayesStructure(3), laplace);
  const tanM = fitCptModel(d, tanStructure, laplace);
  const test = rowsOf([[1, 0, 2]]);

  it('averages member posteriors with normalised weights', () => {
    // 1/4 · (9/23) + 3/4 · (1/7)
    const mix = new MixtureModel([
      { weight: 1, model: nbM },
      { weight: 3, model: tanM },
    ]);
    expect(mix.posterior(test)[0]).toBeCloseTo(0.25 * (9 / 23) + 0.75 * (1 / 7), 14);
  });

  it("combine 'joint' averages P(c, x) before normalising", () => {
    // NB joints (1/42, 1/27), TAN joints (1/90, 1/15), equal weights: P(C=0) ∝ 1/42 + 1/90.
    const mix = new MixtureModel(
      [
        { weight: 1, model: nbM },
        { weight: 1, model: tanM },
      ],
      'joint',
    );
    const a = 1 / 42 + 1 / 90;
    const b = 1 / 27 + 1 / 15;
    expect(mix.posterior(test)[0]).toBeCloseTo(a / (a + b), 14);
  });

  it('fitModel turns Structure.members into a weighted mixture', () => {
    const s: Structure = {
      m: 3,
      parents: naiveBayesStructure(3).parents,
      members: [
        { weight: 2, structure: naiveBayesStructure(3) },
        { weight: 2, structure: tanStructure },
      ],
    };
    const p = fitModel(d, s, laplace).posterior(test);
    expect(p[0]).toBeCloseTo(0.5 * (9 / 23) + 0.5 * (1 / 7), 14);
  });

  it('rejects bad weights', () => {
    expect(() => new MixtureModel([{ weight: -1, model: nbM }])).toThrow(/weight/);
    expect(() => new MixtureModel([{ weight: 0, model: nbM }])).toThrow(/sum to 0/);
  });
});
