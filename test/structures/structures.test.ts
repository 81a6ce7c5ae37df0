import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { nb } from '../../src/structures/nb.js';
import { tan, tanFromWeights } from '../../src/structures/tan.js';
import { getStructure } from '../../src/registry.js';
import { arcs, assertDag } from '../../src/bn/structure.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { dirichlet } from '../../src/estimators/dirichlet.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';
import { tinyData } from '../bn/fixtures.js';

const ctx = { rng: new Rng('structures') };

describe('nb', () => {
  it('makes the class the only parent of every attribute', () => {
    const s = nb.learn(tinyData(), {}, ctx);
    expect(s.parents).toEqual([[3], [3], [3], []]);
    expect(getStructure('nb')).toBe(nb);
  });
});

describe('tan on the tiny data', () => {
  // Hand-computed weights (test/bn/information.test.ts):
  //   I(X1;X2|C) = 3 ln3 / 7      ≈ 0.4708
  //   I(X0;X1|C)                  ≈ 0.1504
  //   I(X0;X2|C) = ln(64/27) / 7  ≈ 0.1233
  // Kruskal takes (1,2), then (0,1); (0,2) would close a cycle. Rooted at X0: X0 -> X1 -> X2.
  it('learns the chain X0 -> X1 -> X2 with the class first in each parent list', () => {
    const s = tan.learn(tinyData(), { root: 0 }, ctx);
    assertDag(s);
    expect(s.parents).toEqual([[3], [3, 0], [3, 1], []]);
    expect(s.info?.root).toBe(0);
    expect(s.info?.treeWeight).toBeCloseTo((3 * Math.log(3)) / 7 + 0.15035553636826715, 12);
  });

  it('defaults to root 0 and re-orients the same tree for another root', () => {
    expect(tan.learn(tinyData(), {}, ctx).parents).toEqual([[3], [3, 0], [3, 1], []]);
    // Root X2: X2 -> X1 -> X0.
    expect(tan.learn(tinyData(), { root: 2 }, ctx).parents).toEqual([[3, 1], [3, 2], [3], []]);
    // Root X1: X1 -> X0 and X1 -> X2.
    expect(tan.learn(tinyData(), { root: 1 }, ctx).parents).toEqual([[3, 1], [3], [3, 1], []]);
  });

  it('Laplace TAN posterior for (1, 0, 2) is (1/7, 6/7) (worked in test/bn/inference.test.ts)', () => {
    const d = tinyData();
    const model = dirichlet.fit(d, tan.learn(d, {}, ctx), { alpha: 1 }, ctx);
    const p = model.posterior(discreteFromArrays({ cards: [2, 2, 3], rows: [[1, 0, 2]], classes: [0], classCard: 2 }));
    expect(p[0]).toBeCloseTo(1 / 7, 14);
  });

  it('rejects a root outside the attributes as a user error', () => {
    expect(() => tan.learn(tinyData(), { root: 3 }, ctx)).toThrow(UserError);
  });

  it('handles zero and one attribute', () => {
    const one = discreteFromArrays({ cards: [2], rows: [[0], [1]], classes: [0, 1], classCard: 2 });
    expect(tan.learn(one, {}, ctx).parents).toEqual([[1], []]);
    expect(tanFromWeights(0, new Float64Array(0), 0).parents).toEqual([[]]);
  });

  it('is a spanning tree even when every weight is 0 (ties in index order: a star at X0)', () => {
    // Attributes independent of everything: all CMI = 0, so pairs are taken as (0,1), (0,2), (0,3).
    const d = discreteFromArrays({
      cards: [2, 2, 2, 2],
      rows: [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
      classes: [0, 1],
      classCard: 2,
    });
    const s = tan.learn(d, {}, ctx);
    expect(arcs(s).filter(([a, b]) => a < 4 && b < 4)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
    ]);
  });
});
