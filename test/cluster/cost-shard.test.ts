import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ROOT, tempDir } from '../helpers/cli.js';
import { estimateLines, pilotSample } from '../../src/cluster/estimate.js';
import { loadSpecFile } from '../../src/spec/load.js';
import { buildPlan, type Plan } from '../../src/spec/plan.js';
import { CostModel, methodIdentityOf, staticCostMs } from '../../src/spec/cost.js';
import { imbalance, parseShard, partitionJobs, partitionPlan } from '../../src/spec/shard.js';
import { Rng } from '../../src/util/rng.js';
import '../../src/methods.js';

const SMALL = join(ROOT, 'test', 'fixtures', 'specs', 'e2e-small.yaml');

function method(
  structure: string,
  sp: Record<string, unknown>,
  estimator: string | null,
  ep: Record<string, unknown> = {},
) {
  return {
    kind: estimator ? ('bnc' as const) : ('baseline' as const),
    structure: { id: structure, params: sp, given: sp },
    estimator: estimator ? { id: estimator, params: ep, given: ep } : null,
    label: `${structure}/${estimator}`,
  };
}

describe('cost model', () => {
  const size = { nTrain: 10_000, nTest: 10_000, attributes: 16, classes: 26 }; // letter, 2-fold CV
  it('ranks methods as they run: an HDP kDB-5 job costs hundreds to thousands of NB jobs', () => {
    const nb = staticCostMs(method('nb', {}, 'm-estimate', { select: 'holdout' }), size).ms;
    const kdb5hdp = staticCostMs(method('kdb', { k: 5 }, 'hdp', { iterations: 50000 }), size).ms;
    const nbhdp = staticCostMs(method('nb', {}, 'hdp', { iterations: 50000 }), size).ms;
    expect(kdb5hdp / nb).toBeGreaterThan(100);
    expect(kdb5hdp / nb).toBeLessThan(100_000);
    expect(kdb5hdp).toBeGreaterThan(nbhdp);
    // 50,000 iterations cost 10 times 5,000.
    const hdp5k = staticCostMs(method('kdb', { k: 5 }, 'hdp', { iterations: 5000 }), size).ms;
    expect(kdb5hdp / hdp5k).toBeGreaterThan(9);
    expect(kdb5hdp / hdp5k).toBeLessThan(10.01);
  });

  it('grows with rows and attributes, exponentially for exact search', () => {
    const tan = (n: number, m: number) =>
      staticCostMs(method('tan', {}, 'dirichlet'), { nTrain: n, nTest: n / 9, attributes: m, classes: 2 }).ms;
    expect(tan(2000, 10)).toBeGreaterThan(tan(1000, 10));
    expect(tan(1000, 20)).toBeGreaterThan(tan(1000, 10));
    const ebn = (m: number) =>
      staticCostMs(method('ebn', {}, 'eap'), { nTrain: 500, nTest: 50, attributes: m, classes: 2 }).ms;
    // The search over all subsets (v·2^v, v = m + 1) outgrows the rest: 26·2^26 against 11·2^11.
    expect(ebn(25) / ebn(10)).toBeGreaterThan(1000);
  });

  it('says when a method has no formula', () => {
    const r = staticCostMs(method('made-up', {}, 'dirichlet'), size);
    expect(r.fallback).toBe(true);
    expect(staticCostMs(method('kdb', { k: 1 }, 'dirichlet'), size).fallback).toBe(false);
  });

  it('calibrates: observed where measured, scaled by the median ratio elsewhere', () => {
    const plan = buildPlan(loadSpecFile(SMALL).spec);
    const staticModel = new CostModel(plan);
    const nb = plan.spec.methods.find((m) => m.structure.id === 'nb')!;
    const iris = plan.datasets.find((d) => d.handle.name === 'iris')!;
    const irisNb = plan.jobs.filter((j) => j.method === nb && j.dataset === iris);
    const meanStatic = irisNb.reduce((a, j) => a + staticModel.staticCost(j), 0) / irisNb.length;
    const model = new CostModel(plan, [
      { method: methodIdentityOf(nb), datasetHash: iris.handle.sha256, meanMs: 10 * meanStatic, jobs: 5 },
    ]);
    for (const j of irisNb) expect(model.cost(j)).toEqual({ ms: 10 * meanStatic, basis: 'observed' });
    const zooNb = plan.jobs.find((j) => j.method === nb && j.dataset.handle.name === 'zoo')!;
    expect(model.cost(zooNb).basis).toBe('scaled');
    expect(model.cost(zooNb).ms).toBeCloseTo(10 * model.staticCost(zooNb), 9);
    const tan = plan.jobs.find((j) => j.method.structure.id === 'tan')!;
    expect(model.cost(tan)).toEqual({ ms: model.staticCost(tan), basis: 'static' });
    // Calibration never moves the static cost that shards are balanced by.
    expect(model.staticCost(zooNb)).toBe(staticModel.staticCost(zooNb));
  });

  it('does not carry a timing of a method without a formula to another dataset, and the pilot times all of its', () => {
    const file = join(tempDir(), 'brai.yaml');
    writeFileSync(
      file,
      `name: brai-cost
seed: 7
datasets: [iris, breast-cancer, zoo]
resampling: { folds: 5 }
methods:
  - { name: NB, structure: nb, estimator: dirichlet }
  - { name: B-RAI, structure: { id: brai, params: { samples: 10 } }, estimator: eap }
`,
    );
    const plan = buildPlan(loadSpecFile(file).spec);
    const [nb, brai] = plan.spec.methods;
    const iris = plan.datasets.find((d) => d.handle.name === 'iris')!;
    const observed = (m: typeof nb) => ({
      method: methodIdentityOf(m),
      datasetHash: iris.handle.sha256,
      meanMs: 1000,
      jobs: 5,
    });
    const model = new CostModel(plan, [observed(nb), observed(brai)]);
    const on = (m: typeof nb, d: string) => plan.jobs.find((j) => j.method === m && j.dataset.handle.name === d)!;
    expect(model.cost(on(brai, 'iris'))).toEqual({ ms: 1000, basis: 'observed' });
    // kDB-1's shape, which B-RAI is costed by for shards, says nothing of B-RAI on zoo: unknown, not scaled.
    expect(model.cost(on(brai, 'zoo')).basis).toBe('unknown');
    expect(model.cost(on(nb, 'zoo')).basis).toBe('scaled');
    expect(model.unknownMethods).toEqual(['B-RAI']);
    expect(estimateLines(plan, model, 2).join('\n')).toMatch(
      /B-RAI +15 +unknown +unknown on the datasets without a timing of it/,
    );
    // The pilot: NB at its median and upper-quartile dataset (of three, the same one), B-RAI at the first fold of
    // all three.
    const sample = pilotSample(plan, new CostModel(plan));
    expect(
      sample
        .filter((j) => j.method === brai)
        .map((j) => [j.dataset.handle.name, j.fold])
        .sort(),
    ).toEqual([
      ['breast-cancer', 0],
      ['iris', 0],
      ['zoo', 0],
    ]);
    expect(sample.filter((j) => j.method === nb)).toHaveLength(1);
  });
});

