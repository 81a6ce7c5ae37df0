/** Box plots of the per-fold values of the first compared metric, one panel per dataset. */
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { foldBoxplotFigure } from '../figures.js';

/** Box plots of the per-fold values of the first compared metric, one panel per dataset. */
export async function foldBoxplotSection(c: ReportContext): Promise<Section[]> {
  const boxMetric = c.comparison.metrics[0];
  if (!boxMetric) return [];
  const values = c.input.rows.flatMap((r) => {
    const v = r[boxMetric.metric.key];
    return v === null || v === undefined ? [] : [{ dataset: r.dataset, method: r.method, value: Number(v) }];
  });
  if (!values.length) return [];
  const f = await foldBoxplotFigure(
    c.figureId(`folds-${boxMetric.metric.key}`),
    boxMetric.metric.title,
    c.labels,
    values,
  );
  return [
    {
      title: `Per-fold ${boxMetric.metric.title.toLowerCase()} by dataset`,
      level: 3,
      blocks: [c.addFigure(f)],
    },
  ];
}
