/**
 * The checks of the inference engine and the mixture model: every malformed table, data set or member list
 * is rejected with its own message, and the small helpers (normalizeLogRows, logSumExp) on hand values.
 */
import { describe, it, expect } from 'vitest';
import { fitCptModel, smoothedLogProbs, type NodeCpt } from '../../src/bn/cpt.js';
import { ConfigIndex } from '../../src/bn/counts.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { logSumExp, MixtureModel, NetworkInference, normalizeLogRows } from '../../src/bn/inference.js';
import { naiveBayesStructure } from '../../src/bn/structure.js';
import { tinyData } from './fixtures.js';

const dense = (parents: number[], card: number, parentCards: number[], cells?: number): NodeCpt => {
  const configs = parentCards.reduce((a, b) => a * b, 1);
  return {
    parents,
    card,
    parentCards: Int32Array.from(parentCards),
    configs,
    logp: new Float64Array(cells ?? configs * card).fill(-Math.log(card)),
  };
};

describe('NetworkInference rejects malformed tables', () => {
  const cards = Int32Array.of(2, 3); // one attribute (card 2) and a 3-valued class
  const classCpt = dense([], 3, []);

  it('a well-formed network is accepted', () => {
    expect(() => new NetworkInference(cards, [dense([1], 2, [3]), classCpt])).not.toThrow();
  });

  it('a network of the class alone (no attributes) gives the class prior', () => {
    const prior = Float64Array.from([0.2, 0.3, 0.5].map(Math.log));
    const net = new NetworkInference(Int32Array.of(3), [
      { parents: [], card: 3, parentCards: new Int32Array(0), configs: 1, logp: prior },
    ]);
    const d = discreteFromArrays({ cards: [], rows: [[], []], classes: [0, 1], classCard: 3 });
    const p = normalizeLogRows(net.logScores(d, false), 3);
    [0.2, 0.3, 0.5, 0.2, 0.3, 0.5].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 15));
  });

  it('no class, wrong number of tables, wrong child cardinality', () => {
    expect(() => new NetworkInference(new Int32Array(0), [])).toThrow(/^inference: cards must include the class$/);
    expect(() => new NetworkInference(cards, [classCpt])).toThrow(/^inference: 1 CPTs for 2 nodes$/);
    expect(() => new NetworkInference(cards, [dense([1], 3, [3]), classCpt])).toThrow(
      /^inference: CPT of node 0 has card 3, expected 2$/,
    );
  });

  it('a parent that is the node itself, out of range or not an integer', () => {
    for (const p of [0, 2, -1, 0.5]) {
      expect(() => new NetworkInference(cards, [dense([p], 2, [3]), classCpt])).toThrow(
        new RegExp(`^inference: node 0 has invalid parent ${String(p).replace('.', '\\.')}$`),
      );
    }
  });

  it('a dense table of the wrong size', () => {
    expect(() => new NetworkInference(cards, [dense([1], 2, [3], 5), classCpt])).toThrow(
      /^inference: CPT of node 0 has 5 cells, expected 6$/,
    );
  });

  it('a sparse table with the wrong number of configurations or rows', () => {
    const index = new ConfigIndex();
    index.add(1); // configuration 1 has a row; the default row follows it
    const sparse = (configs: number, rows: number): NodeCpt => ({
      parents: [1],
      card: 2,
      parentCards: Int32Array.of(3),
      configs,
      index,
      rows: new Float64Array(rows).fill(-Math.log(2)),
    });
    expect(() => new NetworkInference(cards, [sparse(3, 4), classCpt])).not.toThrow();
    expect(() => new NetworkInference(cards, [sparse(4, 4), classCpt])).toThrow(
      /^inference: sparse CPT of node 0 has 4 configurations, expected 3$/,
    );
    expect(() => new NetworkInference(cards, [sparse(3, 6), classCpt])).toThrow(
      /^inference: sparse CPT of node 0 has 6 cells, expected 4$/,
    );
  });
});

describe('data that do not match the model', () => {
  const model = fitCptModel(tinyData(), naiveBayesStructure(3), (fc) => smoothedLogProbs(fc, 1));
  it('another number of attributes or classes', () => {
    const fewer = discreteFromArrays({ cards: [2, 2], rows: [[0, 0]], classes: [0], classCard: 2 });
    expect(() => model.posterior(fewer)).toThrow(/^inference: data has 2 attributes, model has 3$/);
    const more = discreteFromArrays({ cards: [2, 2, 3], rows: [[0, 0, 0]], classes: [0], classCard: 3 });
    expect(() => model.logJoint(more)).toThrow(/^inference: data has 3 classes, model has 2$/);
    const wrongFirst = discreteFromArrays({ cards: [3, 2, 3], rows: [[0, 0, 0]], classes: [0], classCard: 2 });
    expect(() => model.posterior(wrongFirst)).toThrow(/^inference: attribute 0 has 3 values in data, 2 in the model$/);
  });
});

