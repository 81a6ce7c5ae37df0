/**
 * The report's Friedman, post-hoc and Wilcoxon results on correctly rounded per-dataset means equal R's
 * (1e-8). The fixture: 30 datasets × 4 methods × 10 folds of accuracies (fold sizes 7 to 30, so the means
 * are sums of awkward fractions; method B holds A's folds in another order). The means come from
 * compareResults (src/stats/fsum.ts); R gets exactly those doubles (written with 17 significant digits) and
 * computes, with R 4.2.2:
 *
 *   m <- as.matrix(read.csv("means.csv"))                      # datasets × (A, B, C, D)
 *   friedman.test(m)                                           # statistic, p.value
 *   r <- t(apply(-m, 1, rank)); R <- colMeans(r)               # rank 1 = best (highest accuracy)
 *   se <- sqrt(4 * 5 / (6 * 30)); ctrl <- which.min(R)          # control 'best': C, the lowest mean rank
 *   p <- 2 * pnorm(-abs((R[-ctrl] - R[ctrl]) / se)); p.adjust(p, "hommel")
 *   w <- sapply(setdiff(1:4, ctrl), function(j) wilcox.test(m[, ctrl], m[, j], paired = TRUE,
 *          correct = TRUE, exact = NULL)$p.value)              # the default pairs: control against each
 *   p.adjust(w, "hommel")
 *
 * test/report/r-pinned-means.R is that script; `BNCLAB_DUMP_MEANS=means.csv npx vitest run` on this file
 * writes the means it reads.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/report/compare.js';
import { DEFAULT_COMPARE } from '../../src/spec/report-sections.js';
import type { ResultRow } from '../../src/store/db.js';
import { accuracyRow } from '../helpers/result-rows.js';
import { Rng } from '../../src/util/rng.js';

const METHODS = ['A', 'B', 'C', 'D'];
const DATASETS = 30;
const FOLDS = 10;

function fixture(): ResultRow[] {
  const rng = new Rng('r-pinned-means');
  const out: ResultRow[] = [];
  for (let d = 0; d < DATASETS; d++) {
    const a = Array.from({ length: FOLDS }, () => {
      const n = 7 + rng.int(24);
      return (n - rng.int(n + 1) * 0.3) / n;
    });
    const b = [...a].reverse();
    const c = a.map((x) => Math.min(1, x + (rng.next() - 0.45) * 0.1));
    const e = Array.from({ length: FOLDS }, () => 0.5 + 0.5 * rng.next());
    [a, b, c, e].forEach((folds, m) =>
      folds.forEach((acc, fold) =>
        out.push(accuracyRow('r', `d${String(d).padStart(2, '0')}`, METHODS[m], fold, acc, `${d}-${m}-${fold}`)),
      ),
    );
  }
  return out;
}

// R 4.2.2 on the means below (see the header).
const R = {
  friedman: { statistic: 58.799999999999997, p: 1.0606622416607667e-12 },
  posthocAdjusted: [0.035728841125633112, 0.035728841125633112, 7.6788752633150599e-12],
  wilcoxon: [0.0012321043759584436, 0.0012321043759584436, 3.7252902984619174e-9],
  wilcoxonAdjusted: [0.0012321043759584436, 0.0012321043759584436, 1.1175870895385752e-8],
};

/** a equals R's b to 1e-8, relative (the p-values reach 1e-12). */
function near(a: number, b: number): void {
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-8 * Math.abs(b));
}

describe('report statistics on correctly rounded means', () => {
  const doc = compareResults(fixture(), METHODS, { ...DEFAULT_COMPARE, metrics: ['accuracy'] });
  const m = doc.metrics[0];

  it('equal R (friedman.test, the Friedman z post-hoc with p.adjust, wilcox.test with p.adjust) to 1e-8', () => {
    const dump = process.env['BNCLAB_DUMP_MEANS'];
    if (dump) {
      const lines = ['A,B,C,D', ...m.values.map((row) => row.map((x) => x.toPrecision(17)).join(','))];
      writeFileSync(dump, `${lines.join('\n')}\n`);
      writeFileSync(
        `${dump}.ours.json`,
        JSON.stringify({
          friedman: m.friedman,
          posthoc: m.posthoc?.comparisons,
          pairs: m.pairs.map((p) => [p.a, p.b, p.wilcoxon?.p, p.wilcoxonAdjusted]),
        }),
      );
    }
    expect(doc.control).toBe('C');
    near(m.friedman!.chi2, R.friedman.statistic);
    near(m.friedman!.p, R.friedman.p);
    expect(m.posthoc!.comparisons).toHaveLength(3);
    m.posthoc!.comparisons.forEach((c, i) => near(c.pAdjusted, R.posthocAdjusted[i]));
    expect(m.pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['C-A', 'C-B', 'C-D']);
    m.pairs.forEach((p, i) => {
      near(p.wilcoxon!.p, R.wilcoxon[i]);
      near(p.wilcoxonAdjusted, R.wilcoxonAdjusted[i]);
    });
    // The fixture has ties to get right: B holds A's folds reversed, so A and B have equal means everywhere.
    for (const row of m.values) expect(row[0]).toBe(row[1]);
  });
});
