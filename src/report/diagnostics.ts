/**
 * Structure diagnostics per dataset × method: the numbers structure learners store per job in
 * jobs.structure_info (e.g. the class's parents, SubbKB Table 5; the mean pairwise structural Hamming
 * distance inside an ensemble, Table 7; APSES, Table 8), averaged over folds, with an average row.
 */
import type { ResultRow } from '../store/db.js';
import type { StructureInfo } from './claims.js';
import { cell, type Table, type TableRow } from './table.js';

/** Known keys: a readable title and the paper table they reproduce. */
const TITLES: Readonly<Record<string, string>> = {
  classParents: "number of the class's parents (mean over an ensemble's members; SubbKB Table 5)",
  classParentsWeighted: "number of the class's parents, weighted by the members' weights",
  meanShd: 'mean pairwise structural Hamming distance between the ensemble members (SubbKB Table 7)',
  apses:
    'APSES, the average posterior standard error of the class posteriors over the test rows (SubbKB Table 8, eq. 3)',
};

export function diagnosticTitle(key: string): string {
  return TITLES[key] ?? key;
}

/**
 * The table of one diagnostic key, or null when no job stores it. Columns are the methods (in `methods`
 * order) that store the key on at least one job; each cell is the mean over that dataset's folds. The
 * average row is over the datasets where every shown method has a value.
 */
export function diagnosticTable(
  id: string,
  key: string,
  rows: readonly ResultRow[],
  info: StructureInfo,
  methods: readonly string[],
): Table | null {
  const sums = new Map<string, Map<string, { sum: number; n: number }>>();
  const datasets: string[] = [];
  const shown = new Set<string>();
  for (const r of rows) {
    const v = info.get(r.job_key)?.[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    let byMethod = sums.get(r.dataset);
    if (!byMethod) {
      byMethod = new Map();
      sums.set(r.dataset, byMethod);
      datasets.push(r.dataset);
    }
    const acc = byMethod.get(r.method) ?? { sum: 0, n: 0 };
    acc.sum += v;
    acc.n++;
    byMethod.set(r.method, acc);
    shown.add(r.method);
  }
  if (shown.size === 0) return null;
  const cols = methods.filter((m) => shown.has(m));
  datasets.sort();
  const mean = (d: string, m: string): number | undefined => {
    const a = sums.get(d)?.get(m);
    return a ? a.sum / a.n : undefined;
  };
  // One precision per table: 4 decimals for values below 1 (APSES), 2 for counts and distances.
  let largest = 0;
  for (const d of datasets) for (const m of cols) largest = Math.max(largest, Math.abs(mean(d, m) ?? 0));
  const digits = largest >= 1 ? 2 : 4;
  const fmt = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(digits));
  const body: TableRow[] = datasets.map((d) => ({
    cells: [cell(d), ...cols.map((m) => cell(fmt(mean(d, m)), { value: mean(d, m) ?? null }))],
  }));
  const complete = datasets.filter((d) => cols.every((m) => mean(d, m) !== undefined));
  const avg = cols.map((m) =>
    complete.length ? complete.reduce((a, d) => a + mean(d, m)!, 0) / complete.length : undefined,
  );
  body.push({
    ruleAbove: true,
    cells: [
      cell(`average (${complete.length})`, { italic: true }),
      ...avg.map((v) => cell(fmt(v), { value: v ?? null })),
    ],
  });
  return {
    id,
    caption: `${key}: ${diagnosticTitle(key)}; mean over folds per dataset, average over the ${complete.length} datasets where every method shown has a value.`,
    columns: [{ header: 'dataset', align: 'l' }, ...cols.map((m) => ({ header: m, align: 'r' as const }))],
    rows: body,
  };
}
