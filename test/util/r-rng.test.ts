import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RRng } from '../../src/util/r-rng.js';
import { sumExtended } from '../../src/util/exact-float.js';

/**
 * Numbers printed by R 4.2.2 (RNGkind Mersenne-Twister / Inversion / Rejection) with sprintf("%.17g"), which
 * round-trips every double: test/fixtures/r-rng/r-4.2.json. Each block starts from set.seed(seed).
 */
interface Fixture {
  runif: { seed: number; first: number[]; at620: number[]; at1240: number[]; sum: string }[];
  sample: { seed: number; n: number; head: number[]; tail: number[]; weighted: number; next: number }[];
  sampleInt: { seed: number; n: number; size: number; x: number[] }[];
  sampleRule: { seed: number; x: number[] };
}
const fx = JSON.parse(readFileSync(new URL('../fixtures/r-rng/r-4.2.json', import.meta.url), 'utf8')) as Fixture & {
  kind: string[];
};

describe("R's Mersenne-Twister after set.seed", () => {
  it('the fixture is R default kinds', () => {
    expect(fx.kind).toEqual(['Mersenne-Twister', 'Inversion', 'Rejection']);
  });

  for (const r of fx.runif) {
    it(`runif(1300) after set.seed(${r.seed}) equals R bit for bit (first draws, both table regenerations)`, () => {
      const g = new RRng(r.seed);
      const u = Array.from({ length: 1300 }, () => g.unifRand());
      // toBe is Object.is: the very same double.
      r.first.forEach((x, i) => expect(u[i]).toBe(x));
      r.at620.forEach((x, i) => expect(u[619 + i]).toBe(x));
      r.at1240.forEach((x, i) => expect(u[1239 + i]).toBe(x));
      expect(sumExtended(u)).toBe(Number(r.sum));
    });
  }
});

describe("R's sample() and sample.int() without replacement (sample.kind Rejection)", () => {
  for (const s of fx.sample) {
    it(`sample(${s.n}) after set.seed(${s.seed}), and the draw after it`, () => {
      const g = new RRng(s.seed);
      const x = g.sample([s.n]);
      expect(x.length).toBe(s.n);
      expect(x.slice(0, 40)).toEqual(s.head);
      expect(x.slice(-40)).toEqual(s.tail);
      let w = 0;
      x.forEach((v, i) => (w += v * (i + 1)));
      expect(w).toBe(s.weighted);
      expect(new Set(x).size).toBe(s.n);
      // The stream is left where R leaves it.
      expect(g.unifRand()).toBe(s.next);
    });
  }
  for (const s of fx.sampleInt) {
    it(`sample.int(${s.n}, ${s.size}) after set.seed(${s.seed})${s.n > 1e7 ? " (R's hashing version)" : ''}`, () => {
      expect(new RRng(s.seed).sampleInt(s.n, s.size)).toEqual(s.x);
    });
  }

  it("sample(x, size) follows R's rule for a single number (sample(5, 1) draws from 1..5)", () => {
    const g = new RRng(fx.sampleRule.seed);
    const got = [...g.sample([5], 1), ...g.sample([4], 2), ...g.sample([7, 9], 2), ...g.sample([1, 2, 3], 3)];
    got.push(g.unifRand(), g.unifRand());
    expect(got).toEqual(fx.sampleRule.x);
  });

  it('refuses what it does not reproduce', () => {
    expect(() => new RRng(2 ** 31)).toThrow(/32-bit integer/);
    expect(() => new RRng(1).sampleInt(3, 4)).toThrow(/cannot take a sample/);
  });
});
