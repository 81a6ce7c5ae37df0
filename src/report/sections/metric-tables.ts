/**
 * The results tables, one per metric with data: mean ± sd per dataset × method, the best in bold, averages
 * and average ranks, with the marks and notes of partial cells and undefined metrics.
 */
import type { CompareSpec } from '../../spec/report-sections.js';
import type { FailedJob, ReportContext } from '../context.js';
import type { Section } from '../document.js';
import { isPartial, type MetricDef, type PlannedFolds, type SummaryTable } from '../summary.js';
import { cell, fixed, type Table, type TableRow } from '../table.js';
import { cellKey } from '../../util/keys.js';

function displayDigits(metric: MetricDef, s: CompareSpec): number {
  return s.digits !== null ? Math.min(metric.digits, s.digits) : metric.digits;
}

/** The footnote marks of the per-dataset tables: fewer folds than planned, and a metric undefined on a fold. */
export const PARTIAL_MARK = '†';
export const UNDEFINED_MARK = '‡';

/**
 * Per-dataset table with the best value per row in bold, an average row and average ranks (SubbKB Table 3).
 * A cell over fewer folds than planned shows its mean ± sd with PARTIAL_MARK (no finished fold: '–' with the
 * mark); a cell whose metric is undefined on some fold shows '–' with UNDEFINED_MARK (an empty CSV field).
 * Neither counts towards the best value, the averages or the ranks, and a note under the table says why.
 */
function metricTable(
  id: string,
  t: SummaryTable,
  s: CompareSpec,
  ranks: readonly number[],
  planned: PlannedFolds | undefined,
  planDatasets: readonly string[] = [],
  planMethods: readonly string[] = [],
  failed: readonly FailedJob[] = [],
): Table {
  const digits = displayDigits(t.metric, s);
  const partial: string[] = [];
  const undefinedOn: string[] = [];
  const rows: TableRow[] = t.datasets.map((d, i) => {
    const row = t.cells[i];
    const counts = (c: (typeof row)[number]): boolean => c !== undefined && Number.isFinite(c.mean) && !isPartial(c);
    const shown = row.map((c) => (counts(c) ? Number(c!.mean.toFixed(digits)) : undefined));
    const defined = shown.filter((v): v is number => v !== undefined);
    const best =
      defined.length >= 2 ? (t.metric.higherIsBetter ? Math.max(...defined) : Math.min(...defined)) : undefined;
    return {
      cells: [
        cell(d),
        ...row.map((c, j) => {
          const m = t.methods[j];
          const plan = planned?.get(cellKey(d, m));
          if (!c) {
            if (plan === undefined) return cell('–', { value: null });
            partial.push(`${m} on ${d}: 0 of ${plan} folds`);
            return cell(`–${PARTIAL_MARK}`, { value: null });
          }
          const part = isPartial(c);
          if (part) partial.push(`${m} on ${d}: ${c.n} of ${c.planned} folds`);
          const mark = part ? PARTIAL_MARK : '';
          if (!Number.isFinite(c.mean)) {
            undefinedOn.push(`${m} on ${d} (${c.undefinedFolds ?? '?'} of ${c.n} folds)`);
            return cell(`–${UNDEFINED_MARK}${mark}`, { value: null });
          }
          return cell(`${c.mean.toFixed(digits)} ± ${c.sd.toFixed(digits)}${mark}`, {
            bold: shown[j] !== undefined && shown[j] === best,
            value: c.mean,
          });
        }),
      ],
    };
  });
  const notes: string[] = [];
  if (partial.length)
    notes.push(
      `${PARTIAL_MARK} Fewer finished folds than the plan has (jobs failed or not run yet): the mean is over other test rows than the other methods', so this dataset is left out of the average, the ranks and every test for ${t.metric.title}: ${partial.join('; ')}.`,
    );
  if (undefinedOn.length)
    notes.push(
      `${UNDEFINED_MARK} ${t.metric.title} is undefined on some fold (e.g. an AUC on a test fold with one class), so there is no mean and this dataset is left out of the average, the ranks and every test for ${t.metric.title}: ${undefinedOn.join('; ')}.`,
    );
  const absent = planDatasets.filter((d) => !t.datasets.includes(d));
  if (absent.length)
    notes.push(
      `Not in the table: ${absent.length} dataset${absent.length > 1 ? 's' : ''} of the spec with no finished fold of any method (jobs failed or not run yet): ${absent.join(', ')}.`,
    );
  // A method with no finished fold anywhere (every job failed) has no column: say so, with its failures.
  const gone = planMethods.filter((m) => !t.methods.includes(m));
  if (gone.length) {
    const failedOf = (m: string): number => failed.filter((f) => f.method === m).length;
    notes.push(
      `Not in the table: ${gone.length} method${gone.length > 1 ? 's' : ''} of the spec with no finished fold on any dataset: ` +
        gone
          .map((m) => `${m} (${failedOf(m) ? `${failedOf(m)} jobs failed; see the failed jobs table` : 'not run yet'})`)
          .join('; ') +
        '.',
    );
  }
  rows.push({
    ruleAbove: true,
    summary: true,
    cells: [
      cell(`average (${t.completeDatasets})`, { italic: true }),
      ...t.average.map((a) => cell(fixed(a, digits), { value: a })),
    ],
  });
  const bestRank = Math.min(...ranks.filter((r) => Number.isFinite(r)));
  rows.push({
    summary: true,
    cells: [
      cell('average rank', { italic: true }),
      ...ranks.map((r) => cell(fixed(r, 2), { value: r, bold: r === bestRank && t.methods.length > 1 })),
    ],
  });
  return {
    id,
    caption: `${t.metric.title} (${t.metric.higherIsBetter ? 'higher' : 'lower'} is better): mean ± standard deviation over folds; the best mean per dataset in bold. Averages and ranks over the ${t.completeDatasets} datasets on which every method has results.`,
    columns: [{ header: 'dataset', align: 'l' }, ...t.methods.map((m) => ({ header: m, align: 'r' as const }))],
    rows,
    ...(notes.length ? { notes } : {}),
  };
}

/** One results table per metric with data (mean ± sd per dataset × method, averages, ranks). */
export function metricSections(c: ReportContext): Section[] {
  return c.summaries
    .filter((t) => t.datasets.length > 0)
    .map((t) => ({
      title: `${t.metric.title} (${t.metric.higherIsBetter ? 'higher' : 'lower'} is better)`,
      level: 2,
      blocks: c.addTable(
        metricTable(
          c.tableId(t.metric.key),
          t,
          c.s,
          t.ranks,
          c.input.planned,
          c.input.datasets,
          c.input.methods.map((m) => m.label),
          c.input.failed,
        ),
      ),
    }));
}
