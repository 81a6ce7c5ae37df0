import { sha256Hex } from './hash.js';

/**
 * Seeded random source (xoshiro128**), seeded from a string through sha256 so that seeds derive from
 * content (experiment seed + the part of the job key they serve), never from position or the clock.
 */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: string) {
    // The first 16 bytes of the digest as four little-endian 32-bit words, read from its hex text: a Buffer
    // of the digest costs more than the hash (one Rng a job, and more for learners that draw).
    const h = sha256Hex(seed);
    this.s0 = littleEndianWord(h, 0);
    this.s1 = littleEndianWord(h, 8);
    this.s2 = littleEndianWord(h, 16);
    this.s3 = littleEndianWord(h, 24);
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Derive an independent stream for a named purpose. */
  derive(purpose: string): Rng {
    return new Rng(this.derivedSeed(purpose));
  }

  /** The seed `derive(purpose)` hashes: this stream's state now and the purpose. */
  derivedSeed(purpose: string): string {
    return `${this.s0}:${this.s1}:${this.s2}:${this.s3}/${purpose}`;
  }

  /** Writes the state (four 32-bit words) to to[at .. at + 3], for a WebAssembly kernel that draws from it. */
  saveState(to: Int32Array, at: number): void {
    to[at] = this.s0;
    to[at + 1] = this.s1;
    to[at + 2] = this.s2;
    to[at + 3] = this.s3;
  }

  /**
   * Takes the state back from from[at .. at + 3] after the kernel drew from it. Only when it moved: the
   * words are then held as signed 32-bit numbers, as next() leaves them (derive() prints them), and a
   * state no draw touched keeps its representation.
   */
  loadState(from: Int32Array, at: number): void {
    const s0 = from[at];
    const s1 = from[at + 1];
    const s2 = from[at + 2];
    const s3 = from[at + 3];
    if (s0 === (this.s0 | 0) && s1 === (this.s1 | 0) && s2 === (this.s2 | 0) && s3 === (this.s3 | 0)) return;
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform double in [0, 1) with 53 random bits. */
  next(): number {
    // Two nextUint32 steps on local copies of the state (written back once): the same numbers, without the
    // eight field stores in between. Samplers draw hundreds of millions of these.
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    const hi = (Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0) >>> 5; // 27 bits
    let t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    const lo = (Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0) >>> 6; // 26 bits
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = rotl(s3, 11);
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (n <= 0) throw new Error('Rng.int: n must be positive');
    // Rejection sampling avoids modulo bias.
    if (n <= 0x100000000) {
      const limit = Math.floor(0x100000000 / n) * n;
      for (;;) {
        const x = this.nextUint32();
        if (x < limit) return x % n;
      }
    }
    return Math.floor(this.next() * n);
  }

  /** In-place Fisher–Yates shuffle. */
  shuffle<T extends { length: number; [i: number]: unknown }>(a: T): T {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }
}

/** The unsigned 32-bit word of the four bytes whose hex digits start at `at`, least significant byte first. */
function littleEndianWord(hex: string, at: number): number {
  return Number.parseInt(
    hex.slice(at + 6, at + 8) + hex.slice(at + 4, at + 6) + hex.slice(at + 2, at + 4) + hex.slice(at, at + 2),
    16,
  );
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** What derives the streams of a job's learners: a stream never drawn from, only derived (see RootStream). */
export type StreamSource = Pick<Rng, 'derive'>;

/**
 * A job's root stream, hashed from its seed when a stream is first derived from it. A job only derives its
 * learners' streams from its root and never draws from it (its type has no draw), so the root's state is its
 * seed's whenever a stream is derived, and a job whose learners draw nothing hashes nothing: the sha256 and
 * the four parses were about 4 % of a trivial job's CPU in its worker (nb on iris, docs/performance.md).
 */
export class RootStream implements StreamSource {
  private root: Rng | undefined;

  constructor(private readonly seed: string) {}

  derive(purpose: string): Rng {
    this.root ??= new Rng(this.seed);
    return this.root.derive(purpose);
  }
}
