/**
 * The WebAssembly pseudo-count sweep (sweep.wat) and the memory it works on.
 *
 * The kernel reads and writes the tree's state in its own linear memory, so while a tree samples with it,
 * n, t, nSum, tSum and the concentrations live there and ContextTree.sample works on views of them
 * (`views`). It also needs the Stirling ratio tables, which LogStirlingCache keeps in JavaScript arrays
 * and grows while trees sample: the kernel gets a copy of the rows computed so far (`sync`, between
 * iterations), and a pair whose window reaches beyond the copy is handed back to JavaScript, which grows
 * the tables as before. Copies only ever add rows, so after a few iterations nothing is handed back but
 * the rare windows that need the log path.
 *
 * Memory, in bytes: the xoshiro128** state at 0; the chunk directory (5 int32 per chunk, see sweep.wat) at
 * DIR; from STATE the tree's arrays (`begin`); after them the copied tables, appended as they grow. Growing
 * the memory detaches the old views: `begin` and `sync` say when `views` changed.
 *
 * The .wasm is built from sweep.wat by scripts/wasm.mjs into dist/ (npm run build). Where it is missing
 * (tsc alone, or tests run without a build) `SweepKernel.get()` is null and the sampler runs the same
 * loop in JavaScript: the kernel changes how fast the sweep runs, never what it computes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Variates } from '../../stats/random.js';
import { packageRoot } from '../../util/paths.js';
import type { Rng } from '../../util/rng.js';
import type { LogStirlingCache } from './stirling.js';

const PAGE = 65536;
const RNG = 0;
const DIR = 16;
/**
 * Largest pseudo-count the sampler's window may propose (the authors' MAX_TK); here because the kernel's
 * memory layout depends on it, and re-exported by tree.ts, the sampler.
 */
export const MAX_TK = 10000;
/** Directory entries: every chunk a sampled pseudo-count can reach (t ≤ MAX_TK, 64 columns each). */
const DIR_CHUNKS = (MAX_TK >> 6) + 1;
const STATE = (DIR + DIR_CHUNKS * 20 + 7) & ~7;
/** Table rows beyond this many copied bytes stay in JavaScript (their pairs are handed back). */
const MAX_COPY_BYTES = 256 * 2 ** 20;

interface SweepExports {
  readonly memory: WebAssembly.Memory;
  sweep(
    q: number,
    end: number,
    pairs: number,
    n: number,
    t: number,
    nSum: number,
    tSum: number,
    cVal: number,
    lp: number,
    dir: number,
    chunks: number,
    rng: number,
    w: number,
    maxTk: number,
  ): number;
  concentrations(
    members: number,
    from: number,
    to: number,
    c: number,
    nSum: number,
    tSum: number,
    acc: number,
    rng: number,
    maxLogInvQ: number,
    scratch: number,
  ): void;
  log(x: number): number;
  exp(x: number): number;
  log1p(x: number): number;
  estimates(
    size: number,
    K: number,
    n: number,
    nSum: number,
    parent: number,
    conc: number,
    cVal: number,
    pCur: number,
    pSum: number,
  ): void;
}

interface SweepViews {
  readonly n: Int32Array;
  readonly t: Int32Array;
  readonly nSum: Int32Array;
  readonly tSum: Int32Array;
  readonly cVal: Float64Array;
  /** Shape and rate of the group whose concentration is being sampled, and Variates' spare normal (1 or 0,
   * its value) (`concentrations`). */
  readonly acc: Float64Array;
  /** This iteration's estimates and their running sums (`estimates`). */
  readonly pCur: Float64Array;
  readonly pSum: Float64Array;
}

/** The copy of one chunk of the Stirling tables: which arrays it copied, how many rows, and where. */
interface ChunkCopy {
  srcT: Float64Array | null;
  rowsT: number;
  baseT: number;
  srcN: Float64Array | null;
  rowsN: number;
  baseN: number;
}

let loaded: SweepKernel | null | undefined;

export class SweepKernel {
  private readonly ex: SweepExports;
  private i32!: Int32Array;
  private copies: ChunkCopy[] = [];
  /** Byte offsets of the tree's arrays (begin). */
  private pairsAt = 0;
  private nAt = 0;
  private tAt = 0;
  private nSumAt = 0;
  private tSumAt = 0;
  private cValAt = 0;
  private lpAt = 0;
  private membersAt = 0;
  private accAt = 0;
  /** Three float64 per group member: step 2's gamma variates (or log(1/q)) between its two passes. */
  private scratchAt = 0;
  private parentAt = 0;
  private concAt = 0;
  private pCurAt = 0;
  private pSumAt = 0;
  private K = 0;
  private end = 0;
  /** Chunks in the directory (sync). */
  private chunks = 0;
  private lengths = { nk: 0, nodes: 0, groups: 0 };
  views!: SweepViews;
  /** Pairs the sweep handed back to JavaScript so far (table growth or the log path), for tests. */
  handedBack = 0;

