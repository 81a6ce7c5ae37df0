/** Wilcoxon signed-rank tests of the compared pairs over datasets, one table per metric. */
import type { CompareSpec } from '../../spec/report-sections.js';
import type { MetricComparison } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { ADJUST_NAME, oneDataset, wdlText } from './kit.js';
import { cell, formatP, type Table } from '../table.js';

/** Pairwise Wilcoxon signed-rank tests over datasets (SubbKB Table 8). */
function wilcoxonTable(id: string, m: MetricComparison, s: CompareSpec): Table | null {
  const pairs = m.pairs.filter((p) => p.wilcoxon || p.error);
  if (pairs.length === 0 || !s.tests.includes('wilcoxon')) return null;
  const name = ADJUST_NAME[s.adjust];
  return {
    id,
    caption: `${m.metric.title}: Wilcoxon signed-rank tests on the per-dataset means (a − b); W–D–L counts a against b; p-values ${name === 'unadjusted' ? 'unadjusted' : m.pairs.length === 1 ? 'of the single pair (no adjustment needed)' : `${name}-adjusted over the ${m.pairs.length} pairs`}; bold: adjusted p ≤ ${s.alpha}.`,
    columns: [
      { header: 'a', align: 'l' },
      { header: 'b', align: 'l' },
      { header: 'N', align: 'r' },
      { header: 'W–D–L', align: 'c' },
      { header: 'V (R⁺)', align: 'r' },
      { header: 'R⁻', align: 'r' },
      { header: 'test', align: 'l' },
      { header: 'p', align: 'r' },
      { header: `p (${name})`, align: 'r' },
    ],
    rows: pairs.map((p) => {
      const w = p.wilcoxon;
      return {
        cells: [
          cell(p.a),
          cell(p.b),
          cell(String(p.datasets.length), { value: p.datasets.length }),
          cell(p.wdl ? wdlText(p.wdl) : '–'),
          cell(w ? String(w.statistic) : '–', { value: w?.statistic ?? null }),
          cell(w ? String(w.rMinus) : '–', { value: w?.rMinus ?? null }),
          cell(w ? (w.method === 'exact' ? 'exact' : w.settings.correct ? 'normal, cc' : 'normal') : (p.error ?? '–')),
          cell(formatP(w?.p), { value: w?.p ?? null }),
          cell(formatP(p.wilcoxonAdjusted), { value: p.wilcoxonAdjusted, bold: p.wilcoxonAdjusted <= s.alpha }),
        ],
      };
    }),
  };
}

export function wilcoxonSection(c: ReportContext): Section[] {
  if (oneDataset(c)) return [];
  const wil = c.comparison.metrics.flatMap((m) =>
    c.addTable(wilcoxonTable(c.tableId(`wilcoxon-${m.metric.key}`), m, c.s)),
  );
  return wil.length ? [{ title: 'Wilcoxon signed-rank tests', level: 3, blocks: wil }] : [];
}
