/**
 * HDP estimates (Petitjean, Buntine, Webb & Zaidi 2018). Reference numbers and their provenance:
 *  - Stirling numbers: exact integers from the recurrence in BigInt arithmetic (this file), plus the
 *    textbook values S(5,2) = 50, S(n,1) = (n−1)! and the row n = 10 of the table of unsigned Stirling
 *    numbers of the first kind (OEIS A132393): 362880, 1026576, 1172700, 723680, … — so S(10,2) = 1026576
 *    and S(10,3) = 1172700 (the reference page's "S(10,3) = 1026576" is the S(10,2) entry).
 *  - Initial pseudo-counts of Table 1's Dataset 1 and the seed-averaged estimates of Table 1 and of the
 *    heart-attack toy data: ../shared/reference/hdp-estimator.md §2, obtained by running the authors'
 *    Java code (github fpetitjean/HDP) over 10–30 seeds. Each reference value is printed to 3 decimals, so
 *    the tolerance is 3 standard deviations (of a single run, as the reference reports) plus 0.0005.
 */
import { describe, it, expect } from 'vitest';
import {
  ContextTree,
  type HdpModel,
  LogStirlingCache,
  Variates,
  digamma,
  fitHdpModel,
  hdp,
  hdpSettings,
  type HdpParams,
} from '../../src/estimators/hdp/index.js';
import { completeParams } from '../../src/registry.js';
import { UserError } from '../../src/util/errors.js';
import { Rng } from '../../src/util/rng.js';
import { discreteFromArrays, MISSING, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { MixtureModel } from '../../src/bn/inference.js';

/** The sampler settings for some parameters, the others at their defaults (as the registry fills them). */
const settings = (p: Partial<HdpParams>) => hdpSettings(completeParams(hdp, p));

/** Exact S(n, t) for n ≤ N by the recurrence, as BigInt. */
function exactStirling(N: number): bigint[][] {
  const s: bigint[][] = [[1n]];
  for (let n = 1; n <= N; n++) {
    const row: bigint[] = [];
    for (let t = 0; t <= n; t++) {
      const a = t >= 1 ? (s[n - 1][t - 1] ?? 0n) : 0n;
      const b = BigInt(n - 1) * (s[n - 1][t] ?? 0n);
      row.push(a + b);
    }
    s.push(row);
  }
  return s;
}

function logBig(x: bigint): number {
  const bits = x.toString(2).length;
  const shift = Math.max(0, bits - 60);
  return Math.log(Number(x >> BigInt(shift))) + shift * Math.LN2;
}

describe('log Stirling numbers of the first kind', () => {
  it('matches the textbook values S(5,2) = 50, S(10,·), S(n,1) = (n−1)!, S(n,n) = 1', () => {
    const c = new LogStirlingCache();
    expect(Math.exp(c.logS(5, 2))).toBeCloseTo(50, 9);
    const row10 = [0, 362880, 1026576, 1172700, 723680, 269325, 63273, 9450, 870, 45, 1];
    row10.forEach((v, t) =>
      v === 0 ? expect(c.logS(10, t)).toBe(-Infinity) : expect(Math.exp(c.logS(10, t)) / v).toBeCloseTo(1, 13),
    );
    let logFact = 0; // log (n−1)!
    for (let n = 1; n <= 300; n++) {
      expect(c.logS(n, 1)).toBeCloseTo(logFact, 9);
      expect(c.logS(n, n)).toBe(0);
      logFact += Math.log(n);
    }
    expect(c.logS(0, 0)).toBe(0);
    expect(c.logS(7, 0)).toBe(-Infinity);
    expect(c.logS(4, 6)).toBe(-Infinity);
  });

  it('equals the exact recurrence (BigInt) for n ≤ 160, across the 64-column chunk boundaries', () => {
    const N = 160;
    const exact = exactStirling(N);
    const c = new LogStirlingCache();
    for (let n = 1; n <= N; n++) {
      for (let t = 1; t <= n; t++) {
        const want = logBig(exact[n][t]);
        expect(Math.abs(c.logS(n, t) - want)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want)));
      }
    }
    // Σ_t S(n, t) = n!
    let s = 0;
    for (let t = 1; t <= 12; t++) s += Math.exp(c.logS(12, t));
    expect(s).toBeCloseTo(479001600, 3);
  });

  it('gives the same values whatever order the table grows in, and the neighbour ratios B and P', () => {
    const exact = exactStirling(150);
    const a = new LogStirlingCache();
    a.ensure(20, 3);
    a.ensure(100, 70);
    a.ensure(150, 5);
    a.ensure(150, 140);
    const b = new LogStirlingCache();
    b.ensure(150, 150);
    for (const [n, t] of [
      [150, 1],
      [150, 63],
      [150, 64],
      [150, 65],
      [149, 128],
      [150, 140],
      [99, 70],
    ] as const) {
      expect(a.get(n, t)).toBe(b.get(n, t));
    }
    for (const [n, t] of [
      [10, 3],
      [130, 64],
      [130, 65],
      [140, 128],
      [150, 2],
    ] as const) {
      const wantB = Math.exp(logBig(exact[n][t]) - logBig(exact[n][t - 1]));
      expect(a.ratioInT(n, t) / wantB).toBeCloseTo(1, 11);
      const wantP = Math.exp(logBig(exact[n][t]) - logBig(exact[n - 1][t]));
      expect(a.ratioInN(n, t) / wantP).toBeCloseTo(1, 11);
    }
    expect(a.cells()).toBeGreaterThan(0);
  });
});

