/**
 * The same fold values in another fold order give bit-identical per-dataset means, average ranks, Friedman
 * and post-hoc statistics, Wilcoxon and sign tests and win/draw/loss counts. Method B's folds are a
 * permutation of method A's on every dataset, so A and B must draw everywhere; with means summed in fold
 * order they did not on some datasets (a mean one ulp off breaks the tie), and ranks moved.
 */
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/report/compare.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';
import { accuracyRow } from '../helpers/result-rows.js';
import { Rng } from '../../src/util/rng.js';

const METHODS = ['A', 'B', 'C', 'D'];
const DATASETS = 30;
const FOLDS = 10;

function shuffle<T>(v: T[], rng: Rng): T[] {
  for (let i = v.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [v[i], v[j]] = [v[j]!, v[i]!];
  }
  return v;
}

/** Accuracies as a fold's fraction of correct test rows (fold sizes 7 to 30), like stored results. */
function values(rng: Rng): number[][][] {
  return Array.from({ length: DATASETS }, () => {
    const a = Array.from({ length: FOLDS }, () => {
      const n = 7 + rng.int(24);
      return (n - rng.int(n + 1) * 0.3) / n;
    });
    const c = a.map((x) => Math.min(1, x + (rng.next() - 0.5) * 0.1));
    const d = Array.from({ length: FOLDS }, () => rng.next());
    return [a, shuffle([...a], rng), c, d];
  });
}

function rows(v: number[][][], order: (d: number, m: number) => number[]): ResultRow[] {
  const out: ResultRow[] = [];
  v.forEach((byMethod, d) =>
    byMethod.forEach((folds, m) =>
      order(d, m).forEach((from, fold) => {
        const acc = folds[from];
        out.push(accuracyRow('perm', `d${String(d).padStart(2, '0')}`, METHODS[m], fold, acc, `${d}-${m}-${fold}`));
      }),
    ),
  );
  return out;
}

describe('permuting folds', () => {
  it('leaves every mean, rank, test and win/draw/loss count bit-identical', () => {
    const rng = new Rng('permuted-folds');
    const v = values(rng);
    const identity = (): number[] => Array.from({ length: FOLDS }, (_, i) => i);
    const perms = v.map((byMethod) => byMethod.map(() => shuffle(identity(), rng)));
    const settings = { ...DEFAULT_COMPARE, metrics: ['accuracy', 'log_loss'] as const, control: 'A' };
    const x = compareResults(rows(v, identity), METHODS, settings);
    const y = compareResults(
      rows(v, (d, m) => perms[d][m]),
      METHODS,
      settings,
    );

    // The fixture has teeth: summed in fold order, A's and B's means differ on some datasets.
    const plain = (f: number[]): number => f.reduce((s, t) => s + t, 0) / f.length;
    expect(v.filter(([a, b]) => plain(a) !== plain(b)).length).toBeGreaterThan(0);

    for (const [i, mx] of x.metrics.entries()) {
      const my = y.metrics[i];
      expect(my.table.cells.map((r) => r.map((c) => c?.mean))).toEqual(
        mx.table.cells.map((r) => r.map((c) => c?.mean)),
      );
      expect(my.table.cells.map((r) => r.map((c) => c?.sd))).toEqual(mx.table.cells.map((r) => r.map((c) => c?.sd)));
      expect(my.values).toEqual(mx.values);
      expect(my.meanRanks).toEqual(mx.meanRanks);
      expect(my.friedman).toEqual(mx.friedman);
      expect(my.posthoc).toEqual(mx.posthoc);
      expect(my.pairs).toEqual(mx.pairs);
      // A and B hold the same values on every dataset: equal means, a draw on each, equal mean ranks.
      const ab = mx.pairs.find((p) => p.a === 'A' && p.b === 'B')!;
      expect(ab.wdl).toMatchObject({ wins: 0, draws: DATASETS, losses: 0 });
      expect(mx.meanRanks[0]).toBe(mx.meanRanks[1]);
      for (const row of mx.table.cells) expect(row[0]!.mean).toBe(row[1]!.mean);
    }
  });
});
