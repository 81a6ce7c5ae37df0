import { describe, expect, it } from 'vitest';
import '../../src/methods.js';
import { getEstimator, getStructure, withDefaults } from '../../src/registry.js';
import { discreteFromArrays, selectRows, type DiscreteData } from '../../src/bn/data.js';
import type { Structure } from '../../src/bn/structure.js';
import { fitCptModel, fitModel, smoothedLogProbs } from '../../src/bn/cpt.js';
import { networkScore } from '../../src/bn/scores.js';
import { completeRows, LocalScores } from '../../src/bn/exact/localscores.js';
import { bestNetwork } from '../../src/bn/exact/dp.js';
import { kBestNetworks } from '../../src/bn/exact/kbest.js';
import { learnBestDag } from '../../src/bn/exact/search.js';
import { cpdag, cpdagKey, shd } from '../../src/bn/exact/equivalence.js';
import { adaboostStep } from '../../src/structures/ensembles/adaboost.js';
import { acllTerm } from '../../src/structures/acll-tan.js';
import { meanStandardError } from '../../src/structures/exact/common.js';
import { UserError } from '../../src/util/errors.js';
import { Rng } from '../../src/util/rng.js';
import { randomData } from './helpers.js';

const eap = getEstimator('eap')!;
const ctx = (seed = 'learners') => ({ rng: new Rng(seed) });

function learn(id: string, data: DiscreteData, params: Record<string, unknown> = {}, seed = 'learners'): Structure {
  const s = getStructure(id)!;
  return s.learn(data, withDefaults(s, params), ctx(seed));
}

function eapPosterior(train: DiscreteData, s: Structure, test: DiscreteData, alpha = 1): Float64Array {
  return fitModel(train, s, (fc) => smoothedLogProbs(fc, alpha / (fc.childCard * fc.configs))).posterior(test);
}

describe('EBN and EANB learners', () => {
  const data = randomData('learn-ebn', 150, [2, 3, 2, 2, 3], 3);

  it('ebn returns the DP optimum and reports it', () => {
    const s = learn('ebn', data);
    const ls = new LocalScores(data, { score: 'bdeu', ess: 1, constraint: 'none' });
    expect(s.info!['score']).toBeCloseTo(bestNetwork(ls, 2048).score, 9);
    // the reported score is the BDeu of the returned DAG (scores.ts, an independent count)
    expect(networkScore(data, s.parents, 'bdeu', 1)).toBeCloseTo(s.info!['score'] as number, 8);
    expect(s.info!['classParents']).toBe(s.parents[5].length);
  });

  it('eanb: the class has no parents and is the first parent of every attribute', () => {
    const s = learn('eanb', data, { score: 'bic' });
    expect(s.parents[5]).toEqual([]);
    for (let a = 0; a < 5; a++) expect(s.parents[a][0]).toBe(5);
    expect(networkScore(data, s.parents, 'bic', 1)).toBeCloseTo(s.info!['score'] as number, 8);
  });

  it('refuses a problem over its memory limit with a one-line UserError naming the limit', () => {
    // 20 variables: the single-best DP's tables need about 60 MB
    const wide = randomData('wide', 30, new Array<number>(19).fill(2), 2);
    const s = getStructure('ebn')!;
    expect(() => s.learn(wide, withDefaults(s, { memoryLimitMB: 16 }), ctx())).toThrow(UserError);
    expect(() => s.learn(wide, withDefaults(s, { memoryLimitMB: 16 }), ctx())).toThrow(
      /memory limit of 0\.02 GB \(memoryLimitMB = 16\)/,
    );
    const k = getStructure('kb')!;
    expect(() => k.learn(wide, withDefaults(k, { k: 1000, memoryLimitMB: 64 }), ctx())).toThrow(/K = 1000.*smaller K/);
  });

  it('declares attribute limits for every exponential learner', () => {
    for (const id of ['ebn', 'eanb', 'kb', 'subbkb', 'bagging', 'adaboost'])
      expect(getStructure(id)!.maxAttributes).toBeLessThanOrEqual(24);
    for (const id of ['acll-tan', 'ban-mix']) expect(getStructure(id)!.maxAttributes).toBeUndefined();
  });
});