describe('special functions and variates', () => {
  const gamma = 0.5772156649015329;
  it('digamma at known points', () => {
    expect(digamma(1)).toBeCloseTo(-gamma, 13);
    expect(digamma(2)).toBeCloseTo(1 - gamma, 13);
    expect(digamma(0.5)).toBeCloseTo(-gamma - 2 * Math.LN2, 13);
    // ψ(10) = H_9 − γ
    let h = 0;
    for (let j = 1; j <= 9; j++) h += 1 / j;
    expect(digamma(10)).toBeCloseTo(h - gamma, 13);
    expect(digamma(1e6)).toBeCloseTo(Math.log(1e6) - 0.5e-6, 12);
  });

  it('Gamma(shape) draws have mean shape and variance shape (5 standard errors)', () => {
    const v = new Variates(new Rng('gamma'));
    for (const shape of [0.05, 0.7, 2, 55]) {
      const N = 40000;
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < N; i++) {
        const x = Math.exp(v.logGamma(shape));
        s += x;
        s2 += x * x;
      }
      const mean = s / N;
      const variance = s2 / N - mean * mean;
      expect(Math.abs(mean - shape)).toBeLessThan(5 * Math.sqrt(shape / N));
      expect(Math.abs(variance / shape - 1)).toBeLessThan(shape < 0.1 ? 0.35 : 0.1);
    }
  });

  it('log(1/q), q ~ Beta(a, b), has mean ψ(a+b) − ψ(a) and variance ψ′(a) − ψ′(a+b) (both samplers)', () => {
    const v = new Variates(new Rng('beta'));
    for (const [a, b] of [
      [0.3, 40],
      [2, 2],
      [0.05, 1],
      [7, 16],
      [3, 17],
      [50, 1000],
    ] as const) {
      const N = 40000;
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < N; i++) {
        const x = v.logInvBeta(a, b);
        s += x;
        s2 += x * x;
      }
      const mean = s / N;
      const sd = Math.sqrt(s2 / N - mean * mean);
      expect(Math.abs(mean - (digamma(a + b) - digamma(a)))).toBeLessThan(5 * (sd / Math.sqrt(N)));
      expect((sd * sd) / (trigamma(a) - trigamma(a + b))).toBeCloseTo(1, 1);
    }
  });
});

/** ψ′(x) by recurrence to x ≥ 10 and the asymptotic series (test helper). */
function trigamma(x: number): number {
  let r = 0;
  while (x < 10) {
    r += 1 / (x * x);
    x += 1;
  }
  const f = 1 / (x * x);
  return r + 1 / x + f / 2 + (f / x) * (1 / 6 - f * (1 / 30 - f * (1 / 42 - f / 30)));
}

