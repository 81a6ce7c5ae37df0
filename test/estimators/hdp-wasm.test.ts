/**
 * The WebAssembly kernel of the HDP sampler (src/estimators/hdp/sweep.wat, built into dist/ by npm run
 * build) computes what the JavaScript loop computes, bit for bit: the same states, estimates and
 * concentrations after sampling from the same seed, including the pairs it hands back to JavaScript (table
 * growth, the log path) and concentration groups with nodes of more than 16 rows (gamma variates). Its
 * inline logarithm is Math.log's.
 *
 * The kernel is read from dist/ (npm test builds first). Where nothing was built (vitest alone, a mutation
 * testing sandbox) these tests are skipped; where dist/ was built without the kernel, the first one fails.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { ContextTree, LogStirlingCache, Variates, hdp, hdpSettings } from '../../src/estimators/hdp/index.js';
import { SweepKernel } from '../../src/estimators/hdp/sweep-kernel.js';
import type { SamplerSettings } from '../../src/estimators/hdp/tree.js';
import { completeParams } from '../../src/registry.js';
import { Rng } from '../../src/util/rng.js';

const kernel = SweepKernel.get();
const built = existsSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'cli', 'main.js'));

/** Rows of a child with K values under branch variables of the given cardinalities, skewed counts. */
function synthetic(rows: number, K: number, cards: number[], seed: string) {
  const rng = new Rng(seed);
  const branch = cards.map(() => new Int32Array(rows));
  const child = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    let h = 0;
    cards.forEach((c, d) => {
      const v = Math.min(c - 1, Math.floor(c * rng.next() ** 2));
      branch[d][r] = v;
      h = h * 7 + v;
    });
    child[r] = Math.min(K - 1, Math.floor(K * rng.next() ** (1 + (h % 3))));
  }
  return { child, branch };
}

function tree(rows: number, K: number, cards: number[], seed: string): ContextTree {
  const { child, branch } = synthetic(rows, K, cards, seed);
  return new ContextTree(child, K, branch, cards, rows);
}

function state(t: ContextTree) {
  return {
    n: [...t.n],
    t: [...t.t],
    nSum: [...t.nSum],
    tSum: [...t.tSum],
    pSum: [...t.pSum],
    concentration: [...t.concentration],
    recorded: t.recorded,
  };
}

const settings = (params: Record<string, unknown>): SamplerSettings => hdpSettings(completeParams(hdp, params));

describe('HDP WebAssembly kernel', () => {
  it.skipIf(!built)('is built with dist/ (npm run build puts sweep.wasm there)', () => {
    expect(kernel, 'dist/src/estimators/hdp/sweep.wasm is missing: run npm run build').not.toBeNull();
  });
});

