/**
 * HDP × ensemble structures: every member is fitted on its own rows (Structure member `rows`: bagging
 * bootstraps, SubbKB subsamples, AdaBoost resamples), as fitEnsemble does for the CPT estimators, with the
 * seed stream `structure/<q>` of the q-th single structure visited. Members with row weights (bAN_mix's
 * boosting by reweighting) need fractional counts, which the sampler cannot take: the spec validator rejects
 * hdp × ban-mix up front and a hand-built weighted member is a UserError.
 *
 * The references here are the estimator itself applied member by member (fitHdpModel on selectRows of the
 * member's rows, the same seed stream, mixed with the member weights), so the equalities are exact.
 */
import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { fitHdpModel, hdp, hdpSettings } from '../../src/estimators/hdp/index.js';
import { compatible, completeParams, getEstimator, getStructure, withDefaults } from '../../src/registry.js';
import { parseSpec } from '../../src/spec/load.js';
import { discreteFromArrays, selectRows, type DiscreteData } from '../../src/bn/data.js';
import { naiveBayesStructure, type Structure } from '../../src/bn/structure.js';
import { UserError } from '../../src/util/errors.js';
import { Rng } from '../../src/util/rng.js';

/** Four attributes (cards 3, 2, 3, 2), two classes, a class signal and a chain X0 → X1 → X2. */
function data(seed: string, n: number): DiscreteData {
  const rng = new Rng(seed);
  const rows: number[][] = [];
  const classes: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = rng.int(2);
    const x0 = rng.next() < 0.7 ? c : rng.int(3);
    const x1 = rng.next() < 0.6 ? x0 % 2 : rng.int(2);
    const x2 = rng.next() < 0.5 ? (x1 + c) % 3 : rng.int(3);
    const x3 = rng.next() < 0.6 ? c : rng.int(2);
    rows.push([x0, x1, x2, x3]);
    classes.push(c);
  }
  return discreteFromArrays({ cards: [3, 2, 3, 2], rows, classes, classCard: 2 });
}

// X0 | C; X1 | C, X0; X2 | C, X1; X3 | C.
const tanish: Structure = { m: 4, parents: [[4], [4, 0], [4, 1], [4], []] };
const PARAMS = { iterations: 200 };

/** Σ_q w_q P_q(c | x) with P_q fitted by fitHdpModel on the member's rows and seed stream structure/q. */
function byHand(train: DiscreteData, s: Structure, test: DiscreteData, seed: string): Float64Array {
  const members = s.members!;
  const total = members.reduce((a, m) => a + m.weight, 0);
  const out = new Float64Array(test.n * test.classCard);
  members.forEach((mem, q) => {
    const d = mem.rows ? selectRows(train, mem.rows) : train;
    const p = fitHdpModel(d, mem.structure, hdpSettings(completeParams(hdp, PARAMS)), {
      rng: new Rng(seed).derive(`structure/${q}`),
    }).posterior(test);
    const w = mem.weight / total;
    for (let i = 0; i < out.length; i++) out[i] += w * p[i];
  });
  return out;
}