/** The rows of Table 1: counts of X1 = 0, 1 for y = 0 and y = 1. */
function table1(y0: [number, number], y1: [number, number]): { x: Int32Array; y: Int32Array } {
  const x: number[] = [];
  const y: number[] = [];
  [y0, y1].forEach((counts, yv) =>
    counts.forEach((cnt, xv) => {
      for (let i = 0; i < cnt; i++) {
        x.push(xv);
        y.push(yv);
      }
    }),
  );
  return { x: Int32Array.from(x), y: Int32Array.from(y) };
}
const D1 = table1([2, 0], [20, 5]);
const D2 = table1([2, 0], [4, 9]);

function tree1(d: { x: Int32Array; y: Int32Array }): ContextTree {
  return new ContextTree(d.x, 2, [d.y], [2], d.x.length);
}

/** The context tree by definition: breadth-first, each node's children in value order, for the layout test. */
function referenceTree(child: Int8Array, K: number, cols: Int8Array[], cards: number[], rows: number) {
  const kept: number[] = [];
  for (let r = 0; r < rows; r++) if (child[r] >= 0 && cols.every((c) => c[r] >= 0)) kept.push(r);
  const parent = [-1];
  const childStart = [-1];
  const children: number[] = [];
  const depthStart = [0, 1];
  let level: { id: number; rows: number[] }[] = [{ id: 0, rows: kept }];
  for (let d = 0; d < cols.length; d++) {
    const next: { id: number; rows: number[] }[] = [];
    if (kept.length > 0) {
      for (const node of level) {
        childStart[node.id] = children.length;
        for (let v = 0; v < cards[d]; v++) {
          const rs = node.rows.filter((r) => cols[d][r] === v);
          if (rs.length === 0) {
            children.push(-1);
            continue;
          }
          const id = parent.length;
          parent.push(node.id);
          childStart.push(-1);
          children.push(id);
          next.push({ id, rows: rs });
        }
      }
    }
    depthStart.push(parent.length);
    level = next;
  }
  const n = new Array<number>(parent.length * K).fill(0);
  for (const leaf of level) for (const r of leaf.rows) n[leaf.id * K + child[r]]++;
  return { parent, childStart, children, depthStart, n };
}

