/**
 * R's default random number generator, draw for draw, so that a learner can reproduce an R program that
 * calls set.seed(S) and then draws (bnclassify's internal cross-validation: structures/search/bnclassify-cv.ts).
 * Written from R's documentation (?RNG, ?set.seed, ?sample; R ≥ 3.6.0 defaults RNGkind("Mersenne-Twister",
 * "Inversion", "Rejection")) and Matsumoto & Nishimura (1998), Mersenne Twister: a 623-dimensionally
 * equidistributed uniform pseudo-random number generator, ACM TOMACS 8(1):3–30. Pinned against R 4.2's
 * output in test/util/r-rng.test.ts.
 *
 *  - set.seed(S): the integer S is scrambled by 50 steps of the linear congruential generator
 *    s ← 69069·s + 1 (mod 2^32); the next step gives the position word (reset to 624, "all words used",
 *    so the first draw regenerates the whole table) and the next 624 steps the 624 words of the state.
 *  - unif_rand(): MT19937's next tempered 32-bit word y, as y · 2.3283064365386963e-10 (y / 2^32), moved
 *    kept inside the open interval (0, 1): 0 (y = 0) becomes half of 1 / (2^32 − 1), and a value whose
 *    1 − x is 0 would become 1 minus that (R's fixup; y / 2^32 never reaches 1).
 *  - R_unif_index(n) ("Rejection" sampling): with b = ⌈log2 n⌉, draw b random bits — ⌊b/16⌋ + 1 chunks of
 *    16 bits, each ⌊unif_rand() · 65536⌋, most significant first, keeping the low b bits — until the value
 *    is below n; an integer uniform in 0..n−1. n = 1 still draws once.
 *  - sample.int(n, size) without replacement: the pool 0..n−1; for each of the `size` draws j =
 *    R_unif_index(remaining), take pool[j] (+1, R's 1-based value) and move the pool's last element into
 *    slot j. For n > 10^7 with size ≤ n/2 R uses its hashing version instead (sample2): each value is
 *    R_unif_index(n) + 1, drawn again while it repeats an earlier one.
 *  - sample(x, size): for x a single number ≥ 1, sample.int(x, size) — R's documented pitfall, which
 *    bnclassify meets with one-row classes; otherwise x[sample.int(length(x), size)].
 */

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
/** 1 / (2^32 − 1), R's i2_32m1. */
const I2_32M1 = 2.328306437080797e-10;
/** The largest n sample.int draws from without R's hashing algorithm. */
const SAMPLE_HASH_LIMIT = 1e7;

export class RRng {
  private readonly mt = new Uint32Array(N);
  private mti = N;

  /** The state R holds right after set.seed(seed) (kind Mersenne-Twister). */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < -2147483648 || seed > 2147483647)
      throw new RangeError(`set.seed: seed must be a 32-bit integer, got ${seed}`);
    let s = seed >>> 0;
    for (let j = 0; j < 50; j++) s = (Math.imul(69069, s) + 1) >>> 0;
    // The first word after the scrambling is the position (R's dummy[0]); set.seed resets it to 624.
    s = (Math.imul(69069, s) + 1) >>> 0;
    for (let j = 0; j < N; j++) {
      s = (Math.imul(69069, s) + 1) >>> 0;
      this.mt[j] = s;
    }
    this.mti = N;
  }

  /** The next 32-bit word of MT19937 (tempered). */
  private nextWord(): number {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0;
      let y: number;
      for (; kk < N - M; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; kk < N - 1; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** R's unif_rand(): runif(1) after the same draws. */
  unifRand(): number {
    const x = this.nextWord() * 2.3283064365386963e-10;
    if (x <= 0) return 0.5 * I2_32M1;
    if (1 - x <= 0) return 1 - 0.5 * I2_32M1;
    return x;
  }

  /** R's R_unif_index(n) with sample.kind "Rejection": an integer in 0..n−1 (0 for n ≤ 0). */
  unifIndex(n: number): number {
    if (n <= 0) return 0;
    if (n > 2 ** 47) throw new RangeError(`R_unif_index: n = ${n} is beyond the 2^47 this port supports`);
    const bits = Math.ceil(Math.log2(n));
    const mod = 2 ** bits;
    for (;;) {
      let v = 0;
      for (let b = 0; b <= bits; b += 16) v = v * 65536 + Math.floor(this.unifRand() * 65536);
      const dv = v % mod;
      if (dv < n) return dv;
    }
  }

  /** sample.int(n, size) without replacement: `size` distinct values in 1..n, in R's order. */
  sampleInt(n: number, size = n): number[] {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`sample.int: invalid n ${n}`);
    if (!Number.isInteger(size) || size < 0 || size > n)
      throw new RangeError(`sample.int: cannot take a sample of ${size} from ${n} without replacement`);
    if (n > SAMPLE_HASH_LIMIT && size <= n / 2) {
      const seen = new Set<number>();
      const picked: number[] = [];
      while (picked.length < size) {
        const v = this.unifIndex(n) + 1;
        if (seen.has(v)) continue;
        seen.add(v);
        picked.push(v);
      }
      return picked;
    }
    const out = new Array<number>(size);
    const pool = new Int32Array(n);
    for (let i = 0; i < n; i++) pool[i] = i;
    let left = n;
    for (let i = 0; i < size; i++) {
      const j = this.unifIndex(left);
      out[i] = pool[j] + 1;
      pool[j] = pool[--left];
    }
    return out;
  }

  /**
   * sample(x, size) without replacement for a numeric vector x: a single number x ≥ 1 samples 1..x
   * (R's rule), anything else permutes/subsets x itself.
   */
  sample(x: readonly number[], size?: number): number[] {
    if (x.length === 1 && Number.isFinite(x[0]) && x[0] >= 1) return this.sampleInt(Math.floor(x[0]), size ?? x[0]);
    return this.sampleInt(x.length, size ?? x.length).map((i) => x[i - 1]);
  }
}
