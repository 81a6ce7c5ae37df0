/**
 * What `bnclab ui` shows, computed on the server from the results database(s), read-only: the experiments
 * with their counts, the results of a selection (metric, datasets, methods, control) with the statistics
 * of the report (compareResults, the function `bnclab report` calls), one cell's folds, and the exports
 * (the report's own tables and figures for the selection, built by buildReport).
 *
 * A database is opened read-only for each refresh and closed at once, so a run can start writing to it at
 * any time; one that a running task holds is read from a snapshot copy (as `status` does). What was read is
 * cached until the file (or its write-ahead log) changes.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildReport, referenceTable, type ReportDoc } from '../report/build.js';
import { loadStructureInfo } from '../report/claims.js';
import { evaluateReference, provisionalCount } from '../report/reference.js';
import { stabilityAcrossSeeds, stabilitySummary } from '../report/seed-stability.js';
import { completeRows, unfinishedCells } from '../report/summary.js';
import type { Table } from '../report/table.js';
import { staleJobs } from '../spec/revision.js';
import { fmean } from '../stats/fsum.js';
import { roundDecimals } from '../stats/validate.js';
import { winDrawLoss } from '../stats/signtest.js';
import { wilcoxonSignedRank } from '../stats/wilcoxon.js';
import { cliques, compareResults, type MetricComparison } from '../report/compare.js';
import { cdFigure, foldBoxplotFigure, someBoxOfSeveralFolds } from '../report/figures.js';
import { figurePdf, planJobRefs, plannedFolds } from '../report/index.js';
import { modalStructures, structureFigure } from '../report/structures.js';
import { metricDef } from '../report/compare.js';
import { REPORT_METRICS } from '../report/summary.js';
import { tableToCsv, tableToLatex } from '../report/table.js';
import { renderHtml } from '../report/render.js';
import type { ExperimentSpec, MethodSpec } from '../spec/load.js';
import { parseSpec } from '../spec/load.js';
import { buildPlanSummary } from '../spec/plan.js';
import { COMPARE_METRICS, type CompareMetric, type CompareSpec, DEFAULT_COMPARE } from '../spec/report-sections.js';
import { type JobRef, ResultStore, type ResultRow } from '../store/db.js';
import { mergeShards } from '../store/merge.js';
import {
  type CellJob,
  cellJobs,
  type CodeStateCount,
  datasetFacts,
  type ExperimentCounts,
  experimentCodeStates,
  experimentCounts,
  type GridCount,
  gridCounts,
  methodOrder,
  methodMetricRows,
  metricRows,
  specText,
} from '../store/ui.js';
import { UserError } from '../util/errors.js';
import { type SnapshotCopy, snapshotCopy } from '../store/snapshot.js';
import { cellKey, splitCellKey } from '../util/keys.js';

export interface Selection {
  readonly experiment: string;
  readonly metric: CompareMetric;
  /** Dataset names; empty = every dataset. */
  readonly datasets: readonly string[];
  /** Method labels; empty = every method. */
  readonly methods: readonly string[];
  /** A method label or 'best'. */
  readonly control: string;
}

interface ExperimentInfo {
  readonly counts: ExperimentCounts;
  /** Seconds until the pending jobs are done at the rate since the first job finished; null when unknown. */
  readonly etaSeconds: number | null;
  /**
   * Jobs not done whose result of an older revision of their method is stored (as `status` counts them, by
   * staleJobs); null when the experiment's plan is unknown here (the ui was not given its spec).
   */
  readonly stale: number | null;
}

/** One reference file of the spec beside our results: the report's table of it and its verdicts counted. */
interface ClaimsFile {
  readonly path: string;
  readonly title: string;
  readonly kind: 'claims' | 'wdl' | 'cells';
  readonly verdicts: Readonly<Record<string, number>>;
  /** How many verdicts read a dataset × method the run has not finished (the report's "provisional"). */
  readonly provisional: number;
  /** Several seeds: the report's line of how many claims were reproduced in every seed, some, none; else null. */
  readonly stability: string | null;
  readonly table: Table;
}

/** One side of a comparison: an experiment, optionally only the jobs one code state computed. */
export interface CompareSide {
  readonly experiment: string;
  readonly code: string | null;
}

