/**
 * Stored results → the report as a document model (sections of text, tables and figures), which
 * render.ts turns into Markdown and HTML and index.ts writes to files. Nothing here re-runs a learner.
 */
import type { MethodSpec } from '../spec/load.js';
import type { ResultRow } from '../store/db.js';
import type { PAdjustMethod } from '../stats/padjust.js';
import { comparisonCautions, posthocCautions } from './cautions.js';
import { cliques, compareResults, foldValues, metricDef, type Comparison, type MetricComparison } from './compare.js';
import { diagnosticTable, diagnosticTitle } from './diagnostics.js';
import {
  cdFigure,
  foldBoxplotFigure,
  learningCurveFigure,
  scatterFigure,
  winLossSweepFigure,
  type CurvePoint,
  type Figure,
  type SweepPoint,
} from './figures.js';
import type { StructureInfo } from './claims.js';
import { evaluateReference, type ReferenceResult } from './reference.js';
import { learnedStructuresSection, type ArcsByJob } from './structures.js';
import { predictionCurvesSection, type CurvePoints } from './prediction-curves.js';
import type { CompareMetric, CompareSpec, ReferenceSpec, SweepSpec } from '../spec/report-sections.js';
import { extraStatisticsSections, extraStatisticsSettings } from './stats-sections.js';
import {
  isPartial,
  partialGroups,
  REPORT_METRICS,
  summarize,
  type MetricDef,
  type PlannedFolds,
  type SummaryTable,
} from './summary.js';
import { cell, fixed, formatP, type Table, type TableCell, type TableRow } from './table.js';
import type { Block, Section } from './document.js';
import { fmean } from '../stats/fsum.js';
import {
  type ClaimStability,
  claimStability,
  stabilitySummary,
  stabilityText,
  statedClaimOutcome,
  wdlOutcome,
} from './seed-stability.js';

export type { Block, Section } from './document.js';

export interface ReportDoc {
  readonly title: string;
  /** The experiment's name: prefixes the LaTeX labels so that two experiments in one paper do not collide. */
  readonly experiment?: string;
  readonly intro: readonly Block[];
  readonly sections: readonly Section[];
  readonly tables: readonly Table[];
  readonly figures: readonly Figure[];
  readonly comparison: Comparison;
  readonly references: readonly ReferenceResult[];
  /** Per-metric summaries (every REPORT_METRICS entry), for report.csv. */
  readonly summaries: readonly SummaryTable[];
}

export interface FailedJob {
  readonly dataset: string;
  readonly method: string;
  readonly repeat: number;
  readonly fold: number;
  readonly error: string;
}

export interface ReportInput {
  readonly experiment: string;
  readonly specFile: string;
  readonly specHash: string;
  /** Run settings (seed, preprocessing, resampling, database), printed at the top. */
  readonly settings: Readonly<Record<string, string>>;
  readonly methods: readonly MethodSpec[];
  /**
   * The spec's datasets in its order: the per-dataset tables and report.csv list them so (a paper's table
   * lists them as the spec does); datasets not named here follow in name order. Absent: name order.
   */
  readonly datasets?: readonly string[];
  /**
   * Folds the spec's plan has per dataset × method (`dataset\0method`): a cell with fewer finished folds is
   * marked and left out of averages, ranks, tests and claims. Absent: no cell is taken for partial.
   */
  readonly planned?: PlannedFolds;
  readonly rows: readonly ResultRow[];
  /**
   * A multi-seed experiment: each seed's rows, the first seed's being `rows` (the tables show those). Only the
   * claims read the others, one seed at a time (seed-stability.ts).
   */
  readonly seedRows?: readonly { readonly seed: string; readonly rows: readonly ResultRow[] }[];
  readonly expectedJobs: number;
  readonly failed: readonly FailedJob[];
  readonly compare: CompareSpec;
  readonly reference: readonly ReferenceSpec[];
  /** Results of the experiments named in compare.learning_curve, by experiment name. */
  readonly curveRows?: ReadonlyMap<string, readonly ResultRow[]>;
  /** jobs.structure_info by job key: the info.* metrics of claims files. */
  readonly structureInfo?: StructureInfo;
  /** Learned arcs by job key (the structures table), for the drawings of the learned structures. */
  readonly arcs?: ArcsByJob;
  /** ROC and reliability points from saved predictions (prediction-curves.ts), when there are any. */
  readonly curves?: CurvePoints;
}

const ADJUST_NAME: Record<PAdjustMethod, string> = {
  hommel: 'Hommel',
  holm: 'Holm',
  hochberg: 'Hochberg',
  bonferroni: 'Bonferroni',
  none: 'unadjusted',
};

