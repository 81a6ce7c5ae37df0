import { describe, it, expect } from 'vitest';
import '../../src/baselines/index.js';
import {
  allRows,
  decisionTree,
  growTree,
  minTestingDepths,
  splitMeasures,
  type TreeModel,
} from '../../src/baselines/decision-tree.js';
import { getBaseline } from '../../src/registry.js';
import { discreteFromArrays, selectAttributes, type DiscreteData } from '../../src/bn/data.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

const ctx = { rng: new Rng('decision-tree') };

/**
 * Quinlan's PlayTennis table (Quinlan 1986, Table 1; C4.5 book ch. 2 with humidity as high/normal):
 * outlook {sunny, overcast, rain}, temperature {hot, mild, cool}, humidity {high, normal}, windy {false, true};
 * class {don't play = 0, play = 1}.
 */
const TENNIS = [
  [0, 0, 0, 0, 0],
  [0, 0, 0, 1, 0],
  [1, 0, 0, 0, 1],
  [2, 1, 0, 0, 1],
  [2, 2, 1, 0, 1],
  [2, 2, 1, 1, 0],
  [1, 2, 1, 1, 1],
  [0, 1, 0, 0, 0],
  [0, 2, 1, 0, 1],
  [2, 1, 1, 0, 1],
  [0, 1, 1, 1, 1],
  [1, 1, 0, 1, 1],
  [1, 0, 1, 0, 1],
  [2, 1, 0, 1, 0],
];

function tennis(rows = TENNIS): DiscreteData {
  return discreteFromArrays({
    names: ['outlook', 'temperature', 'humidity', 'windy'],
    cards: [3, 3, 2, 2],
    rows: rows.map((r) => r.slice(0, 4)),
    classes: rows.map((r) => r[4]),
    classCard: 2,
  });
}

const H = (...p: number[]) => {
  const t = p.reduce((a, b) => a + b, 0);
  return -p.filter((v) => v > 0).reduce((s, v) => s + (v / t) * Math.log2(v / t), 0);
};

describe('split measures on PlayTennis (Quinlan 1986: gains 0.246, 0.029, 0.151, 0.048 bits)', () => {
  const d = tennis();
  const { rows, weights } = allRows(d);
  const m = (a: number) => splitMeasures(d, a, rows, weights, 14);

  it('information gain of each attribute', () => {
    // Info(T) = H(9, 5) = 0.940; outlook: 5/14 H(2,3) + 4/14 H(4,0) + 5/14 H(3,2)
    expect(m(0).gain).toBeCloseTo(H(9, 5) - (5 / 14) * H(2, 3) - (5 / 14) * H(3, 2), 14);
    expect(m(0).gain).toBeCloseTo(0.2467, 4);
    expect(m(1).gain).toBeCloseTo(0.0292, 4);
    expect(m(2).gain).toBeCloseTo(0.1518, 4);
    expect(m(3).gain).toBeCloseTo(0.0481, 4);
  });

  it('gain ratio of outlook is 0.156 (split information 1.577)', () => {
    expect(m(0).splitInfo).toBeCloseTo(H(5, 4, 5), 14);
    expect(m(0).gainRatio).toBeCloseTo(0.156, 3);
  });

  it('with outlook unknown in one case: gain 13/14 (0.961 − 0.747) = 0.199, split 1.809 (Quinlan 1993, ch. 2)', () => {
    // Quinlan blanks the outlook of the case "overcast, mild, high, true, play" (row 12 here).
    const rowsMiss = TENNIS.map((r, i) => (i === 11 ? [-1, ...r.slice(1)] : r));
    const dm = tennis(rowsMiss);
    const s = splitMeasures(dm, 0, rows, weights, 14);
    expect(s.gain).toBeCloseTo((13 / 14) * (H(8, 5) - (5 / 13) * H(2, 3) - (5 / 13) * H(3, 2)), 14);
    expect(s.gain).toBeCloseTo(0.199, 3);
    expect(s.splitInfo).toBeCloseTo(1.809, 3);
  });
});

