/** compare.scatter: per metric and compared pair, a scatter plot with one point per dataset. */
import type { ReportContext } from '../context.js';
import type { Block, Section } from '../document.js';
import { scatterFigure } from '../figures.js';
import { meanByDataset, oneDataset } from './kit.js';

/** compare.scatter: per metric and compared pair, one point per dataset. */
export async function scatterSection(c: ReportContext): Promise<Section[]> {
  const { comparison } = c;
  if (!c.s.scatter || !comparison.pairs.length || oneDataset(c)) return [];
  const b: Block[] = [];
  for (const m of comparison.metrics) {
    const means = meanByDataset(c.statRows, m.metric, undefined);
    for (const [a, bb] of comparison.pairs) {
      const pts = [...means.entries()].flatMap(([d, mm]) => {
        const va = mm.get(a);
        const vb = mm.get(bb);
        return va !== undefined && vb !== undefined ? [{ dataset: d, a: va, b: vb }] : [];
      });
      if (pts.length)
        b.push(
          c.addFigure(
            await scatterFigure(
              c.figureId(`scatter-${m.metric.key}-${a}-vs-${bb}`),
              a,
              bb,
              m.metric.title,
              m.metric.higherIsBetter,
              pts,
            ),
          ),
        );
    }
  }
  return b.length ? [{ title: 'Scatter plots', level: 3, blocks: b }] : [];
}
