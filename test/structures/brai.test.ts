/**
 * B-RAI on data sampled from a known network over four attributes and the class:
 * X0 → X1, X0 → X2, X1 → X3 ← X2 (a v-structure), X3 → C. With enough rows every structure sampled from
 * the graph-generating tree lies in the true structure's equivalence class; the CI statistic is checked
 * against the definition of conditional mutual information, computed by brute force.
 */
import { describe, expect, it } from 'vitest';
import type { DiscreteData } from '../../src/bn/data.js';
import { cpdag, cpdagKey } from '../../src/bn/exact/equivalence.js';
import {
  brai,
  cmiOfCells,
  conditionalMutualInformation,
  rai,
  selectThreshold,
} from '../../src/structures/ensembles/brai.js';
import { networkScore } from '../../src/bn/scores.js';
import { withDefaults } from '../../src/registry.js';
import { Rng } from '../../src/util/rng.js';
import { createHash } from 'node:crypto';

const TRUE_PARENTS = [[], [0], [0], [1, 2], [3]];

function sample(n: number, seed: string): DiscreteData {
  const rng = new Rng(seed);
  const cols = [0, 1, 2, 3].map(() => new Int32Array(n));
  const cls = new Int32Array(n);
  const b = (p: number) => (rng.next() < p ? 1 : 0);
  for (let r = 0; r < n; r++) {
    const x0 = b(0.5);
    const x1 = b(x0 ? 0.9 : 0.1);
    const x2 = b(x0 ? 0.85 : 0.1);
    const x3 = b(x1 && x2 ? 0.95 : x1 || x2 ? 0.5 : 0.05);
    cols[0][r] = x0;
    cols[1][r] = x1;
    cols[2][r] = x2;
    cols[3][r] = x3;
    cls[r] = b(x3 ? 0.95 : 0.05);
  }
  return {
    n,
    names: ['x0', 'x1', 'x2', 'x3'],
    labels: [0, 1, 2, 3].map(() => ['0', '1']),
    cards: Int32Array.from([2, 2, 2, 2]),
    columns: cols,
    className: 'c',
    classLabels: ['0', '1'],
    classCard: 2,
    classColumn: cls,
  };
}

describe('B-RAI', () => {
  it("samples only the true structure's equivalence class from 5,000 rows of the known network", () => {
    const s = brai.learn(sample(5000, 'brai-known'), withDefaults(brai, {}), { rng: new Rng('brai') });
    const truth = cpdagKey(cpdag(TRUE_PARENTS));
    expect(s.members!.length).toBeGreaterThan(0);
    expect(s.members!.reduce((a, m) => a + m.weight, 0)).toBeCloseTo(1, 12);
    for (const m of s.members!) expect(cpdagKey(cpdag(m.structure.parents))).toBe(truth);
    expect(Number(s.info!['ciTests'])).toBeGreaterThan(0);
  });

  it('is reproducible under the same seed and uses the bootstrap (another seed may differ on few rows)', () => {
    const d = sample(80, 'brai-small');
    const run = (seed: string) => brai.learn(d, withDefaults(brai, {}), { rng: new Rng(seed) });
    expect(JSON.stringify(run('a').members)).toBe(JSON.stringify(run('a').members));
    // Few rows: the bootstrap hypotheses disagree, so the GGT holds several structures to sample.
    expect(run('a').members!.length + run('b').members!.length).toBeGreaterThan(2);
  });

  it('tests independence with the empirical conditional mutual information, by definition', () => {
    const d = sample(300, 'cmi');
    const x = 1;
    const y = 4;
    const z = [3, 0];
    const col = (v: number) => (v === 4 ? d.classColumn : d.columns[v]);
    const joint = new Map<string, number>();
    const add = (k: string) => joint.set(k, (joint.get(k) ?? 0) + 1);
    for (let r = 0; r < d.n; r++) {
      const zk = z.map((v) => col(v)[r]).join('');
      add(`xyz|${col(x)[r]}|${col(y)[r]}|${zk}`);
      add(`xz|${col(x)[r]}|${zk}`);
      add(`yz|${col(y)[r]}|${zk}`);
      add(`z|${zk}`);
    }
    let cmi = 0;
    for (const [k, n] of joint) {
      if (!k.startsWith('xyz|')) continue;
      const [, xv, yv, zk] = k.split('|');
      cmi +=
        (n / d.n) *
        Math.log((n * joint.get(`z|${zk}`)!) / (joint.get(`xz|${xv}|${zk}`)! * joint.get(`yz|${yv}|${zk}`)!));
    }
    expect(conditionalMutualInformation(d, x, y, z)).toBeCloseTo(cmi, 12);
    expect(conditionalMutualInformation(d, x, y, z)).toBeLessThan(conditionalMutualInformation(d, 3, 4, []));
  });
});

