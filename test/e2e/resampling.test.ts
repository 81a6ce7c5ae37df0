import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { ResultStore } from '../../src/store/db.js';

async function query(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const s = await ResultStore.open(db, { readOnly: true });
  try {
    return await s.query(sql);
  } finally {
    s.close();
  }
}

describe('resampling and data given by the user, through the CLI', () => {
  it('uses folds given as data exactly, and keeps predictions with save_predictions', async () => {
    const dir = tempDir();
    // A user CSV (quoted header, CRLF) and its folds: row i is tested in fold (i mod 3) + 1.
    const rows = ['"x 1",x2,label'];
    for (let i = 0; i < 30; i++)
      rows.push(`${['a', 'b', 'c'][i % 3]},${i % 2 ? 'u' : 'v'},${i % 3 === 0 || i % 5 === 0 ? 'yes' : 'no'}`);
    writeFileSync(join(dir, 'toy.csv'), rows.join('\r\n') + '\r\n');
    writeFileSync(
      join(dir, 'toy-folds.csv'),
      'fold\n' + Array.from({ length: 30 }, (_, i) => (i % 3) + 1).join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'spec.yaml'),
      `name: folds-as-data
datasets:
  - { file: toy.csv, class: label }
resampling:
  folds: { file: "{dataset}-folds.csv" }
structures: [nb]
estimators: [dirichlet]
save_predictions: true
`,
    );
    const db = join(dir, 'r.duckdb');
    const r = cli(['run', join(dir, 'spec.yaml'), '--db', db, '--no-report'], { cwd: dir });
    expect(r.stderr + r.stdout).toContain('3 jobs done, 0 failed');
    expect(r.code).toBe(0);
    const folds = await query(db, `SELECT "row", fold FROM folds ORDER BY "row"`);
    expect(folds.map((f) => f['fold'])).toEqual(Array.from({ length: 30 }, (_, i) => i % 3));
    const preds = await query(
      db,
      `SELECT p."row", p.truth, p.probs, j.fold FROM predictions p JOIN jobs j USING (job_key) ORDER BY p."row"`,
    );
    expect(preds).toHaveLength(30);
    for (const p of preds) {
      expect(p['fold']).toBe((p['row'] as number) % 3); // each row predicted in its own fold
      const probs = p['probs'] as number[];
      expect(probs).toHaveLength(2);
      expect(probs[0] + probs[1]).toBeCloseTo(1, 12);
    }
    // Labels are coded in sorted order: 'no' = 0, 'yes' = 1.
    expect(preds.filter((p) => p['truth'] === 1).map((p) => p['row'])).toEqual([
      0, 3, 5, 6, 9, 10, 12, 15, 18, 20, 21, 24, 25, 27,
    ]);
  });

  it('runs repeated stratified holdout on a shipped dataset', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'spec.yaml'),
      `name: holdout
datasets: [car]
resampling: { method: holdout, test_fraction: 0.25, repeats: 3 }
structures: [nb]
estimators: [mle, eap]
`,
    );
    const db = join(dir, 'h.duckdb');
    expect(cli(['run', join(dir, 'spec.yaml'), '--db', db, '--no-report'], { cwd: dir }).code).toBe(0);
    const res = await query(
      db,
      `SELECT "repeat", fold, n_test, n_train, accuracy FROM results ORDER BY "repeat", method`,
    );
    expect(res).toHaveLength(6);
    for (const x of res) {
      expect(x['fold']).toBe(0);
      expect(x['n_test']).toBe(Math.round(1728 * 0.25));
      expect(x['n_train']).toBe(1728 - 432);
      expect(x['accuracy'] as number).toBeGreaterThan(0.75); // NB on car is about 0.85
    }
    // Three different test sets, each shared by both estimators.
    const sets = await query(
      db,
      `SELECT "repeat", sum(fold + 1)::INTEGER AS tested FROM folds GROUP BY "repeat" ORDER BY "repeat"`,
    );
    expect(sets.map((s) => s['tested'])).toEqual([432, 432, 432]);
  });
});
