/** The Friedman test and Iman–Davenport F per metric, one table. */
import type { Comparison } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { cell, fixed, formatP, type Table, type TableRow } from '../table.js';

function friedmanTable(c: Comparison): Table | null {
  const rows = c.metrics.flatMap((m): TableRow[] => {
    const f = m.friedman;
    if (!f) return [];
    const a = c.settings.alpha;
    return [
      {
        cells: [
          cell(m.metric.title),
          cell(String(f.nDatasets), { value: f.nDatasets }),
          cell(String(f.nMethods), { value: f.nMethods }),
          cell(fixed(f.chi2, 4), { value: f.chi2 }),
          cell(String(f.df), { value: f.df }),
          cell(formatP(f.p), { value: f.p, bold: f.p <= a }),
          cell(fixed(f.imanDavenport.F, 4), { value: f.imanDavenport.F }),
          cell(`${f.imanDavenport.df1}, ${f.imanDavenport.df2}`, {
            value: `${f.imanDavenport.df1};${f.imanDavenport.df2}`,
          }),
          cell(formatP(f.imanDavenport.p), { value: f.imanDavenport.p, bold: f.imanDavenport.p <= a }),
        ],
      },
    ];
  });
  if (rows.length === 0) return null;
  return {
    id: 'friedman',
    caption: `Friedman test (${c.settings.friedman.tieCorrection ? 'tie-corrected' : 'no tie correction'}) and Iman–Davenport F on the mean ranks; bold: p ≤ ${c.settings.alpha}.${undefinedF(c)}`,
    columns: [
      { header: 'metric', align: 'l' },
      { header: 'N', align: 'r' },
      { header: 'k', align: 'r' },
      { header: 'χ²', align: 'r' },
      { header: 'df', align: 'r' },
      { header: 'p', align: 'r' },
      { header: 'F (Iman–Davenport)', align: 'r' },
      { header: 'df', align: 'r' },
      { header: 'p (F)', align: 'r' },
    ],
    rows,
  };
}

/** Why an Iman–Davenport F is shown as '–' (undefined, not ∞). */
function undefinedF(c: Comparison): string {
  const why = c.metrics.flatMap((m) => {
    const r = m.friedman?.imanDavenport.undefinedReason;
    return r ? [`${m.metric.title}: ${r}`] : [];
  });
  return why.length ? ` Iman–Davenport F undefined (–) for ${why.join('; ')}.` : '';
}

export function friedmanSection(c: ReportContext): Section[] {
  const fr = friedmanTable(c.comparison);
  return fr ? [{ title: 'Friedman and Iman–Davenport tests', level: 3, blocks: c.addTable(fr) }] : [];
}
