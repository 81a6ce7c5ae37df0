import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/datasets/csv.js';
import {
  applyCuts,
  conditionalEntropyBits,
  cutLabels,
  entropyBits,
  equalFrequencyCuts,
  type DiscretizeMethod,
  fitDiscretizerCoded,
  lnTable,
  mdlBestSplitGrouped,
  mdlCutsGrouped,
  medianCut,
} from '../../src/datasets/discretize.js';
import { checkMdlCuts, entropy, equalFrequencyOracle, medianOracle } from './discretize-oracle.js';
import { type CodeColumn, MISSING } from '../../src/bn/data.js';
import { UserError } from '../../src/util/errors.js';
import { numericColumn, numericValues } from '../../src/datasets/table.js';
import { Rng } from '../../src/util/rng.js';

const f64 = (xs: number[]): Float64Array => Float64Array.from(xs);
const i32 = (xs: number[]): Int32Array => Int32Array.from(xs);
const all = (n: number): Int32Array => Int32Array.from({ length: n }, (_, i) => i);

/** The pipeline's cuts for raw values (NaN = missing) fitted on the given training rows. */
function fitDiscretizer(
  values: Float64Array,
  classes: CodeColumn,
  K: number,
  rows: Int32Array,
  method: DiscretizeMethod,
  opts: { bins?: number } = {},
): { cuts: number[] } {
  const col = numericColumn('x', values);
  return fitDiscretizerCoded(col.ids, col.distinct, classes, K, rows, method, opts);
}

/** The pipeline's best MDL split of the sorted rows [first, end) (values v, classes y), by runs of equal values. */
function mdlBestSplit(v: Float64Array, y: Int32Array, K: number, first: number, end: number) {
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = first; i < end; i++) {
    if (values.length === 0 || values[values.length - 1] !== v[i]) {
      values.push(v[i]);
      counts.push(...new Array<number>(K).fill(0));
    }
    counts[(values.length - 1) * K + y[i]]++;
  }
  return mdlBestSplitGrouped(f64(values), i32(counts), K, 0, values.length, lnTable(end - first));
}

describe('entropies (bits, Weka ContingencyTables arithmetic)', () => {
  it('match hand values', () => {
    expect(entropyBits([4, 4])).toBeCloseTo(1, 12);
    // (4,4,2)/10: -2·0.4·log2 0.4 - 0.2·log2 0.2 = 1.057542 + 0.464386
    expect(entropyBits([4, 4, 2])).toBeCloseTo(1.521928, 6);
    expect(entropyBits([0, 0])).toBe(0);
    // Left (2,0) entropy 0, right (2,2) entropy 1: weighted 4/6.
    expect(conditionalEntropyBits([2, 0], [2, 2])).toBeCloseTo(4 / 6, 12);
  });

  it('agree with the −Σ p·log2 p of the test oracle on random counts', () => {
    const rng = new Rng('entropy');
    for (let t = 0; t < 500; t++) {
      const left = Array.from({ length: 2 + rng.int(4) }, () => (rng.next() < 0.2 ? 0 : rng.int(300)));
      const right = left.map(() => (rng.next() < 0.2 ? 0 : rng.int(300)));
      expect(entropyBits(left)).toBeCloseTo(entropy(left), 12);
      const nl = left.reduce((a, b) => a + b, 0);
      const nr = right.reduce((a, b) => a + b, 0);
      const weighted = nl + nr === 0 ? 0 : (nl * entropy(left) + nr * entropy(right)) / (nl + nr);
      expect(conditionalEntropyBits(left, right)).toBeCloseTo(weighted, 12);
    }
  });
});