/** The same structure with every member's `rows` dropped (every member fitted on all training rows). */
function withoutRows(s: Structure): Structure {
  return { ...s, members: s.members!.map(({ rows: _rows, ...mem }) => mem) };
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('hdp fits ensemble members on their own rows', () => {
  const train = data('members/train', 240);
  const test = data('members/test', 60);

  it('two members over disjoint row subsets = each member fitted on its rows, averaged (same seeds)', () => {
    const even = Int32Array.from({ length: 120 }, (_, i) => 2 * i);
    const odd = Int32Array.from({ length: 120 }, (_, i) => 2 * i + 1);
    const s: Structure = {
      ...tanish,
      members: [
        { weight: 1, structure: tanish, rows: even },
        { weight: 1, structure: naiveBayesStructure(4), rows: odd },
      ],
    };
    const p = hdp.fit(train, s, PARAMS, { rng: new Rng('disjoint') }).posterior(test);
    // Separately: member 0 on the even rows with seed stream structure/0, member 1 on the odd rows with
    // structure/1, then ½ P_0 + ½ P_1 — bit for bit.
    const pe = fitHdpModel(selectRows(train, even), tanish, hdpSettings(completeParams(hdp, PARAMS)), {
      rng: new Rng('disjoint').derive('structure/0'),
    }).posterior(test);
    const po = fitHdpModel(selectRows(train, odd), naiveBayesStructure(4), hdpSettings(completeParams(hdp, PARAMS)), {
      rng: new Rng('disjoint').derive('structure/1'),
    }).posterior(test);
    const want = new Float64Array(pe.length);
    for (let i = 0; i < want.length; i++) want[i] = 0.5 * pe[i] + 0.5 * po[i];
    expect([...p]).toEqual([...want]);
    // and not what the full data gives: the members really see different rows
    const full = hdp.fit(train, withoutRows(s), PARAMS, { rng: new Rng('disjoint') }).posterior(test);
    expect(maxDiff(p, full)).toBeGreaterThan(1e-3);
  });

  it("bagging × hdp: the bootstraps' rows are used (= member-by-member fit; differs from fitting on all rows)", () => {
    const learner = getStructure('bagging')!;
    const s = learner.learn(train, withDefaults(learner, { members: 3 }), { rng: new Rng('bagging/structure') });
    expect(s.members!.length).toBe(3);
    expect(s.members!.every((m) => m.rows !== undefined && m.rows.length === Math.round(0.9 * train.n))).toBe(true);
    const p = hdp.fit(train, s, PARAMS, { rng: new Rng('bagging') }).posterior(test);
    expect([...p]).toEqual([...byHand(train, s, test, 'bagging')]);
    const full = hdp.fit(train, withoutRows(s), PARAMS, { rng: new Rng('bagging') }).posterior(test);
    expect(maxDiff(p, full)).toBeGreaterThan(1e-3);
  });

  it("subbkb × hdp: the subsamples' rows are used (= member-by-member fit; differs from fitting on all rows)", () => {
    const learner = getStructure('subbkb')!;
    const s = learner.learn(train, withDefaults(learner, { t: 2, k: 2, apses: false }), {
      rng: new Rng('subbkb/structure'),
    });
    expect(s.members!.length).toBeGreaterThanOrEqual(2);
    expect(s.members!.every((m) => m.rows !== undefined && m.rows.length === Math.floor(0.9 * train.n))).toBe(true);
    const p = hdp.fit(train, s, PARAMS, { rng: new Rng('subbkb') }).posterior(test);
    expect([...p]).toEqual([...byHand(train, s, test, 'subbkb')]);
    const full = hdp.fit(train, withoutRows(s), PARAMS, { rng: new Rng('subbkb') }).posterior(test);
    expect(maxDiff(p, full)).toBeGreaterThan(1e-3);
  });
});

describe('hdp and row-weighted members (bAN_mix)', () => {
  it('a member with rowWeights is a UserError naming the weighted rows', () => {
    const train = data('weights/train', 100);
    const s: Structure = {
      ...tanish,
      members: [
        { weight: 1, structure: tanish },
        { weight: 1, structure: naiveBayesStructure(4), rowWeights: new Float64Array(100).fill(1) },
      ],
    };
    expect(() => hdp.fit(train, s, PARAMS, { rng: new Rng('w') })).toThrow(UserError);
    expect(() => hdp.fit(train, s, PARAMS, { rng: new Rng('w') })).toThrow(
      /^hdp cannot fit weighted rows \(member 1 of the ensemble/,
    );
  });

  it('is declared: the registry marks hdp × ban-mix incompatible and the spec validator rejects the pair', () => {
    const e = getEstimator('hdp')!;
    expect(e.rejects).toEqual(['weighted-rows']);
    expect(compatible(e, 'ban-mix')).toBe(false);
    for (const id of ['nb', 'tan', 'bagging', 'subbkb', 'adaboost']) expect(compatible(e, id)).toBe(true);
    const spec = (extra: string) =>
      `name: t\ndatasets: [iris]\nresampling: { method: cv, folds: 2 }\nmethods:\n  - { structure: ban-mix, estimator: hdp }\n  - { structure: nb, estimator: hdp }\n${extra}`;
    expect(() => parseSpec(spec(''), 'hdp-ban.yaml')).toThrow(UserError);
    expect(() => parseSpec(spec(''), 'hdp-ban.yaml')).toThrow(
      /estimator 'hdp' does not apply to structure 'ban-mix' \(cannot fit members fitted on row weights \(fractional counts\)\)/,
    );
    // in a structures × estimators product an exclude entry lets the rest of the grid run (exclude does not act
    // on pairs listed by name under methods:)
    const product = (extra: string) =>
      `name: t\ndatasets: [iris]\nresampling: { method: cv, folds: 2 }\nstructures: [ban-mix, nb]\nestimators: [hdp]\n${extra}`;
    expect(() => parseSpec(product(''), 'hdp-ban.yaml')).toThrow(
      /add \{structure: ban-mix, estimator: hdp\} to exclude:/,
    );
    expect(() =>
      parseSpec(product('exclude:\n  - { structure: ban-mix, estimator: hdp }\n'), 'hdp-ban.yaml'),
    ).not.toThrow();
    expect(() => parseSpec(spec(''), 'hdp-ban.yaml')).toThrow(/remove it from methods:/);
  });
});