describe('the unpruned tree on PlayTennis', () => {
  it('is outlook at the root, humidity under sunny, windy under rain (gain ratio and gain agree)', () => {
    for (const criterion of ['gainRatio', 'gain'] as const) {
      const d = tennis();
      const { rows, weights } = allRows(d);
      const t = growTree(d, rows, weights, { criterion, featuresPerSplit: 0, maxDepth: 0, leaf: 'laplace' });
      expect(t.attr[0]).toBe(0);
      const [sunny, overcast, rain] = [0, 1, 2].map((v) => t.firstChild[0] + v);
      expect(t.attr[sunny]).toBe(2);
      expect(t.attr[overcast]).toBe(-1);
      expect(t.attr[rain]).toBe(3);
      expect(t.nodes).toBe(8);
      // Overcast: 4 play, 0 don't: Laplace (0 + 1)/(4 + 2), (4 + 1)/(4 + 2).
      expect(t.dist[overcast * 2 + 1]).toBeCloseTo(5 / 6, 14);
      expect([...minTestingDepths(t, 4)]).toEqual([1, 0, 2, 2]);
    }
  });

  it('sends a case with a missing test value down every branch (C4.5 fractional cases)', () => {
    // Outlook of row 12 unknown: it reaches sunny, overcast and rain with weights 5/13, 3/13, 5/13.
    const rowsMiss = TENNIS.map((r, i) => (i === 11 ? [-1, ...r.slice(1)] : r));
    const d = tennis(rowsMiss);
    // Information gain keeps outlook at the root (0.199 > humidity's 0.152; by gain ratio humidity,
    // 0.152/1.0, would beat outlook's 0.199/1.809 here).
    expect(splitMeasures(d, 2, allRows(d).rows, allRows(d).weights, 14).gainRatio).toBeGreaterThan(0.11);
    const model = decisionTree.fit(d, { criterion: 'gain' }, ctx) as TreeModel;
    const t = model.tree;
    expect(t.attr[0]).toBe(0);
    const sunny = t.firstChild[0];
    expect(t.prop[sunny]).toBeCloseTo(5 / 13, 14);
    expect(t.prop[sunny + 1]).toBeCloseTo(3 / 13, 14);
    // Sunny → humidity high holds 3 don't-play and 5/13 of the play case (humidity high): C4.5's "3.4/0.4"
    // (the node's Laplace distribution; without a minimum leaf size it is split further).
    const high = t.firstChild[sunny];
    expect(t.attr[sunny]).toBe(2);
    expect(t.dist[high * 2 + 1]).toBeCloseTo((5 / 13 + 1) / (3 + 5 / 13 + 2), 12);
    // Prediction with outlook missing: Σ_v share_v · P(play | branch v).
    const q = discreteFromArrays({ cards: [3, 3, 2, 2], rows: [[-1, 0, 0, 0]], classes: [0], classCard: 2 });
    const p = model.posterior(q);
    const x = [-1, 0, 0, 0];
    const leafPlay = (node: number): number => {
      while (t.attr[node] >= 0) node = t.firstChild[node] + x[t.attr[node]];
      return t.dist[node * 2 + 1];
    };
    const expected = (5 / 13) * leafPlay(sunny) + (3 / 13) * leafPlay(sunny + 1) + (5 / 13) * leafPlay(sunny + 2);
    expect(p[1]).toBeCloseTo(expected, 12);
    expect(p[0] + p[1]).toBeCloseTo(1, 14);
  });

  it('an unseen branch predicts its parent distribution', () => {
    // Outlook alone, overcast rows removed: the root splits sunny (2 play, 3 not) from rain (3, 2); an
    // overcast test row reaches the empty branch and gets the root's Laplace distribution (5 + 1)/(10 + 2).
    const d = selectAttributes(tennis(TENNIS.filter((r) => r[0] !== 1)), [0]);
    const model = decisionTree.fit(d, {}, ctx) as TreeModel;
    expect(model.tree.attr[0]).toBe(0);
    const p = model.posterior(discreteFromArrays({ cards: [3], rows: [[1], [0]], classes: [0, 0], classCard: 2 }));
    expect(p[1]).toBeCloseTo(0.5, 14);
    expect(p[3]).toBeCloseTo((2 + 1) / (5 + 2), 14);
  });

  it('maxDepth limits the tests on a path', () => {
    const model = decisionTree.fit(tennis(), { maxDepth: 1 }, ctx) as TreeModel;
    expect(model.tree.nodes).toBe(4);
  });

  it('is registered and validates its parameters', () => {
    expect(getBaseline('decision-tree')).toBe(decisionTree);
    expect(() => decisionTree.fit(tennis(), { criterion: 'gini' as never }, ctx)).toThrow(UserError);
    expect(() => decisionTree.fit(tennis(), { maxDepth: -1 }, ctx)).toThrow(UserError);
  });
});
