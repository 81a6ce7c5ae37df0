import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { tanHc } from '../../src/structures/tan-hc.js';
import { OdeFoldEvaluator } from '../../src/structures/search/ode-evaluator.js';
import { hcCandidates, odeWrapperSearch, superParentChildren } from '../../src/structures/search/ode-search.js';
import { WRAPPER_MAX_ATTRIBUTES } from '../../src/structures/search/common.js';
import { tanHcsp } from '../../src/structures/tan-hcsp.js';
import { discreteFromArrays, type DiscreteData } from '../../src/bn/data.js';
import { assertDag, type Structure } from '../../src/bn/structure.js';
import { stratifiedKFold } from '../../src/folds/split.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { correlatedData, refitCvAccuracy, shipped, xorData } from './catalog-data.js';

const ctx = () => ({ rng: new Rng('tan-hc') });

function randomData(seed: string, n: number, cards: number[], C: number, missing: number): DiscreteData {
  return correlatedData(seed, n, cards, C, missing, 0.3);
}

/** Mean fold accuracy the slow way: a Laplace CptModel per training fold, exact log P(c, x_obs) on the test fold. */
function bruteForce(d: DiscreteData, foldOf: Int32Array, k: number, parent: Int32Array, alpha: number): number {
  const m = d.columns.length;
  const structure: Structure = { m, parents: [...Array.from(parent, (p) => (p < 0 ? [m] : [m, p])), []] };
  return refitCvAccuracy(d, foldOf, k, structure, alpha);
}

describe('the cached fold evaluator equals refitting every fold', () => {
  it.each([
    ['complete data', 0],
    ['missing values (exact marginalisation over the forest)', 0.2],
  ])('%s', (_, missing) => {
    const d = randomData(`eval-${missing}`, 150, [3, 2, 4, 3, 2, 3], 3, missing);
    const k = 5;
    const foldOf = stratifiedKFold(d.classColumn, d.classCard, k, new Rng('folds'));
    const ev = new OdeFoldEvaluator(d, foldOf, k, 1);
    // Current structure: X0 -> X1 -> X2, X3 -> X4; X5 alone.
    const par = Int32Array.from([-1, 0, 1, -1, 3, -1]);
    expect(ev.setCurrent(par)).toBeCloseTo(bruteForce(d, foldOf, k, par, 1), 12);
    // Single arcs into orphans, and a super-parent move (X2 -> X3 and X2 -> X5 at once).
    for (const [tails, heads] of [
      [[2], [3]],
      [[4], [0]],
      [[5], [3]],
      [[0], [5]],
      [
        [2, 2],
        [3, 5],
      ],
    ] as const) {
      const cand = Int32Array.from(par);
      heads.forEach((h, i) => (cand[h] = tails[i]));
      expect(ev.score(tails, heads, par)).toBeCloseTo(bruteForce(d, foldOf, k, cand, 1), 12);
      expect([...par]).toEqual([-1, 0, 1, -1, 3, -1]);
    }
  });

  it('honours the smoothing parameter', () => {
    const d = randomData('eval-alpha', 80, [2, 3, 2], 2, 0.1);
    const foldOf = stratifiedKFold(d.classColumn, 2, 4, new Rng('f'));
    const par = Int32Array.from([-1, 0, -1]);
    expect(new OdeFoldEvaluator(d, foldOf, 4, 0.5).setCurrent(par)).toBeCloseTo(bruteForce(d, foldOf, 4, par, 0.5), 12);
  });
});

