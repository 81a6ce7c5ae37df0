/** Box plots of the per-fold values of the first compared metric, one panel per dataset. */
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { foldBoxplotFigure, someBoxOfSeveralFolds } from '../figures.js';

/** Box plots of the per-fold values of the first compared metric, one panel per dataset. */
export async function foldBoxplotSection(c: ReportContext): Promise<Section[]> {
  const boxMetric = c.comparison.metrics[0];
  if (!boxMetric) return [];
  const values = c.input.rows.flatMap((r) => {
    const v = r[boxMetric.metric.key];
    return v === null || v === undefined ? [] : [{ dataset: r.dataset, method: r.method, value: Number(v) }];
  });
  if (!values.length) return [];
  const title = `Per-fold ${boxMetric.metric.title.toLowerCase()} by dataset`;
  // With one fold per dataset and method each box would be one value, the mean the tables give.
  if (!someBoxOfSeveralFolds(values)) {
    const text =
      'One fold per dataset and method (a single train/test split), so no box plot of the folds: each box would be one value, the mean in the tables.';
    return [{ title, level: 3, blocks: [{ kind: 'p', text }] }];
  }
  const f = await foldBoxplotFigure(
    c.figureId(`folds-${boxMetric.metric.key}`),
    boxMetric.metric.title,
    c.labels,
    values,
  );
  return [
    {
      title,
      level: 3,
      blocks: [c.addFigure(f)],
    },
  ];
}