describe('context tree', () => {
  it('is laid out as the definition says, from dense counts (few configurations) and from rows (many)', () => {
    const rng = new Rng('hdp/tree-layout');
    let dense = 0;
    let sparse = 0;
    for (let c = 0; c < 400; c++) {
      const D = Math.floor(rng.next() * 4);
      const K = 1 + Math.floor(rng.next() * 4);
      const cards = Array.from({ length: D }, () => 1 + Math.floor(rng.next() * 5));
      // few rows under many configurations take the general construction, many rows the dense counts
      const rows = c % 10 === 0 ? 0 : Math.floor(rng.next() * (c % 2 ? 8 : 300));
      const missing = c % 3 === 0 ? 0.1 : 0;
      const column = (card: number) =>
        Int8Array.from({ length: rows }, () =>
          rng.next() < missing ? -1 : Math.min(card - 1, Math.floor(card * rng.next() ** 2)),
        );
      const child = column(K);
      const cols = cards.map(column);
      const t = new ContextTree(child, K, cols, cards, rows);
      const ref = referenceTree(child, K, cols, cards, rows);
      expect([...t.parent]).toEqual(ref.parent);
      expect([...t.childStart]).toEqual(ref.childStart);
      expect([...t.children]).toEqual(ref.children);
      expect([...t.depthStart]).toEqual(ref.depthStart);
      expect([...t.n]).toEqual(ref.n);
      expect(t.size).toBe(ref.parent.length);
      const configs = cards.reduce((a, b) => a * b, 1);
      if (D > 0 && configs <= 4 * rows) dense++;
      else sparse++;
    }
    expect(dense).toBeGreaterThan(50);
    expect(sparse).toBeGreaterThan(50);
  });

  it('initial pseudo-counts of Table 1, Dataset 1 (reference §2: leaves [5,2] and [1,0], root n [6,2], t [1,1])', () => {
    const tr = tree1(D1);
    tr.initialise(2);
    expect(tr.size).toBe(3);
    const leaf0 = tr.find([0]);
    const leaf1 = tr.find([1]);
    expect([tr.n[leaf1 * 2], tr.n[leaf1 * 2 + 1]]).toEqual([20, 5]);
    // ⌊2(H21 − 1)⌋ = 5, ⌊2(H6 − 1)⌋ = 2
    expect([tr.t[leaf1 * 2], tr.t[leaf1 * 2 + 1]]).toEqual([5, 2]);
    expect([tr.t[leaf0 * 2], tr.t[leaf0 * 2 + 1]]).toEqual([1, 0]);
    expect([tr.n[0], tr.n[1]]).toEqual([6, 2]);
    expect([tr.t[0], tr.t[1]]).toEqual([1, 1]);
    expect([tr.nSum[0], tr.tSum[leaf1]]).toEqual([8, 7]);
  });

  it('holds only the branches the data reaches, breadth-first, and backs off along a query path', () => {
    // X | A, B with A ∈ {0,1,2}, B ∈ {0,1}; A = 2 never occurs, (A = 1, B = 1) never occurs.
    const rows = [
      [0, 0, 0],
      [1, 0, 1],
      [1, 1, 0],
      [0, 1, 0],
      [0, 0, 0],
    ];
    const col = (j: number) => Int32Array.from(rows.map((r) => r[j]));
    const tr = new ContextTree(col(0), 2, [col(1), col(2)], [3, 2], rows.length);
    expect(tr.size).toBe(1 + 2 + 3); // root; A = 0, 1; (0,0), (0,1), (1,0)
    expect([...tr.depthStart]).toEqual([0, 1, 3, 6]);
    const a1 = tr.find([1, -1]);
    expect(tr.find([1, 1])).toBe(a1); // unseen (1, 1) stops at A = 1
    expect(tr.find([2, 0])).toBe(0); // unseen A = 2 stops at the root
    expect(tr.parent[tr.find([0, 1])]).toBe(tr.find([0, -1]));
    expect(tr.dataCount()).toBe(5);
    const g = (tying: 'none' | 'same-parent' | 'level' | 'single') => tr.groups(tying).count;
    expect([g('none'), g('same-parent'), g('level'), g('single')]).toEqual([5, 3, 2, 1]);
  });

  it('keeps the sampler invariants: internal n = Σ children t, 1 ≤ t ≤ n, root t = min(1, n)', () => {
    const rng = new Rng('inv');
    const N = 400;
    const x = new Int32Array(N);
    const a = new Int32Array(N);
    const b = new Int32Array(N);
    for (let r = 0; r < N; r++) {
      a[r] = rng.int(3);
      b[r] = rng.int(4);
      x[r] = (a[r] + (rng.next() < 0.6 ? b[r] : rng.int(3))) % 3;
    }
    const tr = new ContextTree(x, 3, [a, b], [3, 4], N);
    tr.sample(settings({ iterations: 300, tying: 'same-parent' }), new LogStirlingCache(), new Variates(new Rng('s')));
    const K = 3;
    for (let i = 0; i < tr.size; i++) {
      for (let k = 0; k < K; k++) {
        const n = tr.n[i * K + k];
        const t = tr.t[i * K + k];
        if (i === 0) expect(t).toBe(Math.min(1, n));
        else if (n === 0) expect(t).toBe(0);
        else expect(t >= 1 && t <= n).toBe(true);
      }
      if (tr.childStart[i] >= 0) {
        const sum = new Array<number>(K).fill(0);
        for (let j = 0; j < tr.size; j++) if (tr.parent[j] === i) for (let k = 0; k < K; k++) sum[k] += tr.t[j * K + k];
        expect([...tr.n.subarray(i * K, i * K + K)]).toEqual(sum);
      }
    }
    expect(tr.recorded).toBe(300 - 30);
    expect(tr.dataCount()).toBe(N);
  });

  it('the ratio products draw the same chain as the log-space weights (same seed)', () => {
    for (const d of [D1, D2]) {
      const s = settings({ iterations: 3000, tying: 'none', concentrationEvery: 1 });
      const a = tree1(d);
      const b = tree1(d);
      a.sample(s, new LogStirlingCache(), new Variates(new Rng('same')));
      b.sample(s, new LogStirlingCache(), new Variates(new Rng('same')), undefined, true);
      expect([...a.t]).toEqual([...b.t]);
      for (let i = 0; i < a.pSum.length; i++) expect(a.pSum[i]).toBeCloseTo(b.pSum[i], 8);
    }
  });
});

