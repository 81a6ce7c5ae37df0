/**
 * A report shows only what is valid: with one dataset no sign/Wilcoxon rows at p = 1 and no one-point
 * scatter plots (a caution says why), and a method whose jobs all failed is named under every metric table.
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { renderMarkdown } from '../../src/report/render.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import { reportInput, resultRow } from '../helpers/report.js';

const METHODS = ['a', 'b', 'c'];
const full = { ...DEFAULT_COMPARE, scatter: true };

function rows(datasets: string[], methods = METHODS) {
  return datasets.flatMap((d, i) =>
    methods.flatMap((m, j) =>
      [0, 1, 2].map((f) => resultRow(d, m, f, 0.7 + 0.05 * j + 0.01 * i + 0.001 * f, 0.4 - 0.03 * j)),
    ),
  );
}

describe('what a report shows', () => {
  it('one dataset: no win/draw/loss, Wilcoxon or scatter sections, and a caution naming the per-fold tests', async () => {
    const doc = await buildReport(reportInput(rows(['iris']), METHODS, { compare: full }));
    const md = renderMarkdown(doc);
    expect(md).not.toContain('Win/draw/loss and sign tests');
    expect(md).not.toContain('Wilcoxon signed-rank tests');
    expect(md).not.toContain('Scatter plots');
    expect(doc.figures.filter((f) => f.id.includes('scatter'))).toEqual([]);
    expect(md).toContain(
      'Accuracy: one dataset (N = 1). Tests across datasets (Friedman, post-hoc, critical difference, sign, Wilcoxon) cannot tell methods apart',
    );
    expect(md).toContain('the corrected resampled t-test (compare.tests: resampled-t)');
  });

  it('two datasets keep those sections (the caution for few datasets is the N < 5 one)', async () => {
    const doc = await buildReport(reportInput(rows(['iris', 'zoo']), METHODS, { compare: full }));
    const md = renderMarkdown(doc);
    expect(md).toContain('Win/draw/loss and sign tests');
    expect(md).toContain('Wilcoxon signed-rank tests');
    expect(md).toContain('Scatter plots');
    expect(md).toContain('only N = 2 datasets');
    expect(md).not.toContain('one dataset (N = 1)');
  });

  it('a method whose jobs all failed is named under every metric table with its failures', async () => {
    const failed = ['iris', 'zoo'].flatMap((d) =>
      [0, 1, 2].map((fold) => ({ dataset: d, method: 'c', repeat: 0, fold, error: 'boom' })),
    );
    const doc = await buildReport(
      reportInput(rows(['iris', 'zoo'], ['a', 'b']), METHODS, {
        failed,
        expectedJobs: 18,
        compare: { ...DEFAULT_COMPARE, scatter: false, tests: [] },
      }),
    );
    const md = renderMarkdown(doc);
    const note =
      'Not in the table: 1 method of the spec with no finished fold on any dataset: c (6 jobs failed; see the failed jobs table).';
    const tables = doc.tables.filter((t) => ['accuracy', 'rmse'].some((k) => t.id.endsWith(k)));
    expect(tables.length).toBeGreaterThan(0);
    for (const t of tables) expect(t.notes ?? []).toContain(note);
    expect(md).toContain(note);
    expect(md).toContain('jobs: 12 done, 6 failed');
  });
});
