/**
 * B-RAI on data sampled from a known network over four attributes and the class:
 * X0 → X1, X0 → X2, X1 → X3 ← X2 (a v-structure), X3 → C. With enough rows every structure sampled from
 * the graph-generating tree lies in the true structure's equivalence class; the CI statistic is checked
 * against the definition of conditional mutual information, computed by brute force.
 */
import { describe, expect, it } from 'vitest';
import type { DiscreteData } from '../../src/bn/data.js';
import { cpdag, cpdagKey } from '../../src/bn/exact/equivalence.js';
import { brai, conditionalMutualInformation } from '../../src/structures/ensembles/brai.js';
import { withDefaults } from '../../src/registry.js';
import { Rng } from '../../src/util/rng.js';

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
    cols[0]![r] = x0;
    cols[1]![r] = x1;
    cols[2]![r] = x2;
    cols[3]![r] = x3;
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
    const col = (v: number) => (v === 4 ? d.classColumn : d.columns[v]!);
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

describe('B-RAI with the G-test', () => {
  it("also samples only the true structure's equivalence class from 5,000 rows", () => {
    const s = brai.learn(sample(5000, 'brai-known'), withDefaults(brai, { test: 'g2', alpha: 0.05 }), {
      rng: new Rng('brai'),
    });
    const truth = cpdagKey(cpdag(TRUE_PARENTS));
    for (const m of s.members!) expect(cpdagKey(cpdag(m.structure.parents))).toBe(truth);
  });
});