describe('candidate moves (bnclassify augment_ode and superparent_children)', () => {
  // Forest: X0 -> X1, X2 and X3 orphans (roots), names X1..X4 in column order.
  const par = Int32Array.from([-1, 0, -1, -1]);
  const rank = Int32Array.from([0, 1, 2, 3]);

  it('arcs into orphans from outside their tree; between two orphans only the tail that sorts first', () => {
    const { tails, heads } = hcCandidates(par, rank);
    const got = tails.map((t, i) => `${t}->${heads[i]}`).sort();
    // Orphans X0, X2, X3. Into X0: X1 is in X0's tree; X2 -> X0 and X3 -> X0 are the reverses of X0 -> X2 and
    // X0 -> X3 (X0 sorts first), so dropped. Into X2: X0, X1 (X3 -> X2 dropped, X2 sorts first). Into X3: X0, X1, X2.
    expect(got).toEqual(['0->2', '0->3', '1->2', '1->3', '2->3'].sort());
  });

  it('name order, not column order, picks the tail between orphans', () => {
    const byName = Int32Array.from([3, 2, 1, 0]); // X4 sorts first
    const { tails, heads } = hcCandidates(Int32Array.from([-1, -1, -1]), byName.slice(0, 3));
    expect(tails.map((t, i) => `${t}->${heads[i]}`).sort()).toEqual(['1->0', '2->0', '2->1']);
  });

  it('super-parents: every attribute with an orphan outside its own tree', () => {
    expect(superParentChildren(par)).toEqual([
      { sp: 0, children: [2, 3] },
      { sp: 1, children: [2, 3] },
      { sp: 2, children: [0, 3] },
      { sp: 3, children: [0, 2] },
    ]);
    // A single orphan: nothing left to add.
    expect(superParentChildren(Int32Array.from([-1, 0, 1]))).toEqual([]);
  });
});

describe('the greedy search', () => {
  // bnclassify 0.4.8 does the same on XOR data: with columns (a, b, noise, class) it learns b -> a, and with the
  // columns reordered to (b, a, noise, class) it learns a -> b, whatever the names (R 4.2):
  //   r <- 0:119; d <- data.frame(a = factor(r %% 2), b = factor((r %/% 2) %% 2), noise = factor(sample(0:2, 120, TRUE)))
  //   d$class <- factor(xor(r %% 2 == 1, (r %/% 2) %% 2 == 1))
  //   families(tan_hc('class', d, k = 5, epsilon = 0, smooth = 1))$a                      # "a" "b" "class"
  //   families(tan_hc('class', d[, c('b', 'a', 'noise', 'class')], k = 5, epsilon = 0, smooth = 1))$b  # "b" "a" "class"
  it('tan-hc adds b -> a on XOR data (b is the later column), reaches accuracy 1 and stops there', () => {
    const s = tanHc.learn(xorData(), {}, ctx());
    assertDag(s);
    expect(s.parents).toEqual([[3, 1], [3], [3], []]);
    expect(s.info).toMatchObject({ cvAccuracy: 1, arcs: 1, steps: 1, folds: 5 });
    // orient: name keeps the arc whose tail's name sorts first: a -> b.
    expect(tanHc.learn(xorData(), { orient: 'name' }, ctx()).parents).toEqual([[3], [3, 0], [3], []]);
  });

  it('orient: column does not depend on the column names; name does', () => {
    const d = randomData('orient', 200, [3, 3, 2, 3, 2], 2, 0);
    const renamed: DiscreteData = { ...d, names: d.names.map((x, a) => (a < 5 ? `z${9 - a}` : x)) };
    const a = tanHc.learn(d, {}, { rng: new Rng('o') });
    expect(tanHc.learn(renamed, {}, { rng: new Rng('o') }).parents).toEqual(a.parents);
    // Between two orphans the kept arc's tail is the later column (orientRank gives it the lower rank).
    const { tails, heads } = hcCandidates(
      Int32Array.from([-1, -1, -1]),
      Int32Array.from([2, 1, 0]), // orientRank for column: the later column ranks first
    );
    expect(tails.map((t, i) => `${t}->${heads[i]}`).sort()).toEqual(['1->0', '2->0', '2->1']);
  });

  it('tan-hcsp finds the same arc through the super-parent step', () => {
    const s = tanHcsp.learn(xorData(), {}, ctx());
    expect(s.parents[0].length + s.parents[1].length).toBe(3); // one arc between a and b
    expect(s.parents[2]).toEqual([3]);
    expect(s.info).toMatchObject({ cvAccuracy: 1, arcs: 1 });
  });

  it('stop rule: max − epsilon ≥ current; epsilon 0 also accepts arcs that keep the accuracy equal', () => {
    const d = randomData('stop', 200, [3, 3, 2, 3, 2], 2, 0);
    const eps0 = odeWrapperSearch(d, { k: 5, epsilon: 0, alpha: 1, superParent: false }, new Rng('s'));
    // Every accepted step is no worse than the one before.
    for (let i = 1; i < eps0.scores.length; i++)
      expect(eps0.scores[i]).toBeGreaterThanOrEqual(eps0.scores[i - 1] - 1e-12);
    // An epsilon of 1 can never be met: naive Bayes is returned with its own accuracy.
    const big = odeWrapperSearch(d, { k: 5, epsilon: 1, alpha: 1, superParent: false }, new Rng('s'));
    expect([...big.parent]).toEqual([-1, -1, -1, -1, -1]);
    expect(big.scores).toEqual([eps0.scores[0]]);
  });

  it('is deterministic under a seed; the partition and ties follow ctx.rng', () => {
    const d = randomData('det', 150, [3, 2, 3, 2], 3, 0.1);
    const a = tanHc.learn(d, {}, { rng: new Rng('one') });
    expect(tanHc.learn(d, {}, { rng: new Rng('one') })).toEqual(a);
    assertDag(a);
  });

  it('house-votes-84 (missing values): a one-dependence forest no worse than naive Bayes in CV accuracy', () => {
    const v = shipped('house-votes-84');
    for (const learner of [tanHc, tanHcsp]) {
      const s = learner.learn(v, {}, ctx());
      assertDag(s);
      for (let a = 0; a < 16; a++) {
        expect(s.parents[a][0]).toBe(16);
        expect(s.parents[a].length).toBeLessThanOrEqual(2);
      }
      const nbAcc = odeWrapperSearch(v, { k: 5, epsilon: 1, alpha: 1, superParent: false }, new Rng('tan-hc')).score;
      expect(s.info?.cvAccuracy as number).toBeGreaterThanOrEqual(nbAcc);
    }
  });
});

