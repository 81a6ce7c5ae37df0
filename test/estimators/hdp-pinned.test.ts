/**
 * Regression pins for the HDP sampler: for a fixed seed the posteriors are bit-identical to those recorded
 * from the implementation at commit a38a8bd, which the Table 1 test validates (test/estimators/hdp.test.ts:
 * Table 1 of Petitjean et al. 2018 and the authors' heart-attack example, seed-averaged). Speed work on the
 * sampler (src/estimators/hdp/tree.ts) must keep these exactly: the same draws in the same order and the
 * same floating-point operations.
 *
 * Data: shipped UCI sets, all rows, no discretisation needed (car: 1,728 rows, 6 nominal attributes, 4
 * classes; breast-cancer: 286 rows, 9 attributes with missing values kept, 2 classes). Every third row
 * (r mod 3 = 0) is the test set, the rest the training set. Structure: X_i | class, X_{i−1}, …, X_{i−k}
 * (the bench's "java" setting). 300 iterations. Each case pins the first four test rows' posteriors as
 * numbers and every test row's posterior by an FNV-1a hash of the Float64Array bytes (little-endian).
 */
import { describe, it, expect } from 'vitest';
import { loadRegistry } from '../../src/datasets/registry.js';
import { loadDataset } from '../../src/datasets/load.js';
import { fitPreprocessor } from '../../src/datasets/preprocess.js';
import { MISSING, selectRows, type DiscreteData } from '../../src/bn/data.js';
import { previousColumnsStructure } from '../../src/bn/structure.js';
import {
  ContextTree,
  LogStirlingCache,
  Variates,
  hdp,
  hdpSettings,
  type HdpParams,
} from '../../src/estimators/hdp/index.js';
import { completeParams } from '../../src/registry.js';
import { Rng } from '../../src/util/rng.js';

function shipped(name: string): DiscreteData {
  const { table } = loadDataset(loadRegistry().get(name));
  const all = Int32Array.from({ length: table.classColumn.length }, (_, i) => i);
  const pre = fitPreprocessor(table, all, { discretize: { method: 'none' }, missing: 'available-case' });
  return pre.transform(table, pre.trainRows());
}

/** FNV-1a (32 bit) of the bytes of a typed array. */
function fnv(p: Float64Array | Int32Array): string {
  const b = new Uint8Array(p.buffer, p.byteOffset, p.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) {
    h ^= b[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

// Recorded from the implementation at commit a38a8bd, which the Table 1 test validates.
const CASES: { name: string; k: number; params: Partial<HdpParams>; rows: number; hash: string; first: number[] }[] = [
  {
    name: 'car',
    k: 2,
    params: {},
    rows: 576,
    hash: '2cd5ebd5',
    first: [
      8.641264372030084e-5, 6.538289236296338e-5, 0.9998135537147658, 3.4650749150975346e-5, 0.00010749036099568609,
      6.330019768732515e-5, 0.9997519325928238, 7.727684849321588e-5, 0.0001019271154023485, 6.997791715233365e-5,
      0.9997329933542478, 9.510161319752906e-5, 0.00955701493055397, 0.0020035251725223327, 0.9878144762166846,
      0.000624983680239111,
    ],
  },
  {
    name: 'car',
    k: 2,
    params: { tying: 'none', prior: 'paper', concentrationEvery: 1 },
    rows: 576,
    hash: '7866aa30',
    first: [
      2.5959220787219995e-5, 2.770551415011179e-5, 0.9999046231799404, 4.171208512229489e-5, 1.2311432725877017e-5,
      0.00019697393302138628, 0.9996195258767946, 0.00017118875745797524, 4.973114979604141e-6, 0.00036683386794037154,
      0.9996263088997386, 1.8841173414343456e-6, 0.01276390955232233, 0.0010124051509064185, 0.9860937308590924,
      0.0001299544376788922,
    ],
  },
  {
    name: 'car',
    k: 2,
    params: { tying: 'same-parent', classPrior: 'hdp' },
    rows: 576,
    hash: 'f743908e',
    first: [
      2.3416797044187108e-5, 6.263021847248957e-5, 0.9998461486277278, 6.780435675553774e-5, 3.2421805375840135e-5,
      5.9155878594712404e-5, 0.9998426497420883, 6.57725739411304e-5, 3.710258632277863e-5, 9.63843877152144e-5,
      0.9997796778344837, 8.683519147831967e-5, 0.006259223027219316, 0.0018758129642273288, 0.9914736690376407,
      0.0003912949709127105,
    ],
  },
  {
    name: 'breast-cancer',
    k: 1,
    params: { tying: 'single', window: 3 },
    rows: 96,
    hash: '1f0d689f',
    first: [
      0.5762089739947458, 0.42379102600525415, 0.19938015107593177, 0.8006198489240683, 0.7888994303898171,
      0.2111005696101828, 0.1985256041128845, 0.8014743958871154,
    ],
  },
];

describe('HDP posteriors are bit-identical to commit a38a8bd for a fixed seed', () => {
  const loaded = new Map<string, DiscreteData>();
  const data = (name: string): DiscreteData => {
    let d = loaded.get(name);
    if (!d) loaded.set(name, (d = shipped(name)));
    return d;
  };

  it.each(CASES.map((c) => [`${c.name} k=${c.k} ${JSON.stringify(c.params)}`, c] as const))('%s', (_, c) => {
    const d = data(c.name);
    const train: number[] = [];
    const test: number[] = [];
    for (let r = 0; r < d.n; r++) (r % 3 === 0 ? test : train).push(r);
    const tr = selectRows(d, train);
    const te = selectRows(d, test);
    expect(te.n).toBe(c.rows);
    if (c.name === 'breast-cancer') expect(te.columns.some((col) => col.includes(MISSING))).toBe(true); // the CPT path too
    const model = hdp.fit(
      tr,
      previousColumnsStructure(d.columns.length, c.k),
      { iterations: 300, ...c.params },
      { rng: new Rng(`pin/${c.name}/${JSON.stringify(c.params)}`) },
    );
    const p = model.posterior(te);
    expect([...p.subarray(0, c.first.length)]).toEqual(c.first);
    expect(fnv(p)).toBe(c.hash);
  });

  it('the log-space weights path (one tree, no tying, paper prior, concentrations every iteration)', () => {
    const d = data('car');
    // safety | class, lug_boot, persons over all 1,728 rows
    const tree = new ContextTree(
      d.columns[5],
      d.cards[5],
      [d.classColumn, d.columns[4], d.columns[3]],
      [d.classCard, d.cards[4], d.cards[3]],
      d.n,
    );
    const settings = hdpSettings(
      completeParams(hdp, { iterations: 300, tying: 'none', prior: 'paper', concentrationEvery: 1 }),
    );
    for (const logWeights of [true, false]) {
      tree.sample(settings, new LogStirlingCache(), new Variates(new Rng('pin/tree')), undefined, logWeights);
      expect(tree.size).toBe(41);
      expect(tree.recorded).toBe(270);
      expect(fnv(tree.pSum)).toBe('4d407987');
      expect(fnv(tree.t)).toBe('70e1c406');
      expect(fnv(tree.concentration)).toBe('5fdd084d');
      const root = new Float64Array(3);
      tree.average(0, root);
      expect([...root]).toEqual([0.4812188333301313, 0.10572126621600356, 0.41305990045386515]);
      expect(tree.concentration[1]).toBe(0.12909890195333562);
      expect(tree.concentration[40]).toBe(67.44758851136073);
    }
  });
});