  private constructor(bytes: Uint8Array<ArrayBuffer>) {
    // No imports: the logarithms and exponentials step 2 needs are in the module (ported bit for bit).
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    this.ex = instance.exports as unknown as SweepExports;
    this.refresh();
  }

  /** The kernel, or null where dist/ holds no sweep.wasm (the JavaScript loop runs instead). */
  static get(): SweepKernel | null {
    if (loaded === undefined) {
      const file = join(packageRoot(), 'dist', 'src', 'estimators', 'hdp', 'sweep.wasm');
      loaded = existsSync(file) ? new SweepKernel(new Uint8Array(readFileSync(file))) : null;
    }
    return loaded;
  }

  /**
   * Lays out one tree's arrays (its pairs copied in; n, t, nSum, tSum and the concentrations as `views`,
   * to be filled by the caller) and forgets the copied tables, which `sync` then copies afresh.
   */
  begin(
    pairs: Int32Array,
    members: Int32Array,
    parent: Int32Array,
    conc: Int32Array,
    K: number,
    groups: number,
    lpLength: number,
  ): SweepViews {
    const nodes = parent.length;
    const nk = nodes * K;
    let at = STATE;
    const take = (bytes: number): number => {
      const o = at;
      at += (bytes + 7) & ~7;
      return o;
    };
    this.pairsAt = take(pairs.byteLength);
    this.nAt = take(nk * 4);
    this.tAt = take(nk * 4);
    this.nSumAt = take(nodes * 4);
    this.tSumAt = take(nodes * 4);
    this.cValAt = take(groups * 8);
    this.lpAt = take(lpLength * 8);
    this.membersAt = take(members.byteLength);
    this.accAt = take(32);
    this.scratchAt = take(members.length * 24);
    this.parentAt = take(nodes * 4);
    this.concAt = take(nodes * 4);
    this.pCurAt = take(nk * 8);
    this.pSumAt = take(nk * 8);
    this.K = K;
    this.end = at;
    this.lengths = { nk, nodes, groups };
    this.copies = [];
    this.reserve(this.end);
    this.refresh(); // new offsets, so new views even where the memory did not grow
    this.i32.fill(0, DIR >> 2, STATE >> 2);
    this.i32.set(pairs, this.pairsAt >> 2);
    this.i32.set(members, this.membersAt >> 2);
    this.i32.set(parent, this.parentAt >> 2);
    this.i32.set(conc, this.concAt >> 2);
    return this.views;
  }

  /**
   * Copies the table rows computed since the last call (new chunks, added rows, or whole arrays where the
   * cache reallocated them); true when the memory grew, so that `views` are new objects.
   */
  sync(stirling: LogStirlingCache): boolean {
    const buffer = this.ex.memory.buffer;
    const chunks = Math.min(stirling.filled.length, DIR_CHUNKS);
    for (let j = 0; j < chunks; j++) {
      let cp = this.copies[j];
      if (!cp) {
        cp = { srcT: null, rowsT: j * 64, baseT: 0, srcN: null, rowsN: j * 64, baseN: 0 };
        this.copies[j] = cp;
      }
      const first = j * 64;
      const rt = stirling.ratioT[j];
      const filledT = stirling.filled[j];
      if (rt !== cp.srcT || filledT !== cp.rowsT) {
        if (rt !== cp.srcT) {
          if (this.end + rt.byteLength > STATE + MAX_COPY_BYTES) continue;
          cp.baseT = this.alloc(rt.byteLength);
          cp.srcT = rt;
          cp.rowsT = first;
        }
        this.f64().set(
          rt.subarray((cp.rowsT - first) * 64, (filledT - first) * 64),
          (cp.baseT >> 3) + (cp.rowsT - first) * 64,
        );
        cp.rowsT = filledT;
      }
      const rn = stirling.ratioN[j];
      const filledN = stirling.filledN[j];
      if (rn !== cp.srcN || filledN !== cp.rowsN) {
        const cap = stirling.rowCapN[j];
        if (rn !== cp.srcN) {
          if (this.end + rn.byteLength > STATE + MAX_COPY_BYTES) continue;
          cp.baseN = this.alloc(rn.byteLength);
          cp.srcN = rn;
          this.f64().set(rn, cp.baseN >> 3);
        } else {
          // column-major (stride cap): the new rows of each of the 64 columns
          const f64 = this.f64();
          for (let c = 0; c < 64; c++) {
            const o = c * cap;
            f64.set(rn.subarray(o + cp.rowsN - first, o + filledN - first), (cp.baseN >> 3) + o + cp.rowsN - first);
          }
        }
        cp.rowsN = filledN;
      }
      const d = (DIR >> 2) + j * 5;
      this.i32[d] = cp.baseT;
      this.i32[d + 1] = cp.rowsT;
      this.i32[d + 2] = cp.baseN;
      this.i32[d + 3] = stirling.rowCapN[j];
      this.i32[d + 4] = cp.rowsN;
    }
    this.chunks = Math.min(this.copies.length, chunks);
    return this.ex.memory.buffer !== buffer;
  }

