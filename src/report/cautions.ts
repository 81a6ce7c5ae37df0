/**
 * Cautions printed above the statistical comparisons (as autorank warns): when there are too few datasets
 * for a test's approximation, which test is valid instead, and why the CD diagram and the post-hoc table on
 * the same page can disagree. Text only; no number of the comparisons changes.
 */
import { cliques, type Comparison, type MetricComparison } from './compare.js';
import { exactFriedman } from '../stats/friedman-exact.js';
import { addedSettings } from '../spec/report-sections.js';

/** Below this many datasets autorank refuses to run (and Demšar's rule of thumb for χ² is N > 10). */
const FEW_DATASETS = 5;
const CHI2_RULE_N = 10;
const CHI2_RULE_K = 5;

/** Smallest two-sided p an exact Wilcoxon signed-rank or sign test can reach with n datasets: 2 / 2^n. */
export function smallestExactP(n: number): number {
  return Math.min(1, 2 / 2 ** n);
}

/** Fewest datasets with which an exact two-sided Wilcoxon or sign test can reach p ≤ alpha. */
export function datasetsNeeded(alpha: number): number {
  let n = 1;
  while (smallestExactP(n) > alpha) n++;
  return n;
}

/**
 * The exact Friedman p-value as a sentence, when the per-dataset values have no ties (the exact null
 * distribution is that of untied rankings) and the enumeration is small enough; otherwise why not.
 */
function exactFriedmanText(m: MetricComparison): string {
  const N = m.datasets.length;
  const tied = m.values.some((row) => new Set(row).size < row.length);
  if (tied)
    return 'The exact permutation p-value of the Friedman statistic is not computed because some dataset ties two methods.';
  const sums = m.meanRanks.map((r) => Math.round(r * N));
  const r = exactFriedman(sums, N);
  if (!r) return '';
  const approx = m.friedman ? `, against ${m.friedman.p.toPrecision(3)} from the χ² approximation` : '';
  return `The exact permutation p-value of the Friedman statistic (Friedman 1937; every ranking equally likely under H0, enumerated) is ${r.p.toPrecision(3)}${approx}; use it instead of the χ² and F p-values.`;
}

function fewDatasets(m: MetricComparison, c: Comparison): string[] {
  const s = c.settings;
  const N = m.datasets.length;
  const k = m.methods.length;
  const t = m.metric.title;
  if (k < 2 || N < 1) return [];
  if (N === 1)
    return [
      `${t}: one dataset (N = 1). Tests across datasets (Friedman, post-hoc, critical difference, sign, Wilcoxon) cannot tell methods apart with one dataset, so the win/draw/loss, Wilcoxon and scatter sections are left out and the ranks only order the methods. Valid for one dataset: the tests on its folds — the corrected resampled t-test (compare.tests: resampled-t) or the correlated Bayesian t-test (bayesian).`,
    ];
  const ranked = s.tests.some((x) => x === 'friedman' || x === 'posthoc' || x === 'cd' || x === 'all-pairs');
  const out: string[] = [];
  if (N < FEW_DATASETS && ranked) {
    out.push(
      `${t}: only N = ${N} datasets. The Friedman χ² and Iman–Davenport F p-values, the mean-rank post-hoc z-tests and the critical difference all rest on large-sample approximations (Demšar 2006 asks N > ${CHI2_RULE_N} and k > ${CHI2_RULE_K} for the χ² one; autorank refuses fewer than ${FEW_DATASETS} datasets): read them as descriptive, not as tests. Valid with few datasets: the tests on each dataset's folds — the corrected resampled t-test (compare.tests: resampled-t) or the correlated Bayesian t-test (bayesian) — and, across datasets, the exact sign and Wilcoxon tests, which are valid for any N but cannot reach p ≤ ${s.alpha} with N = ${N} (their smallest two-sided p is ${smallestExactP(N).toPrecision(3)}; ${datasetsNeeded(s.alpha)} datasets are needed). ${exactFriedmanText(m)}`.trimEnd(),
    );
  } else if (N <= CHI2_RULE_N && s.tests.includes('friedman')) {
    out.push(
      `${t}: N = ${N} datasets${k <= CHI2_RULE_K ? ` and k = ${k} methods` : ''}: the χ² approximation of the Friedman statistic is rough below Demšar's (2006) rule of thumb (N > ${CHI2_RULE_N}, k > ${CHI2_RULE_K}); Iman–Davenport's F p-value is the better approximation, and the post-hoc p-values are approximate too. ${exactFriedmanText(m)}`.trimEnd(),
    );
  }
  return out;
}