interface CompareResult {
  readonly metric: { key: string; title: string; higherIsBetter: boolean; digits: number };
  /** Side a's method and side b's. */
  readonly method: string;
  readonly method2: string;
  readonly a: CompareSide;
  readonly b: CompareSide;
  /** The database of each side (the same file for two experiments of one database). */
  readonly databaseA: string;
  readonly databaseB: string;
  /** Per dataset of either side: the mean over folds of each (null when that side has none), b − a. */
  readonly rows: readonly { dataset: string; a: number | null; b: number | null; diff: number | null }[];
  /** Datasets both sides have, with the mean difference and the Wilcoxon signed-rank test over them. */
  readonly paired: number;
  readonly meanDiff: number | null;
  readonly bBetter: number;
  readonly aBetter: number;
  readonly ties: number;
  readonly wilcoxon: { statistic: number; p: number; method: string } | null;
  readonly testError: string | null;
  readonly methodsA: readonly string[];
  readonly methodsB: readonly string[];
  readonly codeStatesA: readonly CodeStateCount[];
  readonly codeStatesB: readonly CodeStateCount[];
}

interface SourceState {
  readonly file: string;
  /** 'ok', 'snapshot' (a running task holds it: read from a copy), 'missing' (no database yet). */
  readonly how: 'ok' | 'snapshot' | 'missing';
  /** A folder of shards: how many databases it holds (shown merged, as `bnclab merge` would merge them). */
  readonly shards?: number;
}

interface ExperimentData {
  readonly name: string;
  /** Every column of every finished job: read up front for a spec (resultsOf, as its report), else on export. */
  rows: readonly ResultRow[] | null;
  /** A multi-seed spec: each seed's rows (every column), read for the claims. */
  seedRows?: readonly { seed: string; rows: readonly ResultRow[] }[];
  /** Per metric, the finished jobs with that metric's column only (a database's experiment). */
  readonly byMetric: Map<string, readonly ResultRow[]>;
  readonly planned: ReadonlyMap<string, number>;
  readonly methods: readonly MethodSpec[];
  readonly labels: readonly string[];
  readonly datasets: readonly string[];
  readonly facts: ReadonlyMap<string, { rows: number; attributes: number; classes: number }>;
  readonly compare: CompareSpec;
  readonly grid: readonly GridCount[];
  readonly spec: ExperimentSpec | null;
}

/** A method known only by its label (a database without a readable spec): enough for the report's tables. */
function labelOnly(label: string): MethodSpec {
  return { kind: 'bnc', structure: { id: label, params: {}, given: {} }, estimator: null, label };
}

/** Seconds left at the average rate so far; null when nothing finished or nothing is left. */
export function eta(c: ExperimentCounts, now: number): number | null {
  const finished = c.done + c.failed;
  if (c.pending <= 0 || finished < 2 || c.firstFinished === null || c.lastFinished === null) return null;
  const span = Math.max(c.lastFinished, Math.min(now, c.lastFinished + 3600)) - c.firstFinished;
  if (!(span > 0)) return null;
  return (c.pending * span) / (finished - 1);
}

export class UiData {
  private signature = '';
  private how: SourceState['how'] = 'missing';
  private counts: ExperimentCounts[] = [];
  private stale: number | null = null;
  private plan: ReturnType<typeof buildPlanSummary> | null = null;
  private readonly experiments = new Map<string, ExperimentData>();
  private loading: Promise<void> | null = null;
  /** For a folder of shards: the databases in it, and the temporary database they are merged into. */
  private readonly shards: string[] | null = null;
  private merged: { dir: string; file: string } | null = null;

  /**
   * @param file the results database
   * @param spec a spec whose plan names the jobs (as `report <spec>` does); null: the database's experiments
   *   as registered, named as their runs named them
   */
  constructor(
    readonly file: string,
    private readonly spec: ExperimentSpec | null = null,
  ) {
    this.file = resolve(file);
    if (existsSync(this.file) && statSync(this.file).isDirectory()) this.shards = shardFiles(this.file);
  }

  /** Remove the merged copy of a shard folder (the server calls it when it stops). */
  dispose(): void {
    if (this.merged) rmSync(this.merged.dir, { recursive: true, force: true });
    this.merged = null;
  }

