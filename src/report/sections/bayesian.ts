/**
 * Report section of the Bayesian comparisons (Benavoli et al. 2017): the Bayesian signed-rank test over
 * datasets for each compared pair, with its posterior in the simplex, and the correlated Bayesian t-test
 * (Corani & Benavoli 2015) per dataset on the folds. Probabilities are printed as P(a better), P(rope),
 * P(b better), in the metric's direction.
 */
import { bayesianSignedRank, correlatedBayesianTTest } from '../../stats/bayesian.js';
import type { Block, Section } from '../document.js';
import { simplexFigure } from '../stat-figures.js';
import { addedSettings } from '../../spec/report-sections.js';
import type { StatsSectionContext } from '../context.js';
import { attempt, betterProbabilities, cols } from './kit.js';
import { foldPairs } from './single-dataset.js';
import { cell, fixed, type TableRow } from '../table.js';

/** Seed of the signed-rank sampler of one pair on one metric: the experiment seed and what is compared. */
export function signedRankSeed(seed: string, metric: string, a: string, b: string): string {
  return `${seed}/bayesian-signed-rank/${metric}/${a}/${b}`;
}

const probCell = (p: number, bold: boolean): ReturnType<typeof cell> => cell(fixed(p, 3), { value: p, bold });

export async function bayesianSections(ctx: StatsSectionContext): Promise<Section[]> {
  const s = ctx.comparison.settings;
  const added = addedSettings(s);
  const rope = added.bayesian.rope;
  const decide = 1 - s.alpha;
  const blocks: Block[] = [];
  for (const m of ctx.comparison.metrics) {
    const rows: TableRow[] = [];
    const figures: Block[] = [];
    const notes: string[] = [];
    for (const p of m.pairs) {
      if (p.valuesA.length < 1) continue;
      const r = attempt(notes, `${p.a} vs ${p.b}`, () =>
        bayesianSignedRank(p.valuesA, p.valuesB, rope, {
          prior: added.bayesian.prior,
          samples: added.bayesian.samples,
          seed: signedRankSeed(ctx.seed, m.metric.key, p.a, p.b),
          keep: 10000,
        }),
      );
      if (!r) continue;
      const pr = betterProbabilities(r, m.metric.higherIsBetter);
      const toABOrder = (
        v: readonly (readonly [number, number, number])[],
      ): readonly (readonly [number, number, number])[] =>
        m.metric.higherIsBetter ? v.map(([lo, ro, hi]) => [hi, ro, lo] as const) : v;
      const verdict =
        pr.a >= decide
          ? `${p.a} better`
          : pr.b >= decide
            ? `${p.b} better`
            : pr.rope >= decide
              ? 'practically equivalent'
              : 'inconclusive';
      rows.push({
        cells: [
          cell(p.a),
          cell(p.b),
          cell(String(r.n), { value: r.n }),
          probCell(pr.a, pr.a >= decide),
          probCell(pr.rope, pr.rope >= decide),
          probCell(pr.b, pr.b >= decide),
          cell(verdict),
        ],
      });
      figures.push(
        ctx.addFigure(
          await simplexFigure(
            ctx.figureId(`simplex-${m.metric.key}-${p.a}-vs-${p.b}`),
            m.metric.title,
            p.a,
            p.b,
            toABOrder(r.kept),
            pr,
            rope,
          ),
        ),
      );
    }
    if (rows.length) {
      blocks.push(
        ...ctx.addTable({
          id: ctx.tableId(`bayesian-signed-rank-${m.metric.key}`),
          caption: `${m.metric.title}: Bayesian signed-rank test (Benavoli et al. 2017) of a against b over the per-dataset means, rope ±${rope}: posterior probabilities that a is better by more than the rope, that they are practically equivalent, and that b is better (fractions of ${added.bayesian.samples} posterior samples in which each is the most probable, as baycomp); Dirichlet-process prior with a pseudo-observation of strength ${added.bayesian.prior} at 0; sampler seeded from the experiment seed, the metric and the pair. Bold and verdict: probability ≥ ${decide} (1 − α, as autorank).`,
          columns: cols('a:l', 'b:l', 'N', 'P(a better)', 'P(rope)', 'P(b better)', 'verdict:l'),
          rows,
          notes,
        }),
      );
      blocks.push(...figures);
    }

    // Correlated Bayesian t-test per dataset on the paired folds.
    const tRows: TableRow[] = [];
    const tNotes: string[] = [];
    for (const ds of m.table.datasets) {
      for (const p of m.pairs) {
        const fp = foldPairs(ctx.statRows, m.metric.key, ds, p.a, p.b);
        if (fp.a.length < 2) continue;
        const r = attempt(tNotes, `${ds}, ${p.a} vs ${p.b}`, () =>
          correlatedBayesianTTest(fp.a, fp.b, fp.testFraction, rope),
        );
        if (!r) continue;
        const pr = betterProbabilities(r, m.metric.higherIsBetter);
        tRows.push({
          cells: [
            cell(ds),
            cell(p.a),
            cell(p.b),
            cell(String(r.n), { value: r.n }),
            cell(fixed(r.rho, 4), { value: r.rho }),
            cell(fixed(r.meanDifference, m.metric.digits + 1), { value: r.meanDifference }),
            probCell(pr.a, pr.a >= decide),
            probCell(pr.rope, pr.rope >= decide),
            probCell(pr.b, pr.b >= decide),
          ],
        });
      }
    }
    if (tRows.length) {
      blocks.push(
        ...ctx.addTable({
          id: ctx.tableId(`correlated-t-${m.metric.key}`),
          caption: `${m.metric.title}: correlated Bayesian t-test (Corani & Benavoli 2015) of a against b on each dataset's paired folds, rope ±${rope}: the posterior of the mean difference is Student t with J − 1 df, location mean(a − b) and scale² = (1/J + ρ/(1 − ρ))·s², with the non-informative prior of the paper and ρ = n_test/(n_test + n_train) (1/k for k-fold CV, as baycomp); exact, no sampling. Bold: probability ≥ ${decide}.`,
          columns: cols('dataset:l', 'a:l', 'b:l', 'J', 'ρ', 'mean a − b', 'P(a better)', 'P(rope)', 'P(b better)'),
          rows: tRows,
          notes: tNotes,
        }),
      );
    }
  }
  return blocks.length ? [{ title: 'Bayesian comparisons', level: 3, blocks }] : [];
}
