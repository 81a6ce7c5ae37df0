import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RootStream, Rng } from '../../src/util/rng.js';
import { canonicalJson, contentKey, sha256Hex } from '../../src/util/hash.js';

describe('Rng', () => {
  it('is reproducible from its seed and independent across derived purposes', () => {
    const a = new Rng('x');
    const b = new Rng('x');
    const seqA = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(seqA);
    const d1 = new Rng('x').derive('folds');
    const d2 = new Rng('x').derive('learner');
    expect(d1.nextUint32()).not.toBe(d2.nextUint32());
  });

  it('next() is the 53-bit double of two consecutive nextUint32 draws (27 + 26 high bits), interleaved freely', () => {
    // next() steps the state on local copies; it must stay the same stream as the two-call definition.
    const a = new Rng('next');
    const b = new Rng('next');
    for (let i = 0; i < 20000; i++) {
      if (i % 7 === 3) {
        expect(a.nextUint32()).toBe(b.nextUint32()); // mixing the two kinds of draw keeps them in step
        continue;
      }
      const hi = b.nextUint32() >>> 5;
      const lo = b.nextUint32() >>> 6;
      expect(a.next()).toBe((hi * 67108864 + lo) / 9007199254740992);
    }
  });

  it('draws uniform doubles in [0,1) and unbiased integers', () => {
    const r = new Rng('u');
    const counts = [0, 0, 0, 0, 0, 0];
    let sum = 0;
    let lo = 1;
    let hi = 0;
    for (let i = 0; i < 60000; i++) {
      const x = r.next();
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
      sum += x;
      counts[r.int(6)]++;
    }
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    expect(sum / 60000).toBeCloseTo(0.5, 2);
    // Each face 10000 ± 4 sd (sd ≈ 91).
    for (const c of counts) expect(Math.abs(c - 10000)).toBeLessThan(400);
  });
});

describe('seeds and hashes', () => {
  const seeds = ['', 'x', 'learn/0123456789abcdef01234567', 'ä😀\u0000"', 'z'.repeat(300)];

  it('a seed is the first 16 bytes of its sha256 as createHash gives them', () => {
    for (const seed of seeds) {
      const h = createHash('sha256').update(seed).digest();
      const state = new Int32Array(4);
      new Rng(seed).saveState(state, 0);
      expect(Array.from(state)).toEqual([0, 4, 8, 12].map((at) => h.readInt32LE(at)));
      expect(sha256Hex(seed)).toBe(h.toString('hex'));
      // What derive() hashes next: the words as unsigned numbers, as they were read from the digest's bytes.
      const words = [0, 4, 8, 12].map((at) => h.readUInt32LE(at)).join(':');
      expect(new Rng(seed).derivedSeed('p')).toBe(`${words}/p`);
    }
  });

  it("a job's RootStream derives what its seed's Rng derives, whenever and in whatever order", () => {
    const root = new RootStream('job');
    const draws = (r: Rng) => Array.from({ length: 4 }, () => r.next());
    const fromEstimator = draws(root.derive('estimator'));
    // Asked for after another stream was derived and drawn from, and asked for twice: the seed's each time.
    expect(draws(root.derive('structure'))).toEqual(draws(new Rng('job').derive('structure')));
    expect(draws(root.derive('structure'))).toEqual(draws(new Rng('job').derive('structure')));
    expect(fromEstimator).toEqual(draws(new Rng('job').derive('estimator')));
    expect(fromEstimator).not.toEqual(draws(new Rng('other').derive('estimator')));
  });
});

describe('content keys', () => {
  it('do not depend on key order and change with content', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}');
    expect(contentKey({ a: 1, b: 2 })).toBe(contentKey({ b: 2, a: 1 }));
    expect(contentKey({ a: 1 })).not.toBe(contentKey({ a: 2 }));
  });
});