  /**
   * A folder of shards as one database: each shard's snapshot copy (store/snapshot.ts: one being written is
   * read as what it has committed, and never locked) and merged by mergeShards, the code of `bnclab merge`, into a fresh
   * temporary database; done again whenever a shard changes.
   */
  private async mergeFolder(): Promise<void> {
    const shards = shardFiles(this.file);
    (this.shards as string[]).splice(0, Infinity, ...shards);
    const dir = mkdtempSync(join(tmpdir(), 'bnclab-ui-shards-'));
    const copies: SnapshotCopy[] = [];
    try {
      for (const f of shards) copies.push(snapshotCopy(f));
      const file = join(dir, 'merged.duckdb');
      await mergeShards(
        file,
        copies.map((c) => c.path),
      );
      this.dispose();
      this.merged = { dir, file };
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    } finally {
      for (const c of copies) c.dispose();
    }
  }

  /** The file's signature: changes when a writer commits (the database or its write-ahead log changes). */
  private currentSignature(): string {
    const part = (f: string): string => {
      try {
        const s = statSync(f);
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return '-';
      }
    };
    if (this.shards)
      return shardFiles(this.file)
        .map((f) => `${f}:${part(f)}|${part(`${f}.wal`)}`)
        .join(';');
    return `${part(this.file)}|${part(`${this.file}.wal`)}`;
  }

  /** Open read-only (a snapshot copy when a running task holds the file), run `f`, close. */
  private async withStore<T>(f: (s: ResultStore) => Promise<T>): Promise<T> {
    if (this.shards) {
      if (!this.merged) throw new UserError(`${this.file}: no shard databases (*.duckdb) in this folder yet`);
      const s = await ResultStore.open(this.merged.file, { readOnly: true });
      this.how = 'ok';
      try {
        return await f(s);
      } finally {
        s.close();
      }
    }
    const store = await ResultStore.open(this.file, { readOnly: true });
    this.how = store.snapshotOf ? 'snapshot' : 'ok';
    try {
      return await f(store);
    } finally {
      store.close();
    }
  }

  /** Re-read the counts when the database changed since the last read. */
  async refresh(): Promise<void> {
    while (this.loading) await this.loading;
    const sig = this.currentSignature();
    if (sig === this.signature) return;
    this.loading = (async () => {
      if (this.shards && shardFiles(this.file).length > 0) await this.mergeFolder();
      if (!existsSync(this.file) || (this.shards && !this.merged)) {
        this.how = 'missing';
        this.counts = [];
        this.experiments.clear();
      } else {
        const { counts, states } = await this.withStore(async (s) => ({
          counts: await experimentCounts(s),
          states: this.spec ? await s.finishedJobStates() : null,
        }));
        this.counts = counts;
        if (this.spec && states) {
          this.plan ??= buildPlanSummary(this.spec);
          // The grid makes one job at a time: a large plan is never held as a list here.
          const jobs = this.plan.grid?.range() ?? this.plan.jobs;
          this.stale = staleJobs(jobs, (k) => states.get(k) === 'done').length;
        }
        this.experiments.clear();
      }
      this.signature = sig;
    })();
    try {
      await this.loading;
    } finally {
      this.loading = null;
    }
  }

  source(): SourceState {
    return { file: this.file, how: this.how, ...(this.shards ? { shards: this.shards.length } : {}) };
  }

  async experimentList(now = Date.now() / 1000): Promise<ExperimentInfo[]> {
    await this.refresh();
    return this.counts.map((registered) => {
      // A run on a fresh database registers its jobs while the first ones run; the spec's plan gives the
      // whole count meanwhile, so the total does not grow under the user's eyes.
      const plan = this.spec?.name === registered.name ? this.plan : null;
      const planned = plan ? Math.max(registered.planned, plan.grid?.size ?? plan.jobs.length) : registered.planned;
      const c = { ...registered, planned, pending: planned - registered.done - registered.failed };
      return { counts: c, etaSeconds: eta(c, now), stale: plan ? this.stale : null };
    });
  }

