/**
 * What the section modules of the added statistics share (context, error capture, column specs); a module of
 * its own so that stats-sections.ts, which calls the sections, is not imported back by them.
 */
import type { ResultRow } from '../store/db.js';
import type { Comparison } from './compare.js';
import type { Block } from './document.js';
import type { Figure } from './figures.js';
import type { Table, TableColumn } from './table.js';

export interface StatsSectionContext {
  readonly comparison: Comparison;
  readonly rows: readonly ResultRow[];
  /** The experiment seed; the seeds of sampled statistics derive from it and from what they compare. */
  readonly seed: string;
  readonly tableId: (stem: string) => string;
  readonly figureId: (stem: string) => string;
  readonly addTable: (t: Table | null) => Block[];
  readonly addFigure: (f: Figure) => Block;
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
    return m ? { header: m[1]!, align: m[2] as TableColumn['align'] } : { header: spec, align: 'r' };
  });
}
