/**
 * Per dataset × method the mean ± sd of each metric over folds, with the average over the datasets on
 * which every method has results and the average ranks there (SubbKB 2022, Table 3).
 */
import type { ResultRow } from '../store/db.js';
import { SCORE_METRICS } from '../metrics/all.js';
import { averageRanks } from '../stats/ranks.js';
import { roundDecimals } from '../stats/validate.js';
import { fmean, fsum } from '../stats/fsum.js';
import { cellKey, splitCellKey } from '../util/keys.js';

export interface MetricDef {
  readonly key: keyof ResultRow & string;
  readonly title: string;
  readonly higherIsBetter: boolean;
  readonly digits: number;
}

/** The registry's compared metrics (src/metrics/all.ts), then the training time. */
export const REPORT_METRICS: readonly MetricDef[] = [
  ...SCORE_METRICS.map((m) => ({
    key: m.id,
    title: m.title,
    higherIsBetter: m.direction === 'higher',
    digits: m.digits,
  })),
  { key: 'train_ms', title: 'Training time (ms)', higherIsBetter: false, digits: 1 },
];

interface Cell {
  readonly mean: number;
  readonly sd: number;
  /** Folds (repeat × fold jobs) with a value. */
  readonly n: number;
  /** Folds the spec's plan has for this dataset × method; absent when the plan is not known. */
  readonly planned?: number;
  /** Folds on which the metric is undefined (NaN), when there are any: the mean is then NaN. */
  readonly undefinedFolds?: number;
}

export interface SummaryTable {
  readonly metric: MetricDef;
  readonly datasets: readonly string[];
  readonly methods: readonly string[];
  /** cells[d][m], undefined where no job finished. */
  readonly cells: readonly (readonly (Cell | undefined)[])[];
  /** Mean over the datasets where every method has a value. */
  readonly average: readonly number[];
  /** Average ranks (1 = best) over the same complete datasets; ties get the mean rank. */
  readonly ranks: readonly number[];
  readonly completeDatasets: number;
}

/**
 * @param rankDigits round the per-dataset means to this many decimals before ranking (the compare
 *   section's `digits`); undefined ranks the unrounded means.
 */
export function summarize(
  rows: readonly ResultRow[],
  methodOrder: readonly string[],
  metric: MetricDef,
  rankDigits?: number,
  planned?: PlannedFolds,
): SummaryTable {
  // Jobs stored before a metric existed have NULL for it: they are left out, never read as 0.
  rows = rows.filter((r) => r[metric.key] !== null && r[metric.key] !== undefined);
  const datasets = [...new Set(rows.map((r) => r.dataset))].sort();
  const present = new Set(rows.map((r) => r.method));
  const methods = methodOrder.filter((m) => present.has(m));
  const groups = new Map<string, number[]>();
  for (const r of rows) {
    const k = cellKey(r.dataset, r.method);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(Number(r[metric.key]));
  }
  const cells = datasets.map((d) =>
    methods.map((m) => {
      const v = groups.get(cellKey(d, m));
      const p = planned?.get(cellKey(d, m));
      return v ? { ...meanSd(v), ...(p !== undefined ? { planned: p } : {}) } : undefined;
    }),
  );
  const complete = cells.filter((row) => row.every(hasValue)) as Cell[][];
  const average = methods.map((_, j) => (complete.length ? fmean(complete.map((row) => row[j].mean)) : NaN));
  const ranks = complete.length
    ? averageRanks(
        complete.map((row) => row.map((c) => roundDecimals(c.mean, rankDigits))),
        { higherIsBetter: metric.higherIsBetter },
      ).meanRanks
    : methods.map(() => NaN);
  return { metric, datasets, methods, cells, average, ranks, completeDatasets: complete.length };
}

/**
 * A cell that counts towards averages, ranks and tests: a job finished and its mean is a number, over every
 * fold the plan has. A mean is NaN where the metric is undefined on some fold (e.g. AUC when a test fold
 * lacks a class); such a dataset is left out of that metric's comparison like one with a missing job, not
 * passed on to the tests as NaN. A cell with fewer folds than planned (jobs failed or not run yet) is left out
 * the same way: its mean is over other test rows than the other methods' means, so comparing them would
 * compare different data without saying so.
 */