  /** Everything one experiment's pages need, read once per database change. */
  async experiment(name: string): Promise<ExperimentData> {
    await this.refresh();
    const hit = this.experiments.get(name);
    if (hit) return hit;
    if (!this.counts.some((c) => c.name === name)) {
      const names = this.counts.map((c) => c.name);
      throw new UserError(
        `no experiment '${name}' in ${this.file}${names.length ? `; experiments: ${names.join(', ')}` : ''}`,
      );
    }
    const data = await this.withStore(async (s) => {
      const spec = this.spec?.name === name ? this.spec : readSpec(await specText(s, name), name);
      let rows: ResultRow[] | null = null;
      let planned: ReadonlyMap<string, number>;
      let methods: readonly MethodSpec[];
      let datasets: string[];
      let grid: GridCount[] | null = null;
      if (spec && spec === this.spec) {
        // As `report <spec>`: the plan's jobs by key, named as the spec names them.
        this.plan ??= buildPlanSummary(spec);
        const plan = this.plan;
        const jobs: JobRef[] = planJobRefs(plan);
        rows = await s.resultsOf(name, jobs);
        planned = plannedFolds(jobs);
        methods = spec.methods;
        datasets = plan.datasets.map((d) => d.handle.name);
      } else {
        grid = await gridCounts(s, name);
        planned = new Map(grid.map((g) => [cellKey(g.dataset, g.method), g.planned]));
        const order = await methodOrder(s, name);
        const known = new Map((spec?.methods ?? []).map((m) => [m.label, m]));
        // The stored spec's order where it names the methods (as its report lists them), then the others.
        const listed = (spec?.methods ?? []).map((m) => m.label).filter((l) => order.includes(l));
        methods = [...listed, ...order.filter((l) => !known.has(l))].map((l) => known.get(l) ?? labelOnly(l));
        datasets = [...new Set([...planned.keys()].map((k) => splitCellKey(k)[0]))];
      }
      const facts = new Map((await datasetFacts(s, name)).map((f) => [f.dataset, f]));
      grid ??= await gridCounts(s, name);
      return {
        name,
        rows,
        byMetric: new Map<string, readonly ResultRow[]>(),
        planned,
        methods,
        labels: methods.map((m) => m.label),
        datasets,
        facts,
        compare: spec?.compare ?? DEFAULT_COMPARE,
        grid,
        spec,
      };
    });
    this.experiments.set(name, data);
    return data;
  }

  /**
   * Each seed's finished jobs (every column) of an experiment whose spec runs several seeds, by the plan's job
   * keys per seed as `report` reads them; null for one seed, or when the stored spec's plan cannot be built here.
   */
  private async seedRowsOf(e: ExperimentData): Promise<readonly { seed: string; rows: readonly ResultRow[] }[] | null> {
    if (!e.spec?.seeds || e.spec.seeds.length < 2) return null;
    if (e.seedRows) return e.seedRows;
    let plan: ReturnType<typeof buildPlanSummary>;
    try {
      plan = e.spec === this.spec ? (this.plan ??= buildPlanSummary(e.spec)) : buildPlanSummary(e.spec);
    } catch {
      return null;
    }
    if (!plan.seeds) return null;
    const seeds = plan.seeds;
    e.seedRows = await this.withStore(async (s) => {
      const out: { seed: string; rows: readonly ResultRow[] }[] = [];
      for (const { seed } of seeds) out.push({ seed, rows: await s.resultsOf(e.name, planJobRefs(plan, seed)) });
      return out;
    });
    return e.seedRows;
  }

  /** The finished jobs with (at least) the metric's values, read once per database change. */
  private async rowsOf(e: ExperimentData, metric: string | null): Promise<readonly ResultRow[]> {
    if (e.rows) return e.rows;
    if (metric === null) {
      e.rows = await this.withStore((s) => s.results(e.name));
      return e.rows;
    }
    let r = e.byMetric.get(metric);
    if (!r) {
      // Every compared metric in one read (one query, one pass over the rows), so a change of metric is
      // answered from memory like a change of datasets or methods.
      const all = COMPARE_METRICS.includes(metric as CompareMetric) ? COMPARE_METRICS : [metric];
      const rows = await this.withStore((s) => metricRows(s, e.name, all));
      for (const m of all) e.byMetric.set(m, rows);
      r = rows;
    }
    return r;
  }

  /** Datasets, methods and metrics to choose from. */
  async meta(name: string): Promise<{
    datasets: { name: string; rows: number; attributes: number; classes: number }[];
    methods: string[];
    metrics: { key: string; title: string; higherIsBetter: boolean }[];
    control: string;
    alpha: number;
  }> {
    const e = await this.experiment(name);
    const withData = new Set<string>(COMPARE_METRICS);
    return {
      datasets: e.datasets.map((d) => ({ name: d, rows: 0, attributes: 0, classes: 0, ...e.facts.get(d) })),
      methods: [...e.labels],
      metrics: REPORT_METRICS.filter((m) => withData.has(m.key) || m.key === 'accuracy').map((m) => ({
        key: m.key,
        title: m.title,
        higherIsBetter: m.higherIsBetter,
      })),
      control: e.compare.control,
      alpha: e.compare.alpha,
    };
  }