/** Brute-force I(x; y | z) from the rows where x, y and every z are observed, by the definition. */
function bruteCmi(cols: readonly Int32Array[], x: number, y: number, z: readonly number[]): number {
  const joint = new Map<string, number>();
  const add = (k: string) => joint.set(k, (joint.get(k) ?? 0) + 1);
  let n = 0;
  for (let r = 0; r < cols[0].length; r++) {
    if ([x, y, ...z].some((v) => cols[v][r] < 0)) continue;
    n++;
    const zk = z.map((v) => cols[v][r]).join(',');
    add(`xyz|${cols[x][r]}|${cols[y][r]}|${zk}`);
    add(`xz|${cols[x][r]}|${zk}`);
    add(`yz|${cols[y][r]}|${zk}`);
    add(`z|${zk}`);
  }
  let cmi = 0;
  for (const [k, c] of joint) {
    if (!k.startsWith('xyz|')) continue;
    const [, xv, yv, zk] = k.split('|');
    cmi +=
      (c / n) * Math.log((c * joint.get(`z|${zk}`)!) / (joint.get(`xz|${xv}|${zk}`)! * joint.get(`yz|${yv}|${zk}`)!));
  }
  return cmi;
}

describe('B-RAI CI statistic on weighted patterns', () => {
  it('matches the definition on many-valued variables (a sparse table) with missing values', () => {
    // Cards 7 and 9 with three 9-valued conditioning variables: 7·9·729 cells for 400 rows, counted sparsely.
    const rng = new Rng('sparse-cmi');
    const n = 400;
    const cards = [7, 9, 9, 9, 9];
    const cols = cards.map((c) => Int32Array.from({ length: n }, () => rng.int(c)));
    // y follows x often; a few missing codes in x and in one conditioning variable.
    for (let r = 0; r < n; r++) {
      if (rng.next() < 0.6) cols[1][r] = cols[0][r] % 9;
      if (r % 37 === 0) cols[0][r] = -1;
      if (r % 53 === 0) cols[3][r] = -1;
    }
    const d: DiscreteData = {
      n,
      names: ['a', 'b', 'c', 'd'],
      labels: cards.slice(0, 4).map((c) => Array.from({ length: c }, (_, i) => String(i))),
      cards: Int32Array.from(cards.slice(0, 4)),
      columns: cols.slice(0, 4),
      className: 'e',
      classLabels: Array.from({ length: 9 }, (_, i) => String(i)),
      classCard: 9,
      classColumn: cols[4],
    };
    for (const z of [[], [2], [2, 3], [4, 2, 3]]) {
      expect(conditionalMutualInformation(d, 0, 1, z)).toBeCloseTo(bruteCmi(cols, 0, 1, z), 12);
    }
  });

  it('gives the same floating-point number from a dense table and from its sorted non-empty cells', () => {
    const rng = new Rng('cells');
    const rx = 3;
    const ry = 4;
    const dense = Float64Array.from({ length: 5 * rx * ry }, () => (rng.next() < 0.4 ? 0 : 1 + rng.int(20)));
    dense.fill(0, rx * ry, 2 * rx * ry); // one z configuration never seen
    const at: number[] = [];
    const counts: number[] = [];
    dense.forEach((c, i) => {
      if (c > 0) {
        at.push(i);
        counts.push(c);
      }
    });
    const a = cmiOfCells(dense, undefined, rx, ry);
    const b = cmiOfCells(Float64Array.from(counts), Float64Array.from(at), rx, ry);
    expect(b.cmi).toBe(a.cmi);
    expect(b.n).toBe(a.n);
    expect(b.dof).toBe(a.dof);
    expect(a.dof).toBe((rx - 1) * (ry - 1) * 4);
    expect(a.cmi).toBeGreaterThan(0);
  });
});

