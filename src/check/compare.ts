/**
 * The regression gate: current results against a baseline, per dataset × method × metric.
 *
 * A dataset × method fails when, on any checked metric,
 * - its mean is worse than the baseline's by more than `tolerance` points (1 point = 0.01 in the metric's
 *   unit: a percentage point of accuracy, 0.01 of RMSE), or
 * - it is significantly worse over folds: one-sided paired Wilcoxon signed-rank test (R wilcox.test
 *   conventions: exact when n < 50 without ties or zeros) of the per-fold values against the baseline's
 *   at level `alpha`, when both have the same folds of the same split;
 * - with `anyChange`, also when the mean is *better* by more than the tolerance (the baseline is stale);
 * - or when it has no current results at all (a job failed or the spec dropped it).
 * Per-fold differences below 1e-9 count as no change (floating-point noise), and so do mean changes below
 * 1e-7 points.
 */
import type { ResultRow } from '../store/db.js';
import { wilcoxonSignedRank } from '../stats/wilcoxon.js';
import { scoreMetric } from '../metrics/all.js';
import type { CompareMetric } from '../spec/report-sections.js';
import { baselineEntries, type BaselineEntry, type BaselineFile } from './baseline.js';
import { cellKey } from '../util/keys.js';

const FOLD_EPSILON = 1e-9;
const POINT_EPSILON = 1e-7;

export interface CheckOptions {
  /** Allowed worsening of a mean, in points (0.01 of the metric's unit). Default 0. */
  readonly tolerance: number;
  /** Level of the one-sided paired test over folds. Default 0.05. */
  readonly alpha: number;
  readonly metrics: readonly CompareMetric[];
  /** Fail on a change in either direction beyond the tolerance. Default false. */
  readonly anyChange: boolean;
}

export const DEFAULT_CHECK: CheckOptions = {
  tolerance: 0,
  alpha: 0.05,
  metrics: ['accuracy', 'rmse'],
  anyChange: false,
};

type MetricStatus = 'same' | 'better' | 'worse' | 'within tolerance' | 'significantly worse' | 'changed';

interface MetricCheck {
  readonly metric: CompareMetric;
  readonly baseline: number;
  readonly current: number;
  /** Change of the mean in points, positive = better. */
  readonly change: number;
  /** One-sided p of "current is worse" over folds; null when the folds cannot be paired. */
  readonly p: number | null;
  readonly folds: number;
  readonly status: MetricStatus;
  readonly failed: boolean;
}

export interface EntryCheck {
  readonly dataset: string;
  readonly method: string;
  readonly status: 'pass' | 'fail' | 'new' | 'missing';
  readonly metrics: readonly MetricCheck[];
  /** Why it failed, one phrase per failing metric. */
  readonly reasons: readonly string[];
}

export interface CheckResult {
  readonly experiment: string;
  readonly options: CheckOptions;
  readonly entries: readonly EntryCheck[];
  readonly failures: readonly EntryCheck[];
  readonly notes: readonly string[];
  readonly passed: boolean;
}

function samefolds(a: BaselineEntry, b: BaselineEntry): boolean {
  return a.folds.length === b.folds.length && a.folds.every((f, i) => f[0] === b.folds[i][0] && f[1] === b.folds[i][1]);
}

export function formatPoints(x: number): string {
  const s = Math.abs(x) < 0.005 ? '0.00' : Math.abs(x).toFixed(2);
  return `${x < 0 && s !== '0.00' ? '−' : x > 0 && s !== '0.00' ? '+' : ''}${s}`;
}

