import { describe, expect, it } from 'vitest';
import { LocalScores } from '../../src/bn/exact/localscores.js';
import { bestNetwork } from '../../src/bn/exact/dp.js';
import { equivalenceKey, kBestNetworks } from '../../src/bn/exact/kbest.js';
import { cpdag, cpdagKey } from '../../src/bn/exact/equivalence.js';
import { allDags, maskLists, randomData } from './helpers.js';

function bruteForce(ls: LocalScores, allowed?: (v: number, mask: number) => boolean) {
  const dags = allDags(ls.n, allowed);
  return dags
    .map((p) => {
      let s = ls.constant;
      for (let v = 0; v < ls.n; v++) s += ls.local(v, p[v]);
      return { p, s };
    })
    .sort((a, b) => b.s - a.s);
}

/** Top-K equivalence classes by brute force, grouped by CPDAG (independent of the DP's key). */
function bruteForceClasses(ls: LocalScores) {
  const seen = new Map<string, { p: Int32Array; s: number }>();
  for (const d of bruteForce(ls)) {
    const key = cpdagKey(cpdag(maskLists(d.p)));
    if (!seen.has(key)) seen.set(key, d);
    else expect(Math.abs(seen.get(key)!.s - d.s)).toBeLessThan(1e-9 * Math.max(1, Math.abs(d.s))); // score equivalence
  }
  return [...seen.values()];
}

const problems = [
  { name: '4 variables, 60 rows', cards: [2, 3, 2], classCard: 2, n: 60 },
  { name: '5 variables, 40 rows', cards: [2, 2, 3, 2], classCard: 3, n: 40 },
  { name: '5 variables, 300 rows', cards: [2, 2, 2, 2], classCard: 2, n: 300 },
  { name: '5 variables, 15 rows', cards: [3, 2, 2, 2], classCard: 2, n: 15 },
];

describe('exact DP (Silander & Myllymäki) against brute-force enumeration', () => {
  for (const pr of problems) {
    for (const score of ['bdeu', 'bic'] as const) {
      it(`${pr.name}, ${score}`, () => {
        for (let rep = 0; rep < 3; rep++) {
          const d = randomData(`dp-${pr.name}-${score}-${rep}`, pr.n, pr.cards, pr.classCard);
          const ls = new LocalScores(d, { score, ess: 1, constraint: 'none' });
          const bf = bruteForce(ls);
          const net = bestNetwork(ls, 2048);
          expect(net.score).toBeCloseTo(bf[0].s, 9);
          let s = ls.constant;
          for (let v = 0; v < ls.n; v++) s += ls.local(v, net.parents[v]);
          expect(s).toBeCloseTo(net.score, 9);
        }
      });
    }
  }

  it('ANB constraint: optimum over ANB DAGs, class without parents, class a parent of every feature', () => {
    for (let rep = 0; rep < 4; rep++) {
      const d = randomData(`anb-${rep}`, 80, [2, 3, 2, 2], 2);
      const full = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'none' });
      const anb = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'anb' });
      const cls = 4;
      const bf = bruteForce(full, (v, mask) => (v === cls ? mask === 0 : (mask & (1 << cls)) !== 0));
      const net = bestNetwork(anb, 2048);
      expect(net.score).toBeCloseTo(bf[0].s, 9);
      expect(bf.length).toBe(543); // every DAG over the 4 features (OEIS A003024: 543) with C → each
    }
  });
});

