/**
 * The structure-diagnostics section (compare.diagnostics): per dataset × method means over folds of a key of
 * jobs.structure_info, with the average over datasets where every shown method has a value. Numbers are
 * hand-computed from the fixture below.
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { reportInput } from '../helpers/report.js';
import { diagnosticTable } from '../../src/report/diagnostics.js';
import { renderMarkdown } from '../../src/report/render.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';

const METHODS = ['NB', 'KB10', 'SubbKB10'];

function row(dataset: string, method: string, fold: number): ResultRow {
  return {
    experiment: 'x',
    job_key: `${dataset}/${method}/${fold}`,
    dataset,
    method,
    structure: 'nb',
    estimator: 'eap',
    repeat: 0,
    fold,
    accuracy: 0.8,
    zero_one_loss: 0.2,
    rmse: 0.3,
    log_loss: 0.5,
    n_train: 90,
    n_test: 10,
    n_arcs: 3,
    train_ms: 1,
    predict_ms: 1,
  } as ResultRow;
}

const rows: ResultRow[] = [];
for (const d of ['b-data', 'a-data']) for (const m of METHODS) for (const f of [0, 1]) rows.push(row(d, m, f));
// NB stores no meanShd; KB10 stores it on both datasets; SubbKB10 only on a-data (b-data's jobs lack it).
const info = new Map<string, Record<string, unknown>>([
  ['a-data/KB10/0', { meanShd: 4, classParents: 1 }],
  ['a-data/KB10/1', { meanShd: 6, classParents: 2 }],
  ['b-data/KB10/0', { meanShd: 1 }],
  ['b-data/KB10/1', { meanShd: 2 }],
  ['a-data/SubbKB10/0', { meanShd: 10 }],
  ['a-data/SubbKB10/1', { meanShd: 'n/a' }],
  ['a-data/NB/0', { arcs: 9 }],
]);

describe('structure diagnostics', () => {
  it('averages a key over folds per dataset and over complete datasets', () => {
    const t = diagnosticTable('d', 'meanShd', rows, info, METHODS)!;
    expect(t.columns.map((c) => c.header)).toEqual(['dataset', 'KB10', 'SubbKB10']);
    expect(t.rows.map((r) => r.cells.map((c) => c.text))).toEqual([
      ['a-data', '5.00', '10.00'],
      ['b-data', '1.50', '–'],
      // Only a-data has both methods.
      ['average (1)', '5.00', '10.00'],
    ]);
    expect(t.rows[1].cells[1].value).toBe(1.5);
    expect(t.caption).toContain('Table 7');
  });

  it('returns null for a key no job stores', () => {
    expect(diagnosticTable('d', 'apses', rows, info, METHODS)).toBeNull();
  });

  it('renders a section only when compare.diagnostics asks, and says when a key is absent', async () => {
    const base = reportInput(rows, METHODS, { structureInfo: info }, 'eap');
    const off = renderMarkdown(
      await buildReport({ ...base, compare: { ...DEFAULT_COMPARE, scatter: false, tests: [] } }),
    );
    expect(off).not.toContain('Structure diagnostics');
    const doc = await buildReport({
      ...base,
      compare: { ...DEFAULT_COMPARE, scatter: false, tests: [], diagnostics: ['classParents', 'apses'] },
    });
    const md = renderMarkdown(doc);
    expect(md).toContain('## Structure diagnostics');
    expect(doc.tables.find((t) => t.id === 'diagnostics-classParents')!.rows[0].cells.map((c) => c.text)).toEqual([
      'a-data',
      '1.50',
    ]);
    expect(md).toContain('No job of this experiment stores apses');
  });
});
