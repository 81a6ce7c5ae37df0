/**
 * The statistical comparisons of a report, computed from stored results only: per metric the datasets ×
 * methods matrix of per-dataset means, Friedman / Iman–Davenport, mean-rank post-hoc tests against a
 * control, critical differences, and per pair of methods win/draw/loss with the sign test and the Wilcoxon
 * signed-rank test (adjusted over the pairs). Settings come from the spec's `compare:` section.
 */
import type { ResultRow } from '../store/db.js';
import { bonferroniDunnCD, nemenyiCD, type CriticalDifferenceResult } from '../stats/cd.js';
import { friedman, type FriedmanResult } from '../stats/friedman.js';
import { pAdjust } from '../stats/padjust.js';
import { posthocVsControl, type PosthocVsControlResult } from '../stats/posthoc.js';
import { averageRanks } from '../stats/ranks.js';
import { signTest, winDrawLoss, type SignTestResult, type WinDrawLossResult } from '../stats/signtest.js';
import { roundDecimals } from '../stats/validate.js';
import { wilcoxonSignedRank, type WilcoxonResult } from '../stats/wilcoxon.js';
import type { CompareMetric, CompareSpec } from '../spec/report-sections.js';
import {
  hasValue,
  isPartial,
  REPORT_METRICS,
  summarize,
  type MetricDef,
  type PlannedFolds,
  type SummaryTable,
} from './summary.js';
import { fmean } from '../stats/fsum.js';

export interface PairComparison {
  /** Method labels; W/D/L counts are those of `a` against `b`. */
  readonly a: string;
  readonly b: string;
  /** Datasets on which both methods have results. */
  readonly datasets: readonly string[];
  /** Per-dataset means of a and of b on those datasets (rounded to settings.digits when set). */
  readonly valuesA: readonly number[];
  readonly valuesB: readonly number[];
  readonly wdl: WinDrawLossResult | null;
  readonly sign: SignTestResult | null;
  /** Paired test on a − b over the datasets. */
  readonly wilcoxon: WilcoxonResult | null;
  /** Wilcoxon p adjusted over the metric's pairs (NaN when undefined). */
  readonly wilcoxonAdjusted: number;
  readonly error: string | null;
}

export interface MetricComparison {
  readonly metric: MetricDef;
  /** Per dataset × method mean ± sd over folds (every dataset, complete or not). */
  readonly table: SummaryTable;
  /** Datasets on which every method has results; rows of `values`. */
  readonly datasets: readonly string[];
  readonly methods: readonly string[];
  /** Per-dataset means (rounded to settings.digits when set), complete datasets only. */
  readonly values: readonly (readonly number[])[];
  readonly meanRanks: readonly number[];
  readonly friedman: FriedmanResult | null;
  readonly posthoc: PosthocVsControlResult | null;
  readonly cd: CriticalDifferenceResult | null;
  readonly pairs: readonly PairComparison[];
  readonly notes: readonly string[];
}

export interface Comparison {
  readonly settings: CompareSpec;
  /** The control's label (resolved when settings.control is 'best'); null when there is none. */
  readonly control: string | null;
  readonly controlReason: string;
  readonly pairs: readonly (readonly [string, string])[];
  readonly metrics: readonly MetricComparison[];
}

export function metricDef(key: CompareMetric): MetricDef {
  return REPORT_METRICS.find((m) => m.key === key)!;
}

