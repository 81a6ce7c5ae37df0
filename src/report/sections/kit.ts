/**
 * What the report's section modules (sections/*.ts) share: the names of the p-value adjustments, the W–D–L
 * text, the one-dataset rule, per-dataset means, error capture and column specs. It imports no section, so
 * the sections that share these need not import each other.
 */
import type { ResultRow } from '../../store/db.js';
import type { PAdjustMethod } from '../../stats/padjust.js';
import { fmean } from '../../stats/fsum.js';
import { foldValues } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { MetricDef } from '../summary.js';
import type { TableColumn } from '../table.js';

export const ADJUST_NAME: Record<PAdjustMethod, string> = {
  hommel: 'Hommel',
  holm: 'Holm',
  hochberg: 'Hochberg',
  bonferroni: 'Bonferroni',
  none: 'unadjusted',
};

export function wdlText(w: { wins: number; draws: number; losses: number }): string {
  return `${w.wins}–${w.draws}–${w.losses}`;
}

/**
 * With one dataset there is nothing to compare across datasets: a sign or Wilcoxon test of one pair has
 * p = 1 whatever the numbers, and a scatter plot one point. Those sections are left out (the caution above
 * says so and names the tests on the dataset's folds, which are valid).
 */
export function oneDataset(c: Pick<ReportContext, 'comparison'>): boolean {
  return c.comparison.metrics.every((m) => m.datasets.length < 2);
}

export function meanByDataset(
  rows: readonly ResultRow[],
  metric: MetricDef,
  digits: number | undefined,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [d, byMethod] of foldValues(rows, metric.key)) {
    const m = new Map<string, number>();
    for (const [k, v] of byMethod) {
      const mean = fmean(v);
      // A metric undefined on some fold has no mean (summary.ts hasValue): no scatter point, no win or loss.
      if (!Number.isFinite(mean)) continue;
      m.set(k, digits === undefined ? mean : Number(mean.toFixed(digits)));
    }
    out.set(d, m);
  }
  return out;
}

/** "a better" probability mass for a difference d = a − b: above the rope when higher is better. */
export function betterProbabilities(
  p: { below: number; rope: number; above: number },
  higherIsBetter: boolean,
): { a: number; rope: number; b: number } {
  return higherIsBetter ? { a: p.above, rope: p.rope, b: p.below } : { a: p.below, rope: p.rope, b: p.above };
}

/**
 * Runs one statistic; when its input is unusable (e.g. an infinite log loss on some fold) the error message
 * goes to `notes`, printed under the table, and the caller skips that row instead of losing the report.
 */
export function attempt<T>(notes: string[], where: string, f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    notes.push(`${where}: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}

/** Table columns written compactly: 'header' is right-aligned, 'header:l' left, 'header:c' centred. */
export function cols(...specs: string[]): TableColumn[] {
  return specs.map((spec) => {
    const m = /^(.*):([lrc])$/.exec(spec);
    return m ? { header: m[1], align: m[2] as TableColumn['align'] } : { header: spec, align: 'r' };
  });
}