/** Mean and sd over seeds of p(X = 0 | y = 0), p(X = 0 | y = 1) and the root's p(X = 0). */
function table1Runs(d: { x: Int32Array; y: Int32Array }, params: Partial<HdpParams>, seeds: number) {
  const s = settings(params);
  const runs: number[][] = [];
  for (let seed = 0; seed < seeds; seed++) {
    const tr = tree1(d);
    tr.sample(s, new LogStirlingCache(), new Variates(new Rng(`table1/${seed}`)));
    const out = new Float64Array(2);
    const r: number[] = [];
    for (const node of [tr.find([0]), tr.find([1]), 0]) {
      tr.average(node, out);
      r.push(out[0]);
    }
    runs.push(r);
  }
  return [0, 1, 2].map((j) => runs.reduce((a, r) => a + r[j], 0) / seeds);
}

function within(mean: number, ref: number, sd: number): void {
  expect(Math.abs(mean - ref)).toBeLessThanOrEqual(3 * sd + 0.0005);
}

describe('paper Table 1 (NB worked example): 50,000 iterations, no tying, concentrations every iteration', () => {
  const base: Partial<HdpParams> = { iterations: 50000, tying: 'none', concentrationEvery: 1 };

  it('paper prior ν0 = μ0 = 0 reproduces Table 1: D1 [0.89, 0.79], D2 [0.86, 0.34]', () => {
    // reference §2 (30 seeds): D1 0.888 (0.003), 0.795 (0.0002); D2 0.858 (0.005), 0.342 (0.001); roots 0.705, 0.557
    const d1 = table1Runs(D1, { ...base, prior: 'paper' }, 10);
    within(d1[0], 0.888, 0.003);
    within(d1[1], 0.795, 0.0002);
    within(d1[2], 0.705, 0.003);
    const d2 = table1Runs(D2, { ...base, prior: 'paper' }, 10);
    within(d2[0], 0.858, 0.005);
    within(d2[1], 0.342, 0.001);
    within(d2[2], 0.557, 0.005);
    // The values printed in the paper's Table 1 (2 decimals): within half a unit plus 3 standard errors of
    // our 10-seed mean.
    const printed: [number, number, number][] = [
      [d1[0], 0.89, 0.003],
      [d1[1], 0.79, 0.0002],
      [d2[0], 0.86, 0.005],
      [d2[1], 0.34, 0.001],
    ];
    for (const [ours, paper, sd] of printed)
      expect(Math.abs(ours - paper)).toBeLessThanOrEqual(0.005 + (3 * sd) / Math.sqrt(10));
  });

  it("the authors' shipped prior Gamma(2, 1) gives D1 0.872 / 0.794 and D2 0.832 / 0.339 instead", () => {
    // reference §2 (Test2LevelMLPaperMain, 30 seeds): 0.872 (0.0004), 0.794; 0.832 (0.0005), 0.339; roots 0.695, 0.595.
    // Where the reference gives no sd, the paper-prior run's sd of the same cell is used.
    const d1 = table1Runs(D1, { ...base, prior: 'code' }, 10);
    within(d1[0], 0.872, 0.0004);
    within(d1[1], 0.794, 0.0002);
    within(d1[2], 0.695, 0.003);
    const d2 = table1Runs(D2, { ...base, prior: 'code' }, 10);
    within(d2[0], 0.832, 0.0005);
    within(d2[1], 0.339, 0.001);
    within(d2[2], 0.595, 0.005);
  });
});

