/**
 * Resampling: a split instance assigns every row, per repeat, the fold in which it is a TEST row
 * (0..k-1), -1 when the row is never tested in that repeat (the training part of a holdout), or
 * EXCLUDED (-2) when the row was removed from the data set before splitting (`missing: remove-rows`):
 * such a row is neither a training nor a test row of any fold.
 * Splits are instantiated once per dataset and shared by every method (a paired design), and are stored
 * as data so another tool can be run on exactly the same partitions.
 */
import type { Rng } from '../util/rng.js';
import { UserError } from '../util/errors.js';

/** Assignment of a row removed before the split: in no fold's training or test rows. */
export const EXCLUDED = -2;

/** A repeat's fold of every row: Int32 as made, or the narrowest width that holds it (narrowAssignment). */
export type FoldColumn = Int8Array | Int16Array | Int32Array;

export interface SplitInstance {
  /** Number of repeats (rows of `assignment`). */
  readonly repeats: number;
  /** Number of folds per repeat (jobs per repeat). */
  readonly folds: number;
  /** assignment[r][row] = test fold of row in repeat r, -1 (never tested) or EXCLUDED. */
  readonly assignment: readonly FoldColumn[];
}

/**
 * A copy of a repeat's assignment in the narrowest signed width that holds its folds (one byte a row for up
 * to 127 folds), in a SharedArrayBuffer when `shared`: the planner keeps the split of every dataset for the
 * whole run and hands it to every worker, and at 10^7 rows Int32 takes 38 MiB, one byte 9.5. The split's
 * key is taken from the Int32 assignment before (plan.ts), so it does not depend on the width.
 */
export function narrowAssignment(a: FoldColumn, shared = false): FoldColumn {
  let lo = 0;
  let hi = 0;
  for (const v of a) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const width = lo >= -128 && hi <= 127 ? 1 : lo >= -32768 && hi <= 32767 ? 2 : 4;
  const buffer = shared ? new SharedArrayBuffer(a.length * width) : new ArrayBuffer(a.length * width);
  const out = width === 1 ? new Int8Array(buffer) : width === 2 ? new Int16Array(buffer) : new Int32Array(buffer);
  out.set(a);
  return out;
}

/** Test rows of (repeat, fold), ascending. */
export function testRows(split: SplitInstance, repeat: number, fold: number): Int32Array {
  return rowsWhere(split.assignment[repeat], (f) => f === fold);
}

/** Training rows of (repeat, fold): every row not tested in that fold and not EXCLUDED, ascending. */
export function trainRows(split: SplitInstance, repeat: number, fold: number): Int32Array {
  return rowsWhere(split.assignment[repeat], (f) => f !== fold && f !== EXCLUDED);
}

function rowsWhere(a: FoldColumn, keep: (f: number) => boolean): Int32Array {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (keep(a[i])) count++;
  const out = new Int32Array(count);
  let j = 0;
  for (let i = 0; i < a.length; i++) if (keep(a[i])) out[j++] = i;
  return out;
}

/**
 * Stratified k-fold, as Weka and scikit-learn's StratifiedKFold(shuffle=True) do it in spirit: rows are
 * shuffled within each class, classes are laid end to end (in class-code order), and the i-th row of that
 * sequence goes to fold i mod k. Every fold then holds floor or ceil of n_c/k rows of each class c, and
 * fold sizes differ by at most one overall.
 */
export function stratifiedKFold(classes: ArrayLike<number>, classCard: number, k: number, rng: Rng): Int32Array {
  const n = classes.length;
  if (k < 2) throw new UserError(`resampling: folds must be at least 2 (got ${k})`);
  if (k > n) throw new UserError(`resampling: ${k} folds but the dataset has only ${n} rows`);
  // The rows of each class, ascending, one class after another in one typed array (a counting sort): the
  // same lists as one growing array per class, without 8 bytes per row of them on the heap at 10^7 rows.
  const start = new Int32Array(classCard + 1);
  for (let i = 0; i < n; i++) start[classes[i] + 1]++;
  for (let c = 0; c < classCard; c++) start[c + 1] += start[c];
  const order = new Int32Array(n);
  const next = start.slice(0, classCard);
  for (let i = 0; i < n; i++) order[next[classes[i]]++] = i;
  const out = new Int32Array(n);
  let pos = 0;
  for (let c = 0; c < classCard; c++) {
    const rows = rng.shuffle(order.subarray(start[c], start[c + 1]));
    for (let i = 0; i < rows.length; i++) out[rows[i]] = pos++ % k;
  }
  return out;
}

/** Plain (unstratified) k-fold on a seeded permutation. */
export function plainKFold(n: number, k: number, rng: Rng): Int32Array {
  if (k < 2) throw new UserError(`resampling: folds must be at least 2 (got ${k})`);
  if (k > n) throw new UserError(`resampling: ${k} folds but the dataset has only ${n} rows`);
  const perm = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  const out = new Int32Array(n);
  perm.forEach((r, pos) => (out[r] = pos % k));
  return out;
}

/**
 * Holdout: round(n * testFraction) rows are test rows (fold 0), the rest are training rows (-1).
 * Stratified: the test rows of each class are chosen in proportion, by largest remainders so the total is exact.
 */
