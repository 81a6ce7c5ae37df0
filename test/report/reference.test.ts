import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateReference, metricFromName } from '../../src/report/reference.js';
import { referenceTable } from '../../src/report/sections/reproduction.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';
import { tempDir, ROOT } from '../helpers/cli.js';
import { buildReport } from '../../src/report/build.js';
import { referenceSpec, reportInput, resultRow } from '../helpers/report.js';
import { renderHtml } from '../../src/report/render.js';
import { parseXml } from './xml.js';

const ref = referenceSpec;

function row(dataset: string, method: string, accuracy: number, rmse: number, fold = 0): ResultRow {
  return resultRow(dataset, method, fold, accuracy, rmse);
}

function file(text: string): string {
  const f = join(tempDir(), 'ref.csv');
  writeFileSync(f, text);
  return f;
}

describe('reference files', () => {
  it('maps published metric names', () => {
    expect(
      ['0/1-loss', '0-1 loss', 'zero_one_loss', 'Error', 'RMSE', 'Accuracy', 'log loss'].map(metricFromName),
    ).toEqual(['zero_one_loss', 'zero_one_loss', 'zero_one_loss', 'zero_one_loss', 'rmse', 'accuracy', 'log_loss']);
    expect(metricFromName('AUPRC')).toBeUndefined();
    expect(metricFromName('AUC')).toBe('auc');
    expect(metricFromName('Brier score')).toBe('brier');
  });

  it("warns about methods: keys that name no method of the file (the README's TAN-HDP for the file's tan-hdp)", () => {
    const rows = ['d1', 'd2'].flatMap((d) => [row(d, 'tan/hdp', 0.9, 0.3), row(d, 'tan/m-estimate', 0.8, 0.4)]);
    const f = file(`metric,method_a,method_b,wins,draws,losses,significant
accuracy,tan-hdp,tan-m,2,0,0,
`);
    const wrong = evaluateReference(
      ref(f, { methods: { 'TAN-HDP': 'tan/hdp', 'TAN-m': 'tan/m-estimate' } }),
      rows,
      ['tan/hdp', 'tan/m-estimate'],
      DEFAULT_COMPARE,
    );
    expect(wrong.comments).toEqual([
      "warning: methods: 'TAN-HDP', 'TAN-m' name no method of ref.csv (names are matched exactly; the file's: tan-hdp, tan-m)",
    ]);
    expect(wrong.claims[0].verdict).toBe('no data');
    const right = evaluateReference(
      ref(f, { methods: { 'tan-hdp': 'tan/hdp', 'tan-m': 'tan/m-estimate' } }),
      rows,
      ['tan/hdp', 'tan/m-estimate'],
      DEFAULT_COMPARE,
    );
    expect(right.comments).toEqual([]);
    expect(right.claims[0].verdict).not.toBe('no data');
  });

  it('W/D/L verdicts: direction and significance must both agree', () => {
    // a beats b on 6 of 6 datasets (accuracy), and loses on RMSE on all 6.
    const rows = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'].flatMap((d, i) => [
      row(d, 'a', 0.9 + i / 100, 0.3),
      row(d, 'b', 0.8, 0.2),
    ]);
    const f = file(`metric,method_a,method_b,wins,draws,losses,significant
accuracy,A,B,6,0,0,true
accuracy,A,B,5,0,1,false
rmse,A,B,6,0,0,true
accuracy,A,C,1,0,0,
`);
    const r = evaluateReference(ref(f, { methods: { A: 'a', B: 'b' } }), rows, ['a', 'b'], DEFAULT_COMPARE);
    expect(r.kind).toBe('wdl');
    if (r.kind !== 'wdl') return;
    // Ours: 6–0–0, binom.test(6, 6) p = 2/64 = 0.03125 ≤ 0.05.
    expect(r.claims[0].ours).toMatchObject({ wins: 6, draws: 0, losses: 0, significant: true });
    expect(r.claims[0].ours!.p).toBeCloseTo(0.03125, 15);
    expect(r.claims.map((c) => c.verdict)).toEqual(['reproduced', 'not reproduced', 'not reproduced', 'no data']);
    expect(r.claims[1].reason).toBe('ours is significant, the published result is not');
    expect(r.claims[2].reason).toBe('ours favours B');
    expect(r.claims[3].reason).toContain('no results for C');
    // Empty 'significant' is computed from the published counts: 1–0–0 gives p = 1.
    expect(r.claims[3].published).toMatchObject({ significant: false, significanceGiven: false, p: 1 });
  });

  it('cell verdicts use scale, % values and the tolerance', () => {
    const rows = [row('iris', 'nb', 0.9, 0.2, 0), row('iris', 'nb', 0.96, 0.2, 1)];
    const f = file('dataset,method,metric,value\nIris,NB,accuracy,93\nIris,NB,accuracy,95%\nIris,NB,rmse,30\n');
    const r = evaluateReference(
      ref(f, { methods: { NB: 'nb' }, scale: 0.01, tolerance: 0.02 }),
      rows,
      ['nb'],
      DEFAULT_COMPARE,
    );
    if (r.kind !== 'cells') throw new Error('expected cells');
    // Ours: mean accuracy (0.9 + 0.96)/2 = 0.93 (dataset matched case-insensitively).
    expect(r.claims.map((c) => [c.ourDataset, c.published, c.ours, c.verdict])).toEqual([
      ['iris', 0.93, expect.closeTo(0.93, 12), 'reproduced'],
      ['iris', 0.95, expect.closeTo(0.93, 12), 'reproduced'],
      ['iris', 0.3, 0.2, 'not reproduced'],
    ]);
    expect(r.claims[2].difference).toBeCloseTo(-0.1, 12);
  });

  it('a substitute (reference substitutes:) is said beside every verdict that reads it, and only there', () => {
    const rows = ['d1', 'd2', 'd3'].flatMap((d, i) => [
      row(d, 'nb', 0.9, 0.3),
      row(d, 'hgb', 0.8 + i / 100, 0.4),
      row(d, 'tan', 0.85, 0.35),
    ]);
    const sub = { substitutes: { hgb: 'HistGradientBoosting for LightGBM' }, methods: { LightGBM: 'hgb' } };
    const table = (text: string): string[][] => {
      const r = evaluateReference(ref(file(text), sub), rows, ['nb', 'hgb', 'tan'], DEFAULT_COMPARE);
      const t = referenceTable('t', r, 0.05);
      return [...t.rows.map((x) => x.cells.map((c) => c.text)), [...(t.notes ?? [])]];
    };
    const said = 'hgb is a substitute: HistGradientBoosting for LightGBM';
    // Claims: in the note column, after the file's own note; not on a claim that does not read it.
    const claims = table(`id,kind,metric,method_a,relation,method_b,dataset,value,source,note
C1,mean,accuracy,nb,>,LightGBM,,,,published note
C2,mean,accuracy,nb,>,tan,,,,
`);
    expect(claims[0].at(-1)).toBe(`published note (${said})`);
    expect(claims[1].at(-1)).toBe('');
    // W/D/L: in the why column.
    const wdl = table(`metric,method_a,method_b,wins,draws,losses,significant
accuracy,nb,LightGBM,3,0,0,
accuracy,nb,tan,3,0,0,
`);
    expect(wdl[0].at(-1)).toContain(`(${said})`);
    expect(wdl[1].at(-1)).not.toContain('substitute');
    // Cells: under the table.
    const cells = table('dataset,method,metric,value\nd1,LightGBM,accuracy,0.8\n');
    expect(cells.at(-1)).toEqual([said]);
  });

  it('reports a malformed file on one line with its line number', () => {
    const cases: [string, RegExp][] = [
      [
        'a,b\n1,2\n',
        /ref\.csv:1: unknown reference format; the header must have the columns dataset,method,metric,value/,
      ],
      ['dataset,method,metric,value\niris,NB,auprc,1\n', /ref\.csv:2: metric: unknown metric 'auprc'/],
      ['dataset,method,metric,value\niris,NB,rmse,x\n', /ref\.csv:2: value: expected a number, got 'x'/],
      [
        'metric,method_a,method_b,wins,draws,losses,significant\nrmse,a,b,1.5,0,0,\n',
        /ref\.csv:2: wins: expected a count, got '1\.5'/,
      ],
      [
        'metric,method_a,method_b,wins,draws,losses,significant\nrmse,a,b,1,0,0,maybe\n',
        /ref\.csv:2: significant: expected true\/false/,
      ],
    ];
    for (const [text, msg] of cases)
      expect(() => evaluateReference(ref(file(text)), [], [], DEFAULT_COMPARE)).toThrow(msg);
  });

  it('every published reference file under experiments/reference/ reads and renders beside results', async () => {
    const dir = join(ROOT, 'experiments', 'reference');
    // Cell, W/D/L and claims files (*-claims.csv: a paper's stated claims, evaluated in test/report/claims.test.ts).
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.csv'))
          .sort()
      : [];
    for (const f of files) {
      const r = evaluateReference(ref(join(dir, f)), [], [], DEFAULT_COMPARE);
      expect(r.claims.length, f).toBeGreaterThan(0);
      expect(r.kind === 'claims', f).toBe(f.endsWith('-claims.csv'));
      // Without results nothing can be checked: cells and W/D/L claims have no data, stated claims are not evaluable.
      expect(
        r.claims.every((c) => c.verdict === (r.kind === 'claims' ? 'not evaluable' : 'no data')),
        f,
      ).toBe(true);
    }
    // Rendered in a report whose methods carry the labels the files use (nb-hdp beats nb-m everywhere).
    const labels = ['nb-hdp', 'nb-m'];
    const rows = ['iris', 'zoo', 'labor', 'car', 'glass', 'wine'].flatMap((d) => [
      row(d, 'nb-hdp', 0.9, 0.2),
      row(d, 'nb-m', 0.8, 0.3),
    ]);
    const doc = await buildReport(reportInput(rows, labels, { reference: files.map((f) => ref(join(dir, f))) }));
    expect(doc.tables.filter((t) => t.id.startsWith('reference-')).map((t) => t.id)).toEqual(
      files.map((f) => `reference-${f.replace(/\.csv$/, '')}`),
    );
    for (const r of doc.references.filter((x) => x.kind === 'claims')) {
      // No method of this report carries the SubbKB labels: every claim says why it cannot be evaluated.
      expect(
        r.claims.every((c) => c.verdict === 'not evaluable' && /is not in this experiment/.test(c.reason)),
        r.ref.path,
      ).toBe(true);
    }
    const html = parseXml(renderHtml(doc));
    expect(html.name).toBe('html');
    if (files.includes('hdp-2018-table2.csv')) {
      const t2 = doc.references.find((r) => r.ref.path === 'hdp-2018-table2.csv')!;
      if (t2.kind !== 'wdl') throw new Error('table 2 is a W/D/L file');
      // NB, 0-1 loss, published 41–4–23 (sign test p = 0.0328: significant); ours 6–0–0 (p = 0.03125): reproduced.
      const nb = t2.claims.find((c) => c.methodA === 'nb-hdp' && c.metric === 'zero_one_loss')!;
      expect(nb.published).toMatchObject({
        wins: 41,
        draws: 4,
        losses: 23,
        significant: true,
        significanceGiven: false,
      });
      expect(nb.ours).toMatchObject({ wins: 6, draws: 0, losses: 0, significant: true });
      expect(nb.verdict).toBe('reproduced');
      // NB, RMSE, published 40–0–28 (p = 0.182): not significant, ours is: not reproduced.
      expect(t2.claims.find((c) => c.methodA === 'nb-hdp' && c.metric === 'rmse')!.verdict).toBe('not reproduced');
      expect(t2.claims.filter((c) => c.methodA !== 'nb-hdp').every((c) => c.verdict === 'no data')).toBe(true);
    }
  });
});