describe("heart-attack toy data (authors' Test2LevelsExampleHeartAttack), code defaults", () => {
  // Rows (target, weight, height); codes in order of first appearance as the authors' addDataset does.
  const rows =
    'yes,heavy,tall;no,light,short;no,heavy,med;no,light,med;no,light,short;no,heavy,med;yes,heavy,short;no,heavy,tall;' +
    'no,heavy,tall;no,light,short;no,heavy,tall;no,light,med;no,heavy,med;no,light,med;yes,heavy,med';
  const codes: Record<string, number>[] = [
    { yes: 0, no: 1 },
    { heavy: 0, light: 1 },
    { tall: 0, short: 1, med: 2 },
  ];
  const table = rows.split(';').map((r) => r.split(','));
  const cols = [0, 1, 2].map((j) => Int32Array.from(table.map((r) => codes[j][r[j]])));

  it('20-seed means of p(yes | weight, height) match the reference (LEVEL, 5,000 iterations, Gamma(2,1), c every 5th)', () => {
    // reference §2: heavy&short 0.622 (0.008), heavy&tall 0.309 (0.001), heavy&med 0.309 (0.001),
    // light&short 0.036 (0.001), light&tall (unseen → the light node) 0.093 (0.004), heavy 0.431 (0.004), root 0.338 (0.003)
    const queries: [number[], number, number][] = [
      [[0, 1], 0.622, 0.008],
      [[0, 0], 0.309, 0.001],
      [[0, 2], 0.309, 0.001],
      [[1, 1], 0.036, 0.001],
      [[1, 0], 0.093, 0.004],
      [[0, -1], 0.431, 0.004],
      [[-1, -1], 0.338, 0.003],
    ];
    const sums = new Array<number>(queries.length).fill(0);
    const seeds = 20;
    const s = settings({});
    for (let seed = 0; seed < seeds; seed++) {
      const tr = new ContextTree(cols[0], 2, [cols[1], cols[2]], [2, 3], table.length);
      tr.sample(s, new LogStirlingCache(), new Variates(new Rng(`heart/${seed}`)));
      const out = new Float64Array(2);
      queries.forEach(([q], j) => {
        tr.average(tr.find(q), out);
        sums[j] += out[0] / seeds;
      });
    }
    queries.forEach(([, ref, sd], j) => within(sums[j], ref, sd));
    // light&tall is not in the tree: its query is the light node's estimate
    const tr = new ContextTree(cols[0], 2, [cols[1], cols[2]], [2, 3], table.length);
    expect(tr.find([1, 0])).toBe(tr.find([1, -1]));
  });
});

