/**
 * ROC and reliability figures from saved predictions: the AUC in the ROC caption is the Mann–Whitney
 * statistic (ties counted 1/2) of the exported predictions with scores on the k/200 grid, computed here from
 * `export predictions` independently of the SQL; the ECE in the reliability caption is recomputed from the
 * same rows; a report without saved predictions has neither figure.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { expectedCalibrationError, trapezoidAuc } from '../../src/report/prediction-curves.js';

function mannWhitney(y: boolean[], s: number[]): number {
  const pos = s.filter((_, i) => y[i]);
  const neg = s.filter((_, i) => !y[i]);
  let t = 0;
  for (const p of pos) for (const n of neg) t += p > n ? 1 : p === n ? 0.5 : 0;
  return t / pos.length / neg.length;
}

describe('ROC and reliability figures', () => {
  it('caption AUC and ECE agree with the exported predictions', () => {
    const dir = tempDir('bnclab-curves-');
    writeFileSync(
      join(dir, 's.yaml'),
      'name: c\nseed: 1\ndatasets: [breast-cancer, iris]\nstructures: [nb]\nestimators: [dirichlet]\n',
    );
    expect(cli(['run', 's.yaml', '--db', 'c.duckdb', '--quiet', '--save-predictions'], { cwd: dir }).code).toBe(0);
    expect(cli(['export', 'predictions', 's.yaml', '--db', 'c.duckdb', '--out', 'p.csv'], { cwd: dir }).code).toBe(0);
    const lines = readFileSync(join(dir, 'p.csv'), 'utf8').trim().split('\n');
    const head = lines[0].split(',');
    const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], v])));
    const md = readFileSync(join(dir, 'results/c/report.md'), 'utf8');
    for (const f of ['roc-breast-cancer', 'reliability-breast-cancer', 'roc-iris', 'reliability-iris'])
      expect(existsSync(join(dir, 'results/c/figures', `${f}.svg`)), f).toBe(true);
    const grid = (x: number): number => Math.floor(x * 200) / 200;
    // breast-cancer: two classes, the second label (recurrence-events) positive.
    const bc = rows.filter((r) => r['dataset'] === 'breast-cancer');
    const aucBc = mannWhitney(
      bc.map((r) => r['truth'] === 'recurrence-events'),
      bc.map((r) => grid(Number(r['p_recurrence-events']))),
    );
    expect(md).toContain(
      `breast-cancer: ROC curves over the test rows of all folds (the second class label taken as positive)`,
    );
    expect(md).toMatch(new RegExp(`area under each: nb/dirichlet ${aucBc.toFixed(3)}\\.`));
    // iris: micro-averaged one-vs-rest.
    const labels = ['Iris-setosa', 'Iris-versicolor', 'Iris-virginica'];
    const ir = rows.filter((r) => r['dataset'] === 'iris');
    const y = ir.flatMap((r) => labels.map((l) => r['truth'] === l));
    const s = ir.flatMap((r) => labels.map((l) => grid(Number(r[`p_${l}`]))));
    expect(md).toMatch(
      new RegExp(`iris: ROC curves .*micro-averaged.*nb/dirichlet ${mannWhitney(y, s).toFixed(3)}\\.`),
    );
    // ECE of breast-cancer from the rows: 10 bins of the top probability.
    const bins = new Map<number, { conf: number; acc: number; n: number }>();
    for (const r of bc) {
      const p = [Number(r['p_no-recurrence-events']), Number(r['p_recurrence-events'])];
      const conf = Math.max(...p);
      const b = Math.min(9, Math.floor(conf * 10));
      const e = bins.get(b) ?? { conf: 0, acc: 0, n: 0 };
      bins.set(b, { conf: e.conf + conf, acc: e.acc + (r['predicted'] === r['truth'] ? 1 : 0), n: e.n + 1 });
    }
    const ece = expectedCalibrationError(
      [...bins.values()].map((b) => ({ conf: b.conf / b.n, acc: b.acc / b.n, n: b.n })),
    );
    expect(md).toMatch(new RegExp(`breast-cancer: top-label reliability.*nb/dirichlet ${ece.toFixed(3)}\\.`));
    // Without saved predictions: no such section.
    expect(cli(['run', 's.yaml', '--db', 'd.duckdb', '--quiet'], { cwd: dir }).code).toBe(0);
    expect(readFileSync(join(dir, 'results/c/report.md'), 'utf8')).not.toContain('ROC curves and reliability');
  });

  it('trapezoid area of a known curve', () => {
    expect(
      trapezoidAuc([
        { fpr: 0, tpr: 0 },
        { fpr: 0, tpr: 0.5 },
        { fpr: 0.5, tpr: 1 },
        { fpr: 1, tpr: 1 },
      ]),
    ).toBeCloseTo(0.875, 14);
  });
});
