import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../src/structures/index.js';
import { getStructure, withDefaults } from '../../src/registry.js';
import { discreteFromArrays } from '../../src/bn/data.js';
import {
  kdbCandidates,
  maxColRandom,
  rMean,
  rStratifiedFolds,
  tanHcCandidates,
} from '../../src/structures/search/bnclassify-cv.js';
import { RRng } from '../../src/util/r-rng.js';
import { rTanHcSearch } from '../../src/structures/search/ode-search.js';
import { rKdbSearch } from '../../src/structures/search/semi-naive.js';
import { Rng } from '../../src/util/rng.js';
import { UserError } from '../../src/util/errors.js';

/**
 * Printed by R 4.2.2 with bnclassify 0.4.8 (doubles with %.17g, which round-trips): a 90-row data set with
 * a one-row class, tan_hc(k = 5, epsilon = 0, smooth = 1) and kdb(k = 5, kdbk = 2, epsilon = 0,
 * smooth = 1) right after set.seed(seed) — their arcs ([from, to], 0-based attributes), their
 * .greedy_scores_log and the runif(1) after them (so the number of draws is pinned too); internal pieces
 * (make_stratified_folds, max.col, colMeans, augment_ode_arcs, augment_kdb_arcs) on small inputs.
 */
interface Fixture {
  data: { cards: number[]; columns: number[][]; class: number[] };
  runs: {
    seed: number;
    tanArcs: number[][];
    tanScores: number[];
    tanNext: number;
    kdbArcs: number[][];
    kdbScores: number[];
    kdbNext: number;
  }[];
  folds: { class: number[]; k: number; runs: { seed: number; fold: number[]; order: number[] }[] };
  maxCol: { seed: number; rows: number[][]; got: number[]; next: number };
  colMeans: { x: number[]; mean: number }[];
  odeCandidates: { parents: number[]; arcs: number[][] };
  kdbCandidates: { parents: number[][]; arcs: number[][] };
}
const fx = JSON.parse(
  readFileSync(new URL('../fixtures/bnclassify-cv/bnclassify-0.4.8.json', import.meta.url), 'utf8'),
) as Fixture;

const data = discreteFromArrays({
  names: fx.data.cards.map((_, a) => `a${a}`),
  cards: fx.data.cards,
  rows: fx.data.class.map((_, r) => fx.data.columns.map((col) => col[r])),
  classes: fx.data.class,
  classCard: 4,
});

function arcsOf(parents: readonly (readonly number[])[], m: number): number[][] {
  const out: number[][] = [];
  for (let a = 0; a < m; a++) for (const p of parents[a]) if (p !== m) out.push([p, a]);
  return out;
}

describe('tan-hc and kdb-hc with r_seed equal bnclassify 0.4.8 after set.seed', () => {
  for (const run of fx.runs) {
    it(`set.seed(${run.seed}): tan_hc's arcs and greedy scores, bit for bit, and R's stream left where R leaves it`, () => {
      const s = getStructure('tan-hc')!.learn(
        data,
        { k: 5, epsilon: 0, smooth: 1, r_seed: run.seed },
        { rng: new Rng('x') },
      );
      expect(arcsOf(s.parents, 5)).toEqual(run.tanArcs);
      expect(s.info?.cvAccuracy).toBe(run.tanScores.at(-1));
      expect(s.info?.steps).toBe(run.tanScores.length - 1);
      const rng = new RRng(run.seed);
      const res = rTanHcSearch(data, { k: 5, epsilon: 0, alpha: 1 }, rng);
      expect(res.scores).toEqual(run.tanScores);
      expect(rng.unifRand()).toBe(run.tanNext);
    });
    it(`set.seed(${run.seed}): kdb's arcs and greedy scores`, () => {
      const s = getStructure('kdb-hc')!.learn(
        data,
        { k: 5, epsilon: 0, smooth: 1, kdbk: 2, r_seed: run.seed },
        { rng: new Rng('x') },
      );
      expect(arcsOf(s.parents, 5).sort()).toEqual(run.kdbArcs.slice().sort());
      expect(s.info?.cvAccuracy).toBe(run.kdbScores.at(-1));
      expect(s.info?.steps).toBe(run.kdbScores.length - 1);
      const rng = new RRng(run.seed);
      const res = rKdbSearch(data, { k: 5, epsilon: 0, alpha: 1 }, 2, rng);
      expect(res.scores).toEqual(run.kdbScores);
      expect(rng.unifRand()).toBe(run.kdbNext);
    });
  }

  it('r_seed has no default: a job without it keeps its parameters (and so its key) and its own seeded search', () => {
    for (const id of ['tan-hc', 'kdb-hc']) {
      const info = getStructure(id)!;
      expect(withDefaults(info, {})).not.toHaveProperty('r_seed');
      expect(info.defaults).not.toHaveProperty('r_seed');
      expect(info.implicitDefaults).not.toHaveProperty('r_seed');
    }
  });

  it('the job seed plays no part with r_seed, and orient: name cannot go with it', () => {
    const p = { k: 5, epsilon: 0, smooth: 1, r_seed: 7 };
    const a = getStructure('tan-hc')!.learn(data, p, { rng: new Rng('a') });
    const b = getStructure('tan-hc')!.learn(data, p, { rng: new Rng('b') });
    expect(a.parents).toEqual(b.parents);
    expect(() => getStructure('tan-hc')!.learn(data, { ...p, orient: 'name' }, { rng: new Rng('a') })).toThrow(
      UserError,
    );
  });
});

describe("bnclassify's pieces", () => {
  for (const run of fx.folds.runs) {
    it(`make_stratified_folds after set.seed(${run.seed}) (a one-row class: sample() of one number; an empty level)`, () => {
      const { foldOf, k } = rStratifiedFolds(fx.folds.class, 4, fx.folds.k, new RRng(run.seed));
      expect(k).toBe(new Set(run.fold).size);
      // R numbers the folds 1..k; present folds keep their order.
      const present = [...new Set(run.fold)].sort((x, y) => x - y);
      expect(Array.from(foldOf, (f) => present[f])).toEqual(run.fold);
    });
  }

  it("max.col(ties.method = 'random'): ties within 1e-5 relative, reservoir draws", () => {
    const g = new RRng(fx.maxCol.seed);
    const got: number[] = [];
    for (let rep = 0; rep < 3; rep++) for (const row of fx.maxCol.rows) got.push(maxColRandom(row, g) + 1);
    expect(got).toEqual(fx.maxCol.got);
    expect(g.unifRand()).toBe(fx.maxCol.next);
    // Without a stream: -1 exactly when R would draw.
    expect(maxColRandom([1, 2, 3], null)).toBe(2);
    expect(maxColRandom([0.5, 0.5, 0], null)).toBe(-1);
  });

  it('colMeans in long double, bit for bit', () => {
    for (const { x, mean } of fx.colMeans) expect(rMean(x)).toBe(mean);
  });

  it("augment_ode_arcs' and augment_kdb_arcs' candidate order", () => {
    const ode = tanHcCandidates(Int32Array.from(fx.odeCandidates.parents)).map(({ from, to }) => [from, to]);
    expect(ode).toEqual(fx.odeCandidates.arcs);
    const kdb = kdbCandidates(fx.kdbCandidates.parents, 2).map(({ from, to }) => [from, to]);
    expect(kdb).toEqual(fx.kdbCandidates.arcs);
  });
});
