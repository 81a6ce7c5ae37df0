import { describe, expect, it } from 'vitest';
import {
  holdout,
  narrowAssignment,
  parseFoldFile,
  plainKFold,
  stratifiedKFold,
  testRows,
  trainRows,
} from '../../src/folds/split.js';
import { splitContentKey } from '../../src/spec/plan.js';
import { instantiateSplit, defaultResampling } from '../../src/spec/resampling.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

// 23 rows: class 0 ×10, class 1 ×7, class 2 ×6 (interleaved so row order does not help).
const classes = Int32Array.from([0, 1, 2, 0, 0, 1, 2, 0, 1, 0, 2, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0]);

describe('stratified k-fold', () => {
  it('gives the folds pinned for a seed (each class shuffled on its own, classes laid end to end)', () => {
    // Same seed, same folds on every machine; a change here changes every stored split and job key.
    expect([...stratifiedKFold(classes, 3, 3, new Rng('pinned folds'))]).toEqual([
      2, 1, 2, 2, 0, 1, 0, 2, 0, 1, 1, 0, 0, 0, 0, 2, 1, 1, 2, 1, 2, 1, 0,
    ]);
  });

  it('puts floor or ceil of n_c/k rows of each class in every fold, and fold sizes differ by at most one', () => {
    const k = 3;
    const a = stratifiedKFold(classes, 3, k, new Rng('s'));
    const perFold = Array.from({ length: k }, () => [0, 0, 0]);
    a.forEach((f, i) => perFold[f][classes[i]]++);
    // class 0: 10 rows → 4,3,3 in some order; class 1: 7 → 3,2,2; class 2: 6 → 2,2,2.
    for (const [c, n] of [
      [0, 10],
      [1, 7],
      [2, 6],
    ] as const) {
      const counts = perFold.map((p) => p[c]).sort();
      expect(counts.every((x) => x === Math.floor(n / k) || x === Math.ceil(n / k))).toBe(true);
      expect(counts.reduce((s, x) => s + x, 0)).toBe(n);
    }
    const sizes = perFold.map((p) => p[0] + p[1] + p[2]);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it('is a function of the seed: same seed, same folds; other seed, other folds', () => {
    const a = stratifiedKFold(classes, 3, 5, new Rng('seed-a'));
    const b = stratifiedKFold(classes, 3, 5, new Rng('seed-a'));
    const c = stratifiedKFold(classes, 3, 5, new Rng('seed-b'));
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(a)).not.toEqual(Array.from(c));
  });

  it('train and test rows of a fold partition the data', () => {
    const split = { repeats: 1, folds: 4, assignment: [stratifiedKFold(classes, 3, 4, new Rng('x'))] };
    for (let f = 0; f < 4; f++) {
      const te = Array.from(testRows(split, 0, f));
      const tr = Array.from(trainRows(split, 0, f));
      expect(te.length + tr.length).toBe(classes.length);
      expect(new Set([...te, ...tr]).size).toBe(classes.length);
    }
  });

  it('rejects k < 2 and k > n', () => {
    expect(() => stratifiedKFold(classes, 3, 1, new Rng('x'))).toThrow(UserError);
    expect(() => plainKFold(5, 6, new Rng('x'))).toThrow(UserError);
  });
});

describe('holdout', () => {
  it('takes round(n·f) test rows, stratified by largest remainders', () => {
    const a = holdout(classes, 3, 0.3, true, new Rng('h'));
    const test = Array.from(a).filter((f) => f === 0).length;
    expect(test).toBe(Math.round(23 * 0.3)); // 7
    // Exact shares 3.04, 2.13, 1.83 → floors 3,2,1 (6) + the largest remainder (class 2) → 3,2,2.
    const perClass = [0, 0, 0];
    a.forEach((f, i) => f === 0 && perClass[classes[i]]++);
    expect(perClass).toEqual([3, 2, 2]);
  });
});

describe('repeated CV from a spec', () => {
  it('derives each repeat from the content, so adding repeats keeps the earlier ones', () => {
    const ds = { name: 'toy', sha256: 'abc', classes, classCard: 3 };
    const two = instantiateSplit({ ...defaultResampling, folds: 2, repeats: 2 }, ds, '1', '.');
    const five = instantiateSplit({ ...defaultResampling, folds: 2, repeats: 5 }, ds, '1', '.');
    expect(two.repeats).toBe(2);
    expect(five.assignment).toHaveLength(5);
    // The seed includes the resampling settings, so 2×2 and 5×2 are different instances; within one
    // instance, repeats differ from each other.
    expect(Array.from(five.assignment[0])).not.toEqual(Array.from(five.assignment[1]));
    const again = instantiateSplit({ ...defaultResampling, folds: 2, repeats: 5 }, ds, '1', '.');
    expect(again.assignment.map((a) => Array.from(a))).toEqual(five.assignment.map((a) => Array.from(a)));
  });
});

describe('folds given as data', () => {
  it('reads one column per repeat, skips a header, maps labels to 0..k-1', () => {
    const s = parseFoldFile('fold_r1,fold_r2\n1,3\n2,1\n1,2\n2,-1\n', 'f.csv', 4);
    expect(s.repeats).toBe(2);
    expect(Array.from(s.assignment[0])).toEqual([0, 1, 0, 1]);
    expect(Array.from(s.assignment[1])).toEqual([2, 0, 1, -1]);
    expect(s.folds).toBe(3);
  });

  it('names file and line for a bad value, and checks the row count', () => {
    expect(() => parseFoldFile('1\n2\nx\n', 'f.csv', 3)).toThrow(/f\.csv:3: fold 'x' is not an integer/);
    expect(() => parseFoldFile('1\n2\n', 'f.csv', 3)).toThrow(/has 2 fold lines, the dataset has 3 rows/);
  });
});

describe('unstratified splits (output checked, not only shape)', () => {
  it('plain k-fold: row r goes to fold (its position in the seeded permutation) mod k; pinned for a seed', () => {
    const a = plainKFold(10, 3, new Rng('p'));
    // Pinned: any change to the permutation or to the fold rule changes this assignment.
    expect([...a]).toEqual([1, 2, 2, 0, 0, 2, 1, 0, 1, 0]);
    const perm = new Rng('p').shuffle(Array.from({ length: 10 }, (_, i) => i));
    perm.forEach((r, pos) => expect(a[r]).toBe(pos % 3));
    // Fold sizes ceil/floor of 10/3, largest first (positions 0, 3, 6, 9 go to fold 0).
    expect([0, 1, 2].map((f) => a.filter((x) => x === f).length)).toEqual([4, 3, 3]);
  });

  it('plain k-fold ignores classes: every fold can mix them freely, and other seeds give other folds', () => {
    const a = plainKFold(23, 4, new Rng('p'));
    expect([...a]).not.toEqual([...plainKFold(23, 4, new Rng('q'))]);
    expect([...a]).toEqual([...plainKFold(23, 4, new Rng('p'))]);
    expect(() => plainKFold(5, 1, new Rng('p'))).toThrow(UserError);
    expect(() => plainKFold(5, 6, new Rng('p'))).toThrow(UserError);
    expect(() => plainKFold(5, 5, new Rng('p'))).not.toThrow();
    expect(() => plainKFold(5, 1, new Rng('p'))).toThrow(/^resampling: folds must be at least 2 \(got 1\)$/);
    expect(() => plainKFold(5, 6, new Rng('p'))).toThrow(/^resampling: 6 folds but the dataset has only 5 rows$/);
    // Stratified: as many folds as rows is allowed (one row per fold), one more is not.
    expect([...stratifiedKFold(Int32Array.from([0, 1, 0]), 2, 3, new Rng('p'))].sort()).toEqual([0, 1, 2]);
    expect(() => stratifiedKFold(Int32Array.from([0, 1, 0]), 2, 4, new Rng('p'))).toThrow(
      /^resampling: 4 folds but the dataset has only 3 rows$/,
    );
    expect(() => stratifiedKFold(Int32Array.from([0, 1, 0]), 2, 1, new Rng('p'))).toThrow(
      /^resampling: folds must be at least 2/,
    );
  });

  it('unstratified holdout: the first round(n·f) rows of the seeded permutation are the test rows, the rest train (-1)', () => {
    const a = holdout(classes, 3, 0.3, false, new Rng('h'));
    expect([...a]).toEqual([-1, -1, -1, -1, -1, 0, 0, -1, 0, 0, -1, 0, -1, 0, -1, -1, -1, -1, -1, -1, 0, -1, -1]);
    const perm = new Rng('h').shuffle(Array.from({ length: 23 }, (_, i) => i));
    perm.forEach((r, pos) => expect(a[r]).toBe(pos < 7 ? 0 : -1));
  });

  it('stratified holdout is stratified for every seed, where an unstratified one varies by class', () => {
    const perClass = (a: Int32Array) => {
      const pc = [0, 0, 0];
      a.forEach((f, i) => f === 0 && pc[classes[i]]++);
      return pc.join(',');
    };
    const strat = new Set<string>();
    const plain = new Set<string>();
    for (let s = 0; s < 40; s++) {
      strat.add(perClass(holdout(classes, 3, 0.3, true, new Rng(`s${s}`))));
      plain.add(perClass(holdout(classes, 3, 0.3, false, new Rng(`s${s}`))));
    }
    expect([...strat]).toEqual(['3,2,2']);
    expect(plain.size).toBeGreaterThan(3);
  });

  it('holdout rejects a fraction outside (0, 1) or one that leaves a side empty', () => {
    expect(() => holdout(classes, 3, 0, true, new Rng('h'))).toThrow(/test_fraction must be in \(0, 1\)/);
    expect(() => holdout(classes, 3, 1, false, new Rng('h'))).toThrow(/test_fraction must be in \(0, 1\)/);
    expect(() => holdout(classes, 3, 0.01, false, new Rng('h'))).toThrow(/leaves an empty train or test set/);
    expect(() => holdout(classes, 3, 0.99, false, new Rng('h'))).toThrow(/leaves an empty train or test set/);
  });
});

describe('fold files: empty and ragged lines', () => {
  it('an empty line in a one-column file is a row that is never a test row (-1)', () => {
    const s = parseFoldFile('1\n\n2\n', 'f.csv', 3);
    expect([...s.assignment[0]]).toEqual([0, -1, 1]);
    // Trailing empty lines are not rows.
    expect(parseFoldFile('1\n2\n\n\n', 'f.csv', 2).assignment[0].length).toBe(2);
  });

  it('a ragged line names file, line and field counts; an empty cell of a wide file is -1', () => {
    expect(() => parseFoldFile('a,b\n1,2\n\n2,1\n', 'f.csv', 3)).toThrow(/^f\.csv:3: has 1 fields, expected 2$/);
    expect(() => parseFoldFile('1,2\n1,2,3\n', 'f.csv', 2)).toThrow(/^f\.csv:2: has 3 fields, expected 2$/);
    const s = parseFoldFile('1,\n2,1\n', 'f.csv', 2);
    expect([...s.assignment[1]]).toEqual([-1, 0]);
    expect(() => parseFoldFile('-1\n-1\n', 'f.csv', 2)).toThrow(/a repeat has no test rows/);
  });
});

describe('folds given as data: subsamples', () => {
  it("marks 'out' rows EXCLUDED (neither trained nor tested) while -2 stays an ordinary fold label", () => {
    const s = parseFoldFile('out,1\n1,-2\nout,1\n2,-1\n', 'f.csv', 4);
    expect(Array.from(s.assignment[0])).toEqual([-2, 0, -2, 1]);
    expect(Array.from(s.assignment[1])).toEqual([1, 0, 1, -1]);
    expect(Array.from(trainRows(s, 0, 0))).toEqual([3]);
    expect(Array.from(testRows(s, 0, 1))).toEqual([3]);
  });
});

describe('boundaries and fold-file details', () => {
  it('plain k-fold allows k = 2 and a holdout allows a single test row', () => {
    const a = plainKFold(4, 2, new Rng('k2'));
    expect([...a].sort()).toEqual([0, 0, 1, 1]);
    const classes = Int32Array.from([0, 0, 1, 1, 1]);
    for (const stratified of [true, false]) {
      const h = holdout(classes, 2, 0.2, stratified, new Rng('one'));
      expect([...h].filter((f) => f === 0)).toHaveLength(1); // round(5 · 0.2) = 1
    }
  });

  it('stratified holdout: equal remainders go to the lowest class code', () => {
    // Three classes of one row each, one test row: every remainder is 1/3, so class 0 gets it, for every seed.
    for (const seed of ['a', 'b', 'c', 'd']) {
      expect([...holdout(Int32Array.from([2, 1, 0]), 3, 1 / 3, true, new Rng(seed))]).toEqual([-1, -1, 0]);
    }
  });

  it('a byte-order mark is dropped, so a numeric first line is a row, not a header', () => {
    expect([...parseFoldFile('\uFEFF1\n2\n', 'f.csv', 2).assignment[0]]).toEqual([0, 1]);
  });

  it('a header is any first line that is not fold values, even one starting with a digit', () => {
    const s = parseFoldFile('1st,2nd\n10,20\n20,10\n', 'f.csv', 2);
    expect([...s.assignment[0]]).toEqual([0, 1]);
    expect([...s.assignment[1]]).toEqual([1, 0]);
    expect([...parseFoldFile('1,2nd\n1,2\n2,1\n', 'f.csv', 2).assignment[1]]).toEqual([1, 0]);
    // Multi-digit labels on the first line: not a header.
    expect([...parseFoldFile('10\n20\n', 'f.csv', 2).assignment[0]]).toEqual([0, 1]);
  });

  it('cells and trailing lines are trimmed: blank cells are -1, padded labels and out are read', () => {
    const s = parseFoldFile('1 ,  \n out , 2\n2,1\n   \n', 'f.csv', 3);
    expect([...s.assignment[0]]).toEqual([0, -2, 1]);
    expect([...s.assignment[1]]).toEqual([-1, 1, 0]);
  });

  it('error lines count the header', () => {
    expect(() => parseFoldFile('fold\n1\n2\nx\n', 'f.csv', 3)).toThrow(/^f\.csv:4: fold 'x' is not an integer$/);
  });
});

describe('narrowAssignment: the same folds in the narrowest width', () => {
  it('one byte for up to 127 folds with -1 and EXCLUDED, two or four beyond; values unchanged', () => {
    const small = Int32Array.from([0, 126, -1, -2, 127]);
    const a = narrowAssignment(small);
    expect(a).toBeInstanceOf(Int8Array);
    expect([...a]).toEqual([...small]);
    const mid = narrowAssignment(Int32Array.from([0, 128, -2]));
    expect(mid).toBeInstanceOf(Int16Array);
    expect([...mid]).toEqual([0, 128, -2]);
    // Leave-one-out on a large data set: a fold per row.
    const wide = narrowAssignment(Int32Array.from([0, 40000, -1]), true);
    expect(wide).toBeInstanceOf(Int32Array);
    expect(wide.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...wide]).toEqual([0, 40000, -1]);
    expect(narrowAssignment(small).buffer).not.toBeInstanceOf(SharedArrayBuffer);
    // Each width's limits, on either side and wherever in the column the extreme value stands.
    const widthOf = (xs: number[]): number => narrowAssignment(Int32Array.from(xs)).BYTES_PER_ELEMENT;
    expect([widthOf([5, -128, 0]), widthOf([5, -129, 0]), widthOf([127, 3]), widthOf([3, 128, 1])]).toEqual([
      1, 2, 1, 2,
    ]);
    expect([widthOf([-32768, 7]), widthOf([7, -32769]), widthOf([32767, -5]), widthOf([-5, 32768, 0])]).toEqual([
      2, 4, 2, 4,
    ]);
    for (const xs of [
      [5, -129, 0],
      [-32769, 2],
      [3, 128, 1],
      [-5, 32768, 0],
    ]) {
      expect([...narrowAssignment(Int32Array.from(xs))]).toEqual(xs);
    }
  });

  it("the split's key is that of the Int32 assignment whatever the width it is held in", () => {
    const a = stratifiedKFold(classes, 3, 5, new Rng('narrow'));
    const split = { repeats: 1, folds: 5, assignment: [a] };
    const narrow = { ...split, assignment: [narrowAssignment(a, true)] };
    expect(narrow.assignment[0]).toBeInstanceOf(Int8Array);
    expect(splitContentKey(narrow)).toBe(splitContentKey(split));
    expect(splitContentKey({ ...split, assignment: [plainKFold(classes.length, 5, new Rng('narrow'))] })).not.toBe(
      splitContentKey(split),
    );
  });
});
