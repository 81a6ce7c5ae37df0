/** Report section of the all-pairs post-hoc p-value matrices (García & Herrera 2008; scmamp). */
import { allPairsFromRanks, type AllPairsProcedure } from '../../stats/allpairs.js';
import type { Block, Section } from '../document.js';
import { pValueMatrixFigure } from '../stat-figures.js';
import { addedSettings } from '../../spec/report-sections.js';
import type { StatsSectionContext } from '../context.js';
import { cell, formatP, type Table } from '../table.js';

const PROCEDURE_TITLE: Record<AllPairsProcedure, string> = {
  nemenyi: 'Nemenyi',
  bonferroni: 'Bonferroni',
  holm: 'Holm',
  shaffer: 'Shaffer',
  'bergmann-hommel': 'Bergmann–Hommel',
};

export async function allPairsSections(ctx: StatsSectionContext): Promise<Section[]> {
  const s = ctx.comparison.settings;
  const added = addedSettings(s);
  const sections: Section[] = [];
  for (const m of ctx.comparison.metrics) {
    const k = m.methods.length;
    const N = m.datasets.length;
    if (k < 2 || N < 2) continue;
    const blocks: Block[] = [];
    let result;
    try {
      result = allPairsFromRanks(m.meanRanks, N, added.allPairs.procedures, {
        nemenyiDf: s.cd.df === 'scmamp' ? 'scmamp' : Infinity,
      });
    } catch (e) {
      sections.push({
        title: `${m.metric.title}: all-pairs post-hoc tests`,
        level: 3,
        blocks: [{ kind: 'p', text: e instanceof Error ? e.message : String(e) }],
      });
      continue;
    }
    for (const adj of result.adjusted) {
      const name = PROCEDURE_TITLE[adj.procedure];
      const table: Table = {
        id: ctx.tableId(`all-pairs-${adj.procedure}-${m.metric.key}`),
        caption: `${m.metric.title}: ${name}-adjusted p-values of every pair of methods (Friedman mean-rank z, SE = ${result.se.toFixed(4)}, N = ${N}, k = ${k}${adj.procedure === 'nemenyi' ? `, studentized range df = ${result.nemenyiDf === Infinity ? '∞' : String(result.nemenyiDf)}` : ''}); bold: p ≤ ${s.alpha}.`,
        columns: [
          { header: 'method (mean rank)', align: 'l' },
          ...m.methods.map((x) => ({ header: x, align: 'r' as const })),
        ],
        rows: m.methods.map((row, i) => ({
          cells: [
            cell(`${row} (${m.meanRanks[i].toFixed(2)})`, { value: row }),
            ...m.methods.map((_, j) =>
              i === j
                ? cell('–', { value: null })
                : cell(formatP(adj.p[i][j]), { value: adj.p[i][j], bold: adj.p[i][j] <= s.alpha }),
            ),
          ],
        })),
      };
      blocks.push(...ctx.addTable(table));
    }
    blocks.push(
      ctx.addFigure(
        await pValueMatrixFigure(
          ctx.figureId(`all-pairs-${m.metric.key}`),
          m.metric.title,
          m.methods,
          result.adjusted.map((a) => ({ title: PROCEDURE_TITLE[a.procedure], p: a.p })),
          s.alpha,
        ),
      ),
    );
    sections.push({ title: `${m.metric.title}: all-pairs post-hoc tests`, level: 3, blocks });
  }
  return sections;
}
