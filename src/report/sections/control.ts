/** Per metric, comparisons with the control: the mean-rank post-hoc table and the critical-difference diagram. */
import type { CompareSpec } from '../../spec/report-sections.js';
import { posthocCautions } from '../cautions.js';
import { cliques, type MetricComparison } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Block, Section } from '../document.js';
import { cdFigure } from '../figures.js';
import { ADJUST_NAME } from './kit.js';
import { cell, fixed, formatP, type Table, type TableRow } from '../table.js';

/** Mean-rank post-hoc p-values against the control (SubbKB Table 4). */
function posthocTable(id: string, m: MetricComparison, s: CompareSpec): Table | null {
  const ph = m.posthoc;
  if (!ph) return null;
  const name = ADJUST_NAME[s.adjust];
  const rows: TableRow[] = [
    {
      cells: [
        cell(`${m.methods[ph.control]} (control)`, { value: m.methods[ph.control] }),
        cell(fixed(ph.controlMeanRank, 3), { value: ph.controlMeanRank }),
        cell('', { value: null }),
        cell('', { value: null }),
        cell('', { value: null }),
      ],
    },
    ...ph.comparisons.map((c) => ({
      cells: [
        cell(m.methods[c.method]),
        cell(fixed(c.meanRank, 3), { value: c.meanRank }),
        cell(fixed(c.z, 4), { value: c.z }),
        cell(formatP(c.p), { value: c.p }),
        cell(formatP(c.pAdjusted), { value: c.pAdjusted, bold: c.pAdjusted <= s.alpha }),
      ],
    })),
  ];
  return {
    id,
    caption: `${m.metric.title}: Friedman mean-rank post-hoc tests of each method against ${m.methods[ph.control]} over ${ph.nDatasets} datasets (k = ${ph.nMethods}, SE = ${ph.se.toFixed(4)}); p-values ${name === 'unadjusted' ? 'unadjusted' : `adjusted by ${name}'s procedure`}; bold: adjusted p ≤ ${s.alpha}.`,
    columns: [
      { header: 'method', align: 'l' },
      { header: 'mean rank', align: 'r' },
      { header: 'z', align: 'r' },
      { header: 'p', align: 'r' },
      { header: `p (${name})`, align: 'r' },
    ],
    rows,
  };
}

/** Per metric: the post-hoc table against the control and the critical-difference diagram. */
export async function controlSections(c: ReportContext): Promise<Section[]> {
  const { s, comparison } = c;
  const sections: Section[] = [];
  for (const m of comparison.metrics) {
    const b: Block[] = [];
    if (s.tests.includes('posthoc')) b.push(...c.addTable(posthocTable(c.tableId(`posthoc-${m.metric.key}`), m, s)));
    if (m.cd && s.tests.includes('cd')) {
      const procedure = m.cd.procedure === 'nemenyi' ? `Nemenyi, α = ${s.alpha}` : `Bonferroni–Dunn, α = ${s.alpha}`;
      // Bonferroni–Dunn compares with a control only: draw the CD from the control, no group bars.
      const groups = m.cd.procedure === 'nemenyi' ? cliques(m.meanRanks, m.cd.cd) : [];
      b.push(
        c.addFigure(
          await cdFigure(
            c.figureId(`cd-${m.metric.key}`),
            m.metric.title,
            m.methods,
            m.meanRanks,
            m.cd.cd,
            groups,
            procedure,
          ),
        ),
      );
    }
    const disagree = posthocCautions(m, comparison);
    if (disagree.length) b.push({ kind: 'list', items: disagree });
    if (b.length) sections.push({ title: `${m.metric.title}: comparisons with the control`, level: 3, blocks: b });
  }
  return sections;
}