export function hasValue(c: Cell | undefined): c is Cell {
  return c !== undefined && Number.isFinite(c.mean) && !isPartial(c);
}

/** Fewer folds finished than the plan has (failed or not run yet). */
export function isPartial(c: Cell | undefined): boolean {
  return c !== undefined && c.planned !== undefined && c.n < c.planned;
}

/** Planned folds per dataset × method, keyed `dataset\0method`. */
export type PlannedFolds = ReadonlyMap<string, number>;

/**
 * The dataset × method groups (`dataset\0method`) of `rows` with some but fewer rows than planned: jobs failed
 * or not run yet. Groups the plan does not list are not partial (nothing to compare with).
 */
function partialGroups(rows: readonly ResultRow[], planned: PlannedFolds | undefined): Set<string> {
  return new Set(unfinishedCells(rows, planned).flatMap((u) => (u.done > 0 ? [cellKey(u.dataset, u.method)] : [])));
}

/** A dataset × method of the plan with fewer finished folds than it plans (jobs not run yet or failed). */
export interface UnfinishedCell {
  readonly dataset: string;
  readonly method: string;
  readonly done: number;
  readonly planned: number;
}

/**
 * Every dataset × method of the plan whose finished folds in `rows` are fewer than planned, none finished
 * included, in the plan's order; none when the plan is not known. What a verdict on these rows cannot see yet.
 */
export function unfinishedCells(rows: readonly ResultRow[], planned: PlannedFolds | undefined): UnfinishedCell[] {
  if (!planned) return [];
  const n = new Map<string, number>();
  for (const r of rows) {
    const k = cellKey(r.dataset, r.method);
    n.set(k, (n.get(k) ?? 0) + 1);
  }
  const out: UnfinishedCell[] = [];
  for (const [k, p] of planned) {
    const done = n.get(k) ?? 0;
    if (done >= p) continue;
    const [dataset, method] = splitCellKey(k);
    out.push({ dataset, method, done, planned: p });
  }
  return out;
}

/**
 * Why a verdict that reads these methods on these datasets (every dataset when `datasets` is undefined) is
 * provisional: the unfinished cells among them, whose results could still change it; null when it reads none.
 */
export function provisionalReason(
  unfinished: readonly UnfinishedCell[],
  methods: readonly string[],
  datasets?: readonly string[],
): string | null {
  const ms = new Set(methods);
  const ds = datasets && new Set(datasets);
  const hit = unfinished.filter((u) => ms.has(u.method) && (!ds || ds.has(u.dataset)));
  if (hit.length === 0) return null;
  if (hit.length === 1) {
    const u = hit[0];
    return `provisional: ${u.method} on ${u.dataset} has ${u.done} of ${u.planned} folds finished (jobs not run yet or failed)`;
  }
  const on = [...new Set(hit.map((u) => u.dataset))];
  return `provisional: ${hit.length} dataset × method cells it reads are unfinished (jobs not run yet or failed), on ${on.join(', ')}`;
}

/**
 * The rows the statistics read: every row but those of a dataset × method with fewer finished folds than
 * planned ({@link partialGroups}), which no test compares with complete ones.
 */
export function completeRows(rows: readonly ResultRow[], planned: PlannedFolds | undefined): readonly ResultRow[] {
  const partial = partialGroups(rows, planned);
  return partial.size ? rows.filter((r) => !partial.has(cellKey(r.dataset, r.method))) : rows;
}

function meanSd(v: number[]): Cell {
  const n = v.length;
  // Correctly rounded sums: the same fold values in any order give the same bits (src/stats/fsum.ts).
  const mean = fmean(v);
  const sd = n > 1 ? Math.sqrt(fsum(v.map((b) => (b - mean) ** 2)) / (n - 1)) : 0;
  const undefinedFolds = v.filter((x) => !Number.isFinite(x)).length;
  return { mean, sd, n, ...(undefinedFolds > 0 ? { undefinedFolds } : {}) };
}

/** Rows grouped per dataset × method (in order of first appearance), each group in (repeat, fold) order. */
export function foldGroups(rows: readonly ResultRow[]): ResultRow[][] {
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const k = cellKey(r.dataset, r.method);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(r);
  }
  for (const g of groups.values()) g.sort((a, b) => a.repeat - b.repeat || a.fold - b.fold);
  return [...groups.values()];
}