  async grid(name: string): Promise<readonly GridCount[]> {
    return (await this.experiment(name)).grid;
  }

  /** The selection resolved against the experiment (unknown names are one clear error). */
  private async resolve(
    sel: Selection,
    allColumns = false,
  ): Promise<{
    e: ExperimentData;
    datasets: string[];
    labels: string[];
    rows: ResultRow[];
    compare: CompareSpec;
    planned: Map<string, number>;
  }> {
    const e = await this.experiment(sel.experiment);
    const pick = (chosen: readonly string[], all: readonly string[], what: string): string[] => {
      if (chosen.length === 0) return [...all];
      const bad = chosen.find((c) => !all.includes(c));
      if (bad !== undefined) throw new UserError(`no ${what} '${bad}' in experiment '${e.name}'`);
      return all.filter((a) => chosen.includes(a));
    };
    const datasets = pick(sel.datasets, e.datasets, 'dataset');
    const labels = pick(sel.methods, e.labels, 'method');
    if (!COMPARE_METRICS.includes(sel.metric)) throw new UserError(`no metric '${sel.metric}'`);
    const ds = new Set(datasets);
    const ms = new Set(labels);
    const rows = (await this.rowsOf(e, allColumns ? null : sel.metric)).filter(
      (r) => ds.has(r.dataset) && ms.has(r.method),
    );
    const planned = new Map(
      [...e.planned].filter(([k]) => {
        const [d, m] = splitCellKey(k);
        return ds.has(d) && ms.has(m);
      }),
    );
    const control = sel.control === 'best' || labels.includes(sel.control) ? sel.control : 'best';
    const compare: CompareSpec = { ...e.compare, metrics: [sel.metric], control };
    return { e, datasets, labels, rows, compare, planned };
  }

  /** The results table and the statistics of exactly the selection, by the report's compareResults. */
  async results(sel: Selection): Promise<{
    datasets: string[];
    methods: string[];
    control: string | null;
    controlReason: string;
    alpha: number;
    adjust: string;
    comparison: MetricComparison;
  }> {
    const { rows, labels, compare, planned, datasets } = await this.resolve(sel);
    const c = compareResults(rows, labels, compare, planned);
    const m = c.metrics[0];
    // The table in the spec's dataset order (as the report's tables), every selected dataset listed.
    const order = new Map(datasets.map((d, i) => [d, i]));
    const idx = [...m.table.datasets.keys()].sort(
      (a, b) => (order.get(m.table.datasets[a]) ?? 1e9) - (order.get(m.table.datasets[b]) ?? 1e9),
    );
    const table = {
      ...m.table,
      datasets: idx.map((i) => m.table.datasets[i]),
      cells: idx.map((i) => m.table.cells[i]),
    };
    return {
      datasets,
      methods: labels,
      control: c.control,
      controlReason: c.controlReason,
      alpha: compare.alpha,
      adjust: compare.adjust,
      comparison: { ...m, table },
    };
  }

  /** The report of exactly the selection (buildReport, as `bnclab report` builds it), for the exports. */
  async selectionReport(sel: Selection): Promise<ReportDoc> {
    const { e, rows, labels, compare, planned, datasets } = await this.resolve(sel, true);
    const ms = new Set(labels);
    return buildReport({
      experiment: e.name,
      specFile: e.spec?.file ?? '',
      specHash: '',
      settings: { database: this.file, selection: `${datasets.length} datasets, ${labels.length} methods` },
      methods: e.methods.filter((m) => ms.has(m.label)),
      datasets,
      planned,
      rows,
      expectedJobs: [...planned.values()].reduce((a, b) => a + b, 0),
      failed: [],
      compare: { ...compare, scatter: false, sweeps: [], learningCurve: null, diagnostics: [] },
      reference: [],
    });
  }