describe('MDL (Fayyad & Irani, Weka rule)', () => {
  it('accepts two cuts on a worked 3-class example', () => {
    // values 1..10, classes A A A A B B B B C C (A=0, B=1, C=2).
    // Top level, N = 10, counts (4,4,2): Ent(S) = 1.521928 bits.
    //   Candidate conditional entropies (cut: value): 1.5: 1.377444, 2.5: 1.2, 3.5: 0.965148,
    //   4.5: 0.550978, 5.5: 0.846439, 6.5: 0.950978, 7.5: 0.965148, 8.5: 0.8, 9.5: 1.252933.
    //   Best 4.5: S1 = (4,0,0) Ent 0, S2 = (0,4,2) Ent 0.918296; E = 6/10·0.918296 = 0.550978.
    //   gain = 1.521928 - 0.550978 = 0.970951.
    //   k = 3, k1 = 1, k2 = 2; Δ = log2(3^3 - 2) - (3·1.521928 - 2·0.918296 - 1·0)
    //     = 4.643856 - (4.565784 - 1.836592) = 1.914664.
    //   threshold = (log2(N-1) + Δ)/N = (3.169925 + 1.914664)/10 = 0.508459 < 0.970951: accept.
    // Left part (4,0,0): pure, gain 0, no cut.
    // Right part values 5..10, N = 6, counts (0,4,2): Ent = 0.918296; best 8.5 gives pure sides, E = 0,
    //   gain = 0.918296; k = 2 (the absent class A does not count), k1 = k2 = 1;
    //   Δ = log2(7) - 2·0.918296 = 2.807355 - 1.836592 = 0.970763;
    //   threshold = (log2 5 + 0.970763)/6 = (2.321928 + 0.970763)/6 = 0.548782 < 0.918296: accept.
    const v = f64([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const y = i32([0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
    const top = mdlBestSplit(v, y, 3, 0, 10);
    expect(top.cut).toBe(4.5);
    expect(top.index).toBe(3);
    expect(top.priorEntropy).toBeCloseTo(1.521928, 6);
    expect(top.entropy).toBeCloseTo(0.550978, 6);
    expect(top.gain).toBeCloseTo(0.970951, 6);
    expect(top.threshold).toBeCloseTo(0.508459, 6);
    expect(top.accepted).toBe(true);
    const right = mdlBestSplit(v, y, 3, 4, 10);
    expect(right.cut).toBe(8.5);
    expect(right.index).toBe(3); // the fourth run of the right part
    expect(right.gain).toBeCloseTo(0.918296, 6);
    expect(right.threshold).toBeCloseTo(0.548782, 6);
    expect(right.accepted).toBe(true);
    expect(fitDiscretizer(v, y, 3, all(10), 'mdl').cuts).toEqual([4.5, 8.5]);
    expect(checkMdlCuts(v, y, 3, [4.5, 8.5]).error).toBeNull();
    expect(checkMdlCuts(v, y, 3, [4.5]).error).toMatch(/8\.5/);
    // Same with the rows given in a scrambled order.
    expect(fitDiscretizer(v, y, 3, i32([9, 0, 8, 1, 7, 2, 6, 3, 5, 4]), 'mdl').cuts).toEqual([4.5, 8.5]);
  });

  it('rejects a split whose gain is below the MDL threshold (tied values are never split)', () => {
    // values 1 1 2 3 3 4 5 6, classes A A A A B B B B: N = 8, Ent(S) = 1.
    //   The two 3s carry different classes, so no candidate separates the classes.
    //   Candidates: 1.5: 0.688722, 2.5: 0.451205, 3.5: 0.451205, 4.5: 0.688722, 5.5: 0.862075.
    //   Best E = 0.451205 (e.g. 2.5: S1 = (3,0) Ent 0, S2 = (1,4) Ent 0.721928, 5/8·0.721928).
    //   gain = 1 - 0.451205 = 0.548795.
    //   k = 2, {k1, k2} = {1, 2}; Δ = log2(7) - (2·1 - 2·0.721928 - 1·0) = 2.807355 - 0.556144 = 2.251211.
    //   threshold = (log2 7 + 2.251211)/8 = (2.807355 + 2.251211)/8 = 0.632321 > 0.548795: reject.
    const v = f64([1, 1, 2, 3, 3, 4, 5, 6]);
    const y = i32([0, 0, 0, 0, 1, 1, 1, 1]);
    const s = mdlBestSplit(v, y, 2, 0, 8);
    expect(s.gain).toBeCloseTo(0.548795, 6);
    expect(s.threshold).toBeCloseTo(0.632321, 6);
    expect(s.accepted).toBe(false);
    expect(fitDiscretizer(v, y, 2, all(8), 'mdl').cuts).toEqual([]);
    expect(checkMdlCuts(v, y, 2, []).error).toBeNull();
    expect(checkMdlCuts(v, y, 2, [2.5]).error).not.toBeNull();
  });

  it('keeps the first of equally good candidates (strictly smaller entropy only)', () => {
    // values 1..6, classes A A B B A A: cuts 2.5 and 4.5 both give E = 4/6·1 = 0.666667 (exactly equal
    // in floating point: every n·ln n term is a multiple of ln 2). Weka keeps the first, 2.5.
    // gain = Ent(4,2) - 0.666667 = 0.918296 - 0.666667 = 0.251629;
    // Δ = log2 7 - (2·0.918296 - 2·1 - 1·0) = 2.807355 + 0.163408 = 2.970763;
    // threshold = (log2 5 + 2.970763)/6 = 0.882115: rejected.
    const s = mdlBestSplit(f64([1, 2, 3, 4, 5, 6]), i32([0, 0, 1, 1, 0, 0]), 2, 0, 6);
    expect(s.cut).toBe(2.5);
    expect(s.index).toBe(1);
    expect(s.gain).toBeCloseTo(0.251629, 6);
    expect(s.threshold).toBeCloseTo(0.882115, 6);
    expect(s.accepted).toBe(false);
  });

  it('a two-class perfect split of 8 values is accepted: gain 1 > (log2 7 + log2 7 - 2)/8 = 0.451839', () => {
    const s = mdlBestSplit(f64([1, 2, 3, 4, 5, 6, 7, 8]), i32([0, 0, 0, 0, 1, 1, 1, 1]), 2, 0, 8);
    expect(s.cut).toBe(4.5);
    expect(s.threshold).toBeCloseTo(0.451839, 6);
    expect(s.accepted).toBe(true);
  });

  it("reproduces Weka's MDL cut points on iris", () => {
    const t = parseCsv(readFileSync(new URL('../../data/uci/iris.csv', import.meta.url), 'utf8'), { file: 'iris.csv' });
    const cuts: Record<string, number[]> = {};
    for (const c of t.columns) {
      if (c.type === 'numeric') cuts[c.name] = fitDiscretizer(numericValues(c), t.classColumn, 3, all(t.n), 'mdl').cuts;
    }
    const expected: Record<string, number[]> = {
      sepallength: [5.55, 6.15],
      sepalwidth: [2.95, 3.35],
      petallength: [2.45, 4.75],
      petalwidth: [0.8, 1.75],
    };
    for (const [name, exp] of Object.entries(expected)) {
      expect(cuts[name].length).toBe(exp.length);
      cuts[name].forEach((c, j) => expect(c).toBeCloseTo(exp[j], 10));
    }
    expect(cutLabels(cuts['petallength'])).toEqual(['(-inf,2.45]', '(2.45,4.75]', '(4.75,inf)']);
    expect(cutLabels(cuts['sepalwidth'])).toEqual(['(-inf,2.95]', '(2.95,3.35]', '(3.35,inf)']);
  });

  it('ignores missing values and rows outside the training set', () => {
    const v = f64([1, 2, NaN, 3, 4, 5, 6, 7, 8, 0.5]);
    const y = i32([0, 0, 1, 0, 0, 1, 1, 1, 1, 1]);
    // Rows 0..8 without the NaN: values 1,2,3,4 | 5,6,7,8 → the 8-value example above.
    expect(fitDiscretizer(v, y, 2, all(9), 'mdl').cuts).toEqual([4.5]);
    // With row 9 (0.5, class B) the left part (B,A,A,A,A) splits again: gain Ent(4,1) = 0.721928 >
    // (log2 4 + log2 7 - 2·0.721928)/5 = 0.672700.
    expect(fitDiscretizer(v, y, 2, all(10), 'mdl').cuts).toEqual([0.75, 4.5]);
  });
});

describe('median', () => {
  it('cuts at the median; value <= median goes to bin 0', () => {
    expect(medianCut(f64([1, 2, 3]))).toEqual([2]);
    expect(medianCut(f64([1, 2, 3, 4]))).toEqual([2.5]);
    expect(medianCut(f64([0, 0, 0, 5]))).toEqual([0]);
    // Median equal to the maximum: bin 1 would be empty in training, so no cut.
    expect(medianCut(f64([1, 2, 2, 2]))).toEqual([]);
    expect(medianCut(f64([]))).toEqual([]);
    const v = f64([7, 1, 3, NaN, 2]);
    const cuts = fitDiscretizer(v, i32([0, 0, 0, 0, 0]), 1, all(5), 'median').cuts;
    expect(cuts).toEqual([2.5]);
    expect([2, 2.5, 3].map((x) => applyCuts(x, cuts))).toEqual([0, 0, 1]);
  });
});

describe('equal frequency (Weka placement)', () => {
  it('10 distinct values into 3 bins', () => {
    // target 10/3 = 3.33: after 4 values the count passes it; the boundary after 3 values is closer
    // (|3 - 3.33| < |4 - 3.33|), so cut 3.5, and the new target is (6 left + 1 carried)/2 = 3.5.
    // After 4 more values (count 4 from 3.5), |3 - 3.5| = |4 - 3.5| is not strictly closer: cut 7.5.
    expect(equalFrequencyCuts(f64([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 3)).toEqual([3.5, 7.5]);
  });

  it('never splits tied values and picks the closer boundary', () => {
    // target 4: the run of 2s ends after 5 values; the earlier boundary (after 1) is farther, cut 2.5.
    expect(equalFrequencyCuts(f64([1, 2, 2, 2, 2, 3, 4, 5]), 2)).toEqual([2.5]);
    // target 4: the run of 4s ends after 7 values; the boundary after 3 is closer (1 < 3), cut 3.5.
    expect(equalFrequencyCuts(f64([1, 2, 3, 4, 4, 4, 4, 5]), 2)).toEqual([3.5]);
    // Constant column: no boundary, no cut.
    expect(equalFrequencyCuts(f64([3, 3, 3]), 4)).toEqual([]);
  });

  it('is reached through fitDiscretizer with bins (default 10) and validates bins', () => {
    const v = f64(Array.from({ length: 20 }, (_, i) => i));
    const y = new Int32Array(20);
    expect(fitDiscretizer(v, y, 1, all(20), 'equal-frequency', { bins: 4 }).cuts).toEqual([4.5, 9.5, 14.5]);
    expect(fitDiscretizer(v, y, 1, all(20), 'equal-frequency').cuts).toEqual([
      1.5, 3.5, 5.5, 7.5, 9.5, 11.5, 13.5, 15.5, 17.5,
    ]);
    expect(() => fitDiscretizer(v, y, 1, all(20), 'equal-frequency', { bins: 1 })).toThrow(UserError);
  });
});

describe('applyCuts and labels', () => {
  it('maps to (-inf,c1], (c1,c2], (c2,inf) and NaN to MISSING', () => {
    const cuts = [2.45, 4.75];
    expect([-100, 2.45, 2.4500001, 4.75, 5, 1e9].map((x) => applyCuts(x, cuts))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(applyCuts(NaN, cuts)).toBe(MISSING);
    expect(applyCuts(3, [])).toBe(0);
    expect(cutLabels([])).toEqual(['All']);
    expect(cutLabels([0.30000000000000004])).toEqual(['(-inf,0.3]', '(0.3,inf)']);
    // Cuts that round to the same text keep full precision.
    expect(cutLabels([1.00000001, 1.00000002])).toEqual([
      '(-inf,1.00000001]',
      '(1.00000001,1.00000002]',
      '(1.00000002,inf)',
    ]);
  });

  it("'none' gives no cuts", () => {
    expect(fitDiscretizer(f64([1, 2]), i32([0, 1]), 2, all(2), 'none').cuts).toEqual([]);
  });
});

describe('cuts from counts per distinct value (coded numeric columns)', () => {
  // The pipeline's cuts against the independent oracles (test/datasets/discretize-oracle.ts): random columns
  // with many ties, missing values, 2 to 4 classes, training rows that skip rows or list a row twice.
  it("are the definitions' cuts for mdl, median and equal-frequency on random data", () => {
    const rng = new Rng('coded-discretizer');
    let mdlCutsSeen = 0;
    let ambiguous = 0;
    let segmentsWithCuts = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = 2 + rng.int(400);
      const K = 2 + rng.int(3);
      const levels = 1 + rng.int(trial % 3 === 0 ? 500 : 12);
      const values = new Float64Array(n);
      const classes = new Int32Array(n);
      for (let r = 0; r < n; r++) {
        const level = rng.int(levels);
        values[r] = rng.next() < 0.05 ? NaN : (level - levels / 3) * 0.37;
        // Classes follow the value loosely, so MDL has cuts to find.
        classes[r] = rng.next() < 0.7 ? Math.min(K - 1, Math.floor((level * K) / levels)) : rng.int(K);
      }
      const rows = Int32Array.from({ length: n + rng.int(n) }, (_, i) => (i < n && rng.next() < 0.8 ? i : rng.int(n)));
      // The training values with their multiplicity, sorted (ties by row, which the definitions ignore).
      const training = Array.from(rows).filter((r) => !Number.isNaN(values[r]));
      training.sort((a, b) => values[a] - values[b] || a - b);
      const sorted = training.map((r) => values[r]);
      const bins = 2 + (trial % 5);
      const mdl = fitDiscretizer(values, classes, K, rows, 'mdl').cuts;
      const check = checkMdlCuts(f64(sorted), i32(training.map((r) => classes[r])), K, mdl);
      expect(check.error, `trial ${trial} mdl`).toBeNull();
      mdlCutsSeen += mdl.length;
      ambiguous += check.ambiguous;
      if (mdl.length > 0) segmentsWithCuts++;
      expect(fitDiscretizer(values, classes, K, rows, 'median').cuts, `trial ${trial} median`).toEqual(
        medianOracle(sorted),
      );
      expect(fitDiscretizer(values, classes, K, rows, 'equal-frequency', { bins }).cuts, `trial ${trial}`).toEqual(
        equalFrequencyOracle(sorted, bins),
      );
    }
    // The comparison is only worth something when MDL accepts cuts, and when the checker rarely has to allow
    // either answer.
    expect(mdlCutsSeen).toBeGreaterThan(100);
    expect(ambiguous).toBeLessThan(segmentsWithCuts);
  });

  it('the MDL checker rejects what the definition does not give', () => {
    // Worked example above: [4.5, 8.5]; a missing, an extra or a moved cut is an error.
    const v = f64([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const y = i32([0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
    for (const wrong of [[], [8.5], [4.5], [3.5, 8.5], [4.5, 8.5, 9.5], [4.5, 7.5]]) {
      expect(checkMdlCuts(v, y, 3, wrong).error, `${wrong}`).not.toBeNull();
    }
  });

  it('the equal-frequency oracle on the worked examples', () => {
    expect(equalFrequencyOracle([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3)).toEqual([3.5, 7.5]);
    expect(equalFrequencyOracle([1, 2, 2, 2, 2, 3, 4, 5], 2)).toEqual([2.5]);
    expect(equalFrequencyOracle([1, 2, 3, 4, 4, 4, 4, 5], 2)).toEqual([3.5]);
    expect(equalFrequencyOracle([3, 3, 3], 4)).toEqual([]);
  });

  it('mdlCutsGrouped with a c·ln c table cut short gives the cuts of the full table (entries computed alike)', () => {
    const rng = new Rng('ln-table');
    let cutsSeen = 0;
    for (let trial = 0; trial < 100; trial++) {
      const G = 2 + rng.int(300);
      const K = 2 + rng.int(3);
      const v = Float64Array.from({ length: G }, (_, g) => g * 0.5);
      // Class counts per value that drift with the value, so there are cuts to accept.
      const counts = Int32Array.from({ length: G * K }, (_, i) => rng.int(Math.floor(i / K) % K === i % K ? 900 : 200));
      const m = counts.reduce((a, c) => a + c, 0);
      const full = mdlCutsGrouped(v, counts, K, m, m);
      for (const lnMax of [0, 1, 7, 1000]) expect(mdlCutsGrouped(v, counts, K, m, lnMax), `${trial}`).toEqual(full);
      cutsSeen += full.length;
    }
    expect(cutsSeen).toBeGreaterThan(50);
  });

  it('mdlCutsGrouped on runs: values 1,1,2,3,3,3 with classes a,a,a,b,b,b', () => {
    // The cut 2.5 separates the classes: gain 1 > (log2 5 + log2(3^2 − 2) − 2)/6 = 0.521617.
    expect(mdlCutsGrouped(f64([1, 2, 3]), i32([2, 0, 1, 0, 0, 3]), 2, 6)).toEqual([2.5]);
    expect(checkMdlCuts(f64([1, 1, 2, 3, 3, 3]), i32([0, 0, 0, 1, 1, 1]), 2, [2.5]).error).toBeNull();
  });

  it('numericColumn codes values as ranks of the ascending distinct values; 0 and -0 are one value', () => {
    const c = numericColumn('x', f64([2.5, NaN, -1, 2.5, 0, -0, 7]));
    expect(Array.from(c.distinct)).toEqual([-1, 0, 2.5, 7]);
    expect(Array.from(c.ids)).toEqual([2, -1, 0, 2, 1, 1, 3]);
    expect(c.ids).toBeInstanceOf(Int8Array);
    expect(Array.from(numericValues(c))).toEqual([2.5, NaN, -1, 2.5, 0, 0, 7]);
  });
});
