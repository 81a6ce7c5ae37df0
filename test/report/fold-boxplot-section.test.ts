/**
 * The per-fold box plot section: drawn when some dataset and method has two folds or more, and replaced by a
 * sentence when every one has a single fold (a single train/test split), where each box would be one value.
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { renderMarkdown } from '../../src/report/render.js';
import type { ResultRow } from '../../src/store/db.js';
import { reportInput, resultRow } from '../helpers/report.js';
import { useTempCacheDir } from '../helpers/cache-dir.js';

const METHODS = ['a', 'b'];

function rows(folds: (dataset: string, method: string) => number): ResultRow[] {
  const out: ResultRow[] = [];
  for (const d of ['d1', 'd2'])
    for (const [j, m] of METHODS.entries())
      for (let f = 0; f < folds(d, m); f++) out.push(resultRow(d, m, f, 0.7 + j / 10 + f / 100, 0.3));
  return out;
}

describe('the per-fold box plot', () => {
  useTempCacheDir('bnclab-boxplot-section-');

  it('is drawn when some dataset and method has several folds, though the others have one', async () => {
    const doc = await buildReport(
      reportInput(
        rows((d, m) => (d === 'd2' && m === 'b' ? 2 : 1)),
        METHODS,
      ),
    );
    const fig = doc.figures.find((f) => f.id === 'folds-accuracy');
    expect(fig).toBeDefined();
    expect(renderMarkdown(doc)).toContain('figures/folds-accuracy.svg');
  });

  it('is not drawn with one fold for every dataset and method, and the section says why', async () => {
    const doc = await buildReport(
      reportInput(
        rows(() => 1),
        METHODS,
      ),
    );
    expect(doc.figures.map((f) => f.id)).not.toContain('folds-accuracy');
    const md = renderMarkdown(doc);
    expect(md).toContain('Per-fold accuracy by dataset');
    expect(md).toContain('One fold per dataset and method (a single train/test split), so no box plot of the folds');
    expect(md).not.toContain('folds-accuracy.svg');
  });
});
