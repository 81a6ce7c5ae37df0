/**
 * The report sections of the statistics a spec turns on beyond the default tests (compare.tests):
 * all-pairs post-hoc matrices, per-dataset tests on the folds, Bayesian tests and effect sizes. Each family
 * has its own module; build.ts calls {@link extraStatisticsSections} once.
 */
import type { ResultRow } from '../store/db.js';
import { allPairsSections } from './allpairs-section.js';
import { bayesianSections } from './bayesian-section.js';
import type { Block, Section } from './build.js';
import type { Comparison } from './compare.js';
import { effectSizeSections } from './effect-section.js';
import { addedSettings } from './spec.js';
import type { Figure } from './figures.js';
import { singleDatasetSections } from './single-dataset.js';
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
export function betterProbabilities(p: { below: number; rope: number; above: number }, higherIsBetter: boolean): { a: number; rope: number; b: number } {
  return higherIsBetter ? { a: p.above, rope: p.rope, b: p.below } : { a: p.below, rope: p.rope, b: p.above };
}

export async function extraStatisticsSections(ctx: StatsSectionContext): Promise<Section[]> {
  const tests = ctx.comparison.settings.tests;
  const out: Section[] = [];
  if (tests.includes('all-pairs')) out.push(...(await allPairsSections(ctx)));
  if (tests.includes('effect-size')) out.push(...effectSizeSections(ctx));
  if (tests.includes('resampled-t')) out.push(...singleDatasetSections(ctx));
  if (tests.includes('bayesian')) out.push(...(await bayesianSections(ctx)));
  return out;
}

/** The settings lines of the added tests that are turned on, as the report prints them. */
export function extraStatisticsSettings(s: Comparison['settings']): string[] {
  const added = addedSettings(s);
  const out: string[] = [];
  if (s.tests.includes('all-pairs')) {
    out.push(
      `all pairs: Friedman mean-rank z for every pair, adjusted by ${added.allPairs.procedures.join(', ')} (García & Herrera 2008; Nemenyi as the studentized range with df = ${s.cd.df === 'scmamp' ? 'k(N − 1)' : '∞'}; Bergmann–Hommel exact, k ≤ 9)`,
    );
  }
  if (s.tests.includes('effect-size')) {
    out.push(`effect sizes: Cliff's δ, Akinshin's γ; mean difference with a ${added.effectSize.level * 100}% percentile bootstrap CI, ${added.effectSize.bootstrap} resamples seeded from (experiment seed, 'effect-size-bootstrap', metric, a, b)`);
  }
  if (s.tests.includes('resampled-t')) {
    out.push(`per dataset: corrected resampled t-test (Nadeau & Bengio 2003, Weka's Experimenter) at α = ${s.alpha} against the control, n_test/n_train from the stored folds; Dietterich's 5×2cv t and Alpaydin's F when a dataset has 5 repeats of 2 folds`);
  }
  if (s.tests.includes('bayesian')) {
    out.push(
      `Bayesian: rope ±${added.bayesian.rope}; signed-rank test with a Dirichlet-process prior of strength ${added.bayesian.prior} at 0, ${added.bayesian.samples} posterior samples seeded from (experiment seed, 'bayesian-signed-rank', metric, a, b); correlated t-test with ρ = n_test/(n_test + n_train), exact; decisions at probability ≥ ${1 - s.alpha}`,
    );
  }
  return out;
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