describe('B-RAI results', () => {
  it('are the ones of the row-by-row implementation (structures, weights and test counts pinned)', () => {
    // Hashes recorded with the implementation that counted every bootstrap row (before the weighted patterns,
    // the family-score cache and the two-pass sampler): the rewrite must not change one bit.
    const pinned: [number, 'cmi' | 'g2', string][] = [
      [80, 'cmi', 'f3271b2adac4f4dc'],
      [80, 'g2', '5817ba62bcb2a6d1'],
      [150, 'cmi', '0ef91537f1093746'],
      [150, 'g2', 'e183830a04950085'],
    ];
    for (const [n, test, hash] of pinned) {
      const s = brai.learn(sample(n, 'brai-small'), withDefaults(brai, { test }), { rng: new Rng('a') });
      const h = createHash('sha256')
        .update(JSON.stringify([s.members, s.parents, s.info]))
        .digest('hex')
        .slice(0, 16);
      expect(h, `${n} rows, ${test}`).toBe(hash);
    }
  });
});

describe('B-RAI with the G-test', () => {
  it("also samples only the true structure's equivalence class from 5,000 rows", () => {
    const s = brai.learn(sample(5000, 'brai-known'), withDefaults(brai, { test: 'g2', alpha: 0.05 }), {
      rng: new Rng('brai'),
    });
    const truth = cpdagKey(cpdag(TRUE_PARENTS));
    for (const m of s.members!) expect(cpdagKey(cpdag(m.structure.parents))).toBe(truth);
  });
});

describe("B-RAI threshold 'select' (BDeu grid search per training set, as causality-lab's search_threshold_bdeu)", () => {
  it('picks the candidate whose RAI graph has the highest BDeu score, the larger one on a tie, and learns with it', () => {
    const d = sample(400, 'brai-select');
    const thresholds = [0.1, 0.0005, 0.005, 0.02, 0.05];
    const sel = selectThreshold(d, { test: 'cmi', thresholds, ess: 1, alpha: 0.05 });
    // Brute force over the candidates: RAI at each, its DAG scored on the same rows.
    const scored = [...thresholds]
      .sort((a, b) => a - b)
      .map((t) => {
        const r = rai(d, { test: 'cmi', threshold: t });
        return [t, r.extended ? networkScore(d, r.parents, 'bdeu', 1) : Number.NEGATIVE_INFINITY] as const;
      });
    expect(sel.scores).toEqual(scored);
    const top = Math.max(...scored.map(([, v]) => v));
    expect(sel.threshold).toBe(Math.max(...scored.filter(([, v]) => v === top).map(([t]) => t)));
    // The scores differ across the grid, so the choice is a real one.
    expect(new Set(scored.map(([, v]) => v)).size).toBeGreaterThan(1);
    // A candidate listed twice is tried once.
    const tie = selectThreshold(d, { test: 'cmi', thresholds: [sel.threshold, sel.threshold], ess: 1, alpha: 0.05 });
    expect(tie.scores.length).toBe(1);
    // B-RAI with 'select' is B-RAI with the chosen threshold, and stores the choice.
    const chosen = brai.learn(d, withDefaults(brai, { threshold: 'select', thresholds }), { rng: new Rng('s') });
    const fixed = brai.learn(d, withDefaults(brai, { threshold: sel.threshold }), { rng: new Rng('s') });
    expect(JSON.stringify(chosen.members)).toBe(JSON.stringify(fixed.members));
    expect(chosen.info!['threshold']).toBe(sel.threshold);
    expect(JSON.parse(String(chosen.info!['thresholdScores']))).toHaveLength(thresholds.length);
  });

  it("on 5,000 rows of the known network the chosen threshold's RAI graph is the true equivalence class", () => {
    const d = sample(5000, 'brai-known');
    const sel = selectThreshold(d, { test: 'cmi', thresholds: [0.00001, 0.001, 0.01, 0.3], ess: 1, alpha: 0.05 });
    const r = rai(d, { test: 'cmi', threshold: sel.threshold });
    expect(cpdagKey(cpdag(r.parents))).toBe(cpdagKey(cpdag(TRUE_PARENTS)));
    // 0.3 removes true edges (fewer parameters, a much worse fit), so it is not chosen.
    expect(sel.threshold).not.toBe(0.3);
  });

  it("refuses 'select' with the G-test", () => {
    expect(() =>
      brai.learn(sample(50, 'x'), withDefaults(brai, { threshold: 'select', test: 'g2' }), { rng: new Rng('s') }),
    ).toThrow(/needs test 'cmi'/);
  });
});
