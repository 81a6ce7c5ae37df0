/**
 * Report section of effect sizes next to the p-values of each compared pair (autorank's Cliff's δ and
 * Akinshin's γ; the mean difference with a seeded percentile bootstrap interval), over the per-dataset
 * means the Wilcoxon test uses.
 */
import { akinshinGamma, bootstrapMeanDifference, cliffsDelta } from '../../stats/effectsize.js';
import type { Section } from '../document.js';
import { addedSettings } from '../../spec/report-sections.js';
import type { StatsSectionContext } from '../context.js';
import { attempt, cols } from './kit.js';
import { cell, fixed, formatP, type TableRow } from '../table.js';

/** Seed of the bootstrap of one pair on one metric: the experiment seed and what is compared. */
function effectSeed(seed: string, metric: string, a: string, b: string): string {
  return `${seed}/effect-size-bootstrap/${metric}/${a}/${b}`;
}

export function effectSizeSections(ctx: StatsSectionContext): Section[] {
  const s = ctx.comparison.settings;
  const added = addedSettings(s);
  const blocks = ctx.comparison.metrics.flatMap((m) => {
    const rows: TableRow[] = [];
    const notes: string[] = [];
    for (const p of m.pairs) {
      const n = p.valuesA.length;
      if (n < 2) continue;
      const sizes = attempt(notes, `${p.a} vs ${p.b}`, () => ({
        ci: bootstrapMeanDifference(p.valuesA, p.valuesB, {
          resamples: added.effectSize.bootstrap,
          level: added.effectSize.level,
          seed: effectSeed(ctx.seed, m.metric.key, p.a, p.b),
        }),
        delta: cliffsDelta(p.valuesA, p.valuesB),
        gamma: akinshinGamma(p.valuesA, p.valuesB),
      }));
      if (!sizes) continue;
      const { ci, delta, gamma } = sizes;
      const d = m.metric.digits;
      rows.push({
        cells: [
          cell(p.a),
          cell(p.b),
          cell(String(n), { value: n }),
          cell(fixed(ci.mean, d), { value: ci.mean }),
          cell(`[${fixed(ci.lower, d)}, ${fixed(ci.upper, d)}]`, { value: `${ci.lower};${ci.upper}` }),
          cell(`${fixed(delta.value, 3)} (${delta.magnitude})`, { value: delta.value }),
          cell(`${fixed(gamma.value, 3)} (${gamma.magnitude})`, { value: gamma.value }),
          cell(formatP(p.wilcoxon?.p), { value: p.wilcoxon?.p ?? null }),
          cell(formatP(p.wilcoxonAdjusted), { value: p.wilcoxonAdjusted, bold: p.wilcoxonAdjusted <= s.alpha }),
        ],
      });
    }
    if (rows.length === 0 && notes.length === 0) return [];
    return ctx.addTable({
      id: ctx.tableId(`effect-size-${m.metric.key}`),
      caption: `${m.metric.title}: effect sizes of a against b over the per-dataset means (${m.metric.higherIsBetter ? 'positive: a higher, better' : 'positive: a higher, worse'}): mean difference a − b with a ${Math.round(added.effectSize.level * 100)}% percentile bootstrap interval (${added.effectSize.bootstrap} resamples of the datasets, seeded from the experiment seed, the metric and the pair); Cliff's δ (negligible < 0.147 ≤ small < 0.33 ≤ medium < 0.474 ≤ large) and Akinshin's γ (median difference over the pooled MAD × 1.4826; Cohen's thresholds 0.2, 0.5, 0.8), as autorank; next to the Wilcoxon signed-rank p-values.`,
      columns: cols(
        'a:l',
        'b:l',
        'N',
        'mean a − b',
        `${Math.round(added.effectSize.level * 100)}% CI:c`,
        "Cliff's δ",
        "Akinshin's γ",
        'Wilcoxon p',
        'adjusted p',
      ),
      rows,
      notes,
    });
  });
  return blocks.length ? [{ title: 'Effect sizes', level: 3, blocks }] : [];
}
