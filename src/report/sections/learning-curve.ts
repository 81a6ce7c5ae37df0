/** compare.learning_curve: the metric against the training size, across experiments in the same database. */
import type { ResultRow } from '../../store/db.js';
import type { CompareMetric } from '../../spec/report-sections.js';
import { fmean } from '../../stats/fsum.js';
import { metricDef } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Block, Section } from '../document.js';
import { learningCurveFigure, type CurvePoint } from '../figures.js';
import type { MetricDef } from '../summary.js';
import { cell, fixed } from '../table.js';
import { cellKey, splitCellKey } from '../../util/keys.js';
import { codeOrder } from '../../util/text.js';

/** Training sizes within this ratio of the smallest in a group are one learning-curve point (CV folds differ by a few rows). */
export const CURVE_MERGE = 1.05;

/**
 * Learning-curve points from result rows of one or more experiments: per dataset and method, the jobs
 * sorted by n_train and grouped while n_train ≤ CURVE_MERGE × the group's smallest; each point is the mean
 * n_train and the mean metric of its group.
 */
export function curvePoints(rows: readonly ResultRow[], metric: MetricDef): (CurvePoint & { runs: number })[] {
  const groups = new Map<string, { n: number; v: number }[]>();
  for (const r of rows) {
    const k = cellKey(r.dataset, r.method);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push({ n: Number(r.n_train), v: Number(r[metric.key]) });
  }
  const out: (CurvePoint & { runs: number })[] = [];
  for (const [k, g] of [...groups.entries()].sort(([a], [b]) => codeOrder(a, b))) {
    const [dataset, method] = splitCellKey(k);
    g.sort((a, b) => a.n - b.n);
    for (let i = 0; i < g.length; ) {
      let j = i;
      while (j < g.length && g[j].n <= g[i].n * CURVE_MERGE) j++;
      const part = g.slice(i, j);
      out.push({
        dataset,
        method,
        nTrain: fmean(part.map((x) => x.n)),
        value: fmean(part.map((x) => x.v)),
        runs: part.length,
      });
      i = j;
    }
  }
  return out;
}

/** compare.learning_curve: the metric against the training size, across experiments in the same database. */
export async function learningCurveSection(c: ReportContext): Promise<Section[]> {
  const { s, input } = c;
  if (!s.learningCurve || !input.curveRows) return [];
  const curveRows = input.curveRows;
  const keys: CompareMetric[] = s.learningCurve.metric ? [s.learningCurve.metric] : [...s.metrics];
  const b: Block[] = [];
  for (const key of keys) {
    const metric = metricDef(key);
    const points = curvePoints([...curveRows.values()].flat(), metric);
    if (points.length === 0) continue;
    b.push(
      ...c.addTable({
        id: c.tableId(`learning-curve-${key}`),
        caption: `${metric.title} (mean over the runs) against the number of training rows, per dataset and method, over experiment(s) ${[...curveRows.keys()].join(', ')}; training sizes within ${Math.round((CURVE_MERGE - 1) * 100)}% of each other form one point.`,
        columns: [
          { header: 'dataset', align: 'l' },
          { header: 'method', align: 'l' },
          { header: 'training rows', align: 'r' },
          { header: 'runs', align: 'r' },
          { header: metric.title, align: 'r' },
        ],
        rows: points.map((p) => ({
          cells: [
            cell(p.dataset),
            cell(p.method),
            cell(fixed(p.nTrain, 1), { value: p.nTrain }),
            cell(String(p.runs), { value: p.runs }),
            cell(fixed(p.value, metric.digits), { value: p.value }),
          ],
        })),
      }),
    );
    b.push(c.addFigure(await learningCurveFigure(c.figureId(`learning-curve-${key}`), metric.title, points)));
  }
  return b.length ? [{ title: 'Learning curves', level: 3, blocks: b }] : [];
}
