/**
 * B-RAI's CI test against the authors' code, and why `test: cmi` learns near-complete graphs on
 * breast-cancer (10-fold CV under the Table 3 protocol: accuracy 0.50 with cmi, 0.71 with g2, the majority
 * rate 0.71; docs/methods.md and experiments/subbkb-2022-table3.yaml quote the same run. Issue 14 had quoted
 * 0.46 and 0.75, numbers no run in this repository records).
 *
 * Data: breast-cancer, the 277 complete rows, median discretization (the Table 3 protocol, all rows as one
 * training set). Nodes 0–8 are the attributes (age 6 values, menopause 3, tumor-size 11, inv-nodes 7,
 * node-caps 2, deg-malig 3, breast 2, breast-quad 5, irradiat 2), node 9 the class (2).
 *
 * Pinned reference numbers come from IntelLabs/causality-lab (commit 812235d), run outside this repository
 * on the same 277 rows: CondIndepCMI.calc_statistic for the statistic, and LearnStructRAI with
 * CondIndepCMI(threshold) for the skeleton (its RAI, without bootstrap, so the input is identical).
 */
import { describe, expect, it } from 'vitest';
import type { DiscreteData } from '../../src/bn/data.js';
import { loadRegistry } from '../../src/datasets/registry.js';
import { loadDataset } from '../../src/datasets/load.js';
import { completeRows, fitPreprocessor } from '../../src/datasets/preprocess.js';
import { conditionalMutualInformation, rai } from '../../src/structures/ensembles/brai.js';
import { chiSquareSf } from '../../src/stats/distributions.js';
import { Rng } from '../../src/util/rng.js';

function breastCancer(): DiscreteData {
  const { table } = loadDataset(loadRegistry().get('breast-cancer'));
  const pre = fitPreprocessor(table, completeRows(table), { discretize: { method: 'median' }, missing: 'remove-rows' });
  return pre.transform(table, pre.trainRows());
}

const data = breastCancer();
const CLASS = 9;

describe('B-RAI on breast-cancer against causality-lab', () => {
  it('reads the 277 complete rows with the cardinalities the pinned numbers were computed on', () => {
    expect(data.n).toBe(277);
    expect([...data.cards, data.classCard]).toEqual([6, 3, 11, 7, 2, 3, 2, 5, 2, 2]);
  });

  it("computes the CMI statistic of causality-lab's CondIndepCMI, conditioning sets of size 0 to 4", () => {
    const reference: [number, number, number[], number][] = [
      [0, 2, [], 0.08475394872530463],
      [1, 9, [], 0.008006352932226525],
      [2, 3, [0], 0.2324854241061888],
      [5, 9, [3], 0.050529746322467],
      [2, 9, [3, 5], 0.10322549040967509],
      [3, 9, [0, 2, 5], 0.12898178782785122],
      [2, 3, [0, 1, 4, 5], 0.24960405436597313],
    ];
    for (const [x, y, z, cmi] of reference) {
      expect(conditionalMutualInformation(data, x, y, z)).toBeCloseTo(cmi, 13);
      expect(conditionalMutualInformation(data, y, x, z)).toBeCloseTo(cmi, 13);
    }
  });

  it("learns causality-lab's RAI skeleton with CMI ≤ 0.005 and CMI ≤ 0.012 (the default)", () => {
    // LearnStructRAI(CondIndepCMI(data, threshold)).learn_structure(), edges of the final graph.
    const reference: Record<string, string> = {
      '0.005':
        '0-1 0-2 0-3 0-4 0-5 0-6 0-7 0-8 0-9 1-2 1-3 1-5 1-7 1-8 1-9 2-3 2-4 2-5 2-6 2-7 2-8 2-9 3-4 3-5 3-6 ' +
        '3-7 3-8 4-5 4-8 4-9 5-7 5-8 5-9 6-7 7-8 7-9 8-9',
      '0.012':
        '0-1 0-2 0-3 0-5 0-7 0-8 0-9 1-2 1-5 2-3 2-4 2-5 2-7 2-8 2-9 3-4 3-5 3-6 3-7 3-8 3-9 4-5 4-8 4-9 5-8 ' +
        '5-9 6-7 8-9',
    };
    for (const [threshold, edges] of Object.entries(reference)) {
      const r = rai(data, { test: 'cmi', threshold: Number(threshold) });
      expect(r.skeleton.map(([a, b]) => `${a}-${b}`).join(' ')).toBe(edges);
    }
  });
});

describe('why CMI ≤ 0.012 keeps breast-cancer nearly complete (issue 14)', () => {
  it('the threshold does not grow with the degrees of freedom: independent pairs stay adjacent', () => {
    // Plug-in CMI of independent variables is about dof/(2n) (2n·CMI is the G statistic, ≈ χ²(dof)); for
    // age × tumor-size, dof = 5·10 = 50 and n = 277 give 0.090, seven times the threshold. The G-test sees
    // no dependence (p ≈ 0.60); CMI ≤ 0.012 sees a strong one.
    const x = 0;
    const y = 2;
    const cmi = conditionalMutualInformation(data, x, y, []);
    const dof = (data.cards[x] - 1) * (data.cards[y] - 1);
    expect(dof).toBe(50);
    expect(cmi).toBeGreaterThan(0.012);
    expect(chiSquareSf(2 * data.n * cmi, dof)).toBeGreaterThan(0.5);
    // Independent by construction: tumor-size shuffled (20 seeded permutations). Every one has CMI about
    // dof/(2n), the smallest 0.075, six times the threshold; the G-test at 0.05 finds 19 of 20 independent.
    const rng = new Rng('brai-permutation');
    const shuffled = Int32Array.from(data.columns[y]);
    let gIndependent = 0;
    let smallest = Infinity;
    for (let t = 0; t < 20; t++) {
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
      }
      const d: DiscreteData = { ...data, columns: data.columns.map((c, v) => (v === y ? shuffled : c)) };
      const c = conditionalMutualInformation(d, x, y, []);
      smallest = Math.min(smallest, c);
      if (chiSquareSf(2 * d.n * c, dof) > 0.05) gIndependent++;
    }
    expect(smallest).toBeGreaterThan(0.07);
    expect(gIndependent).toBe(19);
  });

  it('so RAI keeps 28 of 45 edges with cmi and 6 with g2; with cmi, tumor-size keeps 8 neighbours', () => {
    const cmi = rai(data, { test: 'cmi', threshold: 0.012 });
    const g2 = rai(data, { test: 'g2', alpha: 0.05 });
    expect(cmi.skeleton).toHaveLength(28);
    expect(g2.skeleton.map(([a, b]) => `${a}-${b}`).join(' ')).toBe('0-1 2-7 3-4 3-8 5-9 6-7');
    const neighbours = (v: number) => cmi.skeleton.filter(([a, b]) => a === v || b === v).length;
    expect(neighbours(2)).toBe(8);
    // The class keeps six neighbours (age, tumor-size, inv-nodes, node-caps, deg-malig, irradiat) under cmi,
    // one (deg-malig) under g2.
    expect(cmi.skeleton.filter(([a, b]) => a === CLASS || b === CLASS).map(([a]) => a)).toEqual([0, 2, 3, 4, 5, 8]);
    expect(g2.skeleton.filter(([a, b]) => a === CLASS || b === CLASS).map(([a]) => a)).toEqual([5]);
  });
});
