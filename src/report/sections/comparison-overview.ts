/** "Statistical comparisons": the settings of every test (each choice that changes a number), notes and cautions. */
import type { CompareSpec } from '../../spec/report-sections.js';
import { comparisonCautions } from '../cautions.js';
import type { Comparison } from '../compare.js';
import type { ReportContext } from '../context.js';
import type { Block, Section } from '../document.js';
import { ADJUST_NAME } from './kit.js';
import { extraStatisticsSettings } from './extra-statistics.js';

/** Settings that change numbers, one line each, as the report prints them. */
export function comparisonSettings(s: CompareSpec, c: Comparison): string[] {
  const w = s.wilcoxon;
  return [
    `metrics: ${s.metrics.join(', ')} (per-dataset means over folds${s.digits !== null ? `, rounded to ${s.digits} decimals before every test` : ', unrounded'})`,
    `control: ${c.control ?? 'none'} (${s.control === 'best' ? `'best': ${c.controlReason}` : c.controlReason})`,
    `α = ${s.alpha}; p-value adjustment: ${ADJUST_NAME[s.adjust]} (R p.adjust)`,
    `tests: ${s.tests.join(', ')}`,
    `Friedman: ${s.friedman.tieCorrection ? 'tie-corrected (R friedman.test)' : 'without tie correction (Demšar 2006)'}; Iman–Davenport F from the same χ²`,
    `post-hoc: Friedman mean-rank z = (R_j − R_control)/√(k(k+1)/(6N)), two-sided normal p, ${ADJUST_NAME[s.adjust]}-adjusted over the k − 1 comparisons`,
    `Wilcoxon signed-rank (paired over datasets): zeros ${w.zeroMethod}, exact ${w.exact === 'auto' ? 'when n < 50 without ties or zeros (R)' : String(w.exact)}, continuity correction ${w.correct ? 'on' : 'off'}, tie correction ${w.tieCorrection ? 'on' : 'off'}; ${ADJUST_NAME[s.adjust]}-adjusted over the pairs`,
    `sign test: two-sided exact binomial on wins vs losses, draws ${s.sign.draws === 'drop' ? 'dropped (n = wins + losses)' : 'split (Demšar 2006)'}; a draw is |a − b| ≤ ${s.sign.tolerance}`,
    `critical difference: ${s.cd.procedure === 'nemenyi' ? `Nemenyi, studentized range df = ${s.cd.df === 'infinity' ? '∞ (Demšar 2006)' : 'k(N − 1) (scmamp)'}` : 'Bonferroni–Dunn'} at α = ${s.alpha}`,
  ];
}

/** The settings of the comparisons, their notes and cautions. */
export function comparisonOverviewSection(c: ReportContext): Section[] {
  const blocks: Block[] = [
    { kind: 'p', text: 'Settings (every choice that changes a number):' },
    { kind: 'list', items: [...comparisonSettings(c.s, c.comparison), ...extraStatisticsSettings(c.s)] },
  ];
  const notes = c.comparison.metrics.flatMap((m) => m.notes);
  if (notes.length) blocks.push({ kind: 'list', items: notes });
  const cautions = comparisonCautions(c.comparison);
  if (cautions.length) blocks.push({ kind: 'p', text: 'Cautions:' }, { kind: 'list', items: cautions });
  return [{ title: 'Statistical comparisons', level: 2, blocks }];
}