export function holdout(
  classes: ArrayLike<number>,
  classCard: number,
  testFraction: number,
  stratified: boolean,
  rng: Rng,
): Int32Array {
  const n = classes.length;
  if (!(testFraction > 0 && testFraction < 1)) {
    throw new UserError(`resampling: test_fraction must be in (0, 1) (got ${testFraction})`);
  }
  const nTest = Math.round(n * testFraction);
  if (nTest < 1 || nTest >= n)
    throw new UserError(`resampling: test_fraction ${testFraction} leaves an empty train or test set`);
  const out = new Int32Array(n).fill(-1);
  if (!stratified) {
    const perm = rng.shuffle(Array.from({ length: n }, (_, i) => i));
    for (let i = 0; i < nTest; i++) out[perm[i]] = 0;
    return out;
  }
  const byClass: number[][] = Array.from({ length: classCard }, () => []);
  for (let i = 0; i < n; i++) byClass[classes[i]].push(i);
  const exact = byClass.map((rows) => (rows.length * nTest) / n);
  const take = exact.map(Math.floor);
  let left = nTest - take.reduce((a, b) => a + b, 0);
  // Largest remainder first; ties by class code, so the result is deterministic.
  const order = exact.map((e, c) => ({ c, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.c - b.c);
  for (const { c } of order) {
    if (left === 0) break;
    if (take[c] < byClass[c].length) {
      take[c]++;
      left--;
    }
  }
  byClass.forEach((rows, c) => {
    rng.shuffle(rows);
    for (let i = 0; i < take[c]; i++) out[rows[i]] = 0;
  });
  return out;
}

/**
 * Folds given as data: one column per repeat, one line per dataset row, each value the row's test fold.
 * An optional header line is skipped when it is not numeric. Fold labels may be any integers; they are
 * mapped to 0..k-1 in ascending order. A value of -1 (or empty) marks a row that is never a test row;
 * `out` marks a row that is not in the repeat at all (EXCLUDED: neither trained nor tested), so a repeat can
 * be a subsample of the data set.
 */
export function parseFoldFile(text: string, file: string, n: number): SplitInstance {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  let start = 0;
  if (lines.length && !/^\s*(-?\d+|out)\s*(,\s*(-?\d*|out)\s*)*$/.test(lines[0])) start = 1; // header
  const body = lines.slice(start);
  if (body.length !== n) {
    throw new UserError(`${file}: has ${body.length} fold lines, the dataset has ${n} rows`);
  }
  const width = body[0].split(',').length;
  const raw: (number | null)[][] = Array.from({ length: width }, () => new Array<number | null>(n));
  body.forEach((line, i) => {
    const cells = line.split(',');
    if (cells.length !== width) {
      throw new UserError(`${file}:${i + start + 1}: has ${cells.length} fields, expected ${width}`);
    }
    cells.forEach((cell, r) => {
      const s = cell.trim();
      // 'out': the row is not part of this repeat's data at all (a subsample given as data), as remove-rows' EXCLUDED.
      if (s === 'out') {
        raw[r][i] = null;
        return;
      }
      const v = s === '' ? -1 : Number(s);
      if (!Number.isInteger(v)) throw new UserError(`${file}:${i + start + 1}: fold '${s}' is not an integer`);
      raw[r][i] = v;
    });
  });
  let folds = 0;
  const assignment = raw.map((col) => {
    const labels = [...new Set(col.filter((v): v is number => v !== -1 && v !== null))].sort((a, b) => a - b);
    if (labels.length === 0) throw new UserError(`${file}: a repeat has no test rows`);
    folds = Math.max(folds, labels.length);
    const index = new Map(labels.map((l, j) => [l, j]));
    return Int32Array.from(col, (v) => (v === null ? EXCLUDED : v === -1 ? -1 : index.get(v)!));
  });
  return { repeats: width, folds, assignment };
}

/**
 * The folds whose training rows lack a class: per repeat and fold, the classes with no training row. Every
 * estimator still gives such a class a probability (its prior; 0 under maximum likelihood), so this is a
 * warning, not an error.
 */
export function foldsMissingAClass(
  split: SplitInstance,
  classes: ArrayLike<number>,
  classCard: number,
): { repeat: number; fold: number; classes: number[] }[] {
  const out: { repeat: number; fold: number; classes: number[] }[] = [];
  split.assignment.forEach((a, r) => {
    // Training count of class c in fold f = rows of class c in the repeat - its test rows in fold f.
    const inRepeat = new Array<number>(classCard).fill(0);
    const tested = Array.from({ length: split.folds }, () => new Array<number>(classCard).fill(0));
    for (let i = 0; i < a.length; i++) {
      const f = a[i];
      if (f === EXCLUDED) continue;
      inRepeat[classes[i]]++;
      if (f >= 0) tested[f][classes[i]]++;
    }
    tested.forEach((t, f) => {
      const missing = t.flatMap((n, c) => (inRepeat[c] - n === 0 ? [c] : []));
      if (missing.length) out.push({ repeat: r, fold: f, classes: missing });
    });
  });
  return out;
}
