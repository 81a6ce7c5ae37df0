/**
 * Synthetic data from a known random Bayesian network, for scaling benchmarks and for tests that need a
 * ground truth: the class is a root and a parent of every attribute; attribute i also has up to
 * `maxParents` parents among attributes 0..i−1 (chosen at random), so the network is a DAG in column order
 * (a kDB-like augmented naive Bayes). Every conditional distribution is drawn from a symmetric
 * Dirichlet(alpha). Rows are drawn by ancestral sampling. Everything derives from the seed string
 * (xoshiro128**, src/util/rng.ts): the same options give the same network and the same bytes.
 *
 * Attributes listed as numeric are written as `code + u` with u uniform in [0, 1) (four decimals), so a
 * discretizer has real work to do and the generating categories are recoverable by cuts at integers.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { UserError } from '../util/errors.js';
import { Rng } from '../util/rng.js';
import { Variates } from '../stats/random.js';

interface SyntheticOptions {
  readonly attributes: number;
  /** Cardinality of each attribute (length = attributes), each ≥ 2. */
  readonly cards: readonly number[];
  readonly classCard: number;
  /** Attribute parents besides the class (default 2). */
  readonly maxParents?: number;
  /** Dirichlet concentration of every conditional distribution (default 1). */
  readonly alpha?: number;
  readonly seed: string;
}

interface SyntheticNetwork {
  readonly names: readonly string[];
  readonly cards: readonly number[];
  readonly classCard: number;
  /** Attribute parents of each attribute (the class is a parent of all, not listed). */
  readonly parents: readonly (readonly number[])[];
  readonly classPrior: Float64Array;
  /**
   * Per attribute, rows indexed by the parent configuration (class first, then the parents in the order
   * listed; mixed radix, the last parent varying fastest), each row `cards[i]` probabilities.
   */
  readonly cpts: readonly Float64Array[];
}

/** A Dirichlet(alpha, …, alpha) draw into out[at .. at + k): normalized Gamma(alpha) variates. */
function dirichlet(k: number, alpha: number, variates: Variates, out: Float64Array, at: number): void {
  let sum = 0;
  for (let j = 0; j < k; j++) sum += out[at + j] = variates.gamma(alpha);
  for (let j = 0; j < k; j++) out[at + j] /= sum;
}

export function randomNetwork(opts: SyntheticOptions): SyntheticNetwork {
  const { attributes: m, cards, classCard } = opts;
  if (!Number.isInteger(m) || m < 1) throw new UserError(`synthetic: attributes must be an integer ≥ 1, got ${m}`);
  if (cards.length !== m || cards.some((c) => !Number.isInteger(c) || c < 2))
    throw new UserError('synthetic: one cardinality ≥ 2 per attribute');
  if (!Number.isInteger(classCard) || classCard < 2)
    throw new UserError(`synthetic: class cardinality must be ≥ 2, got ${classCard}`);
  const maxParents = opts.maxParents ?? 2;
  const alpha = opts.alpha ?? 1;
  const rng = new Rng(`synthetic/${opts.seed}`);
  // Gamma variates as the HDP sampler draws them (Marsaglia–Tsang).
  const variates = new Variates(rng);
  const classPrior = new Float64Array(classCard);
  dirichlet(classCard, alpha, variates, classPrior, 0);
  const parents: number[][] = [];
  const cpts: Float64Array[] = [];
  for (let i = 0; i < m; i++) {
    // Choose min(i, maxParents) distinct earlier attributes (partial Fisher–Yates), listed in index order.
    const pool = Array.from({ length: i }, (_, j) => j);
    const take = Math.min(i, maxParents);
    for (let j = 0; j < take; j++) {
      const r = j + rng.int(i - j);
      [pool[j], pool[r]] = [pool[r], pool[j]];
    }
    const ps = pool.slice(0, take).sort((a, b) => a - b);
    parents.push(ps);
    const configs = ps.reduce((acc, p) => acc * cards[p], classCard);
    const cpt = new Float64Array(configs * cards[i]);
    for (let q = 0; q < configs; q++) dirichlet(cards[i], alpha, variates, cpt, q * cards[i]);
    cpts.push(cpt);
  }
  return {
    names: Array.from({ length: m }, (_, i) => `a${i + 1}`),
    cards: [...cards],
    classCard,
    parents,
    classPrior,
    cpts,
  };
}

function draw(p: Float64Array, at: number, k: number, u: number): number {
  for (let j = 0; j < k - 1; j++) {
    u -= p[at + j];
    if (u < 0) return j;
  }
  return k - 1;
}

/**
 * Draw n rows by ancestral sampling, calling `row` with the attribute codes (reused buffer) and the class
 * code for each, in order. The stream of rows depends only on the network and `seed`.
 */
export function sampleRows(
  net: SyntheticNetwork,
  n: number,
  seed: string,
  row: (codes: Int32Array, cls: number) => void,
): void {
  const rng = new Rng(`synthetic-rows/${seed}`);
  const m = net.cards.length;
  const codes = new Int32Array(m);
  for (let r = 0; r < n; r++) {
    const cls = draw(net.classPrior, 0, net.classCard, rng.next());
    for (let i = 0; i < m; i++) {
      let q = cls;
      for (const p of net.parents[i]) q = q * net.cards[p] + codes[p];
      codes[i] = draw(net.cpts[i], q * net.cards[i], net.cards[i], rng.next());
    }
    row(codes, cls);
  }
}

/**
 * Write n sampled rows as CSV (header a1..am,class; class values c0..c{k−1}; categorical values v0..;
 * attributes in `numeric` as code + u), streamed in 1 MiB chunks so any number of rows fits in memory.
 */
export function writeSyntheticCsv(
  net: SyntheticNetwork,
  n: number,
  seed: string,
  file: string,
  numeric: ReadonlySet<number> = new Set(),
): void {
  const fd = openSync(file, 'w');
  try {
    // A stream of its own, so making a column numeric does not change the sampled categories.
    const jitter = new Rng(`synthetic-jitter/${seed}`);
    let buf = [...net.names, 'class'].join(',') + '\n';
    sampleRows(net, n, seed, (codes, cls) => {
      for (let i = 0; i < codes.length; i++) {
        buf += numeric.has(i) ? (codes[i] + Math.floor(jitter.next() * 10000) / 10000).toFixed(4) : `v${codes[i]}`;
        buf += ',';
      }
      buf += `c${cls}\n`;
      if (buf.length >= 1 << 20) {
        writeSync(fd, buf);
        buf = '';
      }
    });
    if (buf.length > 0) writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
}