describe('the estimator', () => {
  // TAN-like structure over 3 attributes: X0 | C; X1 | C, X0; X2 | C, X1.
  const tanish: Structure = { m: 3, parents: [[3], [3, 0], [3, 1], []] };
  function data(seed: string, n: number, missing = 0): DiscreteData {
    const rng = new Rng(seed);
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < n; r++) {
      const c = rng.int(2);
      const x0 = rng.next() < 0.7 ? c : rng.int(3);
      const x1 = rng.next() < 0.6 ? x0 % 2 : rng.int(2);
      const x2 = rng.next() < 0.5 ? (x1 + c) % 3 : rng.int(3);
      const row = [x0, x1, x2].map((v) => (rng.next() < missing ? MISSING : v));
      rows.push(row);
      classes.push(c);
    }
    return discreteFromArrays({ cards: [3, 2, 3], rows, classes, classCard: 2 });
  }
  const ctx = (seed: string) => ({ rng: new Rng(seed) });

  it("is registered with the authors' defaults and rejects bad parameters with a UserError", () => {
    expect(hdp.defaults).toMatchObject({
      iterations: 5000,
      tying: 'level',
      prior: 'code',
      concentrationEvery: 5,
      maxConcentration: 4000,
      window: 10,
    });
    const s = settings({});
    expect(s.burnIn).toBe(500);
    expect(settings({ iterations: 50000 }).burnIn).toBe(1000);
    expect([s.priorShape, s.priorRate]).toEqual([2, 1]);
    expect([settings({ prior: 'paper' }).priorShape, settings({ prior: 'paper' }).priorRate]).toEqual([0, 0]);
    // Named presets: `paper` also samples the concentrations every iteration, unless the spec says otherwise.
    expect(settings({}).concentrationEvery).toBe(5);
    expect(settings({ prior: 'code' }).concentrationEvery).toBe(5);
    expect(settings({ prior: 'paper' }).concentrationEvery).toBe(1);
    expect(settings({ prior: 'paper', concentrationEvery: 5 }).concentrationEvery).toBe(5);
    for (const bad of [
      { iterations: 0 },
      { iterations: 10, burnIn: 10 },
      { tying: 'x' },
      { window: 0 },
      { classPrior: 'mle' },
      { initialConcentration: 5000 },
    ]) {
      expect(() => settings(bad as Partial<HdpParams>)).toThrow(UserError);
    }
  });

  it('is deterministic under a seed and changes with the seed', () => {
    const train = data('train', 300);
    const test = data('test', 50);
    const p = (seed: string) => [...hdp.fit(train, tanish, { iterations: 400 }, ctx(seed)).posterior(test)];
    expect(p('a')).toEqual(p('a'));
    expect(p('a')).not.toEqual(p('b'));
  });

  it("class prior: 'm-estimate' is (n_y + 1/C)/(N + 1); 'hdp' is the root-only tree (n_y + 2/C)/(N + 2)", () => {
    const train = data('train', 200);
    const n1 = [...train.classColumn].filter((c) => c === 1).length;
    // An empty structure: the posterior is the class prior.
    const empty: Structure = { m: 3, parents: [[], [], [], []] };
    const test = data('test', 1);
    const pm = hdp.fit(train, empty, { iterations: 20 }, ctx('c')).posterior(test);
    expect(pm[1]).toBeCloseTo((n1 + 0.5) / 201, 14);
    const ph = hdp.fit(train, empty, { iterations: 20, classPrior: 'hdp' }, ctx('c')).posterior(test);
    expect(ph[1]).toBeCloseTo((n1 + 1) / 202, 14);
  });

  it('complete rows use the trees; the written-out CPTs (with back-off) give the same posteriors', () => {
    const train = data('train', 300);
    const test = data('test', 80);
    const model = fitHdpModel(train, tanish, settings({ iterations: 300 }), ctx('m'));
    const viaTrees = model.posterior(test);
    const viaCpts = model.materialize().posterior(test);
    for (let i = 0; i < viaTrees.length; i++) expect(viaTrees[i]).toBeCloseTo(viaCpts[i], 12);
  });

  it('an unseen parent combination backs off to the deepest existing ancestor', () => {
    // X1 = 1 never occurs with X0 = 2 in training: P(X1 | C, X0 = 2) must be the C node's estimate.
    const base = data('train', 200);
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < base.n; r++) {
      const x0 = base.columns[0][r];
      if (x0 === 2) continue;
      rows.push([x0, base.columns[1][r], base.columns[2][r]]);
      classes.push(base.classColumn[r]);
    }
    const train = discreteFromArrays({ cards: [3, 2, 3], rows, classes, classCard: 2 });
    const model = fitHdpModel(train, tanish, settings({ iterations: 200 }), ctx('b')) as HdpModel;
    const fam = model.families[1];
    expect(fam.branch).toEqual([3, 0]);
    const tree = fam.tree!;
    for (const c of [0, 1]) {
      const cNode = tree.find([c, -1]);
      expect(tree.find([c, 2])).toBe(cNode);
      // CPT row (C = c, X0 = 2) equals the C = c node's averaged estimate
      const cpt = model.materialize().cpts[1];
      const cfg = c * 3 + 2;
      for (let k = 0; k < 2; k++) expect(cpt.logp![cfg * 2 + k]).toBe(fam.logp[cNode * 2 + k]);
    }
  });

  it('rows with missing values are marginalised exactly (= the CPT network), complete rows are unchanged', () => {
    const train = data('train', 300);
    const test = data('test', 60, 0.3);
    for (let a = 0; a < 3; a++) test.columns[a][0] = MISSING;
    const model = fitHdpModel(train, tanish, settings({ iterations: 200 }), ctx('x'));
    const p = model.posterior(test);
    const q = model.materialize().posterior(test);
    for (let i = 0; i < p.length; i++) expect(p[i]).toBeCloseTo(q[i], 12);
    // all-missing row: the class prior
    expect(p[1] / p[0]).toBeCloseTo(Math.exp(model.families[3].logp[1] - model.families[3].logp[0]), 12);
  });

  it('pulls a sparse class-conditional estimate towards the shared marginal (HDP vs per-class m-estimate)', () => {
    // Table 1, Dataset 1 as an NB: the HDP posterior for x = 1 is further from 0/1 evidence than the MLE.
    const rows = [...D1.x].map((v) => [v]);
    const train = discreteFromArrays({ cards: [2], rows, classes: [...D1.y], classCard: 2 });
    const model = fitHdpModel(
      train,
      naiveBayesStructure(1),
      settings({ iterations: 4000, tying: 'none', concentrationEvery: 1, prior: 'paper' }),
      ctx('nb'),
    );
    const theta = Math.exp(model.families[0].logp[model.families[0].tree!.find([0]) * 2]);
    expect(theta).toBeGreaterThan(0.85); // paper: 0.89 (MLE 1.00, m-estimate 0.83)
    expect(theta).toBeLessThan(0.93);
  });

  it('log P(c, x_obs) includes the class-free families and equals the CPT network, missing values or not', () => {
    const train = data('train', 300);
    // X2 has no class parent here: constant in c, but part of the joint.
    const s: Structure = { m: 3, parents: [[3], [3, 0], [1], []] };
    const model = fitHdpModel(train, s, settings({ iterations: 200 }), ctx('j'));
    for (const test of [data('test', 40), data('test', 40, 0.3)]) {
      const a = model.logJoint(test);
      const b = model.materialize().logJoint(test);
      for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i], 10);
    }
  });

  it('fits ensembles member by member: posterior mixtures, and joint mixtures (AODE-style) from logJoint', () => {
    const train = data('train', 200);
    const test = data('test', 10);
    const s: Structure = {
      ...tanish,
      members: [
        { weight: 1, structure: tanish },
        { weight: 3, structure: naiveBayesStructure(3) },
      ],
    };
    const model = hdp.fit(train, s, { iterations: 100 }, ctx('e'));
    expect(model).toBeInstanceOf(MixtureModel);
    const p = model.posterior(test);
    for (let r = 0; r < 10; r++) expect(p[2 * r] + p[2 * r + 1]).toBeCloseTo(1, 12);
    // combine 'joint': P(c | x) ∝ Σ_k w_k P_k(c, x), from the members fitted with the same seed streams
    const joint = hdp.fit(train, { ...s, combine: 'joint' }, { iterations: 100 }, ctx('e')).posterior(test);
    const m0 = fitHdpModel(train, tanish, settings({ iterations: 100 }), {
      rng: new Rng('e').derive('structure/0'),
    }).logJoint(test);
    const m1 = fitHdpModel(train, naiveBayesStructure(3), settings({ iterations: 100 }), {
      rng: new Rng('e').derive('structure/1'),
    }).logJoint(test);
    for (let r = 0; r < 10; r++) {
      const w = [0, 1].map((c) => 0.25 * Math.exp(m0[2 * r + c]) + 0.75 * Math.exp(m1[2 * r + c]));
      expect(joint[2 * r]).toBeCloseTo(w[0] / (w[0] + w[1]), 12);
    }
  });
});