describe.skipIf(!kernel)('HDP WebAssembly kernel against the JavaScript loop', () => {
  it.each([
    ['level tying, code prior', { iterations: 200 }, 3000, 3, [2, 3, 2]],
    [
      'no tying, paper prior, every iteration',
      { iterations: 150, tying: 'none', prior: 'paper', concentrationEvery: 1 },
      2000,
      4,
      [3, 2],
    ],
    // a concentration near 0: Gamma(c) drawn as Gamma(c + 1) · U^(1/c), and log(1/q) > 35 (z + exp(−z))
    [
      'concentrations near 0',
      { iterations: 40, tying: 'none', prior: 'paper', initialConcentration: 1e-12, concentrationEvery: 1 },
      2000,
      3,
      [3, 2],
    ],
    // windows of ±300 over thousands of rows: products out of the double range (the log path), t across
    // chunks of 64 columns, tables grown during the run
    ['window 300, large counts', { iterations: 60, window: 300, tying: 'single' }, 20000, 3, [2]],
  ] as const)('gives the JavaScript loop’s states bit for bit: %s', (_, params, rows, K, cards) => {
    const s = settings(params);
    const viaKernel = tree(rows, K, [...cards], `wasm/${JSON.stringify(params)}`);
    const viaJs = tree(rows, K, [...cards], `wasm/${JSON.stringify(params)}`);
    const before = kernel!.handedBack;
    viaKernel.sample(s, new LogStirlingCache(), new Variates(new Rng('wasm/seed')), undefined, false, kernel);
    viaJs.sample(s, new LogStirlingCache(), new Variates(new Rng('wasm/seed')), undefined, false, null);
    expect(kernel!.handedBack).toBeGreaterThan(before); // the first iteration grows the tables at least
    expect(state(viaKernel)).toEqual(state(viaJs));
  });

  it('hands back pairs whose weights need the log path and still agrees', () => {
    const s = settings({ iterations: 40, window: 1000, tying: 'none', maxConcentration: 4000 });
    const a = tree(30000, 2, [2], 'wasm/log-path');
    const b = tree(30000, 2, [2], 'wasm/log-path');
    const stirling = new LogStirlingCache();
    // a first run grows the tables, so what the second hands back is the log path alone
    a.sample(s, stirling, new Variates(new Rng('wasm/warm')), undefined, false, kernel);
    const before = kernel!.handedBack;
    a.sample(s, stirling, new Variates(new Rng('wasm/log')), undefined, false, kernel);
    expect(kernel!.handedBack).toBeGreaterThan(before);
    b.sample(s, new LogStirlingCache(), new Variates(new Rng('wasm/log')), undefined, false, null);
    expect(state(a)).toEqual(state(b));
  });

  it('agrees across trees that share one table cache (copies kept up to date between trees)', () => {
    const s = settings({ iterations: 80 });
    const shared = new LogStirlingCache();
    const own = new LogStirlingCache();
    for (const [rows, seed] of [
      [500, 'a'],
      [8000, 'b'],
      [3000, 'c'],
    ] as const) {
      const x = tree(rows, 3, [3, 2], `wasm/shared/${seed}`);
      const y = tree(rows, 3, [3, 2], `wasm/shared/${seed}`);
      x.sample(s, shared, new Variates(new Rng(seed)), undefined, false, kernel);
      y.sample(s, own, new Variates(new Rng(seed)), undefined, false, null);
      expect(state(x)).toEqual(state(y));
    }
  });

  it('draws the same stream: the Rng continues where the kernel left it', () => {
    const s = settings({ iterations: 30 });
    const r1 = new Rng('wasm/stream');
    const r2 = new Rng('wasm/stream');
    tree(1000, 2, [2, 2], 'wasm/stream').sample(s, new LogStirlingCache(), new Variates(r1), undefined, false, kernel);
    tree(1000, 2, [2, 2], 'wasm/stream').sample(s, new LogStirlingCache(), new Variates(r2), undefined, false, null);
    expect([r1.next(), r1.next(), r1.nextUint32()]).toEqual([r2.next(), r2.next(), r2.nextUint32()]);
  });

  it('its logarithm is Math.log, bit for bit, on uniforms and around 1, 1/2 and √2/2', () => {
    const log = (x: number) => kernel!.log(x);
    const rng = new Rng('wasm/log');
    let mismatches = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const u = rng.next();
      if (u > 0 && !Object.is(log(u), Math.log(u))) mismatches++;
    }
    const f = new Float64Array(1);
    const bits = new BigInt64Array(f.buffer);
    for (const x0 of [1, 0.5, Math.SQRT1_2, 2 ** -53, 1 - 2 ** -53, 0.75]) {
      f[0] = x0;
      const b0 = bits[0];
      for (let d = -20000n; d <= 20000n; d++) {
        bits[0] = b0 + d;
        const x = f[0];
        if (x > 0 && x < 1 && !Object.is(log(x), Math.log(x))) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
  });

  it('its exp and log1p are Math.exp and Math.log1p, bit for bit, on any argument and around their thresholds', () => {
    const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
    const f = new Float64Array(1);
    const bits = new BigInt64Array(f.buffer);
    const words = new Uint32Array(f.buffer);
    const rng = new Rng('wasm/exp');
    const bad: string[] = [];
    const check = (x: number) => {
      if (!same(kernel!.exp(x), Math.exp(x))) bad.push(`exp(${x})`);
      if (!same(kernel!.log1p(x), Math.log1p(x))) bad.push(`log1p(${x})`);
    };
    // any bit pattern: NaNs, infinities, subnormals, both signs
    for (let i = 0; i < 300_000; i++) {
      words[0] = rng.nextUint32();
      words[1] = rng.nextUint32();
      check(f[0]);
    }
    // the ranges step 2 uses (exp(±z), log1p(exp(z)) for z <= 35) and the whole finite range of exp
    for (let i = 0; i < 300_000; i++) {
      const u = rng.next();
      check(-750 + 1460 * u);
      check(-40 + 80 * u);
      check(Math.exp(35) * u);
      check(2 ** (-1074 + 2100 * u) * (rng.next() < 0.5 ? -1 : 1));
    }
    // the branch points of both algorithms, and their neighbours
    for (const x0 of [
      0.5 * Math.LN2,
      1.5 * Math.LN2,
      2 ** -28,
      709.782712893384,
      -745.1332191019411,
      1,
      -1,
      Math.SQRT2 - 1,
      Math.SQRT1_2 - 1,
      2 ** -29,
      2 ** -54,
      2 ** 53,
      35,
      0,
    ]) {
      f[0] = x0;
      const b0 = bits[0];
      for (let d = -3000n; d <= 3000n; d++) {
        bits[0] = b0 + d;
        check(f[0]);
        check(-f[0]);
      }
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });
});