describe('K-best DAGs (Tian, He & Ram) and K-best classes (Chen & Tian) against brute force', () => {
  for (const pr of problems) {
    it(`K-best DAGs, ${pr.name}`, () => {
      const d = randomData(`kdag-${pr.name}`, pr.n, pr.cards, pr.classCard);
      const ls = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'none' });
      const bf = bruteForce(ls);
      for (const K of [1, 7, 40]) {
        const nets = kBestNetworks(ls, K, 'dag', 2048);
        expect(nets.length).toBe(Math.min(K, bf.length));
        nets.forEach((net, i) => expect(net.score).toBeCloseTo(bf[i].s, 9));
        // distinct DAGs, each with the score it claims
        const keys = new Set(nets.map((x) => Array.from(x.parents).join(',')));
        expect(keys.size).toBe(nets.length);
        for (const net of nets) {
          let s = ls.constant;
          for (let v = 0; v < ls.n; v++) s += ls.local(v, net.parents[v]);
          expect(s).toBeCloseTo(net.score, 9);
        }
      }
    });

    it(`K-best equivalence classes, ${pr.name}`, () => {
      const d = randomData(`kec-${pr.name}`, pr.n, pr.cards, pr.classCard);
      for (const score of ['bdeu', 'bic'] as const) {
        const ls = new LocalScores(d, { score, ess: 1, constraint: 'none' });
        const classes = bruteForceClasses(ls);
        // 4 nodes have 185 classes, 5 nodes 8,782 (Gillispie & Perlman 2001)
        expect(classes.length).toBe(ls.n === 4 ? 185 : 8782);
        for (const K of [1, 10, 100]) {
          const nets = kBestNetworks(ls, K, 'ec', 2048);
          expect(nets.length).toBe(Math.min(K, classes.length));
          const dpKeys = nets.map((x) => cpdagKey(cpdag(maskLists(x.parents))));
          expect(new Set(dpKeys).size).toBe(nets.length);
          nets.forEach((net, i) => expect(net.score).toBeCloseTo(classes[i].s, 9));
          // Where the score is not tied with a neighbour, the class itself must match.
          for (let i = 0; i < nets.length; i++) {
            const s = classes[i].s;
            const tiedPrev = i > 0 && Math.abs(classes[i - 1].s - s) < 1e-7;
            const tiedNext = i + 1 < classes.length && Math.abs(classes[i + 1].s - s) < 1e-7;
            if (!tiedPrev && !tiedNext) expect(dpKeys[i]).toBe(cpdagKey(cpdag(maskLists(classes[i].p))));
          }
          // the DP's own key agrees with the CPDAG
          for (const net of nets) {
            for (const other of nets) {
              expect(equivalenceKey(net.parents) === equivalenceKey(other.parents)).toBe(net === other);
            }
          }
        }
      }
    });
  }

  it('K-best classes under the ANB constraint', () => {
    const d = randomData('kec-anb', 70, [2, 2, 3, 2], 2);
    const full = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'none' });
    const anb = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'anb' });
    const cls = 4;
    const seen = new Map<string, number>();
    for (const x of bruteForce(full, (v, mask) => (v === cls ? mask === 0 : (mask & (1 << cls)) !== 0))) {
      const key = cpdagKey(cpdag(maskLists(x.p)));
      if (!seen.has(key)) seen.set(key, x.s);
    }
    const classScores = [...seen.values()];
    expect(classScores.length).toBe(185); // classes of the 4 features; C adjacent to all adds no v-structure
    const nets = kBestNetworks(anb, 30, 'ec', 2048);
    expect(nets.length).toBe(30);
    nets.forEach((net, i) => expect(net.score).toBeCloseTo(classScores[i], 9));
  });
});

describe('K-best on 8 variables (beyond brute force): DAG and class lists agree', () => {
  it('the classes of the 400 best DAGs, in order of first appearance, are a prefix of the K-best class list', () => {
    const d = randomData('k8', 120, [2, 3, 2, 2, 3, 2, 2], 2, 0.7);
    const ls = new LocalScores(d, { score: 'bdeu', ess: 1, constraint: 'none' });
    const dags = kBestNetworks(ls, 400, 'dag', 2048);
    const ecs = kBestNetworks(ls, 60, 'ec', 2048);
    expect(dags).toHaveLength(400);
    const order: { key: string; score: number }[] = [];
    const seen = new Set<string>();
    for (const net of dags) {
      const key = cpdagKey(cpdag(maskLists(net.parents)));
      if (!seen.has(key)) {
        seen.add(key);
        order.push({ key, score: net.score });
      }
    }
    // Every class whose score is above the 400th DAG's has all its members listed, so it is complete;
    // keep those and compare with the class search.
    const cut = dags[dags.length - 1].score + 1e-7;
    const complete = order.filter((o) => o.score > cut);
    expect(complete.length).toBeGreaterThan(10);
    const n = Math.min(complete.length, ecs.length);
    for (let i = 0; i < n; i++) {
      expect(ecs[i].score).toBeCloseTo(complete[i].score, 9);
      const tied = (j: number) => j >= 0 && j < n && Math.abs(complete[j].score - complete[i].score) < 1e-7;
      if (!tied(i - 1) && !tied(i + 1)) expect(cpdagKey(cpdag(maskLists(ecs[i].parents)))).toBe(complete[i].key);
    }
    // K = 1 of either search is the single-best DP
    expect(kBestNetworks(ls, 1, 'ec', 2048)[0].score).toBeCloseTo(bestNetwork(ls, 2048).score, 9);
  });
});