  /**
   * An export of the selection: the metric's table as CSV or LaTeX, the CD diagram (`cd.svg`, `cd.pdf`) and
   * the box plot of the metric over folds (`folds.svg`, `folds.pdf`, the report's `folds-<metric>` figure)
   * as SVG or as the PDF `report --pdf` writes (figurePdf: Arimo embedded), the report as HTML.
   */
  async exportFile(sel: Selection, what: string): Promise<{ name: string; type: string; body: string | Buffer }> {
    const doc = await this.selectionReport(sel);
    const table = doc.tables.find((t) => t.id === sel.metric);
    const stem = `${sel.experiment}-${sel.metric}`;
    if (what === 'csv' || what === 'tex') {
      if (!table) throw new UserError(`no results for ${sel.metric} in this selection`);
      return what === 'csv'
        ? { name: `${stem}.csv`, type: 'text/csv; charset=utf-8', body: tableToCsv(table) }
        : { name: `${stem}.tex`, type: 'application/x-tex; charset=utf-8', body: tableToLatex(table, doc.experiment) };
    }
    const fig = /^(cd|folds)\.(svg|pdf)$/.exec(what);
    if (fig) {
      const [, kind, format] = fig as unknown as [string, 'cd' | 'folds', 'svg' | 'pdf'];
      const f = doc.figures.find((x) => x.id === `${kind}-${sel.metric}`);
      if (!f)
        throw new UserError(
          kind === 'cd'
            ? 'no critical-difference diagram for this selection (too few complete datasets or methods)'
            : 'no per-fold box plot for this selection (no finished folds)',
        );
      const name = `${stem}-${kind}.${format}`;
      return format === 'svg'
        ? { name, type: 'image/svg+xml', body: f.svg }
        : { name, type: 'application/pdf', body: await figurePdf(f.svg, f.title) };
    }
    if (what === 'html')
      return { name: `${stem}-report.html`, type: 'text/html; charset=utf-8', body: renderHtml(doc) };
    throw new UserError(`unknown export '${what}'; use csv, tex, cd.svg, cd.pdf, folds.svg, folds.pdf or html`);
  }

  /** The critical-difference diagram of the selection, drawn by the report's cdFigure. */
  async cdSvg(sel: Selection): Promise<string | null> {
    const r = await this.results(sel);
    const m = r.comparison;
    if (!m.cd) return null;
    const s = (await this.resolve(sel)).compare;
    const groups = m.cd.procedure === 'nemenyi' ? cliques(m.meanRanks, m.cd.cd) : [];
    const procedure = m.cd.procedure === 'nemenyi' ? `Nemenyi, α = ${s.alpha}` : `Bonferroni–Dunn, α = ${s.alpha}`;
    return (await cdFigure(`cd-${sel.metric}`, m.metric.title, m.methods, m.meanRanks, m.cd.cd, groups, procedure)).svg;
  }

  /** One dataset × method: its jobs (folds), the box plot of the metric over folds, the learned structure. */
  async cell(
    name: string,
    dataset: string,
    method: string,
    metric: CompareMetric,
  ): Promise<{ jobs: CellJob[]; boxplot: string | null; structure: string | null; classLabels: string[] | null }> {
    const e = await this.experiment(name);
    if (!e.datasets.includes(dataset)) throw new UserError(`no dataset '${dataset}' in experiment '${name}'`);
    if (!e.labels.includes(method)) throw new UserError(`no method '${method}' in experiment '${name}'`);
    const { jobs, arcs } = await this.withStore(async (s) => {
      const jobs = await cellJobs(s, name, dataset, method);
      return { jobs, arcs: await s.learnedArcsOf(jobs.map((j) => j.jobKey)) };
    });
    const rows = jobs
      .filter((j) => j.status === 'done')
      .map(
        (j) =>
          ({
            job_key: j.jobKey,
            dataset,
            method,
            repeat: j.repeat,
            fold: j.fold,
            ...j.metrics,
          }) as unknown as ResultRow,
      );
    const title = REPORT_METRICS.find((m) => m.key === metric)?.title ?? metric;
    const values = rows
      .filter((r) => r[metric] !== null && Number.isFinite(Number(r[metric])))
      .map((r) => ({ dataset, method, value: Number(r[metric]) }));
    const boxplot = someBoxOfSeveralFolds(values)
      ? (await foldBoxplotFigure(`folds-${metric}`, title, [method], values)).svg
      : null;
    let structure: string | null = null;
    const modal = arcs.size ? modalStructures(rows, arcs)[0] : undefined;
    const labels = jobs.find((j) => j.classLabels)?.classLabels ?? null;
    if (modal) structure = structureFigure('cell-structure', modal, []).svg;
    return { jobs, boxplot, structure, classLabels: labels ? [...labels] : null };
  }