describe('shards', () => {
  it('parses I/N and rejects the rest with one line', () => {
    expect(parseShard('3/8')).toEqual({ index: 3, count: 8 });
    expect(() => parseShard('0/8')).toThrow(/does not exist/);
    expect(() => parseShard('9/8')).toThrow(/does not exist/);
    expect(() => parseShard('3-8')).toThrow(/expected I\/N/);
  });

  it('puts every job in exactly one shard, the same whatever the input order', () => {
    const rng = new Rng('shards');
    const items = Array.from({ length: 500 }, (_, i) => ({ key: `k${i}`, cost: Math.floor(rng.next() * 1000) % 37 }));
    const a = partitionJobs(items, 7);
    const shuffled = [...items].reverse();
    const b = partitionJobs(shuffled, 7);
    expect([...a.shardOf].sort()).toEqual([...b.shardOf].sort());
    expect(a.shardOf.size).toBe(500);
    expect(a.jobs.reduce((x, y) => x + y, 0)).toBe(500);
    for (const s of a.shardOf.values()) expect(s >= 1 && s <= 7).toBe(true);
  });

  it('balances within 4/3 of the optimum (brute force on small instances)', () => {
    const rng = new Rng('lpt');
    for (let t = 0; t < 30; t++) {
      const n = 9;
      const items = Array.from({ length: n }, (_, i) => ({ key: `j${i}`, cost: 1 + Math.floor(rng.next() * 100) }));
      const count = 3;
      // Optimum makespan over all 3^9 assignments.
      let best = Infinity;
      for (let code = 0; code < count ** n; code++) {
        const load = [0, 0, 0];
        let c = code;
        for (const it of items) {
          load[c % count] += it.cost;
          c = Math.floor(c / count);
        }
        best = Math.min(best, Math.max(...load));
      }
      const p = partitionJobs(items, count);
      expect(Math.max(...p.load)).toBeLessThanOrEqual((4 / 3) * best + 1e-9);
    }
  });

  it('balances by cost, not by count: one expensive job gets a shard of its own', () => {
    const items = [{ key: 'big', cost: 1000 }, ...Array.from({ length: 100 }, (_, i) => ({ key: `s${i}`, cost: 10 }))];
    const p = partitionJobs(items, 2);
    expect(p.jobs).toEqual([1, 100]);
    expect(imbalance(p)).toBe(1);
  });

  it('partitions a real plan deterministically (the same on every build of the plan)', () => {
    const plan1: Plan = buildPlan(loadSpecFile(SMALL).spec);
    const plan2: Plan = buildPlan(loadSpecFile(SMALL).spec);
    const a = partitionPlan(plan1, new CostModel(plan1), 4);
    const b = partitionPlan(plan2, new CostModel(plan2), 4);
    expect([...a.shardOf]).toEqual([...b.shardOf]);
    expect(imbalance(a)).toBeLessThan(1.1);
  });
});
