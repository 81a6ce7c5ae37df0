/** The jobs that failed, with their errors. */
import type { ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { cell } from '../table.js';

export function failedJobsSection(c: ReportContext): Section[] {
  const { failed } = c.input;
  if (!failed.length) return [];
  return [
    {
      title: 'Failed jobs',
      level: 2,
      blocks: c.addTable({
        id: c.tableId('failed-jobs'),
        caption: 'Jobs that failed; their folds are missing from the means above.',
        columns: [
          { header: 'dataset', align: 'l' },
          { header: 'method', align: 'l' },
          { header: 'repeat', align: 'r' },
          { header: 'fold', align: 'r' },
          { header: 'error', align: 'l', prose: true },
        ],
        rows: failed.map((f) => ({
          cells: [
            cell(f.dataset),
            cell(f.method),
            cell(String(f.repeat), { value: f.repeat }),
            cell(String(f.fold), { value: f.fold }),
            cell(f.error),
          ],
        })),
      }),
    },
  ];
}