  /**
   * Page 4, Claims: each `reference:` file of the experiment's spec evaluated on its results by the report's
   * own code (evaluateReference on the rows the report's statistics read, the structure diagnostics of its
   * jobs) and tabulated by the report's referenceTable, so the page shows the report's claims tables.
   */
  async claims(name: string): Promise<{ files: ClaimsFile[]; note: string }> {
    const e = await this.experiment(name);
    const spec = e.spec;
    if (!spec || spec.reference.length === 0)
      return {
        files: [],
        note: spec
          ? `the spec of '${name}' has no reference: section`
          : `no spec for '${name}' here: give its spec (bnclab ui <spec>) to see its claims`,
      };
    // A multi-seed experiment (`seeds:`, or `--seeds N` given to ui as to report): each seed's rows, the first
    // seed's being those the tables show, as `report` reads them (planJobRefs per seed).
    const seedRows = await this.seedRowsOf(e);
    const rows = seedRows?.[0]?.rows ?? (await this.rowsOf(e, null));
    const statRows = completeRows(rows, e.planned);
    const unfinished = unfinishedCells(rows, e.planned);
    const info = await this.withStore((s) =>
      loadStructureInfo(
        s,
        (seedRows ?? [{ rows }]).flatMap((x) => x.rows.map((r) => r.job_key)),
      ),
    );
    const ids = new Set<string>();
    const files = spec.reference.map((ref): ClaimsFile => {
      const r = evaluateReference(ref, statRows, e.labels, e.compare, info, unfinished);
      let id = `reference-${ref.path.replace(/^.*[\\/]/, '').replace(/\.csv$/i, '')}`;
      for (let i = 2; ids.has(id); i++) id = `${id}-${i}`;
      ids.add(id);
      const verdicts: Record<string, number> = {};
      for (const c of r.claims as readonly { verdict: string }[]) verdicts[c.verdict] = (verdicts[c.verdict] ?? 0) + 1;
      // The report's "across seeds" column: the claims file evaluated on each seed's rows alone.
      const stability =
        r.kind !== 'cells'
          ? stabilityAcrossSeeds(seedRows, e.planned, (rs) => evaluateReference(ref, rs, e.labels, e.compare, info))
          : undefined;
      return {
        path: ref.path,
        title: ref.title ?? ref.path,
        kind: r.kind,
        verdicts,
        provisional: provisionalCount(r),
        stability: stability?.length ? stabilitySummary(stability) : null,
        table: referenceTable(id, r, e.compare.alpha, stability),
      };
    });
    return { files, note: '' };
  }

  /**
   * Page 5, Compare: one method's per-dataset means (over folds, rounded as the report rounds) on two sides
   * (two experiments, or one experiment's jobs by two code states), their differences b − a, and the
   * Wilcoxon signed-rank test over the datasets both sides have, with the first side's compare: settings
   * (the function and options the report's pairwise tests use).
   */
  async compare(
    a: CompareSide,
    b: CompareSide,
    metric: CompareMetric,
    method: string,
    method2 = '',
  ): Promise<CompareResult> {
    return compareAcross(this, a, this, b, metric, method, method2);
  }

  /**
   * One side of a comparison: the code states that computed the experiment's finished jobs, and one method's
   * finished jobs with one metric (only those of side.code when given).
   */
  async sideRows(
    x: CompareSide,
    label: string,
    metric: CompareMetric,
  ): Promise<{
    states: CodeStateCount[];
    rows: { dataset: string; repeat: number; fold: number; value: number | null }[];
  }> {
    return this.withStore(async (st) => {
      const states = await experimentCodeStates(st, x.experiment);
      if (x.code !== null && !states.some((c) => c.id === x.code))
        throw new UserError(`no code state '${x.code}' among the jobs of experiment '${x.experiment}'`);
      return { states, rows: await methodMetricRows(st, x.experiment, label, metric, x.code) };
    });
  }
}

/**
 * Compare one method of experiment a in database `da` with one of experiment b in database `db` (the same
 * UiData for two experiments of one database): per-dataset means, b − a, W/D/L and the Wilcoxon test, as
 * UiData.compare describes. Each database is opened read-only, each side read from its own.
 */