/** A readable, file-safe stem. */
export function slug(s: string): string {
  return (
    s
      .replace(/[^A-Za-z0-9._+-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'x'
  );
}

function uniqueIds(): (stem: string) => string {
  const used = new Set<string>();
  return (stem) => {
    let id = slug(stem);
    for (let i = 2; used.has(id); i++) id = `${slug(stem)}-${i}`;
    used.add(id);
    return id;
  };
}

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

function displayDigits(metric: MetricDef, s: CompareSpec): number {
  return s.digits !== null ? Math.min(metric.digits, s.digits) : metric.digits;
}

/** The footnote marks of the per-dataset tables: fewer folds than planned, and a metric undefined on a fold. */
export const PARTIAL_MARK = '†';
export const UNDEFINED_MARK = '‡';

/**
 * Per-dataset table with the best value per row in bold, an average row and average ranks (SubbKB Table 3).
 * A cell over fewer folds than planned shows its mean ± sd with PARTIAL_MARK (no finished fold: '–' with the
 * mark); a cell whose metric is undefined on some fold shows '–' with UNDEFINED_MARK (an empty CSV field).
 * Neither counts towards the best value, the averages or the ranks, and a note under the table says why.
 */
function metricTable(
  id: string,
  t: SummaryTable,
  s: CompareSpec,
  ranks: readonly number[],
  planned: PlannedFolds | undefined,
  planDatasets: readonly string[] = [],
  planMethods: readonly string[] = [],
  failed: readonly FailedJob[] = [],
): Table {
  const digits = displayDigits(t.metric, s);
  const partial: string[] = [];
  const undefinedOn: string[] = [];
  const rows: TableRow[] = t.datasets.map((d, i) => {
    const row = t.cells[i]!;
    const counts = (c: (typeof row)[number]): boolean => c !== undefined && Number.isFinite(c.mean) && !isPartial(c);
    const shown = row.map((c) => (counts(c) ? Number(c!.mean.toFixed(digits)) : undefined));
    const defined = shown.filter((v): v is number => v !== undefined);
    const best =
      defined.length >= 2 ? (t.metric.higherIsBetter ? Math.max(...defined) : Math.min(...defined)) : undefined;
    return {
      cells: [
        cell(d),
        ...row.map((c, j) => {
          const m = t.methods[j]!;
          const plan = planned?.get(`${d}\u0000${m}`);
          if (!c) {
            if (plan === undefined) return cell('–', { value: null });
            partial.push(`${m} on ${d}: 0 of ${plan} folds`);
            return cell(`–${PARTIAL_MARK}`, { value: null });
          }
          const part = isPartial(c);
          if (part) partial.push(`${m} on ${d}: ${c.n} of ${c.planned} folds`);
          const mark = part ? PARTIAL_MARK : '';
          if (!Number.isFinite(c.mean)) {
            undefinedOn.push(`${m} on ${d} (${c.undefinedFolds ?? '?'} of ${c.n} folds)`);
            return cell(`–${UNDEFINED_MARK}${mark}`, { value: null });
          }
          return cell(`${c.mean.toFixed(digits)} ± ${c.sd.toFixed(digits)}${mark}`, {
            bold: shown[j] !== undefined && shown[j] === best,
            value: c.mean,
          });
        }),
      ],
    };
  });
  const notes: string[] = [];
  if (partial.length)
    notes.push(
      `${PARTIAL_MARK} Fewer finished folds than the plan has (jobs failed or not run yet): the mean is over other test rows than the other methods', so this dataset is left out of the average, the ranks and every test for ${t.metric.title}: ${partial.join('; ')}.`,
    );
  if (undefinedOn.length)
    notes.push(
      `${UNDEFINED_MARK} ${t.metric.title} is undefined on some fold (e.g. an AUC on a test fold with one class), so there is no mean and this dataset is left out of the average, the ranks and every test for ${t.metric.title}: ${undefinedOn.join('; ')}.`,
    );
  const absent = planDatasets.filter((d) => !t.datasets.includes(d));
  if (absent.length)
    notes.push(
      `Not in the table: ${absent.length} dataset${absent.length > 1 ? 's' : ''} of the spec with no finished fold of any method (jobs failed or not run yet): ${absent.join(', ')}.`,
    );
  // A method with no finished fold anywhere (every job failed) has no column: say so, with its failures.
  const gone = planMethods.filter((m) => !t.methods.includes(m));
  if (gone.length) {
    const failedOf = (m: string): number => failed.filter((f) => f.method === m).length;
    notes.push(
      `Not in the table: ${gone.length} method${gone.length > 1 ? 's' : ''} of the spec with no finished fold on any dataset: ` +
        gone
          .map((m) => `${m} (${failedOf(m) ? `${failedOf(m)} jobs failed; see the failed jobs table` : 'not run yet'})`)
          .join('; ') +
        '.',
    );
  }
  rows.push({
    ruleAbove: true,
    summary: true,
    cells: [
      cell(`average (${t.completeDatasets})`, { italic: true }),
      ...t.average.map((a) => cell(fixed(a, digits), { value: a })),
    ],
  });
  const bestRank = Math.min(...ranks.filter((r) => Number.isFinite(r)));
  rows.push({
    summary: true,
    cells: [
      cell('average rank', { italic: true }),
      ...ranks.map((r) => cell(fixed(r, 2), { value: r, bold: r === bestRank && t.methods.length > 1 })),
    ],
  });
  return {
    id,
    caption: `${t.metric.title} (${t.metric.higherIsBetter ? 'higher' : 'lower'} is better): mean ± standard deviation over folds; the best mean per dataset in bold. Averages and ranks over the ${t.completeDatasets} datasets on which every method has results.`,
    columns: [{ header: 'dataset', align: 'l' }, ...t.methods.map((m) => ({ header: m, align: 'r' as const }))],
    rows,
    ...(notes.length ? { notes } : {}),
  };
}

function friedmanTable(c: Comparison): Table | null {
  const rows = c.metrics.flatMap((m): TableRow[] => {
    const f = m.friedman;
    if (!f) return [];
    const a = c.settings.alpha;
    return [
      {
        cells: [
          cell(m.metric.title),
          cell(String(f.nDatasets), { value: f.nDatasets }),
          cell(String(f.nMethods), { value: f.nMethods }),
          cell(fixed(f.chi2, 4), { value: f.chi2 }),
          cell(String(f.df), { value: f.df }),
          cell(formatP(f.p), { value: f.p, bold: f.p <= a }),
          cell(fixed(f.imanDavenport.F, 4), { value: f.imanDavenport.F }),
          cell(`${f.imanDavenport.df1}, ${f.imanDavenport.df2}`, {
            value: `${f.imanDavenport.df1};${f.imanDavenport.df2}`,
          }),
          cell(formatP(f.imanDavenport.p), { value: f.imanDavenport.p, bold: f.imanDavenport.p <= a }),
        ],
      },
    ];
  });
  if (rows.length === 0) return null;
  return {
    id: 'friedman',
    caption: `Friedman test (${c.settings.friedman.tieCorrection ? 'tie-corrected' : 'no tie correction'}) and Iman–Davenport F on the mean ranks; bold: p ≤ ${c.settings.alpha}.${undefinedF(c)}`,
    columns: [
      { header: 'metric', align: 'l' },
      { header: 'N', align: 'r' },
      { header: 'k', align: 'r' },
      { header: 'χ²', align: 'r' },
      { header: 'df', align: 'r' },
      { header: 'p', align: 'r' },
      { header: 'F (Iman–Davenport)', align: 'r' },
      { header: 'df', align: 'r' },
      { header: 'p (F)', align: 'r' },
    ],
    rows,
  };
}

/** Why an Iman–Davenport F is shown as '–' (undefined, not ∞). */
function undefinedF(c: Comparison): string {
  const why = c.metrics.flatMap((m) => {
    const r = m.friedman?.imanDavenport.undefinedReason;
    return r ? [`${m.metric.title}: ${r}`] : [];
  });
  return why.length ? ` Iman–Davenport F undefined (–) for ${why.join('; ')}.` : '';
}

/** Mean-rank post-hoc p-values against the control (SubbKB Table 4). */
function posthocTable(id: string, m: MetricComparison, s: CompareSpec): Table | null {
  const ph = m.posthoc;
  if (!ph) return null;
  const name = ADJUST_NAME[s.adjust];
  const rows: TableRow[] = [
    {
      cells: [
        cell(`${m.methods[ph.control]!} (control)`, { value: m.methods[ph.control]! }),
        cell(fixed(ph.controlMeanRank, 3), { value: ph.controlMeanRank }),
        cell('', { value: null }),
        cell('', { value: null }),
        cell('', { value: null }),
      ],
    },
    ...ph.comparisons.map((c) => ({
      cells: [
        cell(m.methods[c.method]!),
        cell(fixed(c.meanRank, 3), { value: c.meanRank }),
        cell(fixed(c.z, 4), { value: c.z }),
        cell(formatP(c.p), { value: c.p }),
        cell(formatP(c.pAdjusted), { value: c.pAdjusted, bold: c.pAdjusted <= s.alpha }),
      ],
    })),
  ];
  return {
    id,
    caption: `${m.metric.title}: Friedman mean-rank post-hoc tests of each method against ${m.methods[ph.control]} over ${ph.nDatasets} datasets (k = ${ph.nMethods}, SE = ${ph.se.toFixed(4)}); p-values ${name === 'unadjusted' ? 'unadjusted' : `adjusted by ${name}'s procedure`}; bold: adjusted p ≤ ${s.alpha}.`,
    columns: [
      { header: 'method', align: 'l' },
      { header: 'mean rank', align: 'r' },
      { header: 'z', align: 'r' },
      { header: 'p', align: 'r' },
      { header: `p (${name})`, align: 'r' },
    ],
    rows,
  };
}

function wdlText(w: { wins: number; draws: number; losses: number }): string {
  return `${w.wins}–${w.draws}–${w.losses}`;
}

/** Pairwise Wilcoxon signed-rank tests over datasets (SubbKB Table 8). */
function wilcoxonTable(id: string, m: MetricComparison, s: CompareSpec): Table | null {
  const pairs = m.pairs.filter((p) => p.wilcoxon || p.error);
  if (pairs.length === 0 || !s.tests.includes('wilcoxon')) return null;
  const name = ADJUST_NAME[s.adjust];
  return {
    id,
    caption: `${m.metric.title}: Wilcoxon signed-rank tests on the per-dataset means (a − b); W–D–L counts a against b; p-values ${name === 'unadjusted' ? 'unadjusted' : m.pairs.length === 1 ? 'of the single pair (no adjustment needed)' : `${name}-adjusted over the ${m.pairs.length} pairs`}; bold: adjusted p ≤ ${s.alpha}.`,
    columns: [
      { header: 'a', align: 'l' },
      { header: 'b', align: 'l' },
      { header: 'N', align: 'r' },
      { header: 'W–D–L', align: 'c' },
      { header: 'V (R⁺)', align: 'r' },
      { header: 'R⁻', align: 'r' },
      { header: 'test', align: 'l' },
      { header: 'p', align: 'r' },
      { header: `p (${name})`, align: 'r' },
    ],
    rows: pairs.map((p) => {
      const w = p.wilcoxon;
      return {
        cells: [
          cell(p.a),
          cell(p.b),
          cell(String(p.datasets.length), { value: p.datasets.length }),
          cell(p.wdl ? wdlText(p.wdl) : '–'),
          cell(w ? String(w.statistic) : '–', { value: w?.statistic ?? null }),
          cell(w ? String(w.rMinus) : '–', { value: w?.rMinus ?? null }),
          cell(w ? (w.method === 'exact' ? 'exact' : w.settings.correct ? 'normal, cc' : 'normal') : (p.error ?? '–')),
          cell(formatP(w?.p), { value: w?.p ?? null }),
          cell(formatP(p.wilcoxonAdjusted), { value: p.wilcoxonAdjusted, bold: p.wilcoxonAdjusted <= s.alpha }),
        ],
      };
    }),
  };
}

/** Win/draw/loss with sign-test p-values, significant entries in bold (HDP paper Tables 2 and 3). */
function wdlTable(c: Comparison): Table | null {
  if (c.pairs.length === 0 || !c.settings.tests.includes('sign')) return null;
  const s = c.settings;
  const rows = c.pairs.map(([a, b], i) => ({
    cells: [
      cell(`${a} vs ${b}`),
      ...c.metrics.flatMap((m) => {
        const p = m.pairs[i]!;
        if (!p.wdl || !p.sign) return [cell('–', { value: null }), cell('–', { value: null })];
        return [
          cell(wdlText(p.wdl), { bold: p.sign.p <= s.alpha, value: wdlText(p.wdl) }),
          cell(formatP(p.sign.p), { value: p.sign.p }),
        ];
      }),
    ],
  }));
  return {
    id: 'wdl',
    caption: `Win–draw–loss of a against b over datasets (a draw: |a − b| ≤ ${s.sign.tolerance}${s.digits !== null ? ` after rounding to ${s.digits} decimals` : ''}) and the two-tailed binomial sign test (draws ${s.sign.draws === 'drop' ? 'dropped' : 'split'}); bold: p ≤ ${s.alpha}.`,
    columns: [
      { header: 'a vs b', align: 'l' },
      ...c.metrics.flatMap((m) => [
        { header: `${m.metric.title} W–D–L`, align: 'c' as const },
        { header: `${m.metric.title} p`, align: 'r' as const },
      ]),
    ],
    rows,
  };
}

function choiceText(id: string, given: Readonly<Record<string, unknown>>, drop: string | null): string {
  const keys = Object.keys(given)
    .filter((k) => k !== drop)
    .sort();
  return keys.length
    ? `${id}(${keys.map((k) => `${k}=${typeof given[k] === 'string' ? given[k] : JSON.stringify(given[k])}`).join(',')})`
    : id;
}

export interface SweepComparison {
  /** The methods that differ only in the x parameter share a series name (the label without it). */
  readonly series: string;
  /** Value of the x parameter (the swept parameter unless the sweep names another x). */
  readonly x: number | string;
  readonly method: string;
  /** The same method with the swept parameter at its reference value. */
  readonly reference: string;
}

function parameterPath(path: string): ['structure' | 'estimator', string] {
  return path.split('.') as ['structure' | 'estimator', string];
}

/**
 * Every method whose swept parameter differs from the reference value, paired with the method that is
 * identical except for that parameter at the reference value.
 */
export function sweepComparisons(methods: readonly MethodSpec[], sweep: SweepSpec): SweepComparison[] {
  const [part, param] = parameterPath(sweep.parameter);
  const [xPart, xParam] = parameterPath(sweep.x ?? sweep.parameter);
  const bnc = methods.filter(
    (m) => m.kind === 'bnc' && m.estimator && param in (part === 'structure' ? m.structure : m.estimator).params,
  );
  const without = (m: MethodSpec): string =>
    JSON.stringify([
      m.structure.id,
      Object.entries(m.structure.params).filter(([k]) => !(part === 'structure' && k === param)),
      m.estimator!.id,
      Object.entries(m.estimator!.params).filter(([k]) => !(part === 'estimator' && k === param)),
    ]);
  const value = (m: MethodSpec, p: 'structure' | 'estimator', k: string): unknown =>
    (p === 'structure' ? m.structure : m.estimator!).params[k];
  const refs = new Map<string, MethodSpec>();
  for (const m of bnc) if (value(m, part, param) === sweep.reference) refs.set(without(m), m);
  const out: SweepComparison[] = [];
  for (const m of bnc) {
    if (value(m, part, param) === sweep.reference) continue;
    const ref = refs.get(without(m));
    const x = value(m, xPart, xParam);
    if (!ref || x === undefined) continue;
    const series = `${choiceText(m.structure.id, m.structure.given, xPart === 'structure' ? xParam : null)}/${choiceText(m.estimator!.id, m.estimator!.given, xPart === 'estimator' ? xParam : null)}`;
    out.push({ series, x: typeof x === 'number' ? x : String(x), method: m.label, reference: ref.label });
  }
  return out.sort(
    (a, b) =>
      a.series.localeCompare(b.series) ||
      (typeof a.x === 'number' && typeof b.x === 'number' ? a.x - b.x : String(a.x).localeCompare(String(b.x))),
  );
}

/** Training sizes within this ratio of the smallest in a group are one learning-curve point (CV folds differ by a few rows). */
export const CURVE_MERGE = 1.05;

/**
 * Learning-curve points from result rows of one or more experiments: per dataset and method, the jobs
 * sorted by n_train and grouped while n_train ≤ CURVE_MERGE × the group's smallest; each point is the mean
 * n_train and the mean metric of its group.
 */
export function curvePoints(rows: readonly ResultRow[], metric: MetricDef): (CurvePoint & { runs: number })[] {
  const groups = new Map<string, { n: number; v: number }[]>();
  for (const r of rows) {
    const k = `${r.dataset}\u0000${r.method}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push({ n: Number(r.n_train), v: Number(r[metric.key]) });
  }
  const out: (CurvePoint & { runs: number })[] = [];
  for (const [k, g] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const [dataset, method] = k.split('\u0000') as [string, string];
    g.sort((a, b) => a.n - b.n);
    for (let i = 0; i < g.length; ) {
      let j = i;
      while (j < g.length && g[j]!.n <= g[i]!.n * CURVE_MERGE) j++;
      const part = g.slice(i, j);
      out.push({
        dataset,
        method,
        nTrain: fmean(part.map((x) => x.n)),
        value: fmean(part.map((x) => x.v)),
        runs: part.length,
      });
      i = j;
    }
  }
  return out;
}

function meanByDataset(
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

/** '+0.18 [−0.05, 0.41]': net wins with the bounds of its interval. */
function netWinsText(net: { mean: number; lo: number; hi: number }): string {
  const f = (x: number): string => {
    const t = Math.abs(x).toFixed(2);
    return Number(t) === 0 ? t : `${x < 0 ? '−' : '+'}${t}`;
  };
  return `${f(net.mean)} [${f(net.lo)}, ${f(net.hi)}]`;
}

export function referenceTable(
  id: string,
  r: ReferenceResult,
  alpha: number,
  stability?: readonly ClaimStability[],
): Table {
  const title = r.ref.title ?? r.ref.path;
  const verdictCell = (v: string): TableCell => cell(v, { bold: v === 'reproduced' });
  if (r.kind === 'claims') {
    const seeds = stability?.[0]?.outcomes.map((o) => o.seed);
    return {
      id,
      caption:
        `${title}: the paper's stated claims, each evaluated on our results (docs/reports.md, "Stated claims"); per-dataset values are means over folds, tests use α = ${alpha} unless the claim gives its own threshold.` +
        (seeds
          ? ` Ours, verdict and why are seed ${seeds[0]}'s; "across seeds" evaluates the claim on each of the seeds ${seeds.join(', ')} alone (margin: method_a's value minus the other side's).`
          : ''),
      columns: [
        { header: 'id', align: 'l' },
        { header: 'source', align: 'l' },
        { header: 'claim', align: 'l' },
        { header: 'ours', align: 'l' },
        { header: 'verdict', align: 'l' },
        ...(stability ? [{ header: 'across seeds', align: 'l' as const }] : []),
        { header: 'why', align: 'l' },
        { header: 'note', align: 'l' },
      ],
      rows: r.claims.map((c, i) => ({
        cells: [
          cell(c.id),
          cell(c.source),
          cell(c.claim),
          cell(c.ours, { value: c.ours === '–' ? null : c.ours }),
          verdictCell(c.verdict),
          ...(stability ? [cell(stabilityText(stability[i]!))] : []),
          cell(c.reason),
          cell(c.note),
        ],
      })),
      notes: r.comments,
    };
  }
  if (r.kind === 'wdl') {
    const seeds = stability?.[0]?.outcomes.map((o) => o.seed);
    return {
      id,
      caption:
        `${title}: published win–draw–loss against ours (bold W–D–L: significant; ours: sign test at α = ${alpha}; net wins: (W − L) / n with its 95% paired bootstrap interval over the data sets, seeded).` +
        (seeds
          ? ` Ours, verdict and why are seed ${seeds[0]}'s; "across seeds" evaluates the row on each of the seeds ${seeds.join(', ')} alone (margin: net wins).`
          : ''),
      columns: [
        { header: 'metric', align: 'l' },
        { header: 'published a vs b', align: 'l' },
        { header: 'ours', align: 'l' },
        { header: 'published W–D–L', align: 'c' },
        { header: 'our W–D–L', align: 'c' },
        { header: 'our p', align: 'r' },
        { header: 'net wins [95% interval]', align: 'r' },
        { header: 'verdict', align: 'l' },
        ...(stability ? [{ header: 'across seeds', align: 'l' as const }] : []),
        { header: 'why', align: 'l' },
      ],
      rows: r.claims.map((c, i) => ({
        cells: [
          cell(metricDef(c.metric).title, { value: c.metric }),
          cell(`${c.methodA} vs ${c.methodB}`),
          cell(c.ourA && c.ourB ? `${c.ourA} vs ${c.ourB}` : '–'),
          cell(wdlText(c.published), { bold: c.published.significant }),
          cell(c.ours ? wdlText(c.ours) : '–', { bold: c.ours?.significant ?? false }),
          cell(formatP(c.ours?.p), { value: c.ours?.p ?? null }),
          cell(c.ours?.net ? netWinsText(c.ours.net) : '–', { value: c.ours?.net ? netWinsText(c.ours.net) : null }),
          verdictCell(c.verdict),
          ...(stability ? [cell(stabilityText(stability[i]!))] : []),
          cell(c.reason),
        ],
      })),
      notes: r.comments,
    };
  }
  return {
    id,
    caption: `${title}: published values${r.ref.scale !== 1 ? ` (× ${r.ref.scale})` : ''} beside ours (per-dataset means over folds); reproduced when they differ by at most ${r.ref.tolerance}.`,
    columns: [
      { header: 'dataset', align: 'l' },
      { header: 'method', align: 'l' },
      { header: 'metric', align: 'l' },
      { header: 'published', align: 'r' },
      { header: 'ours', align: 'r' },
      { header: 'difference', align: 'r' },
      { header: 'verdict', align: 'l' },
    ],
    rows: r.claims.map((c) => {
      const d = metricDef(c.metric).digits;
      return {
        cells: [
          cell(c.ourDataset && c.ourDataset !== c.dataset ? `${c.dataset} (${c.ourDataset})` : c.dataset, {
            value: c.dataset,
          }),
          cell(c.ourMethod && c.ourMethod !== c.method ? `${c.method} (${c.ourMethod})` : c.method, {
            value: c.method,
          }),
          cell(metricDef(c.metric).title, { value: c.metric }),
          cell(fixed(c.published, d), { value: c.published }),
          cell(fixed(c.ours, d), { value: c.ours }),
          cell(c.difference === null ? '–' : `${c.difference >= 0 ? '+' : '−'}${Math.abs(c.difference).toFixed(d)}`, {
            value: c.difference,
          }),
          verdictCell(c.verdict),
        ],
      };
    }),
    notes: r.comments,
  };
}

/**
 * What every section builder shares: the input, the comparison computed once, and the registers of tables
 * and figures. Ids and the order of `tables` / `figures` follow the order in which the builders run, which
 * is the order of the sections in the report.
 */
interface ReportContext {
  readonly input: ReportInput;
  readonly s: CompareSpec;
  readonly labels: readonly string[];
  readonly digits: number | undefined;
  readonly comparison: Comparison;
  /**
   * The rows the statistics read: every row but those of a dataset × method with fewer finished folds than
   * planned (summary.ts partialGroups), which no test compares with complete ones.
   */
  readonly statRows: readonly ResultRow[];
  /** Per-metric summaries for display: datasets in the spec's order (input.datasets). */
  readonly summaries: readonly SummaryTable[];
  readonly references: readonly ReferenceResult[];
  readonly tableId: (stem: string) => string;
  readonly figureId: (stem: string) => string;
  readonly tables: Table[];
  readonly figures: Figure[];
  /** Registers a table (none when null) and returns its block(s). */
  addTable(t: Table | null): Block[];
  /** Registers a figure and returns its block. */
  addFigure(f: Figure): Block;
}

type SectionBuilder = (c: ReportContext) => Section[] | Promise<Section[]>;

/** The spec, its hash, the run settings and the job counts, above the first section. */
function introBlocks(input: ReportInput): Block[] {
  const missing = input.expectedJobs - input.rows.length - input.failed.length;
  return [
    { kind: 'p', text: `Spec ${input.specFile} (sha256 ${input.specHash.slice(0, 12)}).` },
    {
      kind: 'list',
      items: [
        ...Object.entries(input.settings).map(([k, v]) => `${k}: ${v}`),
        `jobs: ${input.rows.length} done, ${input.failed.length} failed${missing > 0 ? `, ${missing} not run yet` : ''} (of ${input.expectedJobs})`,
      ],
    },
  ];
}

/** One results table per metric with data (mean ± sd per dataset × method, averages, ranks). */
function metricSections(c: ReportContext): Section[] {
  return c.summaries
    .filter((t) => t.datasets.length > 0)
    .map((t) => ({
      title: `${t.metric.title} (${t.metric.higherIsBetter ? 'higher' : 'lower'} is better)`,
      level: 2,
      blocks: c.addTable(
        metricTable(
          c.tableId(t.metric.key),
          t,
          c.s,
          t.ranks,
          c.input.planned,
          c.input.datasets,
          c.input.methods.map((m) => m.label),
          c.input.failed,
        ),
      ),
    }));
}

/** The settings of the comparisons, their notes and cautions. */
function comparisonOverviewSection(c: ReportContext): Section[] {
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

function friedmanSection(c: ReportContext): Section[] {
  const fr = friedmanTable(c.comparison);
  return fr ? [{ title: 'Friedman and Iman–Davenport tests', level: 3, blocks: c.addTable(fr) }] : [];
}

/** Per metric: the post-hoc table against the control and the critical-difference diagram. */
async function controlSections(c: ReportContext): Promise<Section[]> {
  const { s, comparison } = c;
  const sections: Section[] = [];
  for (const m of comparison.metrics) {
    const b: Block[] = [];
    if (s.tests.includes('posthoc')) b.push(...c.addTable(posthocTable(c.tableId(`posthoc-${m.metric.key}`), m, s)));
    if (m.cd && s.tests.includes('cd')) {
      const procedure = m.cd.procedure === 'nemenyi' ? `Nemenyi, α = ${s.alpha}` : `Bonferroni–Dunn, α = ${s.alpha}`;
      // Bonferroni–Dunn compares with a control only: draw the CD from the control, no group bars.
      const groups = m.cd.procedure === 'nemenyi' ? cliques(m.meanRanks, m.cd.cd) : [];
      b.push(
        c.addFigure(
          await cdFigure(
            c.figureId(`cd-${m.metric.key}`),
            m.metric.title,
            m.methods,
            m.meanRanks,
            m.cd.cd,
            groups,
            procedure,
          ),
        ),
      );
    }
    const disagree = posthocCautions(m, comparison);
    if (disagree.length) b.push({ kind: 'list', items: disagree });
    if (b.length) sections.push({ title: `${m.metric.title}: comparisons with the control`, level: 3, blocks: b });
  }
  return sections;
}

/**
 * With one dataset there is nothing to compare across datasets: a sign or Wilcoxon test of one pair has
 * p = 1 whatever the numbers, and a scatter plot one point. Those sections are left out (the caution above
 * says so and names the tests on the dataset's folds, which are valid).
 */
function oneDataset(c: ReportContext): boolean {
  return c.comparison.metrics.every((m) => m.datasets.length < 2);
}

function wdlSection(c: ReportContext): Section[] {
  if (oneDataset(c)) return [];
  const wdl = wdlTable(c.comparison);
  return wdl ? [{ title: 'Win/draw/loss and sign tests', level: 3, blocks: c.addTable(wdl) }] : [];
}

function wilcoxonSection(c: ReportContext): Section[] {
  if (oneDataset(c)) return [];
  const wil = c.comparison.metrics.flatMap((m) =>
    c.addTable(wilcoxonTable(c.tableId(`wilcoxon-${m.metric.key}`), m, c.s)),
  );
  return wil.length ? [{ title: 'Wilcoxon signed-rank tests', level: 3, blocks: wil }] : [];
}

/** The statistics chosen in compare.tests beyond the classical ones (stats-sections.ts). */
function extraSections(c: ReportContext): Promise<Section[]> {
  return extraStatisticsSections({
    comparison: c.comparison,
    rows: c.statRows,
    seed: c.input.settings['seed'] ?? '',
    tableId: c.tableId,
    figureId: c.figureId,
    addTable: (t) => c.addTable(t),
    addFigure: (f) => c.addFigure(f),
  });
}

/** compare.scatter: per metric and compared pair, one point per dataset. */
async function scatterSection(c: ReportContext): Promise<Section[]> {
  const { comparison } = c;
  if (!c.s.scatter || !comparison.pairs.length || oneDataset(c)) return [];
  const b: Block[] = [];
  for (const m of comparison.metrics) {
    const means = meanByDataset(c.statRows, m.metric, undefined);
    for (const [a, bb] of comparison.pairs) {
      const pts = [...means.entries()].flatMap(([d, mm]) => {
        const va = mm.get(a);
        const vb = mm.get(bb);
        return va !== undefined && vb !== undefined ? [{ dataset: d, a: va, b: vb }] : [];
      });
      if (pts.length)
        b.push(
          c.addFigure(
            await scatterFigure(
              c.figureId(`scatter-${m.metric.key}-${a}-vs-${bb}`),
              a,
              bb,
              m.metric.title,
              m.metric.higherIsBetter,
              pts,
            ),
          ),
        );
    }
  }
  return b.length ? [{ title: 'Scatter plots', level: 3, blocks: b }] : [];
}

/** Box plots of the per-fold values of the first compared metric, one panel per dataset. */
async function foldBoxplotSection(c: ReportContext): Promise<Section[]> {
  const boxMetric = c.comparison.metrics[0];
  if (!boxMetric) return [];
  const values = c.input.rows.flatMap((r) => {
    const v = r[boxMetric.metric.key];
    return v === null || v === undefined ? [] : [{ dataset: r.dataset, method: r.method, value: Number(v) }];
  });
  if (!values.length) return [];
  const f = await foldBoxplotFigure(
    c.figureId(`folds-${boxMetric.metric.key}`),
    boxMetric.metric.title,
    c.labels,
    values,
  );
  return [
    {
      title: `Per-fold ${boxMetric.metric.title.toLowerCase()} by dataset`,
      level: 3,
      blocks: [c.addFigure(f)],
    },
  ];
}

/** compare.sweeps: wins, draws and losses of each swept method against its reference value. */
async function sweepSections(c: ReportContext): Promise<Section[]> {
  const { s } = c;
  const sections: Section[] = [];
  for (const sw of s.sweeps) {
    const comparisons = sweepComparisons(c.input.methods, sw);
    const xName = sw.x ?? sw.parameter;
    const metricKeys: CompareMetric[] = sw.metric ? [sw.metric] : [...s.metrics];
    const b: Block[] = [];
    for (const key of metricKeys) {
      const metric = metricDef(key);
      const means = meanByDataset(c.statRows, metric, c.digits);
      const points: SweepPoint[] = [];
      const rows: TableRow[] = [];
      for (const sc of comparisons) {
        let w = 0;
        let d = 0;
        let l = 0;
        for (const mm of means.values()) {
          const x = mm.get(sc.method);
          const r = mm.get(sc.reference);
          if (x === undefined || r === undefined) continue;
          const diff = x - r;
          if (Math.abs(diff) <= s.sign.tolerance) d++;
          else if (diff > 0 === metric.higherIsBetter) w++;
          else l++;
        }
        if (w + d + l === 0) continue;
        points.push({ series: sc.series, x: sc.x, wins: w, losses: l });
        rows.push({
          cells: [
            cell(sc.method),
            cell(sc.reference),
            cell(String(sc.x), { value: sc.x }),
            cell(String(w), { value: w }),
            cell(String(d), { value: d }),
            cell(String(l), { value: l }),
          ],
        });
      }
      if (points.length === 0) continue;
      b.push(
        ...c.addTable({
          id: c.tableId(`sweep-${sw.parameter}${sw.x ? `-by-${sw.x}` : ''}-${key}`),
          caption: `${metric.title}: wins, draws and losses over datasets of each method against the same method with ${sw.parameter} = ${String(sw.reference)}.`,
          columns: [
            { header: 'method', align: 'l' },
            { header: 'against', align: 'l' },
            { header: xName, align: 'r' },
            { header: 'wins', align: 'r' },
            { header: 'draws', align: 'r' },
            { header: 'losses', align: 'r' },
          ],
          rows,
        }),
      );
      b.push(
        c.addFigure(
          await winLossSweepFigure(
            c.figureId(`sweep-${sw.parameter}${sw.x ? `-by-${sw.x}` : ''}-${key}`),
            sw.parameter,
            sw.reference,
            xName,
            metric.title,
            points,
          ),
        ),
      );
    }
    if (b.length)
      sections.push({ title: `Win/loss against ${sw.parameter} = ${String(sw.reference)}`, level: 3, blocks: b });
  }
  return sections;
}

/** Every statistical section, in report order; none without results. */
const STATISTICS: readonly SectionBuilder[] = [
  comparisonOverviewSection,
  friedmanSection,
  controlSections,
  wdlSection,
  wilcoxonSection,
  extraSections,
  scatterSection,
  foldBoxplotSection,
  sweepSections,
];

async function statisticsSections(c: ReportContext): Promise<Section[]> {
  if (c.input.rows.length === 0) return [];
  return runBuilders(c, STATISTICS);
}

/** compare.learning_curve: the metric against the training size, across experiments in the same database. */
async function learningCurveSection(c: ReportContext): Promise<Section[]> {
  const { s, input } = c;
  if (!s.learningCurve || !input.curveRows) return [];
  const curveRows = input.curveRows;
  const keys: CompareMetric[] = s.learningCurve.metric ? [s.learningCurve.metric] : [...s.metrics];
  const b: Block[] = [];
  for (const key of keys) {
    const metric = metricDef(key);
    const points = curvePoints([...curveRows.values()].flat(), metric);
    if (points.length === 0) continue;
    b.push(
      ...c.addTable({
        id: c.tableId(`learning-curve-${key}`),
        caption: `${metric.title} (mean over the runs) against the number of training rows, per dataset and method, over experiment(s) ${[...curveRows.keys()].join(', ')}; training sizes within ${Math.round((CURVE_MERGE - 1) * 100)}% of each other form one point.`,
        columns: [
          { header: 'dataset', align: 'l' },
          { header: 'method', align: 'l' },
          { header: 'training rows', align: 'r' },
          { header: 'runs', align: 'r' },
          { header: metric.title, align: 'r' },
        ],
        rows: points.map((p) => ({
          cells: [
            cell(p.dataset),
            cell(p.method),
            cell(fixed(p.nTrain, 1), { value: p.nTrain }),
            cell(String(p.runs), { value: p.runs }),
            cell(fixed(p.value, metric.digits), { value: p.value }),
          ],
        })),
      }),
    );
    b.push(c.addFigure(await learningCurveFigure(c.figureId(`learning-curve-${key}`), metric.title, points)));
  }
  return b.length ? [{ title: 'Learning curves', level: 3, blocks: b }] : [];
}

/** Drawings of the learned structures (structures.ts), when the arcs were read. */
function learnedStructureSection(c: ReportContext): Section[] {
  if (!c.input.arcs) return [];
  const learned = learnedStructuresSection(c.input.rows, c.input.arcs, c.figureId);
  if (!learned) return [];
  return [{ ...learned, blocks: learned.blocks.map((b) => (b.kind === 'figure' ? c.addFigure(b.figure) : b)) }];
}

/** compare.diagnostics: structure diagnostics stored per job. */
function diagnosticsSection(c: ReportContext): Section[] {
  const { s, input } = c;
  if (!s.diagnostics.length) return [];
  const blocks: Block[] = [];
  for (const key of s.diagnostics) {
    const t = input.structureInfo
      ? diagnosticTable(c.tableId(`diagnostics-${key}`), key, input.rows, input.structureInfo, c.labels)
      : null;
    blocks.push(
      ...(t
        ? c.addTable(t)
        : [{ kind: 'p' as const, text: `No job of this experiment stores ${key} (${diagnosticTitle(key)}).` }]),
    );
  }
  return [{ title: 'Structure diagnostics', level: 2, blocks }];
}

/** The claims whose margin is within noise (their bootstrap interval covers zero), when there are any. */
function noiseText(verdicts: readonly string[]): string {
  const n = (v: string): number => verdicts.filter((x) => x === v).length;
  const dir = n('direction reproduced, not significant');
  const tie = n('tie within noise');
  return (dir ? `${dir} direction reproduced but not significant, ` : '') + (tie ? `${tie} tie within noise, ` : '');
}

/**
 * A claims file evaluated on each seed's rows alone (a multi-seed experiment), as the first seed's are: the
 * dataset × method cells with fewer finished folds than planned left out. Undefined for one seed.
 */
function seedStability(c: ReportContext, ref: ReferenceSpec): ClaimStability[] | undefined {
  const seeds = c.input.seedRows;
  if (!seeds || seeds.length < 2) return undefined;
  return claimStability(
    seeds.map(({ seed, rows }) => {
      const partial = partialGroups(rows, c.input.planned);
      const statRows = partial.size ? rows.filter((r) => !partial.has(`${r.dataset}\u0000${r.method}`)) : rows;
      const result = evaluateReference(ref, statRows, c.labels, c.s, c.input.structureInfo);
      const claims =
        result.kind === 'claims'
          ? result.claims.map(statedClaimOutcome)
          : result.kind === 'wdl'
            ? result.claims.map(wdlOutcome)
            : [];
      return { seed, claims };
    }),
  );
}

/** reference: the published numbers and claims against ours, a summary and one section per file. */
function reproductionSections(c: ReportContext): Section[] {
  const { references } = c;
  if (!references.length) return [];
  const all: string[] = references.flatMap((r) => r.claims.map((cl) => cl.verdict));
  const notEvaluable = all.filter((v) => v === 'not evaluable').length;
  const sections: Section[] = [
    {
      title: 'Reproduction of published results',
      level: 2,
      blocks: [
        {
          kind: 'p',
          text: `${all.filter((v) => v === 'reproduced').length} of ${all.length} published claims reproduced, ${noiseText(all)}${all.filter((v) => v === 'not reproduced').length} not reproduced, ${all.filter((v) => v === 'no data').length} without our data${notEvaluable ? `, ${notEvaluable} not evaluable here` : ''}.`,
        },
      ],
    },
  ];
  for (const r of references) {
    const stability = r.kind !== 'cells' ? seedStability(c, r.ref) : undefined;
    const t = referenceTable(
      c.tableId(`reference-${r.ref.path.replace(/^.*[\\/]/, '').replace(/\.csv$/i, '')}`),
      r,
      c.s.alpha,
      stability,
    );
    const counts = (v: string): number =>
      (r.claims as readonly { verdict: string }[]).filter((cl) => cl.verdict === v).length;
    sections.push({
      title: r.ref.title ?? r.ref.path,
      level: 3,
      blocks: [
        {
          kind: 'p',
          text:
            r.kind === 'claims'
              ? `${counts('reproduced')} reproduced, ${noiseText(r.claims.map((cl) => cl.verdict))}${counts('not reproduced')} not reproduced, ${counts('not evaluable')} not evaluable here (${r.ref.path}).` +
                (stability?.length ? ` ${stabilitySummary(stability)}` : '')
              : `${counts('reproduced')} reproduced, ${noiseText(r.claims.map((cl) => cl.verdict))}${counts('not reproduced')} not reproduced, ${counts('no data')} without our data (${r.ref.path}).` +
                (stability?.length ? ` ${stabilitySummary(stability)}` : ''),
        },
        ...c.addTable(t),
      ],
    });
  }
  return sections;
}

function failedJobsSection(c: ReportContext): Section[] {
  const { failed } = c.input;
  if (!failed.length) return [];
  return [
    {
      title: 'Failed jobs',
      level: 2,
      blocks: c.addTable({
        id: c.tableId('failed-jobs'),
        caption: 'Jobs that failed; their folds are missing from the means above.',
        columns: [
          { header: 'dataset', align: 'l' },
          { header: 'method', align: 'l' },
          { header: 'repeat', align: 'r' },
          { header: 'fold', align: 'r' },
          { header: 'error', align: 'l' },
        ],
        rows: failed.map((f) => ({
          cells: [
            cell(f.dataset),
            cell(f.method),
            cell(String(f.repeat), { value: f.repeat }),
            cell(String(f.fold), { value: f.fold }),
            cell(f.error),
          ],
        })),
      }),
    },
  ];
}

/** The report's sections, in order. */
const SECTIONS: readonly SectionBuilder[] = [
  metricSections,
  statisticsSections,
  learningCurveSection,
  learnedStructureSection,
  (c) => predictionCurvesSection(c.input.curves, c.figureId, (f) => c.addFigure(f)),
  diagnosticsSection,
  reproductionSections,
  failedJobsSection,
];

/** Runs the builders one after another (ids and figure order depend on it), concatenating their sections. */
async function runBuilders(c: ReportContext, builders: readonly SectionBuilder[]): Promise<Section[]> {
  const sections: Section[] = [];
  for (const build of builders) sections.push(...(await build(c)));
  return sections;
}

/**
 * The table with its datasets in the spec's order (those the order does not name after them, by name); the
 * averages and ranks are the table's own, computed in name order, so the order changes no number.
 */
export function inDatasetOrder(t: SummaryTable, order: readonly string[] | undefined): SummaryTable {
  if (!order) return t;
  const at = new Map(order.map((d, i) => [d, i]));
  const idx = [...t.datasets.keys()].sort((a, b) => {
    const x = at.get(t.datasets[a]!) ?? Infinity;
    const y = at.get(t.datasets[b]!) ?? Infinity;
    return x !== y ? x - y : a - b;
  });
  return { ...t, datasets: idx.map((i) => t.datasets[i]!), cells: idx.map((i) => t.cells[i]!) };
}

export async function buildReport(input: ReportInput): Promise<ReportDoc> {
  const s = input.compare;
  const labels = input.methods.map((m) => m.label);
  const digits = s.digits ?? undefined;
  const comparison = compareResults(input.rows, labels, s, input.planned);
  const partial = partialGroups(input.rows, input.planned);
  const statRows = partial.size ? input.rows.filter((r) => !partial.has(`${r.dataset}\u0000${r.method}`)) : input.rows;
  const tables: Table[] = [];
  const figures: Figure[] = [];
  const c: ReportContext = {
    input,
    s,
    labels,
    digits,
    comparison,
    statRows,
    summaries: REPORT_METRICS.map((m) =>
      inDatasetOrder(
        comparison.metrics.find((x) => x.metric.key === m.key)?.table ??
          summarize(input.rows, labels, m, digits, input.planned),
        input.datasets,
      ),
    ),
    references: input.reference.map((r) => evaluateReference(r, statRows, labels, s, input.structureInfo)),
    tableId: uniqueIds(),
    figureId: uniqueIds(),
    tables,
    figures,
    addTable(t) {
      if (!t) return [];
      tables.push(t);
      return [{ kind: 'table', table: t }];
    },
    addFigure(f) {
      figures.push(f);
      return { kind: 'figure', figure: f };
    },
  };
  const sections = await runBuilders(c, SECTIONS);
  return {
    title: `${input.experiment}: results`,
    experiment: input.experiment,
    intro: introBlocks(input),
    sections,
    tables,
    figures,
    comparison,
    references: c.references,
    summaries: c.summaries,
  };
}