describe('class posteriors within an equivalence class (BDeu + matching EAP)', () => {
  it('every DAG of a class gives the same posterior; a non-equivalent DAG does not', () => {
    const train = randomData('eq-train', 200, [2, 3, 2], 2);
    const test = randomData('eq-test', 40, [2, 3, 2], 2);
    // X0 → X1 → C ← X2 and its covered-edge reversal X1 → X0 (X0 has no other parent): same class.
    const a: Structure = { m: 3, parents: [[], [0], [], [1, 2]] };
    const b: Structure = { m: 3, parents: [[1], [], [], [1, 2]] };
    const c: Structure = { m: 3, parents: [[], [0], [3], [1]] }; // C → X2 breaks the v-structure at C
    expect(cpdagKey(cpdag(a.parents))).toBe(cpdagKey(cpdag(b.parents)));
    expect(cpdagKey(cpdag(a.parents))).not.toBe(cpdagKey(cpdag(c.parents)));
    for (const alpha of [1, 4.5]) {
      const pa = eapPosterior(train, a, test, alpha);
      const pb = eapPosterior(train, b, test, alpha);
      const pc = eapPosterior(train, c, test, alpha);
      let maxDiff = 0;
      let maxOther = 0;
      for (let i = 0; i < pa.length; i++) {
        maxDiff = Math.max(maxDiff, Math.abs(pa[i] - pb[i]));
        maxOther = Math.max(maxOther, Math.abs(pa[i] - pc[i]));
      }
      expect(maxDiff).toBeLessThan(1e-12);
      expect(maxOther).toBeGreaterThan(1e-3);
    }
    // the BDeu scores agree too (score equivalence)
    expect(networkScore(train, a.parents, 'bdeu', 1)).toBeCloseTo(networkScore(train, b.parents, 'bdeu', 1), 9);
  });

  it('the K-best classes of a DP each give that posterior whichever member represents them', () => {
    const train = randomData('eq-kb', 120, [2, 2, 3], 2);
    const test = randomData('eq-kb-test', 30, [2, 2, 3], 2);
    const ls = new LocalScores(train, { score: 'bdeu', ess: 1, constraint: 'none' });
    const nets = kBestNetworks(ls, 5, 'dag', 2048);
    const toParents = (p: Int32Array): number[][] =>
      Array.from(p, (mask) => [0, 1, 2, 3].filter((v) => mask & (1 << v)));
    // Among the 5 best DAGs, the members of one class give identical posteriors.
    const groups = new Map<string, Float64Array[]>();
    for (const net of nets) {
      const parents = toParents(net.parents);
      const key = cpdagKey(cpdag(parents));
      const list = groups.get(key) ?? [];
      list.push(eapPosterior(train, { m: 3, parents }, test));
      groups.set(key, list);
    }
    let compared = 0;
    for (const list of groups.values()) {
      for (let i = 1; i < list.length; i++) {
        for (let r = 0; r < list[0].length; r++) expect(list[i][r]).toBeCloseTo(list[0][r], 12);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe('KB: model averaging over the K best classes', () => {
  const data = randomData('kb-data', 90, [2, 2, 3, 2], 2);

  it('weights are exp(score) normalised, the members are the K best classes, diagnostics are stored', () => {
    const s = learn('kb', data, { k: 6 });
    expect(s.members).toHaveLength(6);
    const scores = s.members!.map((m) => networkScore(data, m.structure.parents, 'bdeu', 1));
    let z = 0;
    for (const sc of scores) z += Math.exp(sc - scores[0]);
    s.members!.forEach((m, i) => expect(m.weight).toBeCloseTo(Math.exp(scores[i] - scores[0]) / z, 12));
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1] + 1e-9);
    expect(new Set(s.members!.map((m) => cpdagKey(cpdag(m.structure.parents)))).size).toBe(6);
    expect(s.info!['bestScore']).toBeCloseTo(scores[0], 8);
    for (const key of ['classParents', 'classParentsWeighted', 'meanShd', 'apses'])
      expect(typeof s.info![key]).toBe('number');
    // K = 1 is EBN
    const one = learn('kb', data, { k: 1 });
    const e = learn('ebn', data);
    expect(networkScore(data, one.parents, 'bdeu', 1)).toBeCloseTo(e.info!['score'] as number, 8);
  });

  it('anb: every member is an ANB', () => {
    const s = learn('kb', data, { k: 5, anb: true, apses: false });
    for (const m of s.members!) {
      expect(m.structure.parents[4]).toEqual([]);
      for (let a = 0; a < 4; a++) expect(m.structure.parents[a]).toContain(4);
    }
  });
});

describe('SubbKB', () => {
  const data = randomData('subbkb-data', 60, [2, 3, 2], 2, 0.6, 0.05);
  const test = randomData('subbkb-test', 25, [2, 3, 2], 2);

  it('T subsamples of ⌊δN⌋ rows without replacement, K classes each, weights 1/T · w_tk', () => {
    const s = learn('subbkb', data, { t: 4, k: 3, delta: 0.8 });
    expect(s.members).toHaveLength(12);
    const size = Math.floor(0.8 * 60);
    const subsamples = new Set(s.members!.map((m) => m.rows));
    expect(subsamples.size).toBe(4); // the K members of a subsample share one rows array
    for (const rows of subsamples) {
      expect(rows!.length).toBe(size);
      expect(new Set(rows).size).toBe(size); // without replacement
    }
    let total = 0;
    for (const rows of subsamples) {
      const ms = s.members!.filter((m) => m.rows === rows);
      const sub = selectRows(data, rows!);
      const cc = selectRows(sub, completeRows(sub));
      const sc = ms.map((m) => networkScore(cc, m.structure.parents, 'bdeu', 1));
      let z = 0;
      for (const v of sc) z += Math.exp(v - sc[0]);
      ms.forEach((m, i) => expect(m.weight).toBeCloseTo(Math.exp(sc[i] - sc[0]) / z / 4, 12));
      total += ms.reduce((a, m) => a + m.weight, 0);
    }
    expect(total).toBeCloseTo(1, 12);
  });

  it('eq. 2: the fitted posterior is the average over subsamples of the averages with parameters fitted on D_t', () => {
    const s = learn('subbkb', data, { t: 3, k: 2, apses: false });
    const model = eap.fit(data, s, withDefaults(eap, {}), ctx());
    const p = model.posterior(test);
    const manual = new Float64Array(p.length);
    for (const m of s.members!) {
      const sub = selectRows(data, m.rows!);
      const pm = fitCptModel(sub, m.structure, (fc) => smoothedLogProbs(fc, 1 / (fc.childCard * fc.configs))).posterior(
        test,
      );
      for (let i = 0; i < p.length; i++) manual[i] += m.weight * pm[i];
    }
    for (let i = 0; i < p.length; i++) expect(p[i]).toBeCloseTo(manual[i], 12);
    // fitting on the full data instead gives a different posterior: the rows matter
    const full = fitModel(
      data,
      { ...s, members: s.members!.map((m) => ({ weight: m.weight, structure: m.structure })) },
      (fc) => smoothedLogProbs(fc, 1 / (fc.childCard * fc.configs)),
    ).posterior(test);
    let diff = 0;
    for (let i = 0; i < p.length; i++) diff = Math.max(diff, Math.abs(full[i] - p[i]));
    expect(diff).toBeGreaterThan(1e-4);
  });

  it('score bic (SubbKB(MDL)) searches and weights by BIC', () => {
    const s = learn('subbkb', data, { t: 2, k: 3, score: 'bic', apses: false });
    const rows = s.members![0].rows!;
    const sub = selectRows(data, rows);
    const cc = selectRows(sub, completeRows(sub));
    const best = learnBestDag(sub, { score: 'bic', ess: 1, constraint: 'none' });
    expect(networkScore(cc, s.members![0].structure.parents, 'bic', 1)).toBeCloseTo(best.score, 8);
  });
});

describe('bagging, AdaBoost.M1 and bAN_mix', () => {
  const data = randomData('boost-data', 80, [2, 3, 2, 2], 2);

  it('bagging draws bootstrap samples of 90 % with replacement and fits each member on its sample', () => {
    const s = learn('bagging', data, { members: 5 });
    expect(s.members).toHaveLength(5);
    for (const m of s.members!) {
      expect(m.rows!.length).toBe(72);
      expect(m.weight).toBeCloseTo(0.2, 12);
    }
    expect(s.members!.some((m) => new Set(m.rows).size < m.rows!.length)).toBe(true); // duplicates
    const eanb = learn('bagging', data, { members: 3, base: 'eanb' });
    for (const m of eanb.members!) expect(m.structure.parents[4]).toEqual([]);
  });

  it('AdaBoost.M1 update: ε, β = ε/(1−ε), vote ln(1/β), correct rows scaled by β and renormalised', () => {
    // Hand example: 4 rows of weight 1/4, one misclassified: ε = 1/4, β = 1/3, vote ln 3;
    // new weights ∝ (1/12, 1/12, 1/12, 1/4) → (1/6, 1/6, 1/6, 1/2).
    const w = new Float64Array([0.25, 0.25, 0.25, 0.25]);
    const { eps, vote } = adaboostStep(w, Int32Array.from([0, 1, 1, 0]), Int32Array.from([0, 1, 1, 1]));
    expect(eps).toBeCloseTo(0.25, 15);
    expect(vote).toBeCloseTo(Math.log(3), 15);
    expect(Array.from(w)).toEqual([1 / 6, 1 / 6, 1 / 6, 0.5].map((x) => expect.closeTo(x, 15)));
  });

  it('adaboost members vote with weights ln(1/β); the posterior is the normalised weighted vote', () => {
    const s = learn('adaboost', data, { rounds: 4 });
    expect(s.members!.length).toBeGreaterThanOrEqual(1);
    for (const m of s.members!) {
      expect(m.vote).toBe(true);
      expect(m.rows!.length).toBe(80);
    }
    const p = eap.fit(data, s, withDefaults(eap, {}), ctx()).posterior(data);
    // every posterior is a sum of member weights over the total: a multiple of the votes
    const total = s.members!.reduce((a, m) => a + m.weight, 0);
    for (let r = 0; r < data.n; r++) {
      let sums = 0;
      for (let c = 0; c < 2; c++) sums += p[r * 2 + c];
      expect(sums).toBeCloseTo(1, 12);
      const v = p[r * 2] * total;
      const achievable = s.members!.reduce<number[]>(
        (acc, m) => acc.flatMap((x) => [x, x + m.weight, x + m.weight / 2]),
        [0],
      );
      expect(achievable.some((a) => Math.abs(a - v) < 1e-9)).toBe(true);
    }
  });

  it('row weights in fitModel: weight 2 equals the row listed twice', () => {
    const d = discreteFromArrays({
      cards: [2, 2],
      rows: [
        [0, 1],
        [1, 1],
        [1, 0],
        [0, 0],
      ],
      classes: [0, 1, 1, 0],
      classCard: 2,
    });
    const doubled = selectRows(d, [0, 0, 1, 2, 3]);
    const s: Structure = { m: 2, parents: [[2], [2, 0], []] };
    const est = (fc: Parameters<typeof smoothedLogProbs>[0]) => smoothedLogProbs(fc, 0.5);
    const a = fitModel(
      d,
      { m: 2, parents: s.parents, members: [{ weight: 1, structure: s, rowWeights: Float64Array.from([2, 1, 1, 1]) }] },
      est,
    );
    const b = fitCptModel(doubled, s, est);
    const pa = a.posterior(d);
    const pb = b.posterior(d);
    for (let i = 0; i < pa.length; i++) expect(pa[i]).toBeCloseTo(pb[i], 14);
  });

  it('bAN_mix: round j adds the j-th Chow–Liu edge to naive Bayes; members carry boosting row weights', () => {
    const s = learn('ban-mix', data, { iterations: 3 });
    const tan = learn('tan', data);
    s.members!.forEach((m, j) => {
      expect(m.vote).toBe(true);
      expect(m.rowWeights!.length).toBe(80);
      let extra = 0;
      for (let a = 0; a < 4; a++) {
        expect(m.structure.parents[a][0]).toBe(4);
        if (m.structure.parents[a].length === 2) {
          extra++;
          expect(tan.parents[a]).toEqual(m.structure.parents[a]); // a tree edge of TAN, same orientation
        }
      }
      expect(extra).toBe(j);
    });
    const sumW = s.members![0].rowWeights!.reduce((a, b) => a + b, 0);
    expect(sumW).toBeCloseTo(80, 10);
  });
});

describe('aCLL-TAN', () => {
  it('the aCLL term matches a hand computation', () => {
    // One binary attribute without feature parents, two classes, counts N[c][k]: c0 = (3, 1), c1 = (1, 1).
    // β = −1/2, N' = 0.5: w_ck = N_ck − (N_0k + N_1k)/2 → c0: (1, 0), c1: (−1, 0); N⁺ = max(w, N'):
    // c0: (1, 0.5) → N⁺_c0 = 1.5; c1: (0.5, 0.5) → N⁺_c1 = 1.
    // aCLL = 1·ln(1/1.5) + (−1)·ln(0.5/1) = −0.405465 + 0.693147 = 0.287682
    const t = Float64Array.from([3, 1, 1, 1]); // t[k * C + c]
    const buf = new Float64Array(2 + 2 * 2);
    expect(acllTerm(t, 2, 1, 2, -0.5, 0.5, buf)).toBeCloseTo(Math.log(1 / 1.5) - Math.log(0.5), 12);
    expect(Math.log(1 / 1.5) - Math.log(0.5)).toBeCloseTo(0.28768207245178085, 14);
  });

  it('with β = 0 aCLL is the log-likelihood, so the tree is the Chow–Liu tree of TAN', () => {
    const data = randomData('acll-cl', 400, [2, 3, 2, 2, 3], 2, 0.7);
    const a = learn('acll-tan', data, { beta: 0, nprime: 1e-9 });
    const tan = learn('tan', data);
    const edges = (s: Structure) =>
      s.parents
        .slice(0, 5)
        .flatMap((ps, v) => ps.filter((p) => p !== 5).map((p) => [Math.min(p, v), Math.max(p, v)].join('-')))
        .sort();
    expect(edges(a)).toEqual(edges(tan));
    expect(edges(a)).toHaveLength(4);
  });

  it('default settings learn a TAN (class first parent, one tree over the attributes)', () => {
    const data = randomData('acll-def', 200, [2, 3, 2, 2], 3);
    const s = learn('acll-tan', data);
    let roots = 0;
    for (let a = 0; a < 4; a++) {
      expect(s.parents[a][0]).toBe(4);
      if (s.parents[a].length === 1) roots++;
    }
    expect(roots).toBe(1);
    expect(s.parents[4]).toEqual([]);
  });
});

describe('diagnostics', () => {
  it('CPDAG and SHD on hand examples', () => {
    // chain 0 → 1 → 2: all undirected; collider 0 → 2 ← 1: compelled; 0 → 2 ← 1, 2 → 3: R1 orients 2 → 3
    const chain = cpdag([[], [0], [1]]);
    expect(Array.from(chain.e)).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0]);
    const collider = cpdag([[], [], [0, 1]]);
    expect(Array.from(collider.e)).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 0]);
    const r1 = cpdag([[], [], [0, 1], [2]]);
    expect(r1.e[2 * 4 + 3]).toBe(1);
    expect(r1.e[3 * 4 + 2]).toBe(0);
    // chain vs collider 0 → 2 ← 1: pair (0,1) edge missing, (0,2) edge extra, (1,2) undirected vs directed = 3;
    // chain vs empty: 2 missing edges
    expect(shd(chain, collider)).toBe(3);
    expect(shd(chain, cpdag([[], [], []]))).toBe(2);
    expect(shd(chain, cpdag([[1], [], [1]]))).toBe(0); // 1 → 0, 1 → 2 is the chain's class
  });

  it('APSES (eq. 3) from posteriors: a hand computation', () => {
    // 2 structures, 3 bootstraps: P(G_1 | D̃_i) = 0.2, 0.4, 0.6 (and 1 − that for G_2).
    // mean 0.4; Σ (x − mean)² = 0.08; SE = sqrt(0.08 / (3 · 2)) = 0.1154700538; both structures alike.
    const post = Float64Array.from([0.2, 0.8, 0.4, 0.6, 0.6, 0.4]);
    expect(meanStandardError(post, 3, 2)).toBeCloseTo(Math.sqrt(0.08 / 6), 14);
  });

  it('ensembles report the class parents (Table 5) and mean SHD (Table 7)', () => {
    const data = randomData('diag', 60, [2, 2, 2], 2);
    const kb = learn('kb', data, { k: 4 });
    const shds: number[] = [];
    const cps = kb.members!.map((m) => cpdag(m.structure.parents));
    for (let i = 0; i < cps.length; i++) for (let j = i + 1; j < cps.length; j++) shds.push(shd(cps[i], cps[j]));
    expect(kb.info!['meanShd']).toBeCloseTo(shds.reduce((a, b) => a + b, 0) / shds.length, 12);
    const cls = kb.members!.map((m) => m.structure.parents[3].length);
    expect(kb.info!['classParents']).toBeCloseTo(cls.reduce((a, b) => a + b, 0) / cls.length, 12);
    expect(kb.info!['apses']).toBeGreaterThanOrEqual(0);
  });
});