describe('tan-hc parameters', () => {
  it('defaults k = 5, epsilon = 0, smooth = 1 and declares an attribute limit', () => {
    expect(tanHc.defaults).toEqual({ k: 5, epsilon: 0, smooth: 1, orient: 'column' });
    expect(tanHcsp.defaults).toEqual({ k: 5, epsilon: 0, smooth: 1 });
    expect(tanHc.maxAttributes).toBe(WRAPPER_MAX_ATTRIBUTES);
  });

  it('rejects bad parameters as user errors', () => {
    const d = xorData();
    expect(() => tanHc.learn(d, { k: 1 }, ctx())).toThrow(UserError);
    expect(() => tanHc.learn(d, { epsilon: -0.1 }, ctx())).toThrow(UserError);
    expect(() => tanHcsp.learn(d, { smooth: 0 }, ctx())).toThrow(UserError);
  });

  it('fewer rows than folds: k drops to the number of rows; one row: naive Bayes', () => {
    const tiny = discreteFromArrays({
      cards: [2, 2],
      rows: [
        [0, 1],
        [1, 0],
        [1, 1],
      ],
      classes: [0, 1, 1],
      classCard: 2,
    });
    expect(tanHc.learn(tiny, { k: 10 }, ctx()).info?.folds).toBe(3);
    const one = discreteFromArrays({ cards: [2, 2], rows: [[0, 1]], classes: [0], classCard: 2 });
    expect(tanHc.learn(one, {}, ctx()).parents).toEqual([[2], [2], []]);
  });
});