export async function compareAcross(
  da: UiData,
  a: CompareSide,
  db: UiData,
  b: CompareSide,
  metric: CompareMetric,
  method: string,
  method2 = '',
): Promise<CompareResult> {
  if (!COMPARE_METRICS.includes(metric)) throw new UserError(`no metric '${metric}'`);
  const ea = await da.experiment(a.experiment);
  const eb = await db.experiment(b.experiment);
  const m = method || ea.labels.find((l) => eb.labels.includes(l)) || ea.labels[0] || '';
  const where = (d: UiData, e: string): string => (da === db ? `experiment '${e}'` : `experiment '${e}' of ${d.file}`);
  if (!ea.labels.includes(m)) throw new UserError(`no method '${m}' in ${where(da, a.experiment)}`);
  // Side b's method: as named, else the same label, else the one at the same place in b's spec (a spec
  // that changed a parameter labels its methods `nb/dirichlet(alpha=5)`).
  const m2 = method2 || (eb.labels.includes(m) ? m : (eb.labels[ea.labels.indexOf(m)] ?? eb.labels[0] ?? ''));
  if (!eb.labels.includes(m2)) throw new UserError(`no method '${m2}' in ${where(db, b.experiment)}`);
  const s = ea.compare;
  const digits = s.digits ?? undefined;
  const sa = await da.sideRows(a, m, metric);
  const sb = await db.sideRows(b, m2, metric);
  const means = (rows: { dataset: string; value: number | null }[]): Map<string, number> => {
    const by = new Map<string, number[]>();
    for (const r of rows) {
      if (r.value === null || !Number.isFinite(r.value)) continue;
      let l = by.get(r.dataset);
      if (!l) by.set(r.dataset, (l = []));
      l.push(r.value);
    }
    return new Map([...by].map(([d, v]) => [d, roundDecimals(fmean(v), digits)]));
  };
  const ma = means(sa.rows);
  const mb = means(sb.rows);
  const order = [...ea.datasets, ...eb.datasets.filter((d) => !ea.datasets.includes(d))];
  const datasets = order.filter((d) => ma.has(d) || mb.has(d));
  const def = metricDef(metric);
  const rows = datasets.map((d) => {
    const x = ma.get(d) ?? null;
    const y = mb.get(d) ?? null;
    return { dataset: d, a: x, b: y, diff: x !== null && y !== null ? y - x : null };
  });
  const both = rows.filter((r) => r.diff !== null);
  const xa = both.map((r) => r.a!);
  const xb = both.map((r) => r.b!);
  let wilcoxon: CompareResult['wilcoxon'] = null;
  let testError: string | null = null;
  try {
    if (both.length === 0) throw new UserError('no dataset on which both sides have results');
    const w = wilcoxonSignedRank(xb, xa, {
      zeroMethod: s.wilcoxon.zeroMethod,
      correct: s.wilcoxon.correct,
      exact: s.wilcoxon.exact === 'auto' ? undefined : s.wilcoxon.exact,
      tieCorrection: s.wilcoxon.tieCorrection,
    });
    wilcoxon = { statistic: w.statistic, p: w.p, method: w.method };
  } catch (err) {
    testError = (err as Error).message.split('\n')[0];
  }
  // Wins and losses of b against a as the report's W/D/L counts them (compare.sign.tolerance is a draw).
  const wdl = both.length
    ? winDrawLoss(xb, xa, { lowerIsBetter: !def.higherIsBetter, tolerance: s.sign.tolerance })
    : { wins: 0, draws: 0, losses: 0 };
  return {
    metric: { key: def.key, title: def.title, higherIsBetter: def.higherIsBetter, digits: def.digits },
    method: m,
    method2: m2,
    a,
    b,
    databaseA: da.file,
    databaseB: db.file,
    rows,
    paired: both.length,
    meanDiff: both.length ? fmean(both.map((r) => r.diff!)) : null,
    bBetter: wdl.wins,
    aBetter: wdl.losses,
    ties: wdl.draws,
    wilcoxon,
    testError,
    methodsA: ea.labels,
    methodsB: eb.labels,
    codeStatesA: sa.states,
    codeStatesB: sb.states,
  };
}

/** The shard databases of a folder (its *.duckdb files), in name order. */
function shardFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.duckdb'))
    .sort()
    .map((f) => join(dir, f));
}

/** The spec stored with an experiment, parsed; null when there is none or it no longer loads here. */
function readSpec(text: string, name: string): ExperimentSpec | null {
  if (!text) return null;
  try {
    const s = parseSpec(text, join(process.cwd(), `${name}.yaml`));
    return s.name === name ? s : null;
  } catch {
    return null;
  }
}
