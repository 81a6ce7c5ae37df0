/**
 * A split is stored once, as one folds row per (repeat, row), and read back exactly: every width an
 * assignment is held in (Int8, Int16, Int32), EXCLUDED and never-tested rows, several repeats, sizes across
 * DuckDB's chunk (2,048 rows) and row-group (122,880 rows) boundaries, and a split of no rows. The rows are
 * staged in a temporary table (see saveSplit), which is gone afterwards.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXCLUDED, narrowAssignment, type FoldColumn } from '../../src/folds/split.js';
import { ResultStore } from '../../src/store/db.js';
import { Rng } from '../../src/util/rng.js';
import { tempDir } from '../helpers/cli.js';

/** Fold numbers 0..folds-1 with a few EXCLUDED and -1 (never tested) rows, from a seeded generator. */
function assignment(n: number, folds: number, seed: string): Int32Array {
  const rng = new Rng(seed);
  return Int32Array.from({ length: n }, () => {
    const u = rng.next();
    return u < 0.02 ? EXCLUDED : u < 0.04 ? -1 : rng.int(folds);
  });
}

describe('splits in the store', () => {
  it('reads back every split exactly, whatever its width, repeats and size', async () => {
    const store = await ResultStore.open(join(tempDir(), 's.duckdb'));
    try {
      const cases: { key: string; folds: number; repeats: FoldColumn[] }[] = [];
      for (const n of [0, 1, 2047, 2048, 2049, 122_881, 300_001]) {
        const wide = [assignment(n, 10, `a${n}`), assignment(n, 10, `b${n}`)];
        cases.push({ key: `int8-${n}`, folds: 10, repeats: wide.map((a) => narrowAssignment(a)) });
      }
      cases.push({ key: 'int16', folds: 300, repeats: [narrowAssignment(assignment(5000, 300, 'c'))] });
      cases.push({ key: 'int32', folds: 10, repeats: [assignment(5000, 10, 'd'), assignment(5000, 10, 'e')] });
      cases.push({
        key: 'mixed',
        folds: 300,
        repeats: [narrowAssignment(assignment(4000, 3, 'f')), narrowAssignment(assignment(4000, 300, 'g'))],
      });
      expect(cases.find((c) => c.key === 'int8-2049')!.repeats[0]).toBeInstanceOf(Int8Array);
      expect(cases.find((c) => c.key === 'int16')!.repeats[0]).toBeInstanceOf(Int16Array);
      for (const c of cases) {
        await store.saveSplit({
          key: c.key,
          datasetHash: 'h',
          resampling: 'cv',
          repeats: c.repeats.length,
          folds: c.folds,
          assignment: c.repeats,
        });
      }
      // a second save of a stored key writes nothing
      const again = cases[5];
      await store.saveSplit({
        key: again.key,
        datasetHash: 'h',
        resampling: 'cv',
        repeats: 2,
        folds: 10,
        assignment: again.repeats,
      });
      for (const c of cases) {
        const rows = await store.query(
          `SELECT "repeat", "row", fold FROM folds WHERE split_key = $1 ORDER BY "repeat", "row"`,
          [c.key],
        );
        const n = c.repeats[0].length;
        // row i of repeat r at position r·n + i: every (repeat, row) once, with its fold
        expect(rows.map((x) => [x['repeat'], x['row']])).toEqual(
          c.repeats.flatMap((_, r) => Array.from({ length: n }, (_, i) => [r, i])),
        );
        expect(rows.map((x) => x['fold'])).toEqual(c.repeats.flatMap((a) => Array.from(a)));
      }
      const counts = await store.query(`SELECT split_key, count(*)::INTEGER AS n FROM folds GROUP BY split_key`);
      const byKey = new Map(counts.map((r) => [r['split_key'] as string, r['n'] as number]));
      for (const c of cases) expect(byKey.get(c.key) ?? 0).toBe(c.repeats.length * c.repeats[0].length);
      const staged = await store.query(
        `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'folds_in'`,
      );
      expect(staged[0]['n']).toBe(0);
    } finally {
      store.close();
    }
  });
});