function checkMetric(
  metric: CompareMetric,
  base: BaselineEntry,
  cur: BaselineEntry,
  pairable: boolean,
  o: CheckOptions,
): MetricCheck | null {
  const b = base.metrics[metric];
  const c = cur.metrics[metric];
  if (!b || !c) return null;
  const higher = scoreMetric(metric).direction === 'higher';
  const change = (c.mean - b.mean) * 100 * (higher ? 1 : -1);
  let p: number | null = null;
  if (pairable && samefolds(base, cur)) {
    const t = wilcoxonSignedRank(c.folds, b.folds, {
      alternative: higher ? 'less' : 'greater',
      tolerance: FOLD_EPSILON,
    });
    p = Number.isNaN(t.p) ? null : t.p;
  }
  const worse = -change > o.tolerance + POINT_EPSILON;
  const significantlyWorse = p !== null && p <= o.alpha && change < 0;
  const changed = Math.abs(change) > o.tolerance + POINT_EPSILON;
  let status: MetricStatus;
  if (worse) status = 'worse';
  else if (significantlyWorse) status = 'significantly worse';
  else if (o.anyChange && changed) status = 'changed';
  else if (Math.abs(change) <= POINT_EPSILON) status = 'same';
  else status = change > 0 ? 'better' : 'within tolerance';
  return {
    metric,
    baseline: b.mean,
    current: c.mean,
    change,
    p,
    folds: c.folds.length,
    status,
    failed: status === 'worse' || status === 'significantly worse' || status === 'changed',
  };
}

/**
 * @param splitsMatch per dataset, whether the baseline's split key equals the current one (paired tests
 *   need the same folds); a dataset absent from the map counts as matching.
 */
export function checkResults(
  baseline: BaselineFile,
  rows: readonly ResultRow[],
  o: CheckOptions,
  splitsMatch: ReadonlyMap<string, boolean> = new Map(),
): CheckResult {
  const current = new Map(baselineEntries(rows).map((e) => [cellKey(e.dataset, e.method), e]));
  const entries: EntryCheck[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const base of baseline.results) {
    const key = cellKey(base.dataset, base.method);
    seen.add(key);
    const cur = current.get(key);
    if (!cur) {
      entries.push({
        dataset: base.dataset,
        method: base.method,
        status: 'missing',
        metrics: [],
        reasons: ['no current results (a job failed, or the spec no longer has it)'],
      });
      continue;
    }
    const pairable = splitsMatch.get(base.dataset) ?? true;
    const metrics = o.metrics.flatMap((m) => checkMetric(m, base, cur, pairable, o) ?? []);
    const reasons = metrics
      .filter((m) => m.failed)
      .map((m) => {
        const t = scoreMetric(m.metric);
        const what = `${t.title} ${m.baseline.toFixed(4)} → ${m.current.toFixed(4)} (${formatPoints(m.change)} points`;
        if (m.status === 'worse')
          return `${what}, worse than the tolerance ${o.tolerance}${m.p !== null ? `; p = ${m.p.toPrecision(3)} over ${m.folds} folds` : ''})`;
        if (m.status === 'significantly worse')
          return `${what}; significantly worse over ${m.folds} folds, p = ${m.p!.toPrecision(3)} ≤ ${o.alpha})`;
        return `${what}; changed beyond the tolerance, --any-change)`;
      });
    entries.push({
      dataset: base.dataset,
      method: base.method,
      status: reasons.length ? 'fail' : 'pass',
      metrics,
      reasons,
    });
  }
  for (const [key, cur] of current) {
    if (!seen.has(key))
      entries.push({ dataset: cur.dataset, method: cur.method, status: 'new', metrics: [], reasons: [] });
  }
  const unpaired = [...splitsMatch.entries()].filter(([, ok]) => !ok).map(([d]) => d);
  if (unpaired.length)
    notes.push(`the folds of ${unpaired.join(', ')} differ from the baseline's: only means are compared there`);
  const missingMetrics = o.metrics.filter((m) => !baseline.results.some((e) => e.metrics[m]));
  if (missingMetrics.length) notes.push(`the baseline has no ${missingMetrics.join(', ')}`);
  const news = entries.filter((e) => e.status === 'new');
  if (news.length)
    notes.push(
      `${news.length} dataset × method result(s) not in the baseline (not checked; re-record the baseline to include them)`,
    );
  const failures = entries.filter((e) => e.status === 'fail' || e.status === 'missing');
  return { experiment: baseline.experiment, options: o, entries, failures, notes, passed: failures.length === 0 };
}