function disagreements(m: MetricComparison, c: Comparison): string[] {
  const s = c.settings;
  const t = m.metric.title;
  const out: string[] = [];
  const ph = m.posthoc;
  if (ph && m.friedman && m.friedman.p > s.alpha && ph.comparisons.some((x) => x.pAdjusted <= s.alpha)) {
    out.push(
      `${t}: the post-hoc table shows significant differences although the Friedman test does not reject at α = ${s.alpha} (p = ${m.friedman.p.toPrecision(3)}). Post-hoc tests are protected only after the omnibus test rejects (Demšar 2006), so treat those differences as not established.`,
    );
  }
  if (!ph || !m.cd || !s.tests.includes('cd')) return out;
  const cd = m.cd.cd;
  const groups = m.cd.procedure === 'nemenyi' ? cliques(m.meanRanks, cd) : [];
  const joined = (i: number, j: number): boolean =>
    m.cd!.procedure === 'nemenyi'
      ? groups.some((g) => g.includes(i) && g.includes(j))
      : Math.abs(m.meanRanks[i] - m.meanRanks[j]) < cd;
  const control = m.methods[ph.control];
  const sigButJoined = ph.comparisons
    .filter((x) => x.pAdjusted <= s.alpha && joined(ph.control, x.method))
    .map((x) => m.methods[x.method]);
  const notSigButApart = ph.comparisons
    .filter((x) => x.pAdjusted > s.alpha && !joined(ph.control, x.method))
    .map((x) => m.methods[x.method]);
  if (sigButJoined.length === 0 && notSigButApart.length === 0) return out;
  const procedure = m.cd.procedure === 'nemenyi' ? 'Nemenyi' : 'Bonferroni–Dunn';
  const parts: string[] = [];
  if (sigButJoined.length)
    parts.push(
      `${sigButJoined.join(', ')} ${sigButJoined.length === 1 ? 'differs' : 'differ'} significantly from ${control} in the post-hoc table but ${sigButJoined.length === 1 ? 'is' : 'are'} within the critical difference of it in the CD diagram`,
    );
  if (notSigButApart.length)
    parts.push(
      `${notSigButApart.join(', ')} ${notSigButApart.length === 1 ? 'is' : 'are'} farther than the critical difference from ${control} in the diagram but not significant in the post-hoc table`,
    );
  out.push(
    `${t}: the CD diagram and the post-hoc table disagree: ${parts.join('; ')}. They answer different questions: the table tests each method against the control only, with z-tests adjusted over the k − 1 comparisons (${s.adjust === 'none' ? 'unadjusted' : s.adjust[0].toUpperCase() + s.adjust.slice(1)}), while the diagram draws ${procedure}'s ${m.cd.procedure === 'nemenyi' ? 'test over all k(k − 1)/2 pairs (studentized range), which is more conservative' : 'single-step Bonferroni correction over the k − 1 comparisons, weaker than a step-wise adjustment'}. Each is right for its own family of comparisons; for every pair, the all-pairs matrices (compare.tests: all-pairs; Shaffer and Bergmann–Hommel are more powerful than Nemenyi) are the consistent choice.`,
  );
  return out;
}

/** The cautions about too few datasets, one string each (empty when compare.cautions is false). */
export function comparisonCautions(c: Comparison): string[] {
  if (!addedSettings(c.settings).cautions) return [];
  return c.metrics.flatMap((m) => fewDatasets(m, c));
}

/**
 * Why the post-hoc table and the CD diagram of one metric disagree, if they do (empty when
 * compare.cautions is false); printed under the diagram.
 */
export function posthocCautions(m: MetricComparison, c: Comparison): string[] {
  if (!addedSettings(c.settings).cautions) return [];
  return disagreements(m, c);
}
