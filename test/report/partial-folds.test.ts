/**
 * The report says when a dataset × method has fewer finished folds than the plan (jobs failed or not run yet)
 * and never compares such a mean with complete ones; a metric undefined on a fold shows as '–' with a footnote
 * (an empty CSV field), never "NaN ± NaN"; and the per-dataset tables list datasets in the spec's order while
 * every statistic stays what it was in name order.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildReport, PARTIAL_MARK, UNDEFINED_MARK, type ReportDoc } from '../../src/report/build.js';
import { renderLongCsv } from '../../src/report/index.js';
import { renderHtml, renderMarkdown } from '../../src/report/render.js';
import { tableToCsv, tableToLatex, type Table } from '../../src/report/table.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';
import { reportInput, UNFINISHED_RUN, unfinishedRunPlan, unfinishedRunRows } from '../helpers/report.js';

const METHODS = [...UNFINISHED_RUN.methods];
const DATASETS = [...UNFINISHED_RUN.datasets];
/** The spec lists the datasets in this order (not name order). */
const SPEC_ORDER = ['d5', 'd1', 'd4', 'd2', 'd3'];

/**
 * Accuracy of method j on dataset i, fold f (test/helpers/report.ts UNFINISHED_RUN): b on d2 lost a fold (2 of 3),
 * b on d4 has no finished fold (0 of 3), b is the best method on every dataset; and c's AUC is undefined on d3's
 * first fold.
 */
function rows(): ResultRow[] {
  return unfinishedRunRows((dataset, method, fold, acc) => ({
    auc: dataset === 'd3' && method === 'c' && fold === 0 ? Number.NaN : acc,
  }));
}

const planned = unfinishedRunPlan();

async function report(withPlan: boolean): Promise<ReportDoc> {
  return buildReport(
    reportInput(rows(), METHODS, {
      ...(withPlan ? { planned, datasets: SPEC_ORDER } : {}),
      compare: { ...DEFAULT_COMPARE, metrics: ['accuracy', 'auc'], tests: ['friedman', 'posthoc', 'wilcoxon', 'sign'] },
    }),
  );
}

const table = (doc: ReportDoc, id: string): Table => doc.tables.find((t) => t.id === id)!;
const cellText = (t: Table, dataset: string, method: string): string => {
  const j = t.columns.findIndex((c) => c.header === method);
  return t.rows.find((r) => r.cells[0].text === dataset)!.cells[j].text;
};

describe('cells with fewer folds than planned', () => {
  it('are marked, with "n of m folds" under the table, and never bold', async () => {
    const doc = await report(true);
    const t = table(doc, 'accuracy');
    expect(cellText(t, 'd2', 'b')).toMatch(new RegExp(`^0\\.\\d{4} ± 0\\.\\d{4}${PARTIAL_MARK}$`));
    expect(cellText(t, 'd4', 'b')).toBe(`–${PARTIAL_MARK}`);
    const d2 = t.rows.find((r) => r.cells[0].text === 'd2')!;
    expect(d2.cells[2].bold).toBeFalsy(); // b has the highest mean on d2, over 2 folds of 3
    expect(d2.cells[3].bold).toBe(true); // c: the best of the complete cells
    expect(t.notes!.join('\n')).toContain('b on d4: 0 of 3 folds; b on d2: 2 of 3 folds');
    expect(renderMarkdown(doc)).toContain(`> ${PARTIAL_MARK} Fewer finished folds than the plan has`);
  });

  it('leave their dataset out of averages, ranks and every test, with a stated reason', async () => {
    const doc = await report(true);
    const acc = doc.comparison.metrics[0];
    expect(acc.datasets).toEqual(['d1', 'd3', 'd5']);
    expect(acc.friedman!.nDatasets).toBe(3);
    expect(acc.notes.join('\n')).toMatch(/fewer finished folds than the plan .*b on d2 \(2 of 3 folds\)/);
    // Pairs with b leave out d2 (partial) and d4 (none); a against c keeps every dataset.
    for (const p of acc.pairs) {
      if (p.a === 'b' || p.b === 'b') expect(p.datasets).toEqual(['d1', 'd3', 'd5']);
      else expect(p.datasets).toEqual(DATASETS);
    }
    expect(table(doc, 'accuracy').rows.find((r) => r.summary)!.cells[0].text).toBe('average (3)');
    // Without a plan nothing is known to be partial: b on d2 counts (its 2 folds), as before.
    const old = await report(false);
    expect(old.comparison.metrics[0].datasets).toEqual(['d1', 'd2', 'd3', 'd5']);
  });
});

