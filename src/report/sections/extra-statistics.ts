/**
 * The report sections of the statistics a spec turns on beyond the default tests (compare.tests):
 * all-pairs post-hoc matrices, per-dataset tests on the folds, Bayesian tests and effect sizes. Each family
 * has its own module; build.ts lists {@link extraStatisticsSections} among the statistics.
 */
import { allPairsSections } from './all-pairs.js';
import { bayesianSections } from './bayesian.js';
import type { Section } from '../document.js';
import type { Comparison } from '../compare.js';
import { effectSizeSections } from './effect-size.js';
import { addedSettings } from '../../spec/report-sections.js';
import { singleDatasetSections } from './single-dataset.js';
import type { StatsSectionContext } from '../context.js';

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
    out.push(
      `effect sizes: Cliff's δ, Akinshin's γ; mean difference with a ${added.effectSize.level * 100}% percentile bootstrap CI, ${added.effectSize.bootstrap} resamples seeded from (experiment seed, 'effect-size-bootstrap', metric, a, b)`,
    );
  }
  if (s.tests.includes('resampled-t')) {
    out.push(
      `per dataset: corrected resampled t-test (Nadeau & Bengio 2003, Weka's Experimenter) at α = ${s.alpha} against the control, n_test/n_train from the stored folds; Dietterich's 5×2cv t and Alpaydin's F when a dataset has 5 repeats of 2 folds`,
    );
  }
  if (s.tests.includes('bayesian')) {
    out.push(
      `Bayesian: rope ±${added.bayesian.rope}; signed-rank test with a Dirichlet-process prior of strength ${added.bayesian.prior} at 0, ${added.bayesian.samples} posterior samples seeded from (experiment seed, 'bayesian-signed-rank', metric, a, b); correlated t-test with ρ = n_test/(n_test + n_train), exact; decisions at probability ≥ ${1 - s.alpha}`,
    );
  }
  return out;
}