  /**
   * Sweeps the pairs of records q, q + REC, … < end with `rng`'s stream; −1 when all are done, else the
   * record of the first pair left to JavaScript (the ones before it are done, it is not).
   */
  run(q: number, end: number, rng: Rng, window: number, maxTk: number): number {
    rng.saveState(this.i32, RNG >> 2);
    const r = this.ex.sweep(
      q,
      end,
      this.pairsAt,
      this.nAt,
      this.tAt,
      this.nSumAt,
      this.tSumAt,
      this.cValAt,
      this.lpAt,
      DIR,
      this.chunks,
      RNG,
      window,
      maxTk,
    );
    rng.loadState(this.i32, RNG >> 2);
    if (r >= 0) this.handedBack++;
    return r;
  }

  /**
   * Step 2's draws for members[from .. to) (offsets in the `members` given to begin) of a group with
   * concentration c: shape and rate accumulated in views.acc (set them first), from `vr`'s stream and
   * spare normal.
   */
  concentrations(from: number, to: number, c: number, vr: Variates, maxLogInvQ: number): void {
    const acc = this.views.acc;
    vr.saveSpare(acc, 2);
    vr.rng.saveState(this.i32, RNG >> 2);
    this.ex.concentrations(
      this.membersAt,
      from,
      to,
      c,
      this.nSumAt,
      this.tSumAt,
      this.accAt,
      RNG,
      maxLogInvQ,
      this.scratchAt,
    );
    vr.rng.loadState(this.i32, RNG >> 2);
    vr.loadSpare(acc, 2);
  }

  /** Step 3 below the root, from the root's estimate in views.pCur (the running sums in views.pSum). */
  estimates(): void {
    const { nodes } = this.lengths;
    this.ex.estimates(
      nodes,
      this.K,
      this.nAt,
      this.nSumAt,
      this.parentAt,
      this.concAt,
      this.cValAt,
      this.pCurAt,
      this.pSumAt,
    );
  }

  /** The kernel's logarithm (Math.log's algorithm; for positive normal x), for tests. */
  log(x: number): number {
    return this.ex.log(x);
  }

  /** The kernel's Math.exp and Math.log1p (their algorithms, every argument), for tests. */
  exp(x: number): number {
    return this.ex.exp(x);
  }

  log1p(x: number): number {
    return this.ex.log1p(x);
  }

  private f64(): Float64Array {
    return new Float64Array(this.ex.memory.buffer);
  }

  /** A new region of `bytes` (8-aligned) at the end, the memory grown to hold it. */
  private alloc(bytes: number): number {
    const o = this.end;
    this.end += (bytes + 7) & ~7;
    this.reserve(this.end);
    return o;
  }

  private reserve(bytes: number): void {
    const have = this.ex.memory.buffer.byteLength;
    if (bytes > have) {
      this.ex.memory.grow(Math.ceil((bytes - have) / PAGE));
      this.refresh();
    }
  }

  private refresh(): void {
    const buffer = this.ex.memory.buffer;
    this.i32 = new Int32Array(buffer);
    const { nk, nodes, groups } = this.lengths;
    this.views = {
      n: new Int32Array(buffer, this.nAt, nk),
      t: new Int32Array(buffer, this.tAt, nk),
      nSum: new Int32Array(buffer, this.nSumAt, nodes),
      tSum: new Int32Array(buffer, this.tSumAt, nodes),
      cVal: new Float64Array(buffer, this.cValAt, groups),
      acc: new Float64Array(buffer, this.accAt, 4),
      pCur: new Float64Array(buffer, this.pCurAt, nk),
      pSum: new Float64Array(buffer, this.pSumAt, nk),
    };
  }
}