describe('claims of a reference file', () => {
  it('see no value for a method on a dataset where it has fewer folds than planned', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bnclab-partial-')), 'claims.csv');
    writeFileSync(
      file,
      'id,kind,metric,method_a,relation,method_b,dataset,value,source,note\n' +
        'p1,cell,accuracy,b,,,d2,0.81,,\n' +
        'p2,cell,accuracy,a,,,d2,0.61,,\n',
    );
    const reference = [
      { file, path: 'claims.csv', title: null, methods: {}, datasets: {}, substitutes: {}, scale: 1, tolerance: 0.01 },
    ];
    const doc = await buildReport(reportInput(rows(), METHODS, { planned, datasets: SPEC_ORDER, reference }));
    const claims = doc.references[0];
    if (claims.kind !== 'claims') throw new Error(`expected claims, got ${claims.kind}`);
    const byId = new Map(claims.claims.map((c) => [c.id, c]));
    expect(byId.get('p1')!.verdict).toBe('not evaluable');
    expect(byId.get('p1')!.reason).toContain('b has no');
    expect(byId.get('p2')!.verdict).not.toBe('not evaluable');
    // Without the plan the claim reads b's 2 folds.
    const old = await buildReport(reportInput(rows(), METHODS, { reference }));
    const oldClaims = old.references[0];
    if (oldClaims.kind !== 'claims') throw new Error('expected claims');
    expect(oldClaims.claims[0].verdict).not.toBe('not evaluable');
  });
});

describe('a metric undefined on a fold', () => {
  it("shows '–' with a footnote in Markdown, HTML and LaTeX, and an empty CSV field; never NaN", async () => {
    const doc = await report(true);
    const t = table(doc, 'auc');
    expect(cellText(t, 'd3', 'c')).toBe(`–${UNDEFINED_MARK}`);
    expect(t.notes!.join('\n')).toContain(`${UNDEFINED_MARK} AUC (Hand & Till) is undefined on some fold`);
    expect(t.notes!.join('\n')).toContain('c on d3 (1 of 3 folds)');
    const md = renderMarkdown(doc);
    const html = renderHtml(doc);
    const tex = tableToLatex(t);
    const csv = tableToCsv(t);
    expect(md).toContain(`–${UNDEFINED_MARK}`);
    expect(html).toContain(`–${UNDEFINED_MARK}`);
    expect(tex).toContain('--\\textdaggerdbl{}');
    expect(
      csv
        .split('\n')
        .find((l) => l.startsWith('d3,'))!
        .split(',')[3],
    ).toBe('');
    const long = renderLongCsv(doc.summaries);
    expect(long).toContain('\nauc,d3,c,,,3,3\n');
    for (const text of [md, html, tex, csv, long]) expect(text.match(/.{80}NaN.{40}/g) ?? []).toEqual([]);
  });
});

describe('dataset order', () => {
  it("lists datasets in the spec's order in the tables and report.csv; the statistics are those of name order", async () => {
    const doc = await report(true);
    expect(
      table(doc, 'accuracy')
        .rows.filter((r) => !r.summary)
        .map((r) => r.cells[0].text),
    ).toEqual(SPEC_ORDER);
    expect(
      renderLongCsv(doc.summaries)
        .split('\n')
        .filter((l) => l.startsWith('accuracy,') && l.includes(',a,'))
        .map((l) => l.split(',')[1]),
    ).toEqual(SPEC_ORDER);
    const byName = await buildReport(
      reportInput(rows(), METHODS, {
        planned,
        compare: {
          ...DEFAULT_COMPARE,
          metrics: ['accuracy', 'auc'],
          tests: ['friedman', 'posthoc', 'wilcoxon', 'sign'],
        },
      }),
    );
    expect(
      table(byName, 'accuracy')
        .rows.filter((r) => !r.summary)
        .map((r) => r.cells[0].text),
    ).toEqual(DATASETS);
    expect(doc.comparison).toEqual(byName.comparison);
    expect(doc.summaries.map((s) => [s.average, s.ranks])).toEqual(byName.summaries.map((s) => [s.average, s.ranks]));
  });
});
