/** Win/draw/loss counts of the compared pairs with their sign tests, every metric in one table. */
import type { Comparison } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { oneDataset, wdlText } from './kit.js';
import { cell, formatP, type Table } from '../table.js';

/** Win/draw/loss with sign-test p-values, significant entries in bold (HDP paper Tables 2 and 3). */
function wdlTable(c: Comparison): Table | null {
  if (c.pairs.length === 0 || !c.settings.tests.includes('sign')) return null;
  const s = c.settings;
  const rows = c.pairs.map(([a, b], i) => ({
    cells: [
      cell(`${a} vs ${b}`),
      ...c.metrics.flatMap((m) => {
        const p = m.pairs[i];
        if (!p.wdl || !p.sign) return [cell('–', { value: null }), cell('–', { value: null })];
        return [
          cell(wdlText(p.wdl), { bold: p.sign.p <= s.alpha, value: wdlText(p.wdl) }),
          cell(formatP(p.sign.p), { value: p.sign.p }),
        ];
      }),
    ],
  }));
  return {
    id: 'wdl',
    caption: `Win–draw–loss of a against b over datasets (a draw: |a − b| ≤ ${s.sign.tolerance}${s.digits !== null ? ` after rounding to ${s.digits} decimals` : ''}) and the two-tailed binomial sign test (draws ${s.sign.draws === 'drop' ? 'dropped' : 'split'}); bold: p ≤ ${s.alpha}.`,
    columns: [
      { header: 'a vs b', align: 'l' },
      ...c.metrics.flatMap((m) => [
        { header: `${m.metric.title} W–D–L`, align: 'c' as const },
        { header: `${m.metric.title} p`, align: 'r' as const },
      ]),
    ],
    rows,
  };
}

export function wdlSection(c: ReportContext): Section[] {
  if (oneDataset(c)) return [];
  const wdl = wdlTable(c.comparison);
  return wdl ? [{ title: 'Win/draw/loss and sign tests', level: 3, blocks: c.addTable(wdl) }] : [];
}
