/**
 * Report v0: per dataset × method the mean ± sd of each metric over folds, an average row and average
 * ranks, as Markdown and CSV. Reads only the store; never re-runs a learner.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultRow } from '../store/db.js';
import { averageRanks } from '../stats/ranks.js';

export interface MetricDef {
  readonly key: keyof ResultRow & string;
  readonly title: string;
  readonly higherIsBetter: boolean;
  readonly digits: number;
}

export const REPORT_METRICS: readonly MetricDef[] = [
  { key: 'accuracy', title: 'Accuracy', higherIsBetter: true, digits: 4 },
  { key: 'zero_one_loss', title: '0-1 loss', higherIsBetter: false, digits: 4 },
  { key: 'rmse', title: 'RMSE', higherIsBetter: false, digits: 4 },
  { key: 'log_loss', title: 'Log loss', higherIsBetter: false, digits: 4 },
  { key: 'train_ms', title: 'Training time (ms)', higherIsBetter: false, digits: 1 },
];

export interface Cell {
  readonly mean: number;
  readonly sd: number;
  readonly n: number;
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

export function summarize(rows: readonly ResultRow[], methodOrder: readonly string[], metric: MetricDef): SummaryTable {
  const datasets = [...new Set(rows.map((r) => r.dataset))].sort();
  const present = new Set(rows.map((r) => r.method));
  const methods = methodOrder.filter((m) => present.has(m));
  const groups = new Map<string, number[]>();
  for (const r of rows) {
    const k = `${r.dataset}\u0000${r.method}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(Number(r[metric.key]));
  }
  const cells = datasets.map((d) =>
    methods.map((m) => {
      const v = groups.get(`${d}\u0000${m}`);
      return v ? meanSd(v) : undefined;
    }),
  );
  const complete = cells.filter((row) => row.every((c) => c !== undefined)) as Cell[][];
  const average = methods.map((_, j) => (complete.length ? complete.reduce((s, row) => s + row[j]!.mean, 0) / complete.length : NaN));
  const ranks = complete.length
    ? averageRanks(complete.map((row) => row.map((c) => c.mean)), { higherIsBetter: metric.higherIsBetter }).meanRanks
    : methods.map(() => NaN);
  return { metric, datasets, methods, cells, average, ranks, completeDatasets: complete.length };
}

function meanSd(v: number[]): Cell {
  const n = v.length;
  const mean = v.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd, n };
}

export interface ReportInput {
  readonly experiment: string;
  readonly specFile: string;
  readonly specHash: string;
  readonly settings: Readonly<Record<string, string>>;
  readonly methods: readonly string[];
  readonly rows: readonly ResultRow[];
  readonly expectedJobs: number;
  readonly failed: readonly { dataset: string; method: string; repeat: number; fold: number; error: string }[];
}

export function renderMarkdown(input: ReportInput, tables: readonly SummaryTable[]): string {
  const lines: string[] = [];
  lines.push(`# ${input.experiment}: results`, '');
  lines.push(`Spec \`${input.specFile}\` (sha256 ${input.specHash.slice(0, 12)}).`, '');
  for (const [k, v] of Object.entries(input.settings)) lines.push(`- ${k}: ${v}`);
  const missing = input.expectedJobs - input.rows.length - input.failed.length;
  lines.push(
    `- jobs: ${input.rows.length} done, ${input.failed.length} failed${missing > 0 ? `, ${missing} not run yet` : ''} (of ${input.expectedJobs})`,
    '',
  );
  lines.push('Cells are mean ± standard deviation over folds; the best mean per dataset is in bold. ' +
    'Averages and ranks use the datasets where every method finished every fold it ran.', '');
  for (const t of tables) {
    lines.push(`## ${t.metric.title} (${t.metric.higherIsBetter ? 'higher' : 'lower'} is better)`, '');
    lines.push(`| dataset | ${t.methods.map(escapeMd).join(' | ')} |`);
    lines.push(`|---|${t.methods.map(() => '---:').join('|')}|`);
    t.datasets.forEach((d, i) => {
      const row = t.cells[i]!;
      const best = bestIndex(row.map((c) => c?.mean), t.metric.higherIsBetter);
      const cells = row.map((c, j) => {
        if (!c) return '–';
        const txt = `${c.mean.toFixed(t.metric.digits)} ± ${c.sd.toFixed(t.metric.digits)}`;
        return best.includes(j) ? `**${txt}**` : txt;
      });
      lines.push(`| ${escapeMd(d)} | ${cells.join(' | ')} |`);
    });
    lines.push(`| *average (${t.completeDatasets})* | ${t.average.map((a) => fmt(a, t.metric.digits)).join(' | ')} |`);
    lines.push(`| *average rank* | ${t.ranks.map((r) => fmt(r, 2)).join(' | ')} |`, '');
  }
  if (input.failed.length) {
    lines.push('## Failed jobs', '', '| dataset | method | repeat | fold | error |', '|---|---|---:|---:|---|');
    for (const f of input.failed) {
      lines.push(`| ${escapeMd(f.dataset)} | ${escapeMd(f.method)} | ${f.repeat} | ${f.fold} | ${escapeMd(f.error)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

export function renderCsv(tables: readonly SummaryTable[]): string {
  const out = ['metric,dataset,method,mean,sd,folds'];
  for (const t of tables) {
    t.datasets.forEach((d, i) =>
      t.methods.forEach((m, j) => {
        const c = t.cells[i]![j];
        if (c) out.push([t.metric.key, csvField(d), csvField(m), c.mean, c.sd, c.n].join(','));
      }),
    );
    t.methods.forEach((m, j) => out.push([t.metric.key, '(average)', csvField(m), t.average[j], '', ''].join(',')));
    t.methods.forEach((m, j) => out.push([t.metric.key, '(average rank)', csvField(m), t.ranks[j], '', ''].join(',')));
  }
  return out.join('\n') + '\n';
}

export function writeReport(dir: string, input: ReportInput): { markdown: string; csv: string } {
  const tables = REPORT_METRICS.map((m) => summarize(input.rows, input.methods, m));
  mkdirSync(dir, { recursive: true });
  const markdown = join(dir, 'report.md');
  const csv = join(dir, 'report.csv');
  writeFileSync(markdown, renderMarkdown(input, tables));
  writeFileSync(csv, renderCsv(tables));
  return { markdown, csv };
}

function bestIndex(values: (number | undefined)[], higher: boolean): number[] {
  const defined = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (defined.length < 2) return [];
  const best = higher ? Math.max(...defined) : Math.min(...defined);
  return values.flatMap((v, i) => (v !== undefined && Math.abs(v - best) <= 1e-12 * Math.max(1, Math.abs(best)) ? [i] : []));
}

function fmt(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

function escapeMd(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function csvField(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