/** Per dataset, per method, the values of one metric over folds. */
export function foldValues(
  rows: readonly ResultRow[],
  key: keyof ResultRow & string,
): Map<string, Map<string, number[]>> {
  const out = new Map<string, Map<string, number[]>>();
  for (const r of rows) {
    if (r[key] === null || r[key] === undefined) continue; // a metric this job predates (NULL), not a 0
    let byMethod = out.get(r.dataset);
    if (!byMethod) out.set(r.dataset, (byMethod = new Map()));
    let v = byMethod.get(r.method);
    if (!v) byMethod.set(r.method, (v = []));
    v.push(Number(r[key]));
  }
  return out;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * @param planned folds the spec's plan has per dataset × method: a dataset × method with fewer finished
 *   folds is left out of every test (summary.ts hasValue) and named in the notes.
 */
export function compareResults(
  rows: readonly ResultRow[],
  methodOrder: readonly string[],
  settings: CompareSpec,
  planned?: PlannedFolds,
): Comparison {
  const digits = settings.digits ?? undefined;
  const tables = settings.metrics.map((k) => summarize(rows, methodOrder, metricDef(k), digits, planned));
  const methods = tables[0]?.methods ?? [];

  // The control: given, or the best mean rank on the first metric.
  let control: string | null = null;
  let controlReason = '';
  const first = tables[0];
  if (settings.control !== 'best') {
    control = methods.includes(settings.control) ? settings.control : null;
    controlReason = control ? 'given in the spec' : `'${settings.control}' has no results`;
  } else if (first && first.completeDatasets > 0 && methods.length > 0) {
    const ranks = completeMatrix(first, digits).meanRanks;
    let best = 0;
    for (let j = 1; j < ranks.length; j++) if (ranks[j] < ranks[best]) best = j;
    control = methods[best];
    controlReason = `best mean rank on ${first.metric.title}`;
  } else {
    controlReason = 'no dataset on which every method has results';
  }

  const pairs: (readonly [string, string])[] =
    settings.pairs?.filter(([a, b]) => methods.includes(a) && methods.includes(b)) ??
    (control ? methods.filter((m) => m !== control).map((m) => [control, m] as const) : []);

  const metrics = tables.map((table) => compareMetric(rows, table, control, pairs, settings));
  return { settings, control, controlReason, pairs, metrics };
}

function completeMatrix(
  table: SummaryTable,
  digits: number | undefined,
): { datasets: string[]; values: number[][]; meanRanks: number[] } {
  const datasets: string[] = [];
  const values: number[][] = [];
  table.datasets.forEach((d, i) => {
    const row = table.cells[i];
    if (row.every(hasValue)) {
      datasets.push(d);
      values.push(row.map((c) => roundDecimals(c.mean, digits)));
    }
  });
  const meanRanks = values.length
    ? averageRanks(values, { higherIsBetter: table.metric.higherIsBetter }).meanRanks
    : table.methods.map(() => NaN);
  return { datasets, values, meanRanks };
}

function compareMetric(
  rows: readonly ResultRow[],
  table: SummaryTable,
  control: string | null,
  pairs: readonly (readonly [string, string])[],
  s: CompareSpec,
): MetricComparison {
  const metric = table.metric;
  const higherIsBetter = metric.higherIsBetter;
  const digits = s.digits ?? undefined;
  const notes: string[] = [];
  const unrecorded = rows.filter((r) => r[metric.key] === null || r[metric.key] === undefined).length;
  if (unrecorded > 0) {
    notes.push(
      `${metric.title}: ${unrecorded} of ${rows.length} jobs have no value (stored before bnclab recorded this metric) and are left out; run the spec into a fresh database (--db) to include them.`,
    );
  }
  const partial: string[] = [];
  table.datasets.forEach((d, i) =>
    table.cells[i].forEach((c, j) => {
      if (isPartial(c)) partial.push(`${table.methods[j]} on ${d} (${c!.n} of ${c!.planned} folds)`);
    }),
  );
  if (partial.length > 0) {
    notes.push(
      `${metric.title}: ${partial.length} dataset × method cell${partial.length > 1 ? 's have' : ' has'} fewer finished folds than the plan (jobs failed or not run yet), so ${partial.length > 1 ? 'their means are' : 'its mean is'} over other test rows than the other methods'; those datasets are left out of this metric's averages and rank tests, and of the pairwise tests of the methods concerned: ${partial.join('; ')}.`,
    );
  }
  const { datasets, values, meanRanks } = completeMatrix(table, digits);
  const k = table.methods.length;
  const N = datasets.length;
  const enough = k >= 2 && N >= 2;
  if (!enough)
    notes.push(
      `${metric.title}: rank-based tests need at least 2 methods and 2 complete datasets (have ${k} and ${N}).`,
    );

  let fr: FriedmanResult | null = null;
  if (enough && s.tests.includes('friedman')) {
    try {
      fr = friedman(values, { higherIsBetter, tieCorrection: s.friedman.tieCorrection });
    } catch (e) {
      notes.push(`Friedman test on ${metric.title}: ${message(e)}`);
    }
  }
  let posthoc: PosthocVsControlResult | null = null;
  const controlIdx = control === null ? -1 : table.methods.indexOf(control);
  if (enough && s.tests.includes('posthoc') && controlIdx >= 0) {
    try {
      posthoc = posthocVsControl(values, controlIdx, { adjust: s.adjust, higherIsBetter });
    } catch (e) {
      notes.push(`post-hoc test on ${metric.title}: ${message(e)}`);
    }
  }
  let cd: CriticalDifferenceResult | null = null;
  if (enough && s.tests.includes('cd')) {
    try {
      cd =
        s.cd.procedure === 'nemenyi'
          ? nemenyiCD(k, N, s.alpha, { df: s.cd.df === 'scmamp' ? 'scmamp' : Infinity })
          : bonferroniDunnCD(k, N, s.alpha);
    } catch (e) {
      notes.push(`critical difference on ${metric.title}: ${message(e)}`);
    }
  }

  // Pairs use every dataset on which both methods have results (not only the complete ones): a value over
  // all planned folds and defined on each (hasValue), as in the rank tests.
  const byDataset = foldValues(rows, metric.key);
  const mean = fmean;
  const raw = pairs.map(([a, b]) => {
    const ds: string[] = [];
    const xa: number[] = [];
    const xb: number[] = [];
    const ja = table.methods.indexOf(a);
    const jb = table.methods.indexOf(b);
    for (const [i, d] of table.datasets.entries()) {
      const va = byDataset.get(d)?.get(a);
      const vb = byDataset.get(d)?.get(b);
      if (va && vb && hasValue(table.cells[i][ja]) && hasValue(table.cells[i][jb])) {
        ds.push(d);
        xa.push(roundDecimals(mean(va), digits));
        xb.push(roundDecimals(mean(vb), digits));
      }
    }
    let wdl: WinDrawLossResult | null = null;
    let sign: SignTestResult | null = null;
    let wilcoxon: WilcoxonResult | null = null;
    let error: string | null = null;
    try {
      if (ds.length === 0) throw new Error('no dataset on which both methods have results');
      wdl = winDrawLoss(xa, xb, { lowerIsBetter: !higherIsBetter, tolerance: s.sign.tolerance });
      if (s.tests.includes('sign')) sign = signTest(wdl.wins, wdl.draws, wdl.losses, { draws: s.sign.draws });
      if (s.tests.includes('wilcoxon')) {
        wilcoxon = wilcoxonSignedRank(xa, xb, {
          zeroMethod: s.wilcoxon.zeroMethod,
          correct: s.wilcoxon.correct,
          exact: s.wilcoxon.exact === 'auto' ? undefined : s.wilcoxon.exact,
          tieCorrection: s.wilcoxon.tieCorrection,
        });
      }
    } catch (e) {
      error = message(e);
    }
    return { a, b, datasets: ds, valuesA: xa, valuesB: xb, wdl, sign, wilcoxon, error };
  });
  const adjusted = pAdjust(
    raw.map((r) => (r.wilcoxon && Number.isFinite(r.wilcoxon.p) ? r.wilcoxon.p : NaN)),
    s.adjust,
  );
  return {
    metric,
    table,
    datasets,
    methods: table.methods,
    values,
    meanRanks,
    friedman: fr,
    posthoc,
    cd,
    pairs: raw.map((r, i) => ({ ...r, wilcoxonAdjusted: adjusted[i] })),
    notes,
  };
}

/** Maximal groups of methods whose mean ranks differ by less than the critical difference (CD diagram bars). */
export function cliques(meanRanks: readonly number[], cd: number): number[][] {
  const order = [...meanRanks.keys()].sort((a, b) => meanRanks[a] - meanRanks[b] || a - b);
  const groups: number[][] = [];
  for (let i = 0; i < order.length; i++) {
    let j = i;
    while (j + 1 < order.length && meanRanks[order[j + 1]] - meanRanks[order[i]] < cd) j++;
    if (j > i) {
      const g = order.slice(i, j + 1);
      // Keep only maximal groups: a group contained in the previous one adds nothing.
      const prev = groups[groups.length - 1];
      if (!prev || !g.every((x) => prev.includes(x))) groups.push(g);
    }
  }
  return groups;
}