describe('normalizeLogRows and logSumExp', () => {
  it('a NaN log score is an error naming the row', () => {
    expect(() => normalizeLogRows(Float64Array.from([0, 0, 0, NaN]), 2)).toThrow(/^inference: NaN log score in row 1$/);
  });

  it('logSumExp over the first len entries; -Infinity when all are', () => {
    const a = Float64Array.from([Math.log(1), Math.log(3), Math.log(100)]);
    expect(logSumExp(a, 2)).toBeCloseTo(Math.log(4), 15);
    expect(logSumExp(a, 3)).toBeCloseTo(Math.log(104), 14);
    expect(logSumExp(Float64Array.from([-Infinity, -Infinity]), 2)).toBe(-Infinity);
    // Entries past len are not read: a large one there would make exp underflow to 0 for the first two.
    expect(logSumExp(Float64Array.from([0, 0, 2000]), 2)).toBeCloseTo(Math.log(2), 15);
    expect(logSumExp(Float64Array.from([-1000, -1000 + Math.log(3)]), 2)).toBeCloseTo(-1000 + Math.log(4), 12);
  });
});

describe('MixtureModel checks', () => {
  const nb = fitCptModel(tinyData(), naiveBayesStructure(3), (fc) => smoothedLogProbs(fc, 1));
  it('rejects no members, a non-finite weight and joint members without logJoint', () => {
    expect(() => new MixtureModel([])).toThrow(/^MixtureModel: no members$/);
    expect(() => new MixtureModel([{ weight: Infinity, model: nb }])).toThrow(
      /^MixtureModel: invalid weight Infinity$/,
    );
    expect(() => new MixtureModel([{ weight: NaN, model: nb }])).toThrow(/^MixtureModel: invalid weight NaN$/);
    const postOnly = { posterior: (d: Parameters<typeof nb.posterior>[0]) => nb.posterior(d) };
    expect(() => new MixtureModel([{ weight: 1, model: postOnly }], 'joint')).toThrow(
      /^MixtureModel: combine 'joint' needs members with logJoint$/,
    );
    expect(() => new MixtureModel([{ weight: 1, model: postOnly }])).not.toThrow();
  });

  it('a negative weight is named as such', () => {
    expect(() => new MixtureModel([{ weight: -1, model: nb }])).toThrow(/^MixtureModel: invalid weight -1$/);
  });

  /** A member with fixed log joints for a one-row, two-class data set. */
  const fixed = (lj: number[]) => ({
    posterior: (): Float64Array => normalizeLogRows(Float64Array.from(lj), 2),
    logJoint: (): Float64Array => Float64Array.from(lj),
  });
  const oneRow = discreteFromArrays({ cards: [2], rows: [[0]], classes: [0], classCard: 2 });

  it("combine 'joint': P(c | x) ∝ Σ_k w_k P_k(c, x) with unequal weights, zero joints and joints 1000 nats apart", () => {
    // Weights 1 : 3. P(c, x): member A (0.02, 0), member B (0.01, 0.05): ∝ (0.25·0.02 + 0.75·0.01, 0.75·0.05).
    const mix = new MixtureModel(
      [
        { weight: 1, model: fixed([Math.log(0.02), -Infinity]) },
        { weight: 3, model: fixed([Math.log(0.01), Math.log(0.05)]) },
      ],
      'joint',
    );
    const a = 0.25 * 0.02 + 0.75 * 0.01;
    const b = 0.75 * 0.05;
    const p = mix.posterior(oneRow);
    expect(p[0]).toBeCloseTo(a / (a + b), 14);
    expect(p[1]).toBeCloseTo(b / (a + b), 14);
    // A class with zero joint under every member keeps probability 0 (no NaN from -Infinity - -Infinity).
    const zero = new MixtureModel(
      [
        { weight: 1, model: fixed([Math.log(0.02), -Infinity]) },
        { weight: 1, model: fixed([Math.log(0.01), -Infinity]) },
      ],
      'joint',
    );
    expect([...zero.posterior(oneRow)]).toEqual([1, 0]);
    // log-add-exp of -1 and -1001 (+ log 1/2 each): the larger term first, so exp never overflows.
    const apart = new MixtureModel(
      [
        { weight: 1, model: fixed([-1, -2]) },
        { weight: 1, model: fixed([-1001, -2]) },
      ],
      'joint',
    );
    const q = apart.posterior(oneRow);
    const e1 = Math.exp(-1) + Math.exp(-1001);
    expect(q[0]).toBeCloseTo(e1 / (e1 + 2 * Math.exp(-2)), 14);
  });

  it('a member of weight 0 takes no part, in both combine modes', () => {
    const d = tinyData();
    const failing = {
      posterior: (): Float64Array => {
        throw new Error('weight-0 member was evaluated');
      },
      logJoint: (): Float64Array => {
        throw new Error('weight-0 member was evaluated');
      },
    };
    for (const combine of ['posterior', 'joint'] as const) {
      const mix = new MixtureModel(
        [
          { weight: 0, model: failing },
          { weight: 2, model: nb },
        ],
        combine,
      );
      const p = mix.posterior(d);
      const q = nb.posterior(d);
      for (let i = 0; i < p.length; i++) expect(p[i]).toBeCloseTo(q[i], 14);
    }
  });
});
