import { describe, it, expect } from 'vitest';
import '../../src/structures/index.js';
import { bnclassifyCmi, bnclassifyPairwiseCmi, entropyML } from '../../src/bn/bnclassify-cmi.js';
import { lnRounded, sumExtended } from '../../src/util/exact-float.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import { getStructure } from '../../src/registry.js';
import { Rng } from '../../src/util/rng.js';

// Constants printed by R 4.2.2 (x86-64, glibc) with sprintf("%.17g", ...); the R command is beside each.
describe('floating point as R computes it', () => {
  it('lnRounded is glibc log (R log()), where V8 Math.log can be 1 ulp off', () => {
    // log(40/276) → -1.9315214116032136; log(c(172, 31, 33)/276)
    expect(lnRounded(40 / 276)).toBe(-1.9315214116032136);
    expect(lnRounded(172 / 276)).toBe(-0.47290638890369696);
    expect(lnRounded(31 / 276)).toBe(-2.1864136612320038);
    expect(lnRounded(33 / 276)).toBe(-2.1238933042506698);
    expect(lnRounded(1)).toBe(0);
    expect(lnRounded(2)).toBe(Math.LN2);
  });

  it('lnRounded is within half an ulp of ln on a grid (ln(a·b) = ln a + ln b in double-double terms)', () => {
    const rng = new Rng('ln');
    for (let i = 0; i < 2000; i++) {
      const x = Math.exp((rng.next() - 0.5) * 60);
      const y = lnRounded(x);
      // Never further than 1 ulp from the library log, and exactly the library log away from rounding cases.
      expect(Math.abs(y - Math.log(x))).toBeLessThanOrEqual(Math.abs(y) * 2.3e-16 + 1e-300);
    }
  });

  it('sumExtended is R sum() (long double accumulation), not the left-to-right double sum', () => {
    const terms = [-0.29470977859215897, -0.24557544745721782, -0.27993063936278456, -0.25394376463866702];
    // sum(c(-0.29470977859215897, -0.24557544745721782, -0.27993063936278456, -0.25394376463866702))
    expect(sumExtended(terms)).toBe(-1.0741596300508283);
    expect(terms.reduce((a, b) => a + b)).toBe(-1.0741596300508285);
    // sum(c(172, 31, 40, 33) / 276) → 1 (the double sum is 0.9999999999999999)
    expect(sumExtended([172, 31, 40, 33].map((v) => v / 276))).toBe(1);
    // sum(c(1, 1e-16, 1e-16)) → 1.0000000000000002 (a double sum gives 1)
    expect(sumExtended([1, 1e-16, 1e-16])).toBe(1.0000000000000002);
  });

  it('entropyML is entropy::entropy(y, method = "ML")', () => {
    // entropy::entropy(c(172, 31, 40, 33), method = "ML") → 1.0741596300508283
    expect(entropyML(Float64Array.from([172, 31, 40, 33]), 4, new Float64Array(4))).toBe(1.0741596300508283);
    // entropy::entropy(c(203, 73), method = "ML") → 0.57770393474136961
    expect(entropyML(Float64Array.from([203, 73]), 2, new Float64Array(2))).toBe(0.5777039347413696);
  });
});

describe("bnclassify's Chow–Liu weights", () => {
  // A constant column X0 beside X1, class C: the (X1, C) counts of haberman's training fold 7 in bench/bnclassify.ts.
  function constantColumn() {
    const rows: number[][] = [];
    const classes: number[] = [];
    const add = (x1: number, c: number, k: number) => {
      for (let i = 0; i < k; i++) {
        rows.push([0, x1]);
        classes.push(c);
      }
    };
    add(0, 0, 172);
    add(1, 0, 31);
    add(0, 1, 40);
    add(1, 1, 33);
    return discreteFromArrays({ cards: [1, 2], rows, classes, classCard: 2 });
  }

  it('a constant column has weight +1 ulp-ish noise as bnclassify computes it, not 0', () => {
    // bnclassify:::local_ode_score_contrib('a0', 'a1', 'class', d)[['loglik']] → 1.1102230246251565e-16
    expect(bnclassifyCmi(constantColumn(), 0, 1)).toBe(1.1102230246251565e-16);
  });

  it('equals the exact I(X;Y|C) up to rounding on ordinary data', () => {
    const rng = new Rng('cmi');
    const rows: number[][] = [];
    const classes: number[] = [];
    for (let r = 0; r < 300; r++) {
      const c = rng.int(3);
      const a = rng.next() < 0.5 ? c : rng.int(3);
      rows.push([a, rng.next() < 0.7 ? a % 2 : rng.int(2), rng.int(4)]);
      classes.push(c);
    }
    const d = discreteFromArrays({ cards: [3, 2, 4], rows, classes, classCard: 3 });
    const w = bnclassifyPairwiseCmi(d);
    // Brute force Σ p(x,y,c) ln(p(x,y,c) p(c) / (p(x,c) p(y,c))).
    for (const [i, j] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const n = new Map<string, number>();
      const inc = (k: string) => n.set(k, (n.get(k) ?? 0) + 1);
      for (let r = 0; r < d.n; r++) {
        const x = rows[r][i];
        const y = rows[r][j];
        const c = classes[r];
        inc(`${x},${y},${c}`);
        inc(`${x},,${c}`);
        inc(`,${y},${c}`);
        inc(`,,${c}`);
      }
      let I = 0;
      for (const [k, v] of n) {
        const [x, y, c] = k.split(',');
        if (x === '' || y === '') continue;
        I += (v / d.n) * Math.log((v * n.get(`,,${c}`)!) / (n.get(`${x},,${c}`)! * n.get(`,${y},${c}`)!));
      }
      expect(w[i * 3 + j]).toBeCloseTo(I, 13);
      expect(w[j * 3 + i]).toBe(w[i * 3 + j]);
    }
  });

  it("tan {tie: bnclassify} keeps or drops a constant column's edge by the sign of that noise, as bnclassify", () => {
    // Three attributes, X0 constant: bnclassify's weights of (0,1) and (0,2) are rounding noise; a negative one
    // is dropped before Kruskal, leaving X0 without a tree parent, while tie: first keeps every edge.
    const d = constantColumn();
    const w = bnclassifyPairwiseCmi(d);
    const s = getStructure('tan')!.learn(d, { tie: 'bnclassify' }, { rng: new Rng('t') });
    const arcs = s.parents.slice(0, 2).reduce((n, ps) => n + ps.length - 1, 0);
    expect(arcs).toBe(w[1] >= 0 ? 1 : 0);
    expect(w[1]).toBeGreaterThan(0);
  });
});
